// Linear attention and state-space layers at decode (docs/method.md §8.13): one launch = one
// layer's recurrent state update (GDN, KDA, lightning, mamba2, mamba1) or its short causal conv.
// The chunked-prefill kernels stay L2 with the operand-bytes bound (docs/method.md §8.16).
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "roofline/analyze/layer.hpp"
#include "roofline/analyze/models/models.hpp"
#include "roofline/inputs/pattern.hpp"

namespace roofline::analyze::detail {
namespace {

struct Shape {
  Mixer mixer = Mixer::unknown;
  double bytes = 0, flops = 0, state = 0;  // state: the recurrent state read + write
  std::string formula;
};

// A layer kind's update from its byte and FLOP terms: "<what>; bytes = … ; flops = …".
Shape shape_of(Mixer m, const Term& bytes, const Term& flops, double state,
               const std::string& what) {
  return Shape{m, bytes.value, flops.value, state, what + "; " + render_all({bytes, flops})};
}

// The state dtype: the dtype of the largest rank >= 3 operand (the recurrent state, by shape)
// when the entry names a float type for it, else `fallback` (with why).
Dtype state_dtype(const ModelInput& in, const Dtype& fallback, const std::string& fallback_why,
                  std::string& why, std::optional<std::size_t>* index = nullptr) {
  const TopnEntry& e = in.entry;
  double largest = 0;
  std::optional<std::size_t> pick;
  for (std::size_t i = 0; i < e.shapes.size(); ++i) {
    const double n = elements(e.shapes[i]);
    if (e.shapes[i].size() >= 3 && n > largest) {
      largest = n;
      pick = i;
    }
  }
  if (index) *index = pick;
  if (pick && *pick < e.dtypes.size())
    if (auto dt = parse_dtype(e.dtypes[*pick]); dt && dt->has_peak_key) {
      why = fmt::format("entry dtypes[{}] '{}' (the largest state-shaped operand, shapes[{}])",
                        *pick, e.dtypes[*pick], *pick);
      return *dt;
    }
  why = fallback_why;
  return fallback;
}

// The activation dtype: the entry's first float operand that is not the state (state update
// kernels take the state first), else the resolved activation dtype.
Dtype activation_dtype(const ModelInput& in, std::optional<std::size_t> state, std::string& why) {
  const TopnEntry& e = in.entry;
  if (state && *state == 0)
    for (std::size_t i = 1; i < e.dtypes.size(); ++i)
      if (auto dt = parse_dtype(e.dtypes[i]); dt && dt->has_peak_key && dt->key != DtypeKey::fp32) {
        why = fmt::format("entry dtypes[{}] '{}' (operand 0 is the state)", i, e.dtypes[i]);
        return *dt;
      }
  why = in.dtypes.act_source;
  return in.dtypes.act;
}

bool any_dim(const TopnEntry& e, double v) {
  for (const auto& s : e.shapes)
    for (auto d : s)
      if (static_cast<double>(d) == v) return true;
  return false;
}

// Which layer kind a decode kernel of this family updates, from the detail and the layer plan.
Mixer decode_mixer(const ModelInput& in, StateRole detail, std::string& why) {
  const PlanCounts c = plan_counts(in.ctx.config->plan);
  if (detail == StateRole::kda) return Mixer::kda;
  if (detail == StateRole::lightning) return Mixer::lightning;
  if (detail == StateRole::gdn) {
    if (icontains(in.entry.name, "kda") || (c.kda > 0 && c.gdn == 0)) {
      why = "a gated-delta-rule kernel running KDA layers (IS_KDA variant or a KDA layer plan)";
      return Mixer::kda;
    }
    return Mixer::gdn;
  }
  if (detail == StateRole::mamba1) return Mixer::mamba1;
  if (detail == StateRole::mamba2) return Mixer::mamba2;
  if (detail == StateRole::update) {
    why = "selective state update: mamba1 or mamba2 by the layer plan";
    if (c.mamba2 + c.hybrid > 0) return Mixer::mamba2;
    if (c.mamba1 > 0) return Mixer::mamba1;
    if (in.ctx.config->mamba_heads) return Mixer::mamba2;
  }
  return Mixer::unknown;
}

// GDN and KDA share one formula (docs/method.md §8.13).
Shape delta_rule(const ModelInput& in, Mixer m, double N, double s, double a,
                 std::string& missing) {
  const ModelConfig& c = *in.ctx.config;
  double HK = 0, HV = 0, K = 0, V = 0;
  if (m == Mixer::kda) {
    require(c.kda_heads, "linear_attn_config.num_heads", missing);
    require(c.kda_head_dim, "linear_attn_config.head_dim", missing);
    if (!missing.empty()) return {};
    HK = HV = *c.kda_heads / in.tp;
    K = V = *c.kda_head_dim;
  } else {
    require(c.linear_key_heads, "linear_num_key_heads", missing);
    require(c.linear_value_heads, "linear_num_value_heads", missing);
    require(c.linear_key_head_dim, "linear_key_head_dim", missing);
    require(c.linear_value_head_dim, "linear_value_head_dim", missing);
    if (!missing.empty()) return {};
    HK = *c.linear_key_heads / in.tp;
    HV = *c.linear_value_heads / in.tp;
    K = *c.linear_key_head_dim;
    V = *c.linear_value_head_dim;
  }
  const Term state = part("2·N·HV·K·V·s (state read + write)", 2.0 * N * HV * K * V * s);
  const Term bytes =
      sum("bytes",
          {state, part("N·(2·HK·K + 2·HV·V)·a (q, k, v, o)", N * (2.0 * HK * K + 2.0 * HV * V) * a),
           part("N·HV·8 (gates)", N * HV * 8.0)});
  const Term flops = term("flops", "7·N·HV·K·V", 7.0 * N * HV * K * V, TermUnit::flops);
  return shape_of(m, bytes, flops, state.value,
                  fmt::format("{} decode: N = {}, per-rank HK = {}, HV = {}, K = {}, V = {} "
                              "(heads / tp {})",
                              m == Mixer::kda ? "KDA" : "GDN", format_g(N), format_g(HK),
                              format_g(HV), format_g(K), format_g(V), format_g(in.tp)));
}

// Mamba2 groups per rank: n_groups / tp when tp divides it, else replicated.
double mamba_groups(const ModelConfig& c, double tp) {
  const double G = c.mamba_groups.value_or(1.0);
  return std::fmod(G, tp) == 0.0 ? G / tp : G;
}

Shape recurrent(const ModelInput& in, Mixer m, double N, double s, double a, std::string& missing) {
  const ModelConfig& c = *in.ctx.config;
  if (m == Mixer::gdn || m == Mixer::kda) return delta_rule(in, m, N, s, a, missing);
  Shape r{m, 0, 0, 0, ""};
  if (m == Mixer::lightning) {
    require(c.n_heads, "num_attention_heads", missing);
    require(c.head_dim, "head_dim", missing);
    if (!missing.empty()) return {};
    const double H = *c.n_heads / in.tp, D = *c.head_dim;
    const Term state = part("2·N·H·D²·s", 2.0 * N * H * D * D * s);
    const Term bytes = sum_of_formulas("bytes", {state, part("4·N·H·D·a", 4.0 * N * H * D * a)});
    const Term flops = term("flops", "5·N·H·D²", 5.0 * N * H * D * D, TermUnit::flops);
    r = shape_of(m, bytes, flops, state.value,
                 fmt::format("lightning decode: N = {}, H = {} (heads / tp {}), D = {}",
                             format_g(N), format_g(H), format_g(in.tp), format_g(D)));
  } else if (m == Mixer::mamba2) {
    require(c.mamba_heads, "mamba_num_heads", missing);
    require(c.mamba_head_dim, "mamba_head_dim", missing);
    require(c.ssm_state_size, "ssm_state_size", missing);
    if (!missing.empty()) return {};
    const double Hm = *c.mamba_heads / in.tp, P = *c.mamba_head_dim, Ns = *c.ssm_state_size;
    const double G = mamba_groups(c, in.tp);
    const Term state = part("2·N·Hm·P·Ns·s (state read + write)", 2.0 * N * Hm * P * Ns * s);
    const Term bytes = sum("bytes", {state, part("N·(3·Hm·P + 2·G·Ns)·a (x, z, y, B, C)",
                                                 N * (3.0 * Hm * P + 2.0 * G * Ns) * a)});
    const Term flops = term("flops", "6·N·Hm·P·Ns", 6.0 * N * Hm * P * Ns, TermUnit::flops);
    r = shape_of(m, bytes, flops, state.value,
                 fmt::format("mamba2 decode: N = {}, per-rank Hm = {}, P = {}, Ns = {}, G = {}",
                             format_g(N), format_g(Hm), format_g(P), format_g(Ns), format_g(G)));
  } else if (m == Mixer::mamba1) {
    require(c.mamba_expand, "mamba_expand", missing);
    require(c.hidden, "hidden_size", missing);
    require(c.ssm_state_size, "mamba_d_state", missing);
    if (!missing.empty()) return {};
    const double Di = *c.mamba_expand * *c.hidden / in.tp, Ns = *c.ssm_state_size;
    const Term state = part("2·N·Di·Ns·s", 2.0 * N * Di * Ns * s);
    const Term bytes = sum_of_formulas("bytes", {state, part("3·N·Di·a", 3.0 * N * Di * a)});
    const Term flops = term("flops", "6·N·Di·Ns", 6.0 * N * Di * Ns, TermUnit::flops);
    r = shape_of(m, bytes, flops, state.value,
                 fmt::format("mamba1 decode: N = {}, Di = mamba_expand·hidden/tp = {}, Ns = {}",
                             format_g(N), format_g(Di), format_g(Ns)));
  }
  return r;
}

// Conv width Cd and kernel Kc of the layer kind's short causal conv.
bool conv_dims(const ModelConfig& c, Mixer m, double tp, double& Cd, double& Kc) {
  auto ok = [](const std::optional<double>& v) { return v && *v > 0; };
  if (m == Mixer::gdn && ok(c.linear_key_heads) && ok(c.linear_value_heads) &&
      ok(c.linear_key_head_dim) && ok(c.linear_value_head_dim) && ok(c.linear_conv_kernel)) {
    Cd = 2.0 * *c.linear_key_heads / tp * *c.linear_key_head_dim +
         *c.linear_value_heads / tp * *c.linear_value_head_dim;
    Kc = *c.linear_conv_kernel;
    return true;
  }
  if (m == Mixer::kda && ok(c.kda_heads) && ok(c.kda_head_dim) && ok(c.kda_conv_kernel)) {
    Cd = 3.0 * *c.kda_heads / tp * *c.kda_head_dim;  // q, k and v each pass a short conv
    Kc = *c.kda_conv_kernel;
    return true;
  }
  if ((m == Mixer::mamba2 || m == Mixer::hybrid) && ok(c.mamba_heads) && ok(c.mamba_head_dim) &&
      ok(c.ssm_state_size) && ok(c.mamba_conv_kernel)) {
    Cd = *c.mamba_heads / tp * *c.mamba_head_dim + 2.0 * mamba_groups(c, tp) * *c.ssm_state_size;
    Kc = *c.mamba_conv_kernel;
    return true;
  }
  if (m == Mixer::mamba1 && ok(c.mamba_expand) && ok(c.hidden) && ok(c.mamba_conv_kernel)) {
    Cd = *c.mamba_expand * *c.hidden / tp;
    Kc = *c.mamba_conv_kernel;
    return true;
  }
  return false;
}

// The conv's layer kind: the plan's linear or mamba kind; with both, the one whose width the
// shapes show.
Mixer conv_mixer(const ModelInput& in, std::string& why) {
  const ModelConfig& c = *in.ctx.config;
  const PlanCounts n = plan_counts(c.plan);
  std::vector<Mixer> kinds;
  for (auto [m, count] :
       {std::pair{Mixer::gdn, n.gdn}, std::pair{Mixer::kda, n.kda},
        std::pair{Mixer::mamba2, n.mamba2 + n.hybrid}, std::pair{Mixer::mamba1, n.mamba1}})
    if (count > 0) kinds.push_back(m);
  for (Mixer m : kinds) {
    double Cd = 0, Kc = 0;
    if (kinds.size() > 1 && conv_dims(c, m, in.tp, Cd, Kc) && any_dim(in.entry, Cd)) {
      why = fmt::format("the shapes show the {} conv width {}", to_string(m), format_g(Cd));
      return m;
    }
  }
  if (!kinds.empty()) {
    why = fmt::format("the layer plan's {} layers", to_string(kinds.front()));
    return kinds.front();
  }
  return Mixer::unknown;
}

bool is_mamba(Mixer m) {
  return m == Mixer::mamba1 || m == Mixer::mamba2 || m == Mixer::hybrid;
}

// A short causal conv's update of N sequences (docs/method.md §8.13): conv state read and written,
// input and output; nullopt with `work.unmodeled_reason` when the plan or the config cannot say.
std::optional<Shape> conv_update(const ModelInput& in, double N, WorkEstimate& work) {
  const ModelConfig* cfg = in.ctx.config;
  std::string why, s_why;
  const Mixer m = conv_mixer(in, why);
  double Cd = 0, Kc = 0;
  if (m == Mixer::unknown || !conv_dims(*cfg, m, in.tp, Cd, Kc)) {
    work.unmodeled_reason =
        m == Mixer::unknown
            ? "short conv: the layer plan has no linear-attention or mamba layers"
            : fmt::format("short conv of {} layers: config.json lacks the conv width keys",
                          to_string(m));
    return std::nullopt;
  }
  std::optional<std::size_t> si;
  const Dtype s = state_dtype(in, in.dtypes.act, "the activation dtype", s_why, &si);
  std::string a_why;
  const double a = activation_dtype(in, si, a_why).bytes;
  const Term bytes = sum_of_formulas(
      "bytes", {part(fmt::format("2·N·Cd·(Kc−1)·s (conv state read + write, s = {} B from {})",
                                 s.bytes, s_why),
                     2.0 * N * Cd * (Kc - 1.0) * s.bytes),
                part("2·N·Cd·a (in, out)", 2.0 * N * Cd * a)});
  const Term flops = term("flops", "2·N·Cd·Kc", 2.0 * N * Cd * Kc, TermUnit::flops);
  return shape_of(m, bytes, flops, 0.0,
                  fmt::format("short conv of {} layers ({}): N = {}, Cd = {}, Kc = {}",
                              to_string(m), why, format_g(N), format_g(Cd), format_g(Kc)));
}

// A recurrent state update of N sequences (GDN, KDA, lightning, mamba2, mamba1) with its state and
// activation dtypes; nullopt with `work.unmodeled_reason` when the plan or the config cannot say.
std::optional<Shape> state_update(const ModelInput& in, double N, WorkEstimate& work) {
  const ModelConfig* cfg = in.ctx.config;
  const StateRole detail = in.cls.detail.state;
  std::string why, s_why, missing;
  const Mixer m = decode_mixer(in, detail, why);
  if (m == Mixer::unknown) {
    work.unmodeled_reason =
        fmt::format("state update ({}): the layer plan has no mamba layers to say mamba1 or mamba2",
                    to_string(detail));
    return std::nullopt;
  }
  Dtype fallback = dtype_of(DtypeKey::fp32);
  std::string fallback_why =
      "fp32 by default (no float state operand, no mamba_ssm_dtype in config; SGLang keeps "
      "fp32 states, vLLM the model dtype)";
  if (!cfg->state_dtype_key.empty()) {
    fallback = dtype_of(cfg->state_dtype_key);
    fallback_why = fmt::format("config state dtype '{}'", cfg->state_dtype);
  }
  std::optional<std::size_t> si;
  const Dtype s = state_dtype(in, fallback, fallback_why, s_why, &si);
  std::string a_why;
  const Dtype act = activation_dtype(in, si, a_why);
  Shape r = recurrent(in, m, N, s.bytes, act.bytes, missing);
  work.kv_dtype = s.key;
  if (!missing.empty()) {
    work.unmodeled_reason =
        fmt::format("{} state update: config.json lacks {}", to_string(m), missing);
    return std::nullopt;
  }
  r.formula += fmt::format("; state dtype {} ({} B, {}), activations {} ({} B, {})", s.key, s.bytes,
                           s_why, act.key, act.bytes, a_why);
  if (!why.empty()) r.formula += "; " + why;
  return r;
}

// Why a state kernel gets no decode state-update model (empty when it gets one): a prefill or
// unnamed role, a prefill regime, or no sequences in flight.
std::string linear_unmodeled_reason(const ModelInput& in, StateRole detail) {
  if (detail == StateRole::prefill || detail == StateRole::conv_prefill ||
      detail == StateRole::unnamed)
    return detail == StateRole::unnamed
               ? "linear-attention / state-space kernel of unknown role: no byte model"
               : "chunked-prefill linear-attention / state-space kernel: no per-kernel "
                 "model yet (docs/method.md §8.13); operand-bytes bound only";
  if (!in.regime.known)
    return regime_unknown_reason(in.regime, "linear-attention decode state-update model");
  if (in.regime.regime != Regime::decode)
    return "decode state-update model only (one launch = one layer, one token per sequence); this "
           "entry runs in prefill";
  if (!in.rows)
    return rows_missing_reason(Regime::decode, "linear-attention / state-space byte model");
  return "";
}

}  // namespace

void model_linear_attention(const ModelInput& in, WorkEstimate& work) {
  const ModelConfig* cfg = in.ctx.config;
  const StateRole detail = in.cls.detail.state;
  work.has_compute_peak_class = false;  // vector units: the memory axis decides
  work.compute_dtype = in.dtypes.act;
  if (!cfg) {
    work.unmodeled_reason =
        "linear-attention / state-space byte model needs the model config.json: " +
        in.ctx.config_status;
    return;
  }
  const PlanCounts counts = plan_counts(cfg->plan);
  const bool conv = detail == StateRole::conv || detail == StateRole::conv_prefill;
  std::string why;
  if (conv) {
    const Mixer m = conv_mixer(in, why);
    const OpClass want = is_mamba(m) ? OpClass::ssm : OpClass::linear_attn;
    if (m != Mixer::unknown && want != in.cls.op_class) {
      work.op_class = want;
      work.notes.push_back(
          fmt::format("op class {}: a short conv of {} ({})", to_string(want), to_string(m), why));
    }
  }
  if (std::string reason = linear_unmodeled_reason(in, detail); !reason.empty()) {
    work.unmodeled_reason = reason;
    return;
  }
  const double N = *in.rows;
  const std::optional<Shape> update = conv ? conv_update(in, N, work) : state_update(in, N, work);
  if (!update) return;
  const Shape& r = *update;
  const double served =
      is_mamba(r.mixer) ? counts.mamba()
      : r.mixer == Mixer::gdn || r.mixer == Mixer::kda || r.mixer == Mixer::lightning
          ? counts.linear()
          : 0.0;
  work.notes.push_back(r.formula);
  if (served > 0)
    work.notes.push_back(
        fmt::format("one launch = one layer: this kernel serves the {} {} layers of the layer plan",
                    format_g(served), is_mamba(r.mixer) ? "mamba" : "linear-attention"));
  work.kv_bytes = r.state;
  work.candidates.push_back(
      {conv ? "short conv update" : fmt::format("{} state update", to_string(r.mixer)), r.bytes,
       r.flops, std::nullopt});
}

}  // namespace roofline::analyze::detail
