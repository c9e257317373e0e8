// The dtypes a model reads an entry with (docs/method.md §8.1, §7.5, §23.5): activations,
// weights, the model's and the KV cache's, each with where it came from — the entry's recorded
// dtypes, the kernel's template types, quantization_config, the env report, the config.
#include "roofline/analyze/evidence/resolve_dtypes.hpp"

#include <fmt/format.h>

#include "roofline/base/units.hpp"

namespace roofline::analyze::detail {
namespace {

const Dtype k_bf16 = dtype_of(DtypeKey::bf16);

// The weight dtype a quantization_config implies (bytes per element with its scales).
Dtype quantized_weight_dtype(const ModelConfig& cfg) {
  const double bytes = *cfg.quant_weight_bytes;
  DtypeKey key = cfg.quant_weight_key;
  if (key.empty()) {  // hand-built configs: guess the element type from the width
    const bool fp = cfg.quant_method.find("fp") != std::string::npos;
    key = bytes <= 0.5   ? (fp ? DtypeKey::fp4 : DtypeKey::int4)
          : bytes <= 1.0 ? (fp ? DtypeKey::fp8 : DtypeKey::int8)
                         : DtypeKey::bf16;
  }
  return Dtype{key, bytes, key != DtypeKey::int4};
}

// Index of the operand that holds the weights for this class, when the entry's dtypes can say.
std::optional<std::size_t> weight_operand(const TopnEntry& e, OpClass cls) {
  if (cls == OpClass::moe) {
    // The expert stack is the 3-D operand; without one the operands are the hidden states and
    // the router logits (a captured moe_forward), which carry no weight dtype.
    for (std::size_t i = 0; i < e.shapes.size(); ++i)
      if (e.shapes[i].size() == 3) return i;
    if (!e.shapes.empty()) return std::nullopt;
    return std::size_t{1};
  }
  if (cls == OpClass::gemm) return std::size_t{1};
  return std::nullopt;
}

// What a GEMM kernel's template types say of one operand (docs/method.md §7.5): fp8 values, or fp4
// values with the block scales the name's scale type implies; nullopt when the name says nothing.
std::optional<Dtype> name_dtype(const Classification& cls, bool activation) {
  if ((cls.op_class != OpClass::gemm && cls.op_class != OpClass::moe) || cls.operand_dtype.empty())
    return std::nullopt;
  const std::string& spelled = activation ? cls.activation_dtype : cls.operand_dtype;
  if (spelled.empty()) return std::nullopt;
  auto d = parse_dtype(spelled);
  // Block scales the name's types imply ride on the values they scale (fp4's ue4m3 / ue8m0, CK's
  // float scales over fp8 blocks).
  const double scales = activation ? cls.activation_scale_bytes : cls.weight_scale_bytes;
  if (d && (d->key == DtypeKey::fp4 || d->key == DtypeKey::fp8)) d->bytes += scales;
  return d;
}

std::string name_dtype_source(const Dtype& d) {
  const bool scaled =
      (d.key == DtypeKey::fp4 && d.bytes > 0.5) || (d.key == DtypeKey::fp8 && d.bytes > 1.0);
  return fmt::format("the kernel's template types: {} ({} B per value{})", d.key, format_g(d.bytes),
                     scaled ? " with its block scales" : "");
}

// Activations: entry dtypes[0], else the kernel's template types, else config torch_dtype|dtype,
// else bf16.
void dtypes_activation(ResolvedDtypes& d, const TopnEntry& e, const Classification& cls,
                       const ModelConfig* cfg, const std::optional<Dtype>& cfg_dtype) {
  if (!e.dtypes.empty() && parse_dtype(e.dtypes[0])) {
    d.act = *parse_dtype(e.dtypes[0]);
    d.act_source = fmt::format("entry dtypes[0] '{}'", e.dtypes[0]);
  } else if (const auto named = name_dtype(cls, true)) {
    d.act = *named;
    d.act_source = name_dtype_source(*named);
  } else if (cfg_dtype) {
    d.act = *cfg_dtype;
    d.act_source = fmt::format("config dtype '{}'", cfg->dtype);
  } else {
    d.act = k_bf16;
    d.act_source = "default bf16 (no entry or config dtype)";
  }
}

// docs/method.md §23.5: the quantization before the kernel that its launches read, when one format
// covers at least `share` of them (nullptr: none, two formats, or too few launches).
const TopnInputQuant* input_quant(const TopnEntry& e, double share, double& launches) {
  if (e.input_quant.empty()) return nullptr;
  const TopnInputQuant& first = e.input_quant.front();  // most launches first
  const DtypeKey key = canonical_dtype_key(first.dtype);
  launches = 0.0;
  for (const TopnInputQuant& q : e.input_quant) {
    if (canonical_dtype_key(q.dtype) != key) return nullptr;  // two formats: neither settles it
    launches += q.launches;
  }
  if (key.empty() || (e.calls && *e.calls > 0 && launches < share * *e.calls)) return nullptr;
  return &first;
}

std::string input_quant_text(const TopnEntry& e, const TopnInputQuant& q, double launches) {
  return fmt::format("the input is quantized to {} by '{}' {} ({} of {} launches)", q.dtype, q.by,
                     q.evidence, format_g(launches), e.calls ? format_g(*e.calls) : "?");
}

// The input a matrix kernel reads when nearly every launch reads a quantized one.
void dtypes_input(ResolvedDtypes& d, const TopnEntry& e) {
  double launches = 0.0;
  const TopnInputQuant* q = input_quant(e, 0.9, launches);
  if (!q) return;
  d.act_in = parse_dtype(q->dtype);
  if (d.act_in) d.act_in_source = input_quant_text(e, *q, launches);
}

// The activation rule (docs/method.md §23.5): an fp8 input quantized right before an MoE or GEMM
// kernel means W8A8 fp8 — only where the config is unquantized or fp8 (W4A8 exists).
bool activation_rule(ResolvedDtypes& d, const TopnEntry& e, const Classification& cls,
                     const ModelConfig* cfg, const RunWeights* run) {
  const bool quant = cfg && cfg->quant_weight_bytes;
  if (cls.op_class != OpClass::moe && cls.op_class != OpClass::gemm) return false;
  if (quant && quantized_weight_dtype(*cfg).key != DtypeKey::fp8) return false;
  double launches = 0.0;
  const TopnInputQuant* q = input_quant(e, 0.5, launches);
  const auto qd = q ? parse_dtype(q->dtype) : std::nullopt;
  if (!qd || qd->key != DtypeKey::fp8) return false;
  d.weight = quant ? quantized_weight_dtype(*cfg) : *qd;
  d.weight_source =
      fmt::format("W8A8: {}, so the weights are {} too{}", input_quant_text(e, *q, launches),
                  d.weight.key, quant ? fmt::format(" ({})", cfg->quant_rule) : "");
  if (run && !run->narrow && run->wide) {  // the run's linears say otherwise: both readings
    d.weight_other = *run->wide;
    d.weight_other_source = "the run's other linears: " + run->wide_source;
  }
  return true;
}

// A GEMM whose N is the vocabulary (lm_head, whole or per rank) or the expert count (the router):
// engines keep it unquantized under online quantization (docs/method.md §23.5).
bool kept_unquantized(const TopnEntry& e, const ModelConfig* cfg, double tp) {
  if (!cfg) return false;
  std::optional<double> n;
  for (Regime r : {Regime::decode, Regime::prefill})
    if (const auto& est = e.est_shape.at(r); est && est->n) n = est->n;
  if (!n && e.shapes.size() >= 2 && e.shapes[1].size() == 2)
    n = static_cast<double>(e.shapes[1][1]);  // [K, N] as the op table's KN layouts record it
  if (!n) return false;
  return (cfg->vocab && (*n == *cfg->vocab || *n == *cfg->vocab / tp)) ||
         (cfg->experts && *n == *cfg->experts);
}

// Weights the entry does not record: the kernel's template, the activation rule, the run's other
// linears (online quantization), quantization_config, env_report.model_dtype, the config dtype,
// else the activations' — the last two are no evidence of the trace's (weight_sound false).
void dtypes_unrecorded_weight(ResolvedDtypes& d, const TopnEntry& e, const Classification& cls,
                              const ModelContext& ctx, const std::optional<Dtype>& cfg_dtype) {
  const ModelConfig* cfg = ctx.config;
  const EnvReport* env = ctx.env;
  const RunWeights* run = ctx.weights;
  const bool quant = cfg && cfg->quant_weight_bytes;
  const bool matrix = cls.op_class == OpClass::moe || cls.op_class == OpClass::gemm;
  if (const auto named = e.dtypes.empty() || cls.op_class == OpClass::moe ? name_dtype(cls, false)
                                                                          : std::nullopt) {
    // The trace's own word (the kernel's template) before the config's (docs/method.md §23.5).
    const bool same = quant && cfg->quant_weight_key == named->key;
    d.weight = same ? quantized_weight_dtype(*cfg) : *named;
    d.weight_source =
        same ? fmt::format("{}, as {} says", name_dtype_source(*named), cfg->quant_rule)
        : quant || !cfg_dtype || cfg_dtype->bytes <= named->bytes
            ? name_dtype_source(*named)
            : fmt::format("{} (under a {} config without quantization_config: online quantization)",
                          name_dtype_source(*named), cfg->dtype);
  } else if (activation_rule(d, e, cls, cfg, run)) {
  } else if (matrix && !quant && run && run->narrow && !run->narrow_conflict &&
             !kept_unquantized(e, cfg, ctx.env ? ctx.env->tp : 1.0)) {
    d.weight = *run->narrow;
    d.weight_source =
        "the run's other linears (online quantization quantizes every linear and "
        "expert alike): " +
        run->narrow_source;
  } else if (quant) {
    d.weight = quantized_weight_dtype(*cfg);
    d.weight_source = cfg->quant_rule;
    d.weight_from_quant = true;
  } else if (env && parse_dtype(env->model_dtype)) {
    d.weight = *parse_dtype(env->model_dtype);
    d.weight_source = fmt::format("env_report model_dtype '{}'", env->model_dtype);
  } else {
    d.weight = cfg_dtype ? *cfg_dtype : d.act;
    d.weight_source = cfg_dtype ? fmt::format("config dtype '{}'", cfg->dtype)
                                : "same as activations (no weight dtype anywhere)";
    // The trace shows nothing of these weights unless the kernel's template names the same
    // 16-bit type or the run's other linears carry it.
    if (!cls.template_16bit.empty() && cls.template_16bit == d.weight.key.str()) {
      d.weight_source += fmt::format("; the kernel's template names {} too", cls.template_16bit);
    } else if (matrix && run && run->wide && !run->narrow && run->wide->key == d.weight.key) {
      d.weight_source += "; the run's other linears carry the same: " + run->wide_source;
    } else {
      d.weight_sound = false;
    }
    if (matrix && run && run->narrow && run->narrow_conflict) {
      d.weight_other = *run->narrow;
      d.weight_other_source = "the run's other linears: " + run->narrow_source;
    }
  }
}

// Weights: entry dtypes at the weight operand (an integer container never overrides a 4-bit
// quant_method; a float type matching the config's format takes its block scales), else the
// evidence for weights the trace does not record (dtypes_unrecorded_weight).
void dtypes_weight(ResolvedDtypes& d, const TopnEntry& e, const Classification& cls,
                   const ModelContext& ctx, const std::optional<Dtype>& cfg_dtype) {
  const ModelConfig* cfg = ctx.config;
  auto wi = weight_operand(e, cls.op_class);
  const bool quant = cfg && cfg->quant_weight_bytes;
  std::optional<Dtype> entry_w;
  if (wi && *wi < e.dtypes.size() && e.dtypes.size() >= 2) entry_w = parse_dtype(e.dtypes[*wi]);
  if (entry_w && entry_w->key == DtypeKey::int8 && quant && cfg->quant_bits == 4.0) {
    d.weight = quantized_weight_dtype(*cfg);
    d.weight_source =
        fmt::format("{} (entry dtypes[{}] '{}' is the integer container of packed 4-bit data)",
                    cfg->quant_rule, *wi, e.dtypes[*wi]);
    d.weight_from_quant = true;
  } else if (entry_w && quant && !cfg->quant_weight_key.empty() &&
             entry_w->key == cfg->quant_weight_key && *cfg->quant_weight_bytes != entry_w->bytes) {
    d.weight = quantized_weight_dtype(*cfg);
    d.weight_source = fmt::format("entry dtypes[{}] '{}' with the scales of {}", *wi, e.dtypes[*wi],
                                  cfg->quant_rule);
  } else if (entry_w) {
    d.weight = *entry_w;
    d.weight_source = fmt::format("entry dtypes[{}] '{}'", *wi, e.dtypes[*wi]);
  } else {
    dtypes_unrecorded_weight(d, e, cls, ctx, cfg_dtype);
  }
}

}  // namespace

// The activation, weight, model and KV-cache dtypes of an entry, each with where it came from.
ResolvedDtypes resolve_dtypes(const TopnEntry& e, const Classification& cls,
                              const ModelContext& ctx) {
  ResolvedDtypes d;
  const ModelConfig* cfg = ctx.config;
  const EnvReport* env = ctx.env;
  std::optional<Dtype> cfg_dtype =
      cfg && !cfg->dtype.empty() ? parse_dtype(cfg->dtype) : std::nullopt;
  dtypes_activation(d, e, cls, cfg, cfg_dtype);
  dtypes_weight(d, e, cls, ctx, cfg_dtype);
  dtypes_input(d, e);
  // The model dtype modules_to_not_convert keep (docs/method.md §8.6).
  d.model = cfg_dtype ? *cfg_dtype : k_bf16;
  d.model_source = cfg_dtype ? fmt::format("config dtype '{}'", cfg->dtype)
                             : std::string("bf16 (no config dtype)");
  // KV cache: env kv_cache_dtype (unless "auto"), else the activation dtype.
  if (env && !env->kv_cache_dtype.empty() && parse_dtype(env->kv_cache_dtype)) {
    d.kv = *parse_dtype(env->kv_cache_dtype);
    d.kv_source = fmt::format("env_report kv_cache_dtype '{}'", env->kv_cache_dtype);
  } else {
    d.kv = d.act;
    d.kv_source = env && !env->kv_cache_dtype.empty()
                      ? fmt::format("activation dtype (kv_cache_dtype '{}')", env->kv_cache_dtype)
                      : "activation dtype (no kv_cache_dtype)";
  }
  return d;
}

}  // namespace roofline::analyze::detail
