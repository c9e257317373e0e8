#pragma once
// The config held against the trace (docs/method.md §23.6): before any config-derived model, the
// GEMM shapes the trace recorded are compared with the projections the config describes. Pure.

#include "roofline/analyze/entry/config_check.hpp"
#include "roofline/analyze/layer.hpp"
#include "roofline/inputs/inputs.hpp"

namespace roofline::analyze {

// The projections of `config` at tensor parallelism `tp` — fused qkv (H_q + 2·H_kv)·d, q, k/v, o,
// gate_up 2·I, gate or up I, down, the expert and shared-expert FFNs, router, lm_head, MLA's
// low-rank pairs — against the GEMM shapes of the Top-N's signatures read through the op table
// (an op it lacks is not evidence). A trace dim matches a config dim when equal or when it pads it
// up to a multiple of 64, 128 or 256.
ConfigCheck check_config(const TopnDocument& topn, const ModelConfig& config, double tp);

}  // namespace roofline::analyze
