#pragma once
// What weight_evidence says (docs/method.md §23.5): the weight formats the run's own linears
// show.
#include <optional>
#include <string>
#include <vector>

#include "roofline/analyze/layer.hpp"
#include "roofline/inputs/dtype.hpp"

namespace roofline::analyze {

// The weight formats the run's linears (GEMM entries of the Top-N, lm_head and the router aside)
// show by their recorded operand types or their kernel's template. Each format with the entry
// that showed it first.
struct RunWeights {
  std::optional<Dtype> narrow;  // a quantized format (fp8, fp4, int8) some linear carries
  std::string narrow_source;
  bool narrow_conflict = false;  // two different quantized formats: neither settles it
  std::optional<Dtype> wide;     // an unquantized format (bf16, fp16) another linear carries
  std::string wide_source;
};

struct WeightEvidence {
  RunWeights weights;
  std::vector<std::string> notes;  // the run note on online quantization, said once
};

}  // namespace roofline::analyze
