// Attention (docs/method.md §8, §8.8): paged decode (MHA/GQA) over the layer plan's windows, MLA
// latent decode with the index_topk candidate, causal prefill, the split-KV reduction stage, and
// the dispatch to the sparse-attention indexer.
#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "roofline/analyze/models/step_attention.hpp"

#include "roofline/analyze/layer.hpp"
#include "roofline/analyze/models/models.hpp"

namespace roofline::analyze::detail {
namespace {

constexpr double k_assumed_kv_splits = 8.0;

// The variant modelled: the family's, with decode read as MLA decode when the config has a latent
// cache; auto and unnamed by the regime.
AttnVariant variant_for(const ModelInput& in) {
  using V = AttnVariant;
  const V d = in.cls.detail.attn;
  const ModelConfig* cfg = in.ctx.config;
  const bool mla = cfg && cfg->kv_lora_rank && *cfg->kv_lora_rank > 0;
  if (d == V::decode_reduce || d == V::indexer || d == V::prefill || d == V::mla_decode) return d;
  if (d == V::decode) return mla ? V::mla_decode : V::decode;
  // auto / untabled: the regime decides.
  if (in.regime.regime == Regime::prefill) return V::prefill;
  return mla ? V::mla_decode : V::decode;
}

}  // namespace

// S = isl + osl/2: the average context of a request sampled mid-decode.
bool decode_context(const ModelInput& in, double& S, std::string& missing) {
  const EnvReport* env = in.ctx.env;
  if (env && env->workload.decode_context && *env->workload.decode_context > 0) {
    S = *env->workload.decode_context;
    return true;
  }
  const bool isl = env && env->workload.isl, osl = env && env->workload.osl;
  if (!isl || !osl) {
    std::vector<std::string> fields, options;
    if (!isl) fields.emplace_back("workload.isl"), options.emplace_back("--isl");
    if (!osl) fields.emplace_back("workload.osl"), options.emplace_back("--osl");
    missing = fmt::format("{} (context length S = isl + osl/2); {}", option_list(fields, " and "),
                          would_settle(options, " and "));
    return false;
  }
  S = *env->workload.isl + *env->workload.osl / 2.0;
  return S > 0;
}

std::string decode_context_how(const ModelInput& in, double S) {
  const EnvReport* env = in.ctx.env;
  if (env && env->workload.decode_context && *env->workload.decode_context > 0)
    return fmt::format("Σkv / requests = {} (the decode context: {})", format_g(S),
                       env->workload.decode_context_source);
  return fmt::format(
      "isl + osl/2 = {} (average context mid-decode, an assumption and a real "
      "error source)",
      format_g(S));
}

namespace {

// Causal (query, key) pairs per sequence of T tokens for a layer kind (prefill): full T²/2, a
// window W keeps W keys per query once past the first W, a chunk C restarts every C tokens.
double causal_pairs(const LayerSpec& l, double T) {
  const double W = l.window;
  if (l.mixer == Mixer::sliding && W > 0 && T > W) return W * W / 2.0 + (T - W) * W;
  if (l.mixer == Mixer::chunked && W > 0 && T > W) {
    const double full_chunks = std::floor(T / W), rest = T - full_chunks * W;
    return full_chunks * W * W / 2.0 + rest * rest / 2.0;
  }
  return T * T / 2.0;
}

bool serves_softmax(Mixer m) {
  return m == Mixer::full || m == Mixer::sliding || m == Mixer::chunked || m == Mixer::hybrid;
}

}  // namespace

WindowMix attention_window_mix(const ModelConfig& cfg, double S) {
  WindowMix mix;
  std::map<std::pair<int, double>, double> groups;  // (kind, window) -> layers
  for (const LayerSpec& l : cfg.plan.layers)
    if (serves_softmax(l.mixer))
      groups[{l.mixer == Mixer::hybrid ? static_cast<int>(Mixer::full) : static_cast<int>(l.mixer),
              l.window}] += 1;
  if (groups.empty()) {
    mix.mean_tokens = S;
    mix.how =
        fmt::format("every attention layer reads the whole context: tokens = S = {}", format_g(S));
    return mix;
  }
  double sum = 0;
  std::string terms, kinds;
  for (const auto& [key, n] : groups) {
    const auto m = static_cast<Mixer>(key.first);
    const double W = key.second;
    const double tokens = m == Mixer::sliding   ? std::min(S, W)
                          : m == Mixer::chunked ? std::fmod(S - 1.0, W) + 1.0
                                                : S;
    sum += n * tokens;
    mix.layers += n;
    terms += fmt::format("{}{}·{}", terms.empty() ? "" : " + ", format_g(n), format_g(tokens));
    kinds += fmt::format("{}{} {}{}", kinds.empty() ? "" : ", ", format_g(n), to_string(m),
                         m == Mixer::full ? "" : fmt::format("({})", format_g(W)));
  }
  mix.mean_tokens = sum / mix.layers;
  if (groups.size() == 1 && static_cast<Mixer>(groups.begin()->first.first) == Mixer::full)
    mix.how = fmt::format("all {} attention layers full: tokens = S = {}", format_g(mix.layers),
                          format_g(S));
  else
    mix.how = fmt::format(
        "one kernel serves {} attention layers ({}): mean tokens {} = ({})/{} (full S, sliding "
        "min(S, W), chunked ((S−1) mod C)+1)",
        format_g(mix.layers), kinds, format_g(mix.mean_tokens), terms, format_g(mix.layers));
  return mix;
}

namespace {

void decode_gqa(const ModelInput& in, WorkEstimate& work, double B, double S) {
  const ModelConfig& c = *in.ctx.config;
  const double n_q = *c.n_heads / in.tp;
  const double n_kv = std::max(1.0, *c.n_kv_heads / in.tp);
  const double hd = *c.head_dim;
  const double kv = in.dtypes.kv.bytes;
  const WindowMix mix = attention_window_mix(c, S);
  const double T = mix.mean_tokens;
  const char* tokens = T == S ? "S" : "mean_tokens";
  Term bytes = term("bytes", fmt::format("B·{}·n_kv·head_dim·2·kv_bytes", tokens),
                    B * T * n_kv * hd * 2.0 * kv);
  bytes.remark = "K and V; Q and O negligible at decode";
  const Term flops = term("flops", fmt::format("2·B·n_q·{}·head_dim·2", tokens),
                          2.0 * B * n_q * T * hd * 2.0, TermUnit::flops);
  work.kv_bytes = bytes.value;
  work.compute_dtype = wider_dtype(in.dtypes.act, in.dtypes.kv);
  work.notes.push_back(fmt::format(
      "decode attention ({}): B = {} ({}), S = {}, per-rank heads n_q = {}/{} = {}, n_kv = max(1, "
      "{}/{}) = {}{}, head_dim {}{}",
      n_kv < n_q ? "GQA" : "MHA", format_g(B), in.rows_source, decode_context_how(in, S),
      format_g(*c.n_heads), format_g(in.tp), format_g(n_q), format_g(*c.n_kv_heads),
      format_g(in.tp), format_g(n_kv),
      c.n_kv_heads_defaulted ? " (num_key_value_heads absent: = attention heads)" : "",
      format_g(hd), c.head_dim_derived ? fmt::format(" ({})", c.head_dim_rule) : ""));
  work.notes.push_back(mix.how);
  work.notes.push_back(
      fmt::format("KV dtype {} ({} B, {})", in.dtypes.kv.key, kv, in.dtypes.kv_source));
  work.notes.push_back(render_all({bytes, flops}));
  add_candidate(work, "KV cache read", bytes, flops);
}

void decode_mla(const ModelInput& in, WorkEstimate& work, double B, double S) {
  const ModelConfig& c = *in.ctx.config;
  const double n_q = *c.n_heads / in.tp;
  const double rank = *c.kv_lora_rank;
  const double rope = c.qk_rope_head_dim.value_or(0.0);
  const double width = rank + rope;
  const double kv = in.dtypes.kv.bytes;
  work.compute_dtype = wider_dtype(in.dtypes.act, in.dtypes.kv);
  work.notes.push_back(fmt::format(
      "MLA decode: latent width c = kv_lora_rank {} + qk_rope_head_dim {} = {} (latent cache is "
      "not "
      "TP-sharded), B = {} ({}), per-rank q heads {}/{} = {}, KV dtype {} ({} B, {})",
      format_g(rank), format_g(rope), format_g(width), format_g(B), in.rows_source,
      format_g(*c.n_heads), format_g(in.tp), format_g(n_q), in.dtypes.kv.key, kv,
      in.dtypes.kv_source));
  auto add = [&](const std::string& label, CandidateKind kind, double s) {
    const Term bytes = term("bytes", "B·S·c·kv", B * s * width * kv);
    const Term flops = term("flops", "2·B·n_q·S·(c + kv_lora_rank)",
                            2.0 * B * n_q * s * (width + rank), TermUnit::flops);
    work.notes.push_back(fmt::format("{}: {}: {}", label, render(term("S", "", s, TermUnit::count)),
                                     render_all({bytes, flops}, ", ")));
    add_candidate(work, label, bytes, flops, true, kind);
  };
  add("full context", CandidateKind::full_context, S);
  if (c.index_topk && *c.index_topk > 0)
    add("index_topk selection", CandidateKind::index_topk, std::min(S, *c.index_topk));
  work.kv_bytes = work.candidates.front().bytes;
}

// One prefill step's measured Σ terms, both parts (new prompts and the decode requests batched
// with them) summed and divided by the prefill steps; nullopt when the Top-N measured none.
std::optional<StepSums> prefill_step_sums(const TopnServing* s, std::string& how) {
  if (!s || (!s->prefill_context.sum_q && !s->prefill_generation.sum_q)) return std::nullopt;
  StepSums out;
  out.sum_q2 = 0.0;
  out.sum_qkv = 0.0;
  double steps = 0;
  for (const TopnPartSums* p : {&s->prefill_context, &s->prefill_generation}) {
    if (!p->sum_q) continue;
    steps = std::max(steps, p->steps.value_or(0.0));
    out.requests += p->requests.value_or(0.0);
    out.sum_q += *p->sum_q;
    out.sum_kv += p->sum_kv.value_or(0.0);
    if (p->sum_q2 && out.sum_q2)
      *out.sum_q2 += *p->sum_q2;
    else
      out.sum_q2.reset();
    if (p->sum_qkv && out.sum_qkv)
      *out.sum_qkv += *p->sum_qkv;
    else
      out.sum_qkv.reset();
  }
  if (!(steps > 0)) steps = s->n_prefill_steps.value_or(1.0);
  out.requests /= steps;
  out.sum_q /= steps;
  out.sum_kv /= steps;
  if (out.sum_q2) *out.sum_q2 /= steps;
  if (out.sum_qkv) *out.sum_qkv /= steps;
  how = fmt::format(
      "measured step (serving.sums.prefill, context + generation parts, over {} step(s)): {} "
      "requests, Σq {}, Σkv {}",
      format_g(steps), format_g(out.requests), format_g(out.sum_q), format_g(out.sum_kv));
  return out;
}

// Attention of a prefill or mixed step from the step's Σ terms (docs/method.md §22.6), never from
// operand dims; false (with a note) when the step annotation measured too little.
bool prefill_from_sums(const ModelInput& in, WorkEstimate& work) {
  std::string how;
  const auto sums = prefill_step_sums(in.ctx.serving, how);
  if (!sums) return false;
  const ModelConfig& c = *in.ctx.config;
  AttentionDims d;
  d.q_heads = *c.n_heads / in.tp;
  d.kv_heads = std::max(1.0, *c.n_kv_heads / in.tp);
  d.d_qk = d.d_v = *c.head_dim;
  if (c.kv_lora_rank && *c.kv_lora_rank > 0 && c.qk_nope_head_dim && c.v_head_dim) {
    d.d_qk = *c.qk_nope_head_dim + c.qk_rope_head_dim.value_or(0.0);  // MHA over decompressed
    d.d_v = *c.v_head_dim;                                            // heads
    d.kv_heads = d.q_heads;
  }
  d.kv_bytes = in.dtypes.kv.bytes;
  d.act_bytes = in.dtypes.act.bytes;
  std::string missing;
  const auto a = step_attention_mean(*sums, d, c.plan, missing);
  if (!a) {
    work.notes.push_back(fmt::format("{}; {}: the T²/2 model below instead", how, missing));
    return false;
  }
  const Term bytes = sum("bytes", {part("K+V", a->kv_bytes), part("Q+O", a->qo_bytes)});
  const Term flops = term("flops", "2·H_q·(d_qk + d_v)·scores", a->flops, TermUnit::flops);
  work.kv_bytes = a->kv_bytes;
  work.compute_dtype = wider_dtype(in.dtypes.act, in.dtypes.kv);
  work.notes.push_back(fmt::format(
      "prefill/mixed-step attention from the step's Σ terms: {}; per-rank H_q {}, H_kv {}, head "
      "dims qk {} / v {}; kv {} B ({}), activations {} B; {}{}",
      how, format_g(d.q_heads), format_g(d.kv_heads), format_g(d.d_qk), format_g(d.d_v), d.kv_bytes,
      in.dtypes.kv_source, d.act_bytes, a->how,
      a->approximate ? "; sliding layers' scores bounded by W·Σq (approximate)" : ""));
  work.notes.push_back(render_all({bytes, flops}));
  add_candidate(work, "the step's K+V and Q+O", bytes, flops);
  return true;
}

void prefill(const ModelInput& in, WorkEstimate& work) {
  if (prefill_from_sums(in, work)) return;
  const ModelConfig& c = *in.ctx.config;
  const EnvReport* env = in.ctx.env;
  const double M = *in.rows;
  const double T =
      env && env->workload.isl && *env->workload.isl > 0 ? std::min(*env->workload.isl, M) : M;
  const double batch = std::max(1.0, M / T);
  const double n_q = *c.n_heads / in.tp;
  const bool mla = c.kv_lora_rank && *c.kv_lora_rank > 0 && c.qk_nope_head_dim && c.v_head_dim;
  const double a = in.dtypes.act.bytes, kv = in.dtypes.kv.bytes;
  double hd_qk = *c.head_dim, hd_v = *c.head_dim, n_kv = std::max(1.0, *c.n_kv_heads / in.tp);
  if (mla) {  // MLA prefill runs as MHA over decompressed heads
    hd_qk = *c.qk_nope_head_dim + c.qk_rope_head_dim.value_or(0.0);
    hd_v = *c.v_head_dim;
    n_kv = n_q;
  }
  // Causal pairs per sequence, averaged over the layers this kernel serves (docs/method.md §8.8).
  double pairs = 0, served = 0;
  for (const LayerSpec& l : c.plan.layers)
    if (serves_softmax(l.mixer)) {
      pairs += causal_pairs(l, T);
      served += 1;
    }
  Term mean_pairs = term(fmt::format("windows: mean causal (query, key) pairs per sequence over {} "
                                     "attention layers",
                                     format_g(served)),
                         "", served > 0 ? pairs / served : T * T / 2.0, TermUnit::ratio);
  if (served > 0 && mean_pairs.value != T * T / 2.0) {
    mean_pairs.remark =
        fmt::format("T²/2 = {:.6g} for full layers; sliding/chunked layers see at most W or C keys",
                    T * T / 2.0);
    work.notes.push_back(render(mean_pairs));
  }
  const Term flops = term("flops", "2·n_q·pairs·(d_qk + d_v)·batch (pairs = T²/2 causal)",
                          2.0 * n_q * mean_pairs.value * (hd_qk + hd_v) * batch, TermUnit::flops);
  const Term q = part("Q", batch * T * n_q * hd_qk * a),
             k = part("K", batch * T * n_kv * hd_qk * kv);
  const Term v = part("V", batch * T * n_kv * hd_v * kv), o = part("O", batch * T * n_q * hd_v * a);
  Term bytes = sum("bytes", {q, k, v, o});
  bytes.remark = "each once";
  work.kv_bytes = k.value + v.value;
  work.compute_dtype = wider_dtype(in.dtypes.act, in.dtypes.kv);
  work.notes.push_back(
      fmt::format("prefill attention{}: M = {} rows ({}), T = {} tokens per sequence chunk, batch "
                  "= {}, causal; "
                  "per-rank n_q {}, n_kv {}, head dims qk {} / v {}",
                  mla ? " (MLA, decompressed heads)" : "", format_g(M), in.rows_source, format_g(T),
                  format_g(batch), format_g(n_q), format_g(n_kv), format_g(hd_qk), format_g(hd_v)));
  work.notes.push_back(render_all({bytes, flops}));
  add_candidate(work, "Q, K, V, O once", bytes, flops);
}

void decode_reduce(const ModelInput& in, WorkEstimate& work, double B) {
  const ModelConfig& c = *in.ctx.config;
  const double hd_v = c.kv_lora_rank && *c.kv_lora_rank > 0 ? *c.kv_lora_rank : *c.head_dim;
  split_kv_reduce(SplitKvReduce{B, in.rows_source, *c.n_heads / in.tp, hd_v, in.dtypes.act.bytes},
                  work);
}

}  // namespace

void split_kv_reduce(const SplitKvReduce& r, WorkEstimate& work) {
  const Term partials = part("B·n_q·splits·(head_dim + 1)·4",
                             r.rows * r.n_q * k_assumed_kv_splits * (r.d_v + 1.0) * 4.0);
  const Term out = part("B·n_q·head_dim·a", r.rows * r.n_q * r.d_v * r.out_bytes);
  const Term bytes = sum("bytes", {partials, out});
  const Term flops = term("flops", "B·n_q·splits·head_dim·2",
                          r.rows * r.n_q * k_assumed_kv_splits * r.d_v * 2.0, TermUnit::flops);
  work.compute_dtype = dtype_of(DtypeKey::fp32);
  work.has_compute_peak_class = false;
  work.notes.push_back(fmt::format(
      "split-KV reduction: reads fp32 partial outputs + log-sum-exp for an assumed {} KV splits "
      "(num_kv_splits is not in the inputs) = {}, writes the output {}; B = {} ({}), n_q {}, head "
      "dim {}",
      format_g(k_assumed_kv_splits), shown(partials), shown(out), format_g(r.rows), r.rows_source,
      format_g(r.n_q), format_g(r.d_v)));
  add_candidate(work, "partials + output", bytes, flops);
}

void model_attention(const ModelInput& in, WorkEstimate& work) {
  const ModelConfig* cfg = in.ctx.config;
  if (!cfg) {
    work.unmodeled_reason =
        "attention byte model needs the model config.json (num_attention_heads, "
        "num_key_value_heads, head_dim): " +
        in.ctx.config_status;
    return;
  }
  using V = AttnVariant;
  const V variant = variant_for(in);
  const V named = in.cls.detail.attn;
  if (!in.regime.known && named != V::decode_reduce && named != V::indexer && named != V::prefill &&
      named != V::mla_decode && named != V::decode) {
    work.unmodeled_reason =
        regime_unknown_reason(in.regime, "attention byte model (prefill or decode)");
    return;
  }
  if (variant == V::indexer) return model_indexer(in, work);
  std::string missing;
  require(cfg->n_heads, "num_attention_heads", missing);
  if (variant == V::mla_decode)
    require(cfg->kv_lora_rank, "kv_lora_rank", missing);
  else
    require(cfg->head_dim, "head_dim (or hidden_size)", missing);
  if (variant != V::mla_decode && variant != V::decode_reduce)
    require(cfg->n_kv_heads, "num_key_value_heads", missing);
  if (!missing.empty()) {
    work.unmodeled_reason = "attention byte model: config.json lacks " + missing;
    return;
  }
  if (!in.rows && !in.regime.known) {
    work.unmodeled_reason = regime_unknown_reason(in.regime, "attention byte model");
    return;
  }
  if (!in.rows) {
    work.unmodeled_reason = rows_missing_reason(in.regime.regime, "attention byte model");
    return;
  }
  if (!cfg->plan.empty())
    work.notes.push_back(fmt::format("attention layers: {} served by one kernel ({})",
                                     format_g(layers_served(cfg->plan, Served::softmax_attention)),
                                     cfg->full_attention_rule));
  else if (cfg->full_attention_layers)
    work.notes.push_back(fmt::format("attention layers: {} ({})",
                                     format_g(*cfg->full_attention_layers),
                                     cfg->full_attention_rule));
  if (variant == V::prefill) return prefill(in, work);
  if (variant == V::decode_reduce) return decode_reduce(in, work, *in.rows);
  double S = 0;
  if (!decode_context(in, S, missing)) {
    work.unmodeled_reason = "decode attention byte model needs " + missing;
    return;
  }
  if (variant == V::mla_decode) return decode_mla(in, work, *in.rows, S);
  decode_gqa(in, work, *in.rows, S);
}

}  // namespace roofline::analyze::detail
