#pragma once
// Softmax attention of one step from its measured Σ terms (docs/method.md, attention in prefill
// and mixed steps): causal scores, sliding windows, K+V and Q+O bytes. Never from the operand
// dims — serving engines pass cache pools (SGLang) or only the new tokens' K/V (vLLM).

#include <optional>
#include <string>
#include <vector>

#include "roofline/inputs/inputs.hpp"

namespace roofline {

// The Σ terms of the requests of one step (both parts summed, or one part): requests, Σq query
// tokens, Σkv KV tokens including the new ones, Σq², Σq·kv.
struct StepSums {
  double requests = 0, sum_q = 0, sum_kv = 0;
  std::optional<double> sum_q2, sum_qkv;  // absent in the short annotation spellings
};

// The per-rank attention geometry the formulas need.
struct AttentionDims {
  double q_heads = 0, kv_heads = 0;  // per rank: n_q / tp, max(1, n_kv / tp)
  double d_qk = 0, d_v = 0;          // head sizes of scores and values
  double kv_bytes = 2, act_bytes = 2;
};

// One layer's figures, and how they were reached.
struct StepAttention {
  double scores = 0;  // causal query-key scores of the layer
  double flops = 0;   // 2·H_q·(d_qk + d_v)·scores
  double kv_bytes = 0, qo_bytes = 0;
  double bytes() const { return kv_bytes + qo_bytes; }
  bool approximate = false;  // a sliding window bounded the scores by W·Σq
  std::string how;           // the arithmetic, for notes
};

// One softmax-attention layer over the step: scores = Σq·kv − Σq²/2 + Σq/2 (each request's q new
// tokens attend causally to its kv keys), FLOPs = 2·H_q·(d_qk + d_v)·scores, K+V bytes =
// tokens·H_kv·(d_qk + d_v)·kv_bytes with tokens = Σkv (full layers) or min(Σkv, Σq + R·(W − 1))
// (a sliding window W), Q+O bytes = Σq·H_q·(d_qk + d_v)·a. A sliding layer's scores are at most
// W per query: min(scores, W·Σq), an approximation. nullopt when Σq² or Σq·kv are missing (the
// scores cannot be formed), with `missing` saying which.
std::optional<StepAttention> step_attention(const StepSums& s, const AttentionDims& d,
                                            double window, std::string& missing);

// The mean over the layers a softmax-attention kernel serves (the layer plan: full layers and
// sliding layers with their windows): what one launch of the kernel does on average.
std::optional<StepAttention> step_attention_mean(const StepSums& s, const AttentionDims& d,
                                                 const LayerPlan& plan, std::string& missing);

}  // namespace roofline
