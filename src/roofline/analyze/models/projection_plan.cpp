// The linear plan and the assignment of shapeless GEMM kernels to its projections
// (docs/method.md, kernels without shapes).
#include "roofline/analyze/models/projection_plan.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "roofline/analyze/layer.hpp"
#include "roofline/analyze/models/models.hpp"
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

// MLA's projections of one layer (DeepSeek V2/V3): q_b, kv_b column-parallel over the heads, o
// row-parallel; the down projections q_a and kv_a replicated on every rank — two launches, or one
// of N = q_lora_rank + kv_lora_rank + qk_rope_head_dim (SGLang
// python/sglang/srt/models/deepseek_v2.py: fused_qkv_a_proj_with_mqa =
// ReplicatedLinear(hidden_size, q_lora_rank + kv_lora_rank + qk_rope_head_dim); vLLM's
// fused_qkv_a_proj alike).
std::vector<std::vector<Projection>> mla_forms(const ModelConfig& c, double tp, double L,
                                               std::string& missing) {
  const double H = *c.hidden;
  if (!c.n_heads || !c.qk_rope_head_dim || !c.qk_nope_head_dim || !c.v_head_dim) {
    missing += " num_attention_heads/qk_rope_head_dim/qk_nope_head_dim/v_head_dim";
    return {};
  }
  const double nq = *c.n_heads / tp, rope = *c.qk_rope_head_dim, nope = *c.qk_nope_head_dim;
  const double v = *c.v_head_dim, r = *c.kv_lora_rank;
  const std::vector<Projection> up_and_out{
      proj(ProjectionKind::kv_b, nq * (nope + v), r, L, col(*c.n_heads * (nope + v), tp)),
      proj(ProjectionKind::o, H, nq * v, L, row(*c.n_heads * v, tp))};
  std::vector<Projection> split, fused;
  if (c.q_lora_rank) {
    const Projection q_b = proj(ProjectionKind::q_b, nq * (nope + rope), *c.q_lora_rank, L,
                                col(*c.n_heads * (nope + rope), tp));
    split = {proj(ProjectionKind::q_a, *c.q_lora_rank, H, L, "replicated"), q_b,
             proj(ProjectionKind::kv_a, r + rope, H, L, "replicated")};
    fused = {proj(ProjectionKind::qkv_a, *c.q_lora_rank + r + rope, H, L,
                  "replicated (q_a and kv_a fused: q_lora_rank + kv_lora_rank + rope)"),
             q_b};
  } else {
    split = {proj(ProjectionKind::q, nq * (nope + rope), H, L, col(*c.n_heads * (nope + rope), tp)),
             proj(ProjectionKind::kv_a, r + rope, H, L, "replicated")};
  }
  for (std::vector<Projection>* f : {&fused, &split})
    f->insert(f->end(), up_and_out.begin(), up_and_out.end());
  if (fused.size() == up_and_out.size()) return {split};
  return {fused, split};
}

// The attention projections of one softmax-attention layer, fused and split.
std::vector<std::vector<Projection>> attention_forms(const ModelConfig& c, double tp, double L,
                                                     std::string& missing) {
  const double H = *c.hidden;
  if (c.kv_lora_rank) return mla_forms(c, tp, L, missing);
  if (!c.n_heads || !c.head_dim) {
    missing += " num_attention_heads/head_dim";
    return {};
  }
  const double hd = *c.head_dim, nq = *c.n_heads / tp;
  const double kv_full = c.n_kv_heads.value_or(*c.n_heads);
  const double nkv = std::max(1.0, kv_full / tp);
  // A gated attention's q_proj writes the output gate beside the queries.
  const double gate = c.attn_output_gate ? 2.0 : 1.0;
  const std::string gated = c.attn_output_gate ? " (q and its output gate)" : "";
  const Projection o = proj(ProjectionKind::o, H, nq * hd, L, row(*c.n_heads * hd, tp));
  const std::string kv_shard = fmt::format("column-parallel: {} KV heads = max(1, {} / tp {})",
                                           format_g(nkv), format_g(kv_full), format_g(tp));
  std::vector<Projection> fused{
      proj(ProjectionKind::qkv, (gate * nq + 2.0 * nkv) * hd, H, L,
           fmt::format("column-parallel: ({}{} q + 2·{} kv heads)·{} per rank{}",
                       c.attn_output_gate ? "2·" : "", format_g(nq), format_g(nkv), format_g(hd),
                       gated)),
      o};
  std::vector<Projection> split{
      proj(ProjectionKind::q, gate * nq * hd, H, L, col(gate * *c.n_heads * hd, tp) + gated),
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

// The projections of one Gated DeltaNet layer (Qwen3-Next, Qwen3.5): in_proj_qkvz (q and k of
// the key heads, v and the gate z of the value heads), in_proj_ba (beta and alpha per value head)
// and out_proj, column- and row-parallel over the heads.
std::vector<Projection> gdn_projections(const ModelConfig& c, double tp, double L,
                                        std::string& missing) {
  if (!c.linear_key_heads || !c.linear_value_heads || !c.linear_key_head_dim ||
      !c.linear_value_head_dim) {
    missing +=
        " linear_num_key_heads/linear_num_value_heads/linear_key_head_dim/"
        "linear_value_head_dim";
    return {};
  }
  const double H = *c.hidden, keys = *c.linear_key_heads * *c.linear_key_head_dim;
  const double values = *c.linear_value_heads * *c.linear_value_head_dim;
  const double qkvz = 2.0 * keys + 2.0 * values, ba = 2.0 * *c.linear_value_heads;
  return {proj(ProjectionKind::la_qkvz, qkvz / tp, H, L, col(qkvz, tp)),
          proj(ProjectionKind::la_ba, ba / tp, H, L, col(ba, tp)),
          proj(ProjectionKind::la_out, H, values / tp, L, row(values, tp))};
}

// The inner width of a Mamba mixer: heads · head_dim, else expand · hidden.
std::optional<double> mamba_inner(const ModelConfig& c) {
  if (c.mamba_heads && c.mamba_head_dim) return *c.mamba_heads * *c.mamba_head_dim;
  if (c.mamba_expand && c.hidden) return *c.mamba_expand * *c.hidden;
  return std::nullopt;
}

// The projections of Mamba mixers: mamba2 (and the hybrid mixers) an in_proj of x, z, B, C and dt
// (2·d_inner + 2·groups·d_state + heads) and out_proj; mamba1 an in_proj of x and z, x_proj
// (dt_rank + 2·d_state), dt_proj and out_proj.
std::vector<Projection> mamba_projections(const ModelConfig& c, double tp, double L2, double L1,
                                          std::string& missing) {
  const std::optional<double> inner = mamba_inner(c);
  if (!inner || !c.ssm_state_size) {
    missing += " mamba heads·head_dim (or expand)/ssm_state_size";
    return {};
  }
  const double H = *c.hidden, N = *c.ssm_state_size;
  std::vector<Projection> out;
  if (L2 > 0) {
    const double heads = c.mamba_heads.value_or(*inner / c.mamba_head_dim.value_or(64.0));
    const double in = 2.0 * *inner + 2.0 * c.mamba_groups.value_or(1.0) * N + heads;
    out.push_back(proj(ProjectionKind::ssm_in, in / tp, H, L2, col(in, tp)));
    out.push_back(proj(ProjectionKind::ssm_out, H, *inner / tp, L2, row(*inner, tp)));
  }
  if (L1 > 0) {
    const double rank = c.mamba_dt_rank.value_or(std::ceil(H / 16.0));
    out.push_back(proj(ProjectionKind::ssm_in, 2.0 * *inner / tp, H, L1, col(2.0 * *inner, tp)));
    out.push_back(proj(ProjectionKind::ssm_x, rank + 2.0 * N, *inner / tp, L1,
                       row(*inner, tp) + " (dt_rank + 2·d_state out)"));
    out.push_back(proj(ProjectionKind::ssm_dt, *inner / tp, rank, L1, col(*inner, tp)));
    out.push_back(proj(ProjectionKind::ssm_out, H, *inner / tp, L1, row(*inner, tp)));
  }
  return out;
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
  // The MoE layers' router and shared experts, and the mixers that are not softmax attention:
  // in every variant alike.
  std::vector<Projection> common =
      moe > 0 ? moe_projections(c, tp, moe) : std::vector<Projection>{};
  if (!c.plan.empty() && counts.gdn > 0)
    for (Projection& p : gdn_projections(c, tp, counts.gdn, missing)) common.push_back(p);
  if (!c.plan.empty() && counts.mamba2 + counts.hybrid + counts.mamba1 > 0)
    for (Projection& p :
         mamba_projections(c, tp, counts.mamba2 + counts.hybrid, counts.mamba1, missing))
      common.push_back(p);
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
      v.projections.insert(v.projections.end(), common.begin(), common.end());
      if (head) v.projections.push_back(*head);
      if (!v.projections.empty()) out.variants.push_back(std::move(v));
    }
  out.missing = trim(missing);
  if (!out.variants.empty()) out.description = describe(out.variants.front());
  return out;
}

namespace {

// The short convolutions and per-head parameters (A, D, dt bias) of the linear-attention and
// state-space layers.
double mixer_extras(const ModelConfig& c, const PlanCounts& n) {
  double out = 0;
  if (n.gdn > 0 && c.linear_key_heads && c.linear_value_heads && c.linear_key_head_dim &&
      c.linear_value_head_dim) {
    const double conv = 2.0 * *c.linear_key_heads * *c.linear_key_head_dim +
                        *c.linear_value_heads * *c.linear_value_head_dim;
    out += n.gdn * (conv * c.linear_conv_kernel.value_or(4.0) + 2.0 * *c.linear_value_heads +
                    *c.linear_value_head_dim);
  }
  const std::optional<double> inner = mamba_inner(c);
  if (inner && c.ssm_state_size) {
    const double k = c.mamba_conv_kernel.value_or(4.0), N = *c.ssm_state_size;
    const double heads = c.mamba_heads.value_or(*inner / c.mamba_head_dim.value_or(64.0));
    const double conv2 = *inner + 2.0 * c.mamba_groups.value_or(1.0) * N;
    out += (n.mamba2 + n.hybrid) * (conv2 * (k + 1.0) + 3.0 * heads + *inner);
    out += n.mamba1 * (*inner * (k + 1.0) + *inner * N + 2.0 * *inner);  // conv, A, D, dt bias
  }
  return out;
}

}  // namespace

ParameterCount parameter_count(const ModelConfig& c) {
  ParameterCount out;
  const ProjectionPlan plan = projection_plan(c, 1.0);
  out.missing = plan.missing;
  if (!c.hidden || plan.variants.empty()) return out;
  const double H = *c.hidden;
  const PlanCounts n = plan_counts(c.plan);
  // A literal, not a std::string by value: GCC 12 at -O3 warns (array-bounds, a false positive)
  // on the moved temporary strings once this file shares a unity batch with others.
  const auto add = [&](const char* what, double v) {
    if (v <= 0) return;
    out.parts.emplace_back(what, v);
    out.total += v;
  };
  double linears = 0;
  for (const Projection& p : plan.variants.front().projections)
    if (p.kind != ProjectionKind::lm_head) linears += p.n * p.k * p.per_step;
  add("projections (the linear plan at tp 1)", linears);
  const double moe = c.plan.empty() ? (c.experts ? c.layers.value_or(0.0) : 0.0) : n.moe;
  if (moe > 0 && c.experts && c.moe_intermediate)
    add("routed experts: MoE layers · E · (3 gated | 2)·I·H",
        moe * *c.experts * (detail::config_gated(c) ? 3.0 : 2.0) * *c.moe_intermediate * H);
  if (c.vocab) {
    add("embeddings: vocab · H", *c.vocab * H);
    if (!c.tie_word_embeddings) add("lm_head (untied): vocab · H", *c.vocab * H);
  }
  const double layers = c.plan.empty() ? c.layers.value_or(0.0) : n.layers;
  add("norms: 2·H per layer + H", (2.0 * layers + 1.0) * H);
  add("short convolutions and per-head parameters", mixer_extras(c, n));
  return out;
}

}  // namespace roofline::analyze
