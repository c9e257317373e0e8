// The config held against the trace (docs/method.md §23.6): the config's projections per rank
// against the GEMM shapes the trace's launching ops recorded, read through the op table.
#include "roofline/analyze/steps/check_config.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include <fmt/format.h>

#include "roofline/analyze/evidence/op_reading.hpp"
#include "roofline/base/units.hpp"

namespace roofline::analyze {
namespace {

struct ConfigGemm {
  std::string name;
  double k = 0, n = 0;
};

double v(const std::optional<double>& x) {
  return x && *x > 0 ? *x : 0.0;
}

void add(std::vector<ConfigGemm>& out, const char* name, double k, double n) {
  if (k > 0 && n > 0) out.push_back({name, k, n});
}

// Dense, expert and shared FFNs of intermediate `i` per rank.
void ffn(std::vector<ConfigGemm>& out, const char* name, double h, double i) {
  if (!(i > 0)) return;
  add(out, name, h, 2 * i);  // fused gate_up
  add(out, name, h, i);      // gate or up alone
  add(out, name, i, h);      // down
}

std::vector<ConfigGemm> projections(const ModelConfig& c, double tp) {
  std::vector<ConfigGemm> out;
  const double h = v(c.hidden), d = v(c.head_dim), hq = v(c.n_heads) / tp;
  const double hkv = std::max(1.0, v(c.n_kv_heads) / tp);
  if (h <= 0) return out;
  if (hq > 0 && d > 0) {
    add(out, "qkv", h, (hq + 2 * hkv) * d);
    add(out, "q", h, hq * d);
    add(out, "k/v", h, hkv * d);
    add(out, "o", hq * d, h);
  }
  ffn(out, "mlp", h, v(c.intermediate) / tp);
  ffn(out, "mlp", h, v(c.intermediate_mlp) / tp);
  ffn(out, "experts", h, v(c.moe_intermediate) / tp);
  ffn(out, "experts", h, v(c.moe_intermediate));  // expert parallel: whole experts per rank
  ffn(out, "shared expert", h, v(c.shared_expert_intermediate) / tp);
  ffn(out, "shared experts", h, v(c.shared_experts) * v(c.moe_intermediate) / tp);
  add(out, "router", h, v(c.experts));
  add(out, "lm_head", h, v(c.vocab));
  add(out, "lm_head", h, v(c.vocab) / tp);
  const double rope = v(c.qk_rope_head_dim), nope = v(c.qk_nope_head_dim), vh = v(c.v_head_dim);
  add(out, "q_a", h, v(c.q_lora_rank));
  add(out, "q_b", v(c.q_lora_rank), hq * (nope + rope));
  add(out, "kv_a", h, v(c.kv_lora_rank) + rope);
  add(out, "kv_b", v(c.kv_lora_rank), hq * (nope + vh));
  add(out, "o (MLA)", hq * vh, h);
  return out;
}

// A trace dim matches a config dim when equal, or when it pads it up to a multiple of 64, 128
// or 256 (gpt-oss's hidden 2880 runs as 3072).
bool same_dim(double trace, double config) {
  if (trace == config) return true;
  for (double m : {64.0, 128.0, 256.0})
    if (trace > config && trace == std::ceil(config / m) * m) return true;
  return false;
}

bool explained(const std::vector<ConfigGemm>& ps, double k, double n) {
  return std::any_of(ps.begin(), ps.end(), [&](const ConfigGemm& p) {
    return (same_dim(k, p.k) && same_dim(n, p.n)) || (same_dim(n, p.k) && same_dim(k, p.n));
  });
}

// (K, N) of every GEMM signature of the Top-N the op table reads.
std::set<std::pair<double, double>> trace_gemms(const TopnDocument& topn) {
  std::set<std::pair<double, double>> out;
  for (const TopnEntry& e : topn.entries)
    for (const GemmReading& g : recorded_gemms(e)) out.emplace(g.k, g.n);
  return out;
}

}  // namespace

ConfigCheck check_config(const TopnDocument& topn, const ModelConfig& config, double tp) {
  ConfigCheck out;
  const auto ps = projections(config, tp > 0 ? tp : 1.0);
  for (const ConfigGemm& p : ps) {
    std::string text = fmt::format("{} {}×{}", p.name, format_g(p.k), format_g(p.n));
    if (std::find(out.config_gemms.begin(), out.config_gemms.end(), text) == out.config_gemms.end())
      out.config_gemms.push_back(std::move(text));
  }
  std::string trace_text;
  bool any = false;
  for (const auto& [k, n] : trace_gemms(topn)) {
    out.trace_gemms.emplace_back(k, n);
    out.matched.push_back(explained(ps, k, n));
    any = any || out.matched.back();
    trace_text += fmt::format("{}{}×{}", trace_text.empty() ? "" : ", ", format_g(k), format_g(n));
  }
  out.contradicts = !ps.empty() && out.trace_gemms.size() >= 2 && !any;
  if (!out.contradicts) return out;
  std::string config_text;
  for (const std::string& s : out.config_gemms)
    config_text += (config_text.empty() ? "" : ", ") + s;
  out.text = fmt::format(
      "the config does not match this trace: the trace's GEMMs (K×N per rank: {}) are none of "
      "the config's projections at TP {} ({}); only the trace's own shapes are modelled (no layer "
      "plan, no config-derived attention or MoE)",
      trace_text, format_g(tp > 0 ? tp : 1.0), config_text);
  return out;
}

}  // namespace roofline::analyze
