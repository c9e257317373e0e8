// Step 7, model_work (docs/method.md §8): dispatch to the per-class byte/FLOP model, then the
// feasibility rule.
#include "roofline/analyze/steps/model_work.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "roofline/analyze/layer.hpp"
#include "roofline/analyze/models/models.hpp"
#include "roofline/analyze/models/operand_dtypes.hpp"

namespace roofline::analyze {
namespace detail {

double elements(const std::vector<std::int64_t>& dims) {
  if (dims.empty()) return 0.0;
  double n = 1.0;
  for (auto d : dims) n *= static_cast<double>(d);
  return n;
}

void require(const std::optional<double>& value, const char* name, std::string& missing) {
  if (value && *value > 0) return;
  if (!missing.empty()) missing += ", ";
  missing += name;
}

std::string est_label(const RegimeChoice& regime) {
  return regime.known ? fmt::format("est_shape.{}", to_string(regime.regime)) : "the case's rows";
}

std::string regime_unknown_reason(const RegimeChoice& regime, const char* model) {
  if (regime.known) return "";
  return fmt::format(
      "{} needs the regime, and nothing says it ({}): step annotations in the trace, a recorded "
      "query length (max_seqlen_q), or operand shapes with workload.conc would settle it",
      model, regime.why);
}

}  // namespace detail

namespace {

using detail::ResolvedDtypes;

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
std::optional<std::size_t> weight_operand(const TopNEntry& e, OpClass cls) {
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
  if (cls.op_class != OpClass::gemm || cls.operand_dtype.empty()) return std::nullopt;
  const std::string& spelled = activation ? cls.activation_dtype : cls.operand_dtype;
  if (spelled.empty()) return std::nullopt;
  auto d = parse_dtype(spelled);
  if (d && d->key == DtypeKey::fp4) d->bytes += cls.weight_scale_bytes;
  return d;
}

std::string name_dtype_source(const Dtype& d) {
  return fmt::format("the kernel's template types: {} ({} B per value{})", d.key, format_g(d.bytes),
                     d.key == DtypeKey::fp4 && d.bytes > 0.5 ? " with its block scales" : "");
}

// Activations: entry dtypes[0], else the kernel's template types, else config torch_dtype|dtype,
// else bf16.
void dtypes_activation(ResolvedDtypes& d, const TopNEntry& e, const Classification& cls,
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

// Weights: entry dtypes at the weight operand (an integer container never overrides a 4-bit
// quant_method; a float type matching the config's format takes its block scales), else
// quantization_config, else env_report.model_dtype, else config dtype, else activations.
void dtypes_weight(ResolvedDtypes& d, const TopNEntry& e, const Classification& cls,
                   const ModelConfig* cfg, const EnvReport* env,
                   const std::optional<Dtype>& cfg_dtype) {
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
  } else if (const auto named = e.dtypes.empty() ? name_dtype(cls, false) : std::nullopt) {
    // The trace's own word (the kernel's template) before the config's (docs/method.md §23.5).
    const bool same = quant && cfg->quant_weight_key == named->key;
    d.weight = same ? quantized_weight_dtype(*cfg) : *named;
    d.weight_source =
        same ? fmt::format("{}, as {} says", name_dtype_source(*named), cfg->quant_rule)
        : quant || !cfg_dtype || cfg_dtype->bytes <= named->bytes
            ? name_dtype_source(*named)
            : fmt::format("{} (under a {} config without quantization_config: online quantization)",
                          name_dtype_source(*named), cfg->dtype);
  } else if (quant) {
    d.weight = quantized_weight_dtype(*cfg);
    d.weight_source = cfg->quant_rule;
    d.weight_from_quant = true;
  } else if (env && parse_dtype(env->model_dtype)) {
    d.weight = *parse_dtype(env->model_dtype);
    d.weight_source = fmt::format("env_report model_dtype '{}'", env->model_dtype);
  } else if (cfg_dtype) {
    d.weight = *cfg_dtype;
    d.weight_source = fmt::format("config dtype '{}'", cfg->dtype);
  } else {
    d.weight = d.act;
    d.weight_source = "same as activations (no weight dtype anywhere)";
  }
}

// The activation, weight, model and KV-cache dtypes of an entry, each with where it came from.
ResolvedDtypes resolve_dtypes(const TopNEntry& e, const Classification& cls,
                              const ModelContext& ctx) {
  ResolvedDtypes d;
  const ModelConfig* cfg = ctx.config;
  const EnvReport* env = ctx.env;
  std::optional<Dtype> cfg_dtype =
      cfg && !cfg->dtype.empty() ? parse_dtype(cfg->dtype) : std::nullopt;
  dtypes_activation(d, e, cls, cfg, cfg_dtype);
  dtypes_weight(d, e, cls, cfg, env, cfg_dtype);
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

void rows_in_flight(const TopNEntry& e, const RegimeChoice& regime, const ModelContext& ctx,
                    std::optional<double>& rows, std::string& source) {
  if (auto est = e.est_shape.at(regime.regime); est && est->m && *est->m > 0) {
    rows = *est->m;
    source = detail::est_label(regime) + ".M";
    return;
  }
  if (!ctx.env || !regime.known) return;
  const Workload& w = ctx.env->workload;
  if (regime.regime == Regime::decode && w.conc && *w.conc > 0) {
    rows = *w.conc;
    source = "decode: workload.conc";
  } else if (regime.regime == Regime::prefill && w.isl && *w.isl > 0) {
    rows = *w.isl;
    source = "prefill: workload.isl";
  }
}

}  // namespace

namespace {

// A collective's one figure is judged against the link roof, not the HBM byte budget.
void choose_link_candidate(WorkEstimate& work) {
  work.chosen = 0;
  for (auto& c : work.candidates) c.feasible.reset();
  work.bytes = work.candidates[0].bytes;
  work.flops = work.candidates[0].flops;
}

// Runs the byte/FLOP model of the entry's class.
void work_dispatch_model(const detail::ModelInput& in, OpClass cls, WorkEstimate& work) {
  switch (cls) {
    case OpClass::gemm:
      detail::model_gemm(in, work);
      break;
    case OpClass::moe:
      detail::model_moe(in, work);
      break;
    case OpClass::attn:
      detail::model_attention(in, work);
      break;
    case OpClass::linear_attn:
    case OpClass::ssm:
      detail::model_linear_attention(in, work);
      break;
    case OpClass::comm:
      detail::model_comm(in, work);
      break;
    case OpClass::elementwise:
      detail::model_elementwise(in, work);
      break;
    case OpClass::unknown:
      break;
  }
}

// True when the model gave usable candidates; otherwise says why not and drops them.
bool work_candidates_usable(WorkEstimate& work) {
  if (!work.unmodeled_reason.empty() || work.candidates.empty()) {
    if (work.unmodeled_reason.empty()) work.unmodeled_reason = "no byte model produced";
    work.candidates.clear();
    return false;
  }
  for (const Candidate& c : work.candidates) {
    if (!std::isfinite(c.bytes) || !std::isfinite(c.flops) || c.bytes < 0 || c.flops < 0) {
      work.unmodeled_reason = fmt::format(
          "byte model '{}' gave a non-finite or negative value (bytes {}, flops {}): check the "
          "config and "
          "shape values",
          c.label, c.bytes, c.flops);
      work.candidates.clear();
      return false;
    }
  }
  return true;
}

}  // namespace

void choose_candidate(WorkEstimate& work, const ResolvedPeaks& peaks) {
  if (work.candidates.empty()) return;
  if (work.comm) return choose_link_candidate(work);
  const std::optional<double> budget = byte_budget(feasibility_bw(peaks), work.t_unit_ms);
  work.chosen = 0;
  while (work.chosen + 1 < work.candidates.size() && !work.candidates[work.chosen].in_choice)
    ++work.chosen;
  std::size_t in_choice = 0;
  for (const auto& c : work.candidates) in_choice += c.in_choice ? 1 : 0;
  if (!budget) {
    for (auto& c : work.candidates) c.feasible.reset();
    if (in_choice > 1)
      work.notes.push_back(fmt::format("no bandwidth peak to test candidates against; using '{}'",
                                       work.candidates[work.chosen].label));
  } else {
    std::optional<std::size_t> best;
    for (std::size_t i = 0; i < work.candidates.size(); ++i) {
      auto& c = work.candidates[i];
      c.feasible = c.bytes <= *budget;
      if (c.in_choice && *c.feasible && (!best || c.bytes > work.candidates[*best].bytes)) best = i;
    }
    work.any_feasible = best.has_value();
    if (best) work.chosen = *best;
    if (work.candidates.size() > 1 || !work.any_feasible) {
      std::string list;
      // docs/method.md §5.7: the budget is the datasheet's even where the ceiling is measured.
      const char* bw = peaks.memory_ceiling == CeilingKind::measured ? "datasheet bw" : "peak bw";
      for (const auto& c : work.candidates)
        list +=
            fmt::format("{}{} {} ({}{} of {} × t_unit{})", list.empty() ? "" : "; ", c.label,
                        format_bytes(c.bytes, Digits::exact),
                        *c.feasible ? "feasible, " : "infeasible, ", format_pct(c.bytes / *budget),
                        bw, c.in_choice ? "" : "; reported for comparison, not in the choice");
      const std::string rule = in_choice > 1 ? "largest feasible" : "the reported model";
      work.notes.push_back(
          work.any_feasible
              ? fmt::format("byte candidates: {} → '{}' ({})", list,
                            work.candidates[work.chosen].label, rule)
              : fmt::format("byte candidates: {} → none feasible: the byte model is refuted by the "
                            "measured time (at most {} can move in t_unit)",
                            list, format_bytes(*budget, Digits::exact)));
    }
  }
  work.bytes = work.candidates[work.chosen].bytes;
  work.flops = work.candidates[work.chosen].flops;
}

WorkEstimate model_candidates(const TopNEntry& e, const RegimeChoice& regime,
                              const Classification& cls, const ModelContext& ctx) {
  WorkEstimate work;
  if (!regime.t_ms || !(*regime.t_ms > 0)) {
    work.unmodeled_reason =
        regime.t_ms    ? fmt::format("per-launch time {} ms is not positive ({})",
                                     format_g(*regime.t_ms), regime.t_source)
        : regime.known ? fmt::format("no per-launch time: neither base_latency_ms.{} nor avg_us",
                                     to_string(regime.regime))
                       : std::string("no per-launch time: no avg_us");
    return work;
  }
  work.t_unit_ms = *regime.t_ms;
  work.unit = "1 launch";
  if (cls.op_class == OpClass::unknown) {
    work.unmodeled_reason =
        !cls.detail.empty()
            ? fmt::format("op class unknown ({}): no byte model", to_string(cls.detail))
            : "op class unknown: no byte model (use --classify PATTERN=CLASS)";
    return work;
  }
  detail::ModelInput in{e, regime, cls, ctx, resolve_dtypes(e, cls, ctx), 1.0, std::nullopt, {}};
  if (ctx.env) in.tp = ctx.env->tp;
  rows_in_flight(e, regime, ctx, in.rows, in.rows_source);
  work.weight_dtype = in.dtypes.weight.key;
  work.activation_dtype = in.dtypes.act.key;
  work.kv_dtype = in.dtypes.kv.key;
  work_dispatch_model(in, cls.op_class, work);
  if (!work_candidates_usable(work)) return work;
  work.modeled = true;
  return work;
}

SignatureCases signature_cases(const TopNEntry& e, OpClass cls, const ModelConfig* config) {
  SignatureCases out;
  if (!e.dtypes_are_set || e.signatures.empty()) return out;
  // The profiler's format (docs/method.md §8.2): each call signature a case, dtypes by role.
  for (const auto& sig : e.signatures) {
    OperandDtypes d = operand_dtypes(e.dtypes, sig, cls, config);
    out.rule = d.rule;
    ProbeCase c;
    c.dims = sig;
    c.dtypes = std::move(d.dtypes);
    out.cases.push_back(std::move(c));
  }
  out.bound_dtypes =
      operand_dtypes(e.dtypes, e.signatures.front(), OpClass::elementwise, config).dtypes;
  return out;
}

// Step 7 gets the Top-N's call signatures from the driver as cases (signature_cases) and runs the
// case model over them; it never reaches into step 8, which runs the same case model on the
// evidence (the workload's and the probes' cases) afterwards.
WorkEstimate model_work(const TopNEntry& e, const RegimeChoice& regime, const Classification& cls,
                        const ModelContext& ctx, const SignatureCases& signatures) {
  if (!signatures.cases.empty()) {
    std::vector<const ProbeCase*> refs;
    for (const auto& c : signatures.cases) refs.push_back(&c);
    WorkEstimate work = model_work_cases(e, regime, cls, ctx, refs, CaseSource::signatures);
    if (work.modeled) {
      work.notes.insert(work.notes.begin() + 1, signatures.rule);
      return work;
    }
    // Signatures with models that cannot stand for the entry (docs/method.md §22.8): no verdict.
    if (std::any_of(work.signatures.begin(), work.signatures.end(),
                    [](const SignatureWork& s) { return s.modeled; }))
      return work;
    // No model: the first signature, every operand at the activation type (for the bound).
    TopNEntry one = e;
    one.shapes = e.signatures.front();
    one.dtypes = signatures.bound_dtypes;
    one.signatures.clear();
    one.dtypes_are_set = false;
    return model_work(one, regime, cls, ctx);
  }
  ProbeCase recorded;  // docs/method.md §23: the entry's one signature, read through the op table
  recorded.dims = e.shapes;
  recorded.dtypes = e.dtypes;
  std::string table_note;
  auto from_table = e.dtypes_are_set
                        ? std::nullopt
                        : detail::model_from_op_table(detail::case_call(e.op, recorded), regime,
                                                      cls, ctx, table_note);
  WorkEstimate work = from_table ? std::move(*from_table) : model_candidates(e, regime, cls, ctx);
  if (!table_note.empty()) work.notes.insert(work.notes.begin(), table_note);
  if (work.modeled)
    choose_candidate(work, ctx.peaks ? *ctx.peaks : ResolvedPeaks{});
  else if (!work.bytes_lower_bound)  // an op-table reading that left two may have set it
    detail::operand_bytes_bound(e, regime, cls, ctx, work);
  return work;
}

}  // namespace roofline::analyze
