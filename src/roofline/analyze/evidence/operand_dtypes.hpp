#pragma once
// Each operand of a Top-N call signature: its role and its dtype by that role (docs/method.md
// §8.2).
#include <cstdint>
#include <string>
#include <vector>

#include "roofline/analyze/layer.hpp"
#include "roofline/classify/classify.hpp"
#include "roofline/inputs/inputs.hpp"

namespace roofline::analyze {

// The profiler's `dtypes` is the sorted set of the input types of every call (docs/method.md §8.2),
// not one per operand: per-operand dtypes for one signature by role — weights the narrowest float
// type, activations the widest non-fp32 float (fp32 beside a narrower type is a scale; one float
// type serves both), a 4-bit quant_method the weights unless the set holds an fp8/fp4 float, a
// 4-D operand of a linear/ssm kernel the fp32 state when `float` is present; integer and scalar
// entries dropped. `rule` says which rule decided.
// The part an operand of a signature plays, which decides its dtype.
enum class OperandRole { activations, weights, state };
struct OperandDtypes {
  std::vector<std::string> dtypes;  // one per operand of the signature ("" = let the config say)
  std::vector<OperandRole> roles;   // parallel to dtypes
  std::string rule;
};
OperandDtypes operand_dtypes(const std::vector<std::string>& dtype_set,
                             const std::vector<std::vector<std::int64_t>>& signature, OpClass cls,
                             const ModelConfig* config);

}  // namespace roofline::analyze
