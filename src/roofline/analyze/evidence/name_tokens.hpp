#pragma once
// What a kernel name's tokens say (docs/method.md §22.5): its alphanumeric tokens, and whether an
// activation runs in the same launch.
#include <string>
#include <vector>

#include "roofline/analyze/layer.hpp"

namespace roofline::analyze {

// The name's alphanumeric tokens, lower-cased ("_matmul_ogs_NNT_…_swiglu" → matmul, ogs, nnt, …).
std::vector<std::string> name_tokens(const std::string& name);

// True when the kernel name carries an activation token (`swiglu`, `silu`, `gelu`, `act`, matched
// case-insensitively on token boundaries): the activation runs in the same launch.
bool fused_activation(const std::string& name);

}  // namespace roofline::analyze
