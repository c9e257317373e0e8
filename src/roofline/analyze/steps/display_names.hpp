#pragma once
// Pass display_names (docs/method.md §16.6): the name people know each head entry by.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "roofline/analyze/layer.hpp"

namespace roofline::analyze {

struct HeadEntry;

inline constexpr std::size_t k_max_display = 48;

// Shared by the pass's two sources (display_names.cpp, display_names_tag.cpp).
namespace display_names_impl {
inline constexpr std::size_t k_max_tag = 36, k_max_role = 24;
bool contains(std::string_view s, std::string_view part);
bool starts_with(std::string_view s, std::string_view prefix);
std::size_t code_points(std::string_view s);
// `s` cut to at most `max` characters at an '_', head and tail kept around an ellipsis.
std::string shorten(std::string s, std::size_t max);
// A role in at most `max` characters ("o_proj / down_proj +4": the projections that fit).
std::string fit_role(const std::string& role, std::size_t max = k_max_role);
}  // namespace display_names_impl

// Each entry's display_name: what the kernel does first — the projection the linear plan assigned
// it, else the role its module names (QKVParallelLinear -> qkv_proj, an attention's
// RowParallelLinear -> o_proj, RMSNorm -> rms_norm, …), else its launching op without namespace
// (aten::mul -> mul) — then a short kernel tag (a Tensile GEMM's macro tile, a mangled name's
// qualified prefix, a demangled name's identifier), unique within the head (" #rank" otherwise).
// A display name is at most k_max_display characters, so that no surface cuts it (docs/method.md
// §16.6): the terminal, the report and the chart print it whole.
void display_names(std::vector<HeadEntry>& entries);
// The kernel tag alone, from the kernel's short name, demangled name and raw name: at most 36
// characters, or `max_chars` (cut the one way every surface shows it).
std::string kernel_tag(const std::string& short_name, const std::string& demangled,
                       const std::string& name);
std::string kernel_tag(const std::string& short_name, const std::string& demangled,
                       const std::string& name, std::size_t max_chars);
// What a kernel does, from its module path and op ("" when neither says).
std::string kernel_role(const std::string& module, const std::string& op);
// Whether a display name's role is only its class's word ("gemm", "moe", "attention", an
// elementwise or state-space kind): what a kernel is called when nothing but its class speaks.
bool is_class_role(std::string_view role);

}  // namespace roofline::analyze
