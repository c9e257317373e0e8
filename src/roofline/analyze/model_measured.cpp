// Step 8, deepen (docs/method.md §11): the §8 models over captured probe shapes (stage B), and
// measured counter bytes/FLOPs in place of the model's (stage C).
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "roofline/analyze/model_internal.hpp"

namespace roofline {

using detail::fmt_bytes;

namespace {

// The Top-N entry as the probe saw one case: real operand dims and dtypes, and the rows in flight
// the case carries (leading dim of the first matrix operand; GEMM reads M from its own shapes).
TopNEntry entry_for_case(const TopNEntry& e, const ProbeCase& c, const Classification& cls,
                         Regime regime, std::string& rows_note) {
  TopNEntry ce = e;
  ce.signatures.clear();
  ce.dtypes_are_set = false;
  ce.shapes = c.dims;
  if (!c.dtypes.empty()) ce.dtypes = c.dtypes;
  ce.est_shape.at(regime).reset();
  if (cls.op_class == OpClass::gemm) return ce;
  if (cls.op_class == OpClass::linear_attn || cls.op_class == OpClass::ssm) {
    // Sequences in flight: the first operand that is not the recurrent state (the largest rank >= 3
    // operand), its leading dimension after leading 1s (q is [1, N, H, K] in packed varlen form).
    std::optional<std::size_t> state;
    double largest = 0;
    for (std::size_t i = 0; i < c.dims.size(); ++i) {
      double n = 1;
      for (auto v : c.dims[i]) n *= static_cast<double>(v);
      if (c.dims[i].size() >= 3 && n > largest) {
        largest = n;
        state = i;
      }
    }
    for (std::size_t i = 0; i < c.dims.size(); ++i) {
      if (state && i == *state && c.dims.size() > 1) continue;
      for (auto v : c.dims[i]) {
        if (v == 1) continue;
        if (v > 0) {
          ce.est_shape.at(regime) = EstShape{static_cast<double>(v), std::nullopt, std::nullopt};
          rows_note = fmt::format(
              "N = {} sequences from dims[{}] (leading 1s skipped, the state "
              "operand passed over)",
              v, i);
          return ce;
        }
        break;
      }
    }
  }
  for (std::size_t i = 0; i < c.dims.size(); ++i) {
    const auto& d = c.dims[i];
    const bool rank_ok = cls.op_class == OpClass::moe ? d.size() == 2 : d.size() >= 2;
    if (rank_ok && d[0] > 0) {
      ce.est_shape.at(regime) = EstShape{static_cast<double>(d[0]), std::nullopt, std::nullopt};
      rows_note = fmt::format(
          "M = {} from dims[{}][0]{} (the case's rows in flight, read as "
          "est_shape.{}.M)",
          d[0], i,
          i < c.arg_labels.size() && !c.arg_labels[i].empty()
              ? fmt::format(" ({})", c.arg_labels[i])
              : "",
          to_string(regime));
      return ce;
    }
  }
  rows_note = "no operand of the case gives rows in flight: rows from the workload";
  return ce;
}

// Counter bytes / FLOPs per unit: the per-dispatch measurement times the unit's dispatches.
Term per_unit(const char* what, double per_dispatch, double launches, TermUnit unit) {
  return term(what, "per dispatch · launches", per_dispatch * launches, unit);
}

std::string describe_dims(const std::vector<std::vector<std::int64_t>>& dims) {
  std::string s;
  for (const auto& d : dims) {
    s += s.empty() ? "[" : ", [";
    for (std::size_t i = 0; i < d.size(); ++i) s += fmt::format("{}{}", i ? "," : "", d[i]);
    s += "]";
  }
  return s;
}

}  // namespace

WorkEstimate model_work_cases(const TopNEntry& e, const RegimeChoice& regime,
                              const Classification& cls, const ModelContext& ctx,
                              const std::vector<const ProbeCase*>& cases, CaseSource source) {
  struct Part {
    double weight;
    WorkEstimate work;
    std::size_t case_index;
  };
  std::vector<Part> parts;
  std::vector<std::string> rejected;
  std::size_t timed = 0;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const ProbeCase& c = *cases[i];
    std::string rows_note;
    TopNEntry ce = entry_for_case(e, c, cls, regime.regime, rows_note);
    RegimeChoice rc = regime;
    if (c.gpu_us_avg) {
      rc.t_ms = *c.gpu_us_avg / 1000.0;
      rc.t_source = source == CaseSource::workload ? "profile_workload.json baseline_latency_ms"
                                                   : "probe case gpu_us_avg";
      ++timed;
    }
    WorkEstimate w = model_candidates(ce, rc, cls, ctx);
    if (!w.modeled) {
      rejected.push_back(
          fmt::format("case {} {}: {}", i, describe_dims(c.dims), w.unmodeled_reason));
      continue;
    }
    if (!rows_note.empty()) w.notes.insert(w.notes.begin(), rows_note);
    parts.push_back(Part{c.count, std::move(w), i});
  }
  if (parts.empty()) {
    WorkEstimate none;
    none.unmodeled_reason = fmt::format("no probe case could be modelled ({})",
                                        rejected.empty() ? "no cases" : rejected.front());
    return none;
  }
  // The heaviest case is the template (unit, dtypes, MoE facts, notes); numbers are averaged.
  std::size_t heaviest = 0;
  double total = 0.0;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    total += parts[i].weight;
    if (parts[i].weight > parts[heaviest].weight) heaviest = i;
  }
  WorkEstimate out = parts[heaviest].work;
  auto mean = [&](auto get) {
    double s = 0.0;
    for (const auto& p : parts) s += p.weight * get(p.work);
    return s / total;
  };
  out.t_unit_ms = mean([](const WorkEstimate& w) { return w.t_unit_ms; });
  out.weight_bytes = mean([](const WorkEstimate& w) { return w.weight_bytes; });
  out.kv_bytes = mean([](const WorkEstimate& w) { return w.kv_bytes; });
  // A candidate survives only when every case produced it (same kind).
  std::vector<Candidate> combined;
  for (const Candidate& c : out.candidates) {
    double bytes = 0.0, flops = 0.0;
    bool everywhere = true;
    for (const auto& p : parts) {
      const Candidate* match = nullptr;
      for (const Candidate& pc : p.work.candidates)
        if (pc.kind == c.kind) match = &pc;
      if (!match) {
        everywhere = false;
        break;
      }
      bytes += p.weight * match->bytes;
      flops += p.weight * match->flops;
    }
    if (everywhere)
      combined.push_back(Candidate{c.label, bytes / total, flops / total, {}, c.in_choice, c.kind});
  }
  if (combined.empty()) {
    // No figure common to every case: each case's own choice, count-weighted.
    const ResolvedPeaks& peaks = ctx.peaks ? *ctx.peaks : ResolvedPeaks{};
    double bytes = 0.0, flops = 0.0;
    for (const auto& p : parts) {
      WorkEstimate chosen = p.work;
      choose_candidate(chosen, peaks);
      bytes += p.weight * chosen.bytes;
      flops += p.weight * chosen.flops;
    }
    combined.push_back(Candidate{"count-weighted chosen bytes",
                                 bytes / total,
                                 flops / total,
                                 {},
                                 true,
                                 CandidateKind::count_weighted});
  }
  out.candidates = std::move(combined);
  if (out.moe) {
    out.moe->pairs = mean([](const WorkEstimate& w) { return w.moe ? w.moe->pairs : 0.0; });
    out.moe->experts_hit =
        mean([](const WorkEstimate& w) { return w.moe ? w.moe->experts_hit : 0.0; });
    out.moe->activation_bytes =
        mean([](const WorkEstimate& w) { return w.moe ? w.moe->activation_bytes : 0.0; });
  }
  std::vector<std::string> notes;
  const std::string heaviest_dims = describe_dims(cases[parts[heaviest].case_index]->dims);
  if (source == CaseSource::signatures)
    notes.push_back(fmt::format(
        "{} of {} call signatures of the Top-N modelled, equal weights (the Top-N gives no "
        "per-signature counts; docs/method.md §8.2); rows in flight from each signature",
        parts.size(), cases.size()));
  else
    notes.push_back(fmt::format(
        "{}: {} of {} {} modelled, count-weighted over {} calls (heaviest case {}, {} calls); {} "
        "of them carry a per-case latency{}",
        source == CaseSource::probes ? "stage B" : "profile_workload.json", parts.size(),
        cases.size(), source == CaseSource::probes ? "probe cases" : "workload cases",
        format_g(total), heaviest_dims, format_g(parts[heaviest].weight), timed,
        timed < cases.size() ? " (the others use the profile's per-launch time)" : ""));
  for (const auto& r : rejected)
    notes.push_back(std::string(source == CaseSource::signatures ? "signature "
                                : source == CaseSource::probes   ? "probe "
                                                                 : "workload ") +
                    r);
  for (auto& n : out.notes) notes.push_back(parts.size() > 1 ? "heaviest case: " + n : n);
  out.notes = std::move(notes);
  choose_candidate(out, ctx.peaks ? *ctx.peaks : ResolvedPeaks{});
  return out;
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

void apply_measurement(WorkEstimate& work, const KernelMeasurement& m, const std::string& source,
                       const ResolvedPeaks& peaks) {
  const double k = work.unit_launches > 0 ? work.unit_launches : 1.0;
  const double model_bytes = work.bytes, model_flops = work.flops, model_t = work.t_unit_ms;
  const std::string model_label =
      work.candidates.empty() ? "model" : work.candidates[work.chosen].label;
  const bool link = work.comm.has_value();
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
  const Term measured_bytes = term("measured bytes", "", r.measured_bytes);
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

}  // namespace roofline
