// One entry's steps 7-11 (the driver's pass entries), and the L5 boundary of the whole run.
#include <fmt/format.h>

#include "roofline/analyze/layer.hpp"
#include "roofline/analyze/run.hpp"
#include "roofline/analyze/test_hooks.hpp"

namespace roofline::analyze::detail {
namespace {

// The Top-N record a shapeless GEMM is modelled as: its est_shape for the regime is the
// projection the linear plan assigned it (docs/method.md §22.4).
TopnEntry as_projection(TopnEntry top, Regime regime, const ProjectionAssignment& a) {
  EstShape est;
  est.m = a.m;
  est.n = a.projection->n;
  est.k = a.projection->k;
  top.est_shape.at(regime) = est;
  return top;
}

// Stage A: the linear plan's projection for a shapeless GEMM (its L2 problem when none fits),
// else the model of the entry's own Top-N record.
WorkEstimate stage_a_work(const HeadEntry& e, const TopnEntry& top, const EntryContext& ctx) {
  if (e.projection && !e.projection->projection) {
    WorkEstimate w;
    w.unmodeled_reason = "GEMM without shapes, and the linear plan assigns it no projection: " +
                         e.projection->problem;
    return w;
  }
  if (e.projection) {
    WorkEstimate w = model_work(as_projection(top, e.regime.regime, *e.projection), e.regime,
                                e.classified, ctx.model);
    if (w.modeled && e.projection->m_lo) {
      // docs/method.md §10.8 (source `grid_rows`): the fewest rows the grid allows, a reading.
      ProjectionAssignment low = *e.projection;
      low.m = *e.projection->m_lo;
      const WorkEstimate lo =
          model_work(as_projection(top, e.regime.regime, low), e.regime, e.classified, ctx.model);
      if (lo.modeled) {
        w.readings.push_back(Reading{
            "grid_rows", fmt::format("M = {} (the fewest rows the grid allows)", format_g(low.m)),
            e.projection->rows_why, lo.bytes, lo.flops, std::nullopt});
        w.readings_decide = true;
      }
    }
    return w;
  }
  return model_work(top, e.regime, e.classified, ctx.model,
                    signature_cases(top, e.classified.op_class, ctx.model.config));
}

// The class the byte model ran under: the classifier's, unless the shapes showed another (a
// batched GEMM over every expert is MoE work), which the class's notes then say.
Classification as_modelled(Classification cls, const WorkEstimate& stage_a) {
  if (stage_a.op_class && *stage_a.op_class != cls.op_class) {
    cls.notes.push_back(fmt::format("op class {} → {}: the byte model's finding (see below)",
                                    to_string(cls.op_class), to_string(*stage_a.op_class)));
    cls.op_class = *stage_a.op_class;
  }
  return cls;
}

// What the work estimate says about itself: the unit, the model's notes, the units of the figures.
void append_work_notes(const WorkEstimate& w, std::vector<std::string>& notes) {
  if (w.modeled) notes.push_back(fmt::format("unit: {} (t_unit {:.6g} ms)", w.unit, w.t_unit_ms));
  notes.insert(notes.end(), w.notes.begin(), w.notes.end());
  notes.push_back(!w.modeled ? "not modelled: " + w.unmodeled_reason
                  : w.comm   ? "units: bytes are link bytes per unit (inbound per GPU), rates per "
                               "second of t_unit"
                             : "units: bytes are HBM bytes per unit, flops dense FLOPs per unit, "
                               "rates per second of t_unit");
}

// The entry's notes, in step order: regime, share, class, evidence, work, verdict, grade.
std::vector<std::string> entry_notes(const HeadEntry& e) {
  std::vector<std::string> notes = e.regime.notes;
  notes.insert(notes.end(), e.plan_notes.begin(), e.plan_notes.end());
  if (e.share.serving_weighted)
    notes.push_back(
        fmt::format("share of GPU time: serving_weighted_pct {:g} (--head-key "
                    "serving_weighted; the capture's pct_gpu_time is {:g})",
                    e.share.pct, e.pct_gpu_time));
  else if (e.share.fell_back)
    notes.push_back(
        fmt::format("share of GPU time: pct_gpu_time {:g} (--head-key "
                    "serving_weighted, but this entry carries no "
                    "serving_weighted_pct)",
                    e.share.pct));
  notes.insert(notes.end(), e.cls.notes.begin(), e.cls.notes.end());
  if (!e.owner_note.empty()) notes.push_back(e.owner_note);
  notes.insert(notes.end(), e.deepen_notes.begin(), e.deepen_notes.end());
  append_work_notes(e.work, notes);
  notes.insert(notes.end(), e.verdict.notes.begin(), e.verdict.notes.end());
  notes.insert(notes.end(), e.grade.notes.begin(), e.grade.notes.end());
  return notes;
}

}  // namespace

HeadEntry analyze_entry(HeadEntry e, const EntryContext& ctx) {
  test_fault_point("entry");
  const TopnEntry& top = ctx.topn.entries[e.topn_position];
  // Stage A: bytes and FLOPs of one logical unit from the Top-N (its call signatures, as cases,
  // when it has them; a shapeless GEMM's projection) and the config; the shapes may overrule the
  // name.
  WorkEstimate stage_a = stage_a_work(e, top, ctx);
  e.cls = as_modelled(e.classified, stage_a);
  // Then the profiler's workload cases (A), captured shapes (B) and measured counters (C)
  // replace what they can.
  Deepened d = deepen(std::move(stage_a), e.evidence, top, e.regime, e.cls, ctx.model);
  e.work = std::move(d.work);
  e.stage = d.stage;
  e.deepen_notes = std::move(d.notes);
  // Utilization, bound and headroom; the sanity band withholds a verdict it cannot back.
  e.verdict = judge(e.work, e.cls.op_class, e.share.pct, ctx.peaks, ctx.verdict);
  // How far the numbers can be trusted, and why there is no verdict (L2, L3).
  e.grade = grade(e.stage, e.work, e.verdict, ctx.peaks);
  // Route and levers: a saturated kernel is redirected to fewer bytes, never dropped.
  e.advice = advise(e, ctx.topn, ctx.peaks);
  e.notes = entry_notes(e);
  return e;
}

void fail_entry(HeadEntry& e, std::string note, std::string problem) {
  e.advice.route = "fall back to pct_gpu_time order (analysis failed)";
  e.notes.push_back(std::move(note));
  e.grade.problem = EntryProblem{Level::L5, std::move(problem)};
}

Findings counter_coverage(const std::vector<HeadEntry>& entries) {
  std::vector<std::string> missing;
  for (const auto& e : entries)
    if (e.stage != EvidenceLevel::C) missing.push_back(e.name);
  if (missing.empty()) return {};
  std::string list;
  for (std::size_t i = 0; i < missing.size() && i < 5; ++i)
    list += fmt::format("{}'{}'", i ? ", " : "", missing[i]);
  return Findings{
      {},
      {Diagnostic{
          Severity::warning, Level::L4, Topic::counters, "",
          fmt::format("{} of {} head entries not measured ({}{}): stage A/B numbers "
                      "kept, confidence not raised",
                      missing.size(), entries.size(), list, missing.size() > 5 ? ", ..." : "")}}};
}

void stop_run(Run& r, const char* step, const std::string& what) {
  r.stopped = true;
  r.a.diagnostics.push_back(Diagnostic{
      Severity::error, std::nullopt, Topic::input, "",
      fmt::format("internal error in step '{}': {}; the run stopped there, and what the earlier "
                  "steps found is kept (L5)",
                  step, what)});
  for (std::size_t i = r.analysed; i < r.a.entries.size(); ++i)
    fail_entry(r.a.entries[i],
               fmt::format("not analysed: the run stopped at step '{}' ({})", step, what),
               fmt::format("not analysed: step '{}' failed", step));
  r.analysed = r.a.entries.size();
  if (!r.peaks_resolved) {
    r.a.diagnostics.push_back(
        Diagnostic{Severity::warning, Level::L1, Topic::peaks, "",
                   fmt::format("peaks unknown: the run stopped before they were resolved (step "
                               "'{}')",
                               step)});
    r.peaks_resolved = true;
  }
}

}  // namespace roofline::analyze::detail
