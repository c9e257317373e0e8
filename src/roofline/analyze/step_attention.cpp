// Softmax attention of one step from its Σ terms (docs/method.md, attention in prefill and mixed
// steps).
#include "roofline/analyze/step_attention.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "roofline/inputs/layer_plan.hpp"
#include "roofline/base/units.hpp"

namespace roofline {

std::optional<StepAttention> step_attention(const StepSums& s, const AttentionDims& d,
                                            double window, std::string& missing) {
  if (!s.sum_qkv || !s.sum_q2) {
    missing = "the step annotation gives no Σq² and Σq·kv (only the detailed spellings do)";
    return std::nullopt;
  }
  StepAttention a;
  const double width = d.d_qk + d.d_v;
  const double causal = *s.sum_qkv - *s.sum_q2 / 2.0 + s.sum_q / 2.0;
  a.scores = causal;
  double tokens = s.sum_kv;
  std::string window_how;
  if (window > 0) {
    tokens = std::min(s.sum_kv, s.sum_q + s.requests * (window - 1.0));
    a.scores = std::min(causal, window * s.sum_q);
    a.approximate = a.scores < causal;
    window_how = fmt::format(
        "; sliding W = {}: scores min({}, W·Σq {}) = {}{}, K+V tokens min(Σkv {}, Σq + R·(W − 1) "
        "= {}) = {}",
        format_g(window), format_g(causal), format_g(window * s.sum_q), format_g(a.scores),
        a.approximate ? " (an upper bound per query: approximate)" : "", format_g(s.sum_kv),
        format_g(s.sum_q + s.requests * (window - 1.0)), format_g(tokens));
  }
  a.flops = 2.0 * d.q_heads * width * a.scores;
  a.kv_bytes = tokens * d.kv_heads * width * d.kv_bytes;
  a.qo_bytes = s.sum_q * d.q_heads * width * d.act_bytes;
  a.how = fmt::format(
      "scores = Σq·kv − Σq²/2 + Σq/2 = {} − {}/2 + {}/2 = {}{}; flops = 2·H_q·(d_qk + d_v)·scores "
      "= 2·{}·{}·{} = {:.4g}; bytes = K+V {}·H_kv {}·{}·{} B = {} + Q+O Σq {}·H_q {}·{}·{} B = {} "
      "= {}",
      format_g(*s.sum_qkv), format_g(*s.sum_q2), format_g(s.sum_q), format_g(causal), window_how,
      format_g(d.q_heads), format_g(width), format_g(a.scores), a.flops, format_g(tokens),
      format_g(d.kv_heads), format_g(width), format_g(d.kv_bytes),
      format_bytes(a.kv_bytes, Digits::exact), format_g(s.sum_q), format_g(d.q_heads),
      format_g(width), format_g(d.act_bytes), format_bytes(a.qo_bytes, Digits::exact),
      format_bytes(a.bytes(), Digits::exact));
  return a;
}

std::optional<StepAttention> step_attention_mean(const StepSums& s, const AttentionDims& d,
                                                 const LayerPlan& plan, std::string& missing) {
  // Softmax layers by window (0 = full); chunked layers read at most their chunk, like a window.
  std::map<double, double> layers;
  for (const LayerSpec& l : plan.layers)
    if (l.mixer == Mixer::full || l.mixer == Mixer::hybrid)
      layers[0.0] += 1;
    else if (l.mixer == Mixer::sliding || l.mixer == Mixer::chunked)
      layers[l.window] += 1;
  if (layers.empty()) layers[0.0] = 1;  // no plan: every layer full
  StepAttention mean;
  double n = 0;
  std::string how;
  for (const auto& [window, count] : layers) {
    auto one = step_attention(s, d, window, missing);
    if (!one) return std::nullopt;
    mean.scores += count * one->scores;
    mean.flops += count * one->flops;
    mean.kv_bytes += count * one->kv_bytes;
    mean.qo_bytes += count * one->qo_bytes;
    mean.approximate = mean.approximate || one->approximate;
    n += count;
    how += fmt::format("{}{} {} layer(s): {}", how.empty() ? "" : "; ", format_g(count),
                       window > 0 ? fmt::format("W={}", format_g(window)) : std::string("full"),
                       one->how);
  }
  mean.scores /= n;
  mean.flops /= n;
  mean.kv_bytes /= n;
  mean.qo_bytes /= n;
  mean.how =
      layers.size() == 1
          ? how
          : fmt::format("mean over {} layers: {} bytes, {:.4g} FLOP per launch ({})", format_g(n),
                        format_bytes(mean.bytes(), Digits::exact), mean.flops, how);
  return mean;
}

}  // namespace roofline
