#pragma once
// Pass weight_evidence (docs/method.md §23.5): what the run's own linears say of the weights of
// kernels whose op passes none (a Triton or CUTLASS MoE kernel under `vllm::moe_forward`). Online
// quantization (`--quantization fp8`) leaves the config unquantized and quantizes every linear
// and expert weight alike, except the modules the engine keeps (lm_head, the MoE router): the
// linears the trace does record carry the format.

#include "roofline/analyze/entry/run_weights.hpp"
#include "roofline/analyze/layer.hpp"
#include "roofline/inputs/inputs.hpp"
#include "roofline/inputs/topn_document.hpp"

namespace roofline::analyze {

// The run's linears over every Top-N entry, classified with `rules`; `config` (may be null) names
// lm_head (N = vocab, whole or per rank) and the router (N = num_experts), which stay unquantized.
WeightEvidence weight_evidence(const TopnDocument& topn, const ClassRules& rules,
                               const ModelConfig* config, double tp);

}  // namespace roofline::analyze
