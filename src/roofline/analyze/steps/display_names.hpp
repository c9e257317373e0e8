#pragma once
// Pass display_names (docs/method.md §16.6): the name people know each head entry by.
#include <string>
#include <string_view>
#include <vector>

#include "roofline/analyze/layer.hpp"

namespace roofline::analyze {

struct HeadEntry;

// Each entry's display_name: what the kernel does first — the projection the linear plan assigned
// it, else the role its module names (QKVParallelLinear -> qkv_proj, an attention's
// RowParallelLinear -> o_proj, RMSNorm -> rms_norm, …), else its launching op without namespace
// (aten::mul -> mul) — then a short kernel tag (a Tensile GEMM's macro tile, a mangled name's
// qualified prefix, a demangled name's identifier), unique within the head (" #rank" otherwise).
void display_names(std::vector<HeadEntry>& entries);
// The kernel tag alone, from the kernel's short name, demangled name and raw name.
std::string kernel_tag(const std::string& short_name, const std::string& demangled,
                       const std::string& name);
// What a kernel does, from its module path and op ("" when neither says).
std::string kernel_role(const std::string& module, const std::string& op);
// Whether a display name's role is only its class's word ("gemm", "moe", "attention", an
// elementwise or state-space kind): what a kernel is called when nothing but its class speaks.
bool is_class_role(std::string_view role);

}  // namespace roofline::analyze
