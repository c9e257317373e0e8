// The class dispatcher of step 7 (docs/method.md §8): the per-class byte/FLOP model of one unit,
// then the feasibility rule (§9); with the helpers every model shares.
#include "roofline/analyze/models/dispatch.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "roofline/analyze/layer.hpp"
#include "roofline/analyze/models/models.hpp"
#include "roofline/base/units.hpp"

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

std::string option_list(const std::vector<std::string>& options, const char* joiner) {
  std::string out;
  for (std::size_t i = 0; i < options.size(); ++i)
    out += (i == 0 ? "" : i + 1 == options.size() ? joiner : ", ") + options[i];
  return out;
}

std::string would_settle(const std::vector<std::string>& options, const char* joiner) {
  return options.empty() ? std::string() : option_list(options, joiner) + " would settle it";
}

std::string regime_options(const RegimeChoice& regime) {
  const std::string list = option_list(regime.settled_by);
  return regime.settled_by.size() > 1 ? "(" + list + ")" : list;
}

const char* rows_option(Regime regime) {
  return regime == Regime::decode ? "--conc" : "--isl";
}

std::string rows_missing_reason(Regime regime, const char* model) {
  const char* field = regime == Regime::decode ? "conc" : "isl";
  return fmt::format("{} needs rows in flight: no est_shape.{}.M and no workload.{}; {}", model,
                     to_string(regime), field, would_settle({rows_option(regime)}));
}

std::string regime_unknown_reason(const RegimeChoice& regime, const char* model) {
  if (regime.known) return "";
  return fmt::format("{} needs the regime, and nothing says it ({}); {}", model, regime.why,
                     would_settle(regime.settled_by));
}

}  // namespace detail

namespace {

void rows_in_flight(const TopnEntry& e, const RegimeChoice& regime, const ModelContext& ctx,
                    std::optional<double>& rows, std::string& source) {
  if (auto est = e.est_shape.at(regime.regime); est && est->m && *est->m > 0) {
    rows = *est->m;
    source = detail::est_label(regime) + ".M";
    return;
  }
  if (regime.known && ctx.step_rows && ctx.step_rows->rows.at(regime.regime)) {
    rows = *ctx.step_rows->rows.at(regime.regime);
    source = fmt::format("{}: {}", to_string(regime.regime), *ctx.step_rows->why.at(regime.regime));
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

// The first candidate the choice may take.
const Candidate& first_in_choice(const WorkEstimate& work) {
  for (const Candidate& c : work.candidates)
    if (c.in_choice) return c;
  return work.candidates.front();
}

std::string reading_text(const Dtype& d, const std::string& source, const Candidate& c) {
  return fmt::format("weights {} ({}): {} a unit, {} FLOPs", d.key, source,
                     format_bytes(c.bytes, Digits::exact), format_g(c.flops));
}

// docs/method.md §23.7, §10.8: the evidence left the weights two formats. Within the band the
// first reading stands; beyond it, a reading the measured time refutes (more bytes than the
// datasheet can move in t_unit) falls, and with both standing the first is taken and the other
// is a reading of the band, which must hold in one class for a verdict.
void weigh_weight_readings(detail::ModelInput in, OpClass cls, const ModelContext& ctx,
                           WorkEstimate& work) {
  WorkEstimate other;
  other.t_unit_ms = work.t_unit_ms;
  other.unit = work.unit;
  const Dtype first = in.dtypes.weight;
  in.dtypes.weight = *in.dtypes.weight_other;
  work_dispatch_model(in, cls, other);
  if (!work_candidates_usable(other)) return;
  const Candidate &a = first_in_choice(work), &b = first_in_choice(other);
  const std::string ta = reading_text(first, in.dtypes.weight_source, a);
  const std::string tb = reading_text(in.dtypes.weight, in.dtypes.weight_other_source, b);
  const Reading other_reading{
      "weights_other",
      fmt::format("weights {}", in.dtypes.weight.key),
      fmt::format("the weights' other format ({})", in.dtypes.weight_other_source),
      b.bytes,
      b.flops,
      other.compute_dtype};
  if (!detail::beyond_band(a.bytes, b.bytes) && !detail::beyond_band(a.flops, b.flops)) {
    work.notes.push_back(fmt::format(
        "two readings within the 15 % band: {} stands; {} (a reading of its band)", ta, tb));
    work.readings.push_back(other_reading);
    return;
  }
  const auto budget =
      ctx.peaks ? byte_budget(feasibility_bw(*ctx.peaks), work.t_unit_ms) : std::nullopt;
  if (budget && (a.bytes <= *budget) != (b.bytes <= *budget)) {
    const bool keep_first = a.bytes <= *budget;
    const std::string note = fmt::format(
        "two readings of the weights: {}; {}; the measured time refutes {} (at most {} can move "
        "in t_unit)",
        ta, tb, keep_first ? "the second" : "the first", format_bytes(*budget, Digits::exact));
    if (!keep_first) work = std::move(other);
    work.notes.push_back(note);
    return;
  }
  work.notes.push_back(fmt::format(
      "two readings of the weights differ by more than the 15 % band and the measured time "
      "refutes neither: {}; {} — the first is taken, the other is a reading of its band "
      "(docs/method.md §10.8)",
      ta, tb));
  work.readings.push_back(other_reading);
  work.readings_decide = true;
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

WorkEstimate model_candidates(const TopnEntry& e, const RegimeChoice& regime,
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
            : "op class unknown: no byte model; --classify PATTERN=CLASS would settle it";
    return work;
  }
  detail::ModelInput in{e,   regime,       cls, ctx, detail::resolve_dtypes(e, cls, ctx),
                        1.0, std::nullopt, {}};
  if (ctx.env) in.tp = ctx.env->tp;
  rows_in_flight(e, regime, ctx, in.rows, in.rows_source);
  work.weight_dtype = in.dtypes.weight.key;
  work.activation_dtype = in.dtypes.act.key;
  work.kv_dtype = in.dtypes.kv.key;
  if (!in.dtypes.weight_sound && (cls.op_class == OpClass::moe || cls.op_class == OpClass::gemm))
    work.dtype_doubt = fmt::format(
        "the weights' format rests on {} alone; the trace shows nothing "
        "of them",
        in.dtypes.weight_source);
  work_dispatch_model(in, cls.op_class, work);
  if (!work_candidates_usable(work)) return work;
  if (in.dtypes.weight_other) {
    weigh_weight_readings(in, cls.op_class, ctx, work);
    if (work.withheld) return work;
  }
  work.modeled = true;
  return work;
}

}  // namespace roofline::analyze
