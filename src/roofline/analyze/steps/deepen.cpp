// Pass deepen (docs/method.md §11): the profiler's workload cases, the §8 models over captured
// probe shapes (stage B), and measured counter bytes/FLOPs in place of the model's (stage C).
#include "roofline/analyze/steps/deepen.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "roofline/analyze/layer.hpp"
#include "roofline/analyze/models/dispatch.hpp"
#include "roofline/analyze/models/models.hpp"
#include "roofline/inputs/pattern.hpp"

namespace roofline::analyze {

using detail::fmt_bytes;

namespace {

Term per_unit(const char* what, double per_dispatch, double launches, TermUnit unit) {
  return term(what, "per dispatch · launches", per_dispatch * launches, unit);
}

// docs/method.md §8.2: the profiler's cases (count-weighted, each with its latency) replace the
// stage-A estimate from the Top-N's signatures; the stage stays A (the same trace, not a new
// capture). Cases of the other regime are left out when the chosen regime has cases of its own.
void fold_workload(const ProbeKernel& k, const TopnEntry& e, const RegimeChoice& regime,
                   const Classification& cls, const ModelContext& ctx, Deepened& d) {
  std::vector<const ProbeCase*> cases, other;
  for (const ProbeCase& c : k.cases)
    (regime.known && c.regime && *c.regime != regime.regime ? other : cases).push_back(&c);
  std::string regime_note;
  if (cases.empty() && !other.empty()) {
    cases = std::move(other);
    regime_note = fmt::format(" (none attributed to {}: the {} case(s) of the other regime used)",
                              to_string(regime.regime), cases.size());
  } else if (!other.empty()) {
    regime_note = fmt::format(" ({} case(s) of the other regime left out)", other.size());
  }
  if (cases.empty()) {
    d.notes.push_back(
        fmt::format("{}: no cases for this kernel; the Top-N's shapes kept", k.source));
    return;
  }
  // A case with dims — or a collective the call stack names, whose message needs none
  // (docs/method.md §22.10).
  const bool shaped = std::any_of(cases.begin(), cases.end(), [&](const ProbeCase* c) {
    return !c->dims.empty() ||
           (cls.op_class == OpClass::comm && c->signature && !c->signature->collective.empty());
  });
  WorkEstimate w = model_work_cases(e, regime, cls, ctx, cases, CaseSource::workload);
  if (!shaped) {  // signatures without dims (graph replays without a capture): shown only
    d.notes.push_back(
        fmt::format("{}: no case of this kernel has operand shapes ({} signature(s) "
                    "by grid and block, shown); the Top-N's shapes kept",
                    k.source, cases.size()));
    d.work.signatures = std::move(w.signatures);
    d.work.modelled_share = w.modelled_share;
    return;
  }
  if (!w.modeled && w.withheld) {  // the cases' own words left two readings: no stage-A stand-in
    d.notes.push_back(fmt::format("{}: {}", k.source, w.unmodeled_reason));
    d.work = std::move(w);
    return;
  }
  if (!w.modeled) {
    d.notes.push_back(
        fmt::format("{}: the {} case(s) could not be modelled ({}); the Top-N's "
                    "shapes kept",
                    k.source, cases.size(), w.unmodeled_reason));
    d.work.signatures = std::move(w.signatures);  // shown, the entry judged as before
    d.work.modelled_share = w.modelled_share;
    d.work.signatures_judged = false;
    return;
  }
  d.notes.push_back(
      fmt::format("{}: {} case(s) of '{}' folded{}; stage A (the profiler's own per-case "
                  "counts; stage B is a probe's captured shapes, --shapes)",
                  k.source, cases.size(), k.target, regime_note));
  d.work = std::move(w);
}

// docs/method.md §11.4: counters that timed their dispatches far from the profile's mean launch
// measured launches that may not stand for the entry's (one shape of a kernel serving several):
// said, with both times; "" when they agree within 25 %.
std::string unrepresentative(const KernelMeasurement& m, double profile_us) {
  if (!m.time_us || !(*m.time_us > 0) || !(profile_us > 0) ||
      std::max(*m.time_us, profile_us) / std::min(*m.time_us, profile_us) <= 1.25)
    return {};
  return fmt::format(
      "the counters timed {} dispatch{} at {} µs where the profile's launches average {} µs: the "
      "measured launches may not stand for all of them (a kernel serving several shapes); the "
      "verdict is theirs",
      m.dispatches, m.dispatches == 1 ? "" : "es", format_g(*m.time_us), format_g(profile_us));
}

// Without FLOPs only the memory axis judges: sound where the work is memory-bound by construction
// (elementwise and copies; a matrix-vector product, ≤ 1 FLOP a weight byte at 16 bits), not for
// a kernel whose roof may be its math, which then gets no verdict.
void withhold_without_flops(WorkEstimate& w, double bytes, const TopnEntry& e,
                            const Classification& cls) {
  const bool has_math = cls.op_class == OpClass::gemm || cls.op_class == OpClass::moe ||
                        cls.op_class == OpClass::attn || cls.op_class == OpClass::linear_attn ||
                        cls.op_class == OpClass::ssm || cls.op_class == OpClass::unknown;
  if (!w.modeled || !w.flops_unknown || !has_math || icontains(e.name, "gemv")) return;
  w.modeled = false;
  w.unmodeled_reason = fmt::format(
      "the counters measured {} a launch but no FLOPs (no tensor op ran, no FMA counter was "
      "collected) and no model gives them: a {} kernel's roof may be its math, so the memory axis "
      "alone cannot judge it (collect sm__ops_path_tensor_*.sum and "
      "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum)",
      fmt_bytes(bytes), to_string(cls.op_class));
}

// docs/method.md §11.4: a measurement is never thrown away for want of a model. The counters'
// bytes and FLOPs per dispatch are the entry's figures, timed by the counters (else the profile),
// at the FLOPs' own operand type where the counters name it; what the model could not do stays in
// the notes, and its signatures stay shown.
WorkEstimate measured_only(WorkEstimate model, const KernelMeasurement& m,
                           const std::string& source, const TopnEntry& e,
                           const RegimeChoice& regime, const Classification& cls,
                           const ModelContext& ctx) {
  WorkEstimate w;
  w.unit = "1 launch";
  w.unit_launches = 1.0;
  w.t_unit_ms = m.time_us && *m.time_us > 0 ? *m.time_us / 1000.0
                : regime.t_ms               ? *regime.t_ms
                : e.avg_us                  ? *e.avg_us / 1000.0
                                            : 0.0;
  const detail::ResolvedDtypes dt = detail::resolve_dtypes(e, cls, ctx);
  const auto counted = parse_dtype(m.flops_dtype);
  w.compute_dtype = counted ? *counted : wider_dtype(dt.act, dt.weight);
  w.has_compute_peak_class = cls.op_class != OpClass::elementwise || counted.has_value();
  w.weight_dtype = dt.weight.key;
  w.activation_dtype = dt.act.key;
  w.kv_dtype = dt.kv.key;
  w.candidates.push_back(Candidate{fmt::format("measured ({})", m.bytes_source), *m.bytes,
                                   m.flops.value_or(0.0), std::nullopt, true,
                                   CandidateKind::measured});
  w.bytes = *m.bytes;
  w.flops = m.flops.value_or(0.0);
  w.flops_unknown = !m.flops.has_value();
  w.modeled = w.t_unit_ms > 0;
  if (!w.modeled)
    w.unmodeled_reason = "measured, but neither the counters nor the profile timed it";
  withhold_without_flops(w, *m.bytes, e, cls);
  w.measured_vs_model = compare_to_model(0.0, 0.0, false, m, 1.0);
  const double profile_us = regime.t_ms ? *regime.t_ms * 1000.0 : e.avg_us ? *e.avg_us : 0.0;
  if (std::string caveat = unrepresentative(m, profile_us); !caveat.empty())
    w.notes.push_back(std::move(caveat));
  w.signatures = std::move(model.signatures);
  w.modelled_share = model.modelled_share;
  w.notes.push_back(fmt::format(
      "stage C, judged on the measurement alone (no model stood: {}): {} over {} dispatch{}: {} "
      "per dispatch, {}, {}; compute at {} ({})",
      model.unmodeled_reason, source, m.dispatches, m.dispatches == 1 ? "" : "es",
      fmt_bytes(*m.bytes),
      m.flops ? fmt::format("{} FLOPs ({})", format_g(*m.flops), m.flops_source)
              : std::string("no FLOP counters"),
      m.time_us ? fmt::format("{} µs ({})", format_g(*m.time_us), m.time_source)
                : fmt::format("not timed: the profile's {} ms", format_g(w.t_unit_ms)),
      w.compute_dtype.key,
      counted ? "the tensor path the counters name" : "the operand dtypes: " + dt.weight_source));
  return w;
}

}  // namespace

Deepened deepen(WorkEstimate stage_a, const EntryEvidence& ev, const TopnEntry& e,
                const RegimeChoice& regime, const Classification& cls, const ModelContext& ctx) {
  Deepened d{std::move(stage_a), EvidenceLevel::A, {}};
  if (ev.workload) fold_workload(*ev.workload, e, regime, cls, ctx, d);
  if (!ev.probes.empty()) {
    std::vector<const ProbeCase*> cases;
    std::string targets;
    for (const ProbeKernel* k : ev.probes) {
      for (const ProbeCase& c : k->cases) cases.push_back(&c);
      targets += fmt::format("{}{} in {}", targets.empty() ? "" : "; ",
                             k->target.empty() ? k->label : k->target, k->source);
    }
    WorkEstimate b = cases.empty() ? WorkEstimate{} : model_work_cases(e, regime, cls, ctx, cases);
    if (cases.empty()) b.unmodeled_reason = "the matched probe has no usable cases";
    const char* how = to_string(ev.probe_match);
    if (b.modeled) {
      d.notes.push_back(
          fmt::format("stage B: probe {} ({} match, {} cases)", targets, how, cases.size()));
      if (d.work.modeled)
        d.notes.push_back(fmt::format(
            "stage A model for comparison: {:.6g} B, {:.6g} FLOPs per unit over {:.6g} ms",
            d.work.bytes, d.work.flops, d.work.t_unit_ms));
      d.work = std::move(b);
      d.stage = EvidenceLevel::B;
    } else {
      d.notes.push_back(fmt::format("stage B not reached: probe {} ({} match): {}; stage A kept",
                                    targets, how, b.unmodeled_reason));
    }
  }
  if (ev.measured) {
    const KernelMeasurement& m = *ev.measured;
    if (!m.bytes) {
      d.notes.push_back(
          fmt::format("stage C not reached: {}: {}", ev.measured_source,
                      m.unusable_reason.empty() ? "no byte counters" : m.unusable_reason));
    } else if (!d.work.modeled && cls.op_class == OpClass::comm) {
      d.notes.push_back(fmt::format(
          "measured but not modelled: {} gives {:.6g} B per dispatch{}; a collective is judged on "
          "its link bytes, which DRAM counters do not see: no verdict without a model of the op",
          ev.measured_source, *m.bytes,
          m.time_us ? fmt::format(" in {:.6g} µs", *m.time_us) : std::string()));
    } else if (!d.work.modeled) {
      d.work = measured_only(std::move(d.work), m, ev.measured_source, e, regime, cls, ctx);
      d.stage = EvidenceLevel::C;
    } else {
      apply_measurement(d.work, m, ev.measured_source, ctx.peaks ? *ctx.peaks : ResolvedPeaks{});
      d.stage = EvidenceLevel::C;
    }
  }
  return d;
}

MeasuredVsModel compare_to_model(double model_bytes, double model_flops, bool link_bytes,
                                 const KernelMeasurement& m, double launches) {
  MeasuredVsModel r;
  r.model_bytes = model_bytes;
  r.model_flops = model_flops;
  r.measured_bytes =
      m.bytes ? per_unit("measured bytes", *m.bytes, launches, TermUnit::bytes).value : 0.0;
  if (m.flops)
    r.measured_flops = per_unit("measured flops", *m.flops, launches, TermUnit::flops).value;
  r.timed = m.time_us && *m.time_us > 0;
  const auto ratio = [](double measured, double model) -> std::optional<double> {
    if (!(model > 0) || !std::isfinite(model) || !std::isfinite(measured)) return std::nullopt;
    return measured / model;
  };
  if (m.bytes && !link_bytes) r.bytes = ratio(r.measured_bytes, model_bytes);
  if (r.measured_flops) r.flops = ratio(*r.measured_flops, model_flops);
  return r;
}

namespace {

// The byte and FLOP model checks: the model's figures against the counters', as ratios.
void deepen_model_check_notes(WorkEstimate& work, const MeasuredVsModel& r,
                              const std::string& model_label, double model_bytes,
                              double model_flops, const Term& measured_bytes) {
  if (r.bytes) {
    Term ratio = term("measured/model", "", *r.bytes, TermUnit::ratio);
    ratio.display = Shown::fixed3;
    work.notes.push_back(fmt::format("byte model check: model '{}' {} vs measured {} per unit: {}",
                                     model_label, shown(term("model bytes", "", model_bytes)),
                                     shown(measured_bytes), render(ratio)));
  }
  if (r.flops) {
    Term ratio = part("ratio", *r.flops, TermUnit::ratio);
    ratio.display = Shown::fixed3;
    work.notes.push_back(fmt::format("FLOP model check: model {} vs measured {}: {}",
                                     format_g(model_flops), format_g(*r.measured_flops),
                                     render_part(ratio)));
  }
}

// The measured figures become the chosen candidate, its feasibility tested with the others'.
void deepen_choose_measured(WorkEstimate& work, const KernelMeasurement& m,
                            const MeasuredVsModel& r, double model_flops,
                            const ResolvedPeaks& peaks) {
  Candidate measured{fmt::format("measured ({})", m.bytes_source),
                     r.measured_bytes,
                     r.measured_flops.value_or(model_flops),
                     {},
                     true,
                     CandidateKind::measured};
  work.candidates.push_back(measured);
  work.chosen = work.candidates.size() - 1;
  work.bytes = measured.bytes;
  work.flops = measured.flops;
  if (const auto budget = byte_budget(feasibility_bw(peaks), work.t_unit_ms)) {
    for (auto& c : work.candidates) c.feasible = c.bytes <= *budget;
    work.any_feasible = *work.candidates.back().feasible;
  }
}

}  // namespace

void apply_measurement(WorkEstimate& work, const KernelMeasurement& m, const std::string& source,
                       const ResolvedPeaks& peaks) {
  const double k = work.unit_launches > 0 ? work.unit_launches : 1.0;
  const double model_bytes = work.bytes, model_flops = work.flops, model_t = work.t_unit_ms;
  const std::string model_label =
      work.candidates.empty() ? "model" : work.candidates[work.chosen].label;
  const bool link = work.comm.has_value();
  work.signatures_judged = false;  // the counters measured the kernel as a whole
  work.measured_vs_model = compare_to_model(model_bytes, model_flops, link, m, k);
  const MeasuredVsModel& r = *work.measured_vs_model;
  if (m.time_us && *m.time_us > 0) work.t_unit_ms = *m.time_us * k / 1000.0;
  work.notes.push_back(
      fmt::format("stage C: {} over {} dispatch{}: {} per dispatch{}{}", source, m.dispatches,
                  m.dispatches == 1 ? "" : "es", fmt_bytes(*m.bytes),
                  m.flops ? fmt::format(", {} FLOPs ({})", format_g(*m.flops), m.flops_source)
                          : ", no FLOP counters (FLOPs stay the model's)",
                  m.time_us ? fmt::format(", {} µs ({})", format_g(*m.time_us), m.time_source)
                            : ", not timed (time stays the profile's)"));
  if (m.time_us && model_t > 0)
    work.notes.push_back(fmt::format("t_unit {} ms from the counter run (profile said {} ms)",
                                     format_g(work.t_unit_ms), format_g(model_t)));
  if (std::string caveat = unrepresentative(m, model_t * 1000.0 / k); !caveat.empty())
    work.notes.push_back(std::move(caveat));
  const Term measured_bytes = term("measured bytes", "", r.measured_bytes);
  deepen_model_check_notes(work, r, model_label, model_bytes, model_flops, measured_bytes);
  if (link) {
    // The counters see the collective's DRAM traffic, not what crossed the link: the link model
    // stays the judged figure, timed by the counters.
    work.notes.push_back(fmt::format(
        "collective: the counters' {} DRAM bytes per unit are not link bytes; the link model's {} "
        "stays (measured_vs_model.bytes null){}",
        shown(measured_bytes), shown(term("model bytes", "", model_bytes)),
        m.time_us ? ", judged at the counters' time" : ""));
    return;
  }
  deepen_choose_measured(work, m, r, model_flops, peaks);
}

}  // namespace roofline::analyze
