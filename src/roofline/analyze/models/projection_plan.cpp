// The linear plan and the assignment of shapeless GEMM kernels to its projections
// (docs/method.md, kernels without shapes).
#include "roofline/analyze/models/projection_plan.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "roofline/analyze/layer.hpp"
#include "roofline/base/units.hpp"
#include "roofline/inputs/layer_plan.hpp"

namespace roofline::analyze {
namespace {

Projection proj(ProjectionKind kind, double n, double k, double per_step, std::string sharding) {
  Projection p;
  p.kind = kind;
  p.n = n;
  p.k = k;
  p.per_step = per_step;
  p.sharding = std::move(sharding);
  p.rows_are_requests = kind == ProjectionKind::lm_head;
  return p;
}

std::string col(double full, double tp) {
  return fmt::format("column-parallel: N = {} / tp {}", format_g(full), format_g(tp));
}
std::string row(double full, double tp) {
  return fmt::format("row-parallel: K = {} / tp {}", format_g(full), format_g(tp));
}

// The attention projections of one softmax-attention layer, fused and split (MLA: one form).
std::vector<std::vector<Projection>> attention_forms(const ModelConfig& c, double tp, double L,
                                                     std::string& missing) {
  const double H = *c.hidden;
  if (c.kv_lora_rank) {
    if (!c.n_heads || !c.qk_rope_head_dim || !c.qk_nope_head_dim || !c.v_head_dim) {
      missing += " num_attention_heads/qk_rope_head_dim/qk_nope_head_dim/v_head_dim";
      return {};
    }
    const double nq = *c.n_heads / tp, rope = *c.qk_rope_head_dim, nope = *c.qk_nope_head_dim;
    const double v = *c.v_head_dim, r = *c.kv_lora_rank;
    std::vector<Projection> f;
    if (c.q_lora_rank) {
      f.push_back(proj(ProjectionKind::q_a, *c.q_lora_rank, H, L, "replicated"));
      f.push_back(proj(ProjectionKind::q_b, nq * (nope + rope), *c.q_lora_rank, L,
                       col(*c.n_heads * (nope + rope), tp)));
    } else {
      f.push_back(
          proj(ProjectionKind::q, nq * (nope + rope), H, L, col(*c.n_heads * (nope + rope), tp)));
    }
    f.push_back(proj(ProjectionKind::kv_a, r + rope, H, L, "replicated"));
    f.push_back(
        proj(ProjectionKind::kv_b, nq * (nope + v), r, L, col(*c.n_heads * (nope + v), tp)));
    f.push_back(proj(ProjectionKind::o, H, nq * v, L, row(*c.n_heads * v, tp)));
    return {f};
  }
  if (!c.n_heads || !c.head_dim) {
    missing += " num_attention_heads/head_dim";
    return {};
  }
  const double hd = *c.head_dim, nq = *c.n_heads / tp;
  const double kv_full = c.n_kv_heads.value_or(*c.n_heads);
  const double nkv = std::max(1.0, kv_full / tp);
  const Projection o = proj(ProjectionKind::o, H, nq * hd, L, row(*c.n_heads * hd, tp));
  const std::string kv_shard = fmt::format("column-parallel: {} KV heads = max(1, {} / tp {})",
                                           format_g(nkv), format_g(kv_full), format_g(tp));
  std::vector<Projection> fused{
      proj(ProjectionKind::qkv, (nq + 2.0 * nkv) * hd, H, L,
           fmt::format("column-parallel: ({} q + 2·{} kv heads)·{} per rank", format_g(nq),
                       format_g(nkv), format_g(hd))),
      o};
  std::vector<Projection> split{proj(ProjectionKind::q, nq * hd, H, L, col(*c.n_heads * hd, tp)),
                                proj(ProjectionKind::k, nkv * hd, H, L, kv_shard),
                                proj(ProjectionKind::v, nkv * hd, H, L, kv_shard), o};
  return {fused, split};
}

// The FFN projections of one dense layer, fused and split (a non-gated FFN has one form).
std::vector<std::vector<Projection>> ffn_forms(const ModelConfig& c, double tp, double L,
                                               std::string& missing) {
  const std::optional<double> inter = c.intermediate_mlp ? c.intermediate_mlp : c.intermediate;
  if (!inter) {
    missing += " intermediate_size";
    return {};
  }
  const double H = *c.hidden, I = *inter / tp;
  const Projection down = proj(ProjectionKind::down, H, I, L, row(*inter, tp));
  const bool gated = c.hidden_act != "relu2" && c.hidden_act != "relu_squared";
  if (!gated) return {{proj(ProjectionKind::up, I, H, L, col(*inter, tp)), down}};
  return {{proj(ProjectionKind::gate_up, 2.0 * I, H, L, col(2.0 * *inter, tp)), down},
          {proj(ProjectionKind::gate, I, H, L, col(*inter, tp)),
           proj(ProjectionKind::up, I, H, L, col(*inter, tp)), down}};
}

// Router and shared experts of one MoE layer.
std::vector<Projection> moe_projections(const ModelConfig& c, double tp, double L) {
  std::vector<Projection> out;
  const double H = *c.hidden;
  if (c.experts) out.push_back(proj(ProjectionKind::router, *c.experts, H, L, "replicated"));
  std::optional<double> shared;
  if (c.shared_expert_intermediate && *c.shared_expert_intermediate > 0)
    shared = c.shared_expert_intermediate;
  else if (c.shared_experts && *c.shared_experts > 0 && c.moe_intermediate)
    shared = *c.shared_experts * *c.moe_intermediate;
  if (shared) {
    out.push_back(
        proj(ProjectionKind::shared_gate_up, 2.0 * *shared / tp, H, L, col(2.0 * *shared, tp)));
    out.push_back(proj(ProjectionKind::shared_down, H, *shared / tp, L, row(*shared, tp)));
  }
  return out;
}

std::string describe(const PlanVariant& v) {
  std::string out;
  for (const Projection& p : v.projections)
    out += fmt::format("{}{} N={} K={} ×{}", out.empty() ? "" : "; ", to_string(p.kind),
                       format_g(p.n), format_g(p.k), format_g(p.per_step));
  return out;
}

}  // namespace

std::string projection_label(ProjectionKind k) {
  const std::string w = to_string(k);
  return k == ProjectionKind::router || k == ProjectionKind::lm_head ? w : w + "_proj";
}

const char* to_string(ProjectionKind k) {
  switch (k) {
    case ProjectionKind::qkv:
      return "qkv";
    case ProjectionKind::q:
      return "q";
    case ProjectionKind::k:
      return "k";
    case ProjectionKind::v:
      return "v";
    case ProjectionKind::o:
      return "o";
    case ProjectionKind::q_a:
      return "q_a";
    case ProjectionKind::q_b:
      return "q_b";
    case ProjectionKind::kv_a:
      return "kv_a";
    case ProjectionKind::kv_b:
      return "kv_b";
    case ProjectionKind::gate_up:
      return "gate_up";
    case ProjectionKind::gate:
      return "gate";
    case ProjectionKind::up:
      return "up";
    case ProjectionKind::down:
      return "down";
    case ProjectionKind::shared_gate_up:
      return "shared_gate_up";
    case ProjectionKind::shared_down:
      return "shared_down";
    case ProjectionKind::router:
      return "router";
    case ProjectionKind::lm_head:
      return "lm_head";
  }
  return "qkv";
}

double projection_bytes(const Projection& p, double m, double act_bytes, double weight_bytes) {
  return m * p.k * act_bytes + p.k * p.n * weight_bytes + m * p.n * act_bytes;
}

double projection_flops(const Projection& p, double m) {
  return 2.0 * m * p.n * p.k;
}

ProjectionPlan projection_plan(const ModelConfig& c, double tp) {
  ProjectionPlan out;
  if (!c.hidden) {
    out.missing = "hidden_size";
    return out;
  }
  const PlanCounts counts = plan_counts(c.plan);
  const double layers = c.plan.empty() ? c.layers.value_or(0.0) : counts.layers;
  const double attn = c.plan.empty() ? layers : counts.softmax();
  const double moe = c.plan.empty() ? (c.experts ? layers : 0.0) : counts.moe;
  const double dense = c.plan.empty() ? layers - moe : counts.dense_ffn;
  std::string missing;
  std::vector<std::vector<Projection>> attn_forms{{}}, ffn{{}};
  if (attn > 0) attn_forms = attention_forms(c, tp, attn, missing);
  if (dense > 0) ffn = ffn_forms(c, tp, dense, missing);
  if (attn_forms.empty()) attn_forms = {{}};
  if (ffn.empty()) ffn = {{}};
  const std::vector<Projection> experts =
      moe > 0 ? moe_projections(c, tp, moe) : std::vector<Projection>{};
  std::optional<Projection> head;
  if (c.vocab)
    head = proj(ProjectionKind::lm_head, *c.vocab / tp, *c.hidden, 1.0, col(*c.vocab, tp));
  else
    missing += " vocab_size";
  for (std::size_t ai = 0; ai < attn_forms.size(); ++ai)
    for (std::size_t fi = 0; fi < ffn.size(); ++fi) {
      PlanVariant v;
      v.name = fmt::format("{} qkv, {} gate_up", ai == 0 ? "fused" : "split",
                           fi == 0 ? "fused" : "split");
      v.projections = attn_forms[ai];
      v.projections.insert(v.projections.end(), ffn[fi].begin(), ffn[fi].end());
      v.projections.insert(v.projections.end(), experts.begin(), experts.end());
      if (head) v.projections.push_back(*head);
      if (!v.projections.empty()) out.variants.push_back(std::move(v));
    }
  out.missing = trim(missing);
  if (!out.variants.empty()) out.description = describe(out.variants.front());
  return out;
}

}  // namespace roofline::analyze
