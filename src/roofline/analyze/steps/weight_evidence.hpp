#pragma once
// Pass weight_evidence (docs/method.md §23.5): what the run's own linears say of the weights of
// kernels whose op passes none (a Triton or CUTLASS MoE kernel under `vllm::moe_forward`). Online
// quantization (`--quantization fp8`) leaves the config unquantized and quantizes every linear
// and expert weight alike, except the modules the engine keeps (lm_head, the MoE router): the
// linears the trace does record carry the format.

#include <optional>
#include <string>
#include <vector>

#include "roofline/analyze/layer.hpp"
#include "roofline/base/vocabulary.hpp"
#include "roofline/inputs/dtype.hpp"
#include "roofline/inputs/inputs.hpp"
#include "roofline/inputs/topn_document.hpp"

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

// The run's linears over every Top-N entry, classified with `rules`; `config` (may be null) names
// lm_head (N = vocab, whole or per rank) and the router (N = num_experts), which stay unquantized.
WeightEvidence weight_evidence(const TopnDocument& topn, const ClassRules& rules,
                               const ModelConfig* config, double tp);

}  // namespace roofline::analyze
