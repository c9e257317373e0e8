// The run (docs/method.md §3): the method as a list of passes, one per step and in its order, over
// one entry list (Analysis::entries, a HeadEntry per head kernel). Each pass calls its stage, keeps
// the stage's result where it belongs and merges what the stage found into the run's notes and
// diagnostics with one helper (`record`). The pass list is also the one L5 boundary
// (docs/method.md §13): an exception in any pass stops the run there as a skill error, and what it
// returns can still be written.
#include "roofline/analyze/analyze.hpp"

#include <algorithm>
#include <exception>
#include <iterator>

#include <fmt/format.h>

#include "roofline/analyze/layer.hpp"
#include "roofline/analyze/run.hpp"
#include "roofline/analyze/test_hooks.hpp"
#include "roofline/inputs/kernel_classes.hpp"
#include "roofline/inputs/peaks.hpp"

// The passes, in the order k_method runs them: each header declares one pass and its result. The
// per-entry ones (model_work to advise) run inside analyze_entry (run_entry.cpp), entry by entry.
// clang-format off
#include "roofline/analyze/steps/check_config.hpp"
#include "roofline/analyze/steps/scope_to_head.hpp"
#include "roofline/analyze/steps/resolve_peaks.hpp"
#include "roofline/analyze/steps/gather_evidence.hpp"
#include "roofline/analyze/steps/classify_head.hpp"
#include "roofline/analyze/steps/count_step_rows.hpp"
#include "roofline/analyze/steps/weight_evidence.hpp"
#include "roofline/analyze/steps/infer_steps.hpp"
#include "roofline/analyze/steps/pick_regimes.hpp"
#include "roofline/analyze/steps/plan_shapeless_gemms.hpp"
#include "roofline/analyze/steps/model_work.hpp"
#include "roofline/analyze/steps/deepen.hpp"
#include "roofline/analyze/steps/judge.hpp"
#include "roofline/analyze/steps/grade.hpp"
#include "roofline/analyze/steps/advise.hpp"
#include "roofline/analyze/steps/rank_entries.hpp"
#include "roofline/analyze/steps/display_names.hpp"
// clang-format on

namespace roofline::analyze {
namespace {

using detail::Run;

// The one helper that merges a step's findings into the run's, in the order the steps run.
void record(Analysis& a, Findings f) {
  a.notes.insert(a.notes.end(), std::make_move_iterator(f.notes.begin()),
                 std::make_move_iterator(f.notes.end()));
  a.diagnostics.insert(a.diagnostics.end(), std::make_move_iterator(f.diagnostics.begin()),
                       std::make_move_iterator(f.diagnostics.end()));
}

void check_inputs(Run& r) {
  record(r.a, detail::input_findings(r.in, r.opts.given));
  Findings env_found;
  r.stand_in = detail::effective_env(r.env, r.topn, r.opts.given, r.config, env_found);
  r.env = r.stand_in ? &*r.stand_in : nullptr;
  record(r.a, std::move(env_found));
  r.a.round = r.in.round;
  r.a.inputs = detail::input_records(r.in);
  r.a.run = detail::describe_run(r.in, r.topn, r.env, r.config);
}

// docs/method.md §23.6: a config the trace's GEMM shapes contradict is set aside for the whole run
// (an L1 diagnostic naming both sides); only the trace's own shapes are modelled.
void set_aside_contradicted_config(Run& r) {
  if (!r.config) return;
  const double tp = r.env && r.env->tp > 0 ? r.env->tp : r.topn.world_size.value_or(1.0);
  const ConfigCheck check = check_config(r.topn, *r.config, tp);
  if (!check.contradicts) return;
  // What the run says it is no longer comes from the set-aside config: no title, no layer plan.
  if (r.a.run.model == r.config->architecture || r.a.run.model == r.config->model_type)
    r.a.run.model.clear();  // the L1 diagnostic says why
  r.a.run.layer_plan.clear();
  r.config = nullptr;
  r.config_rejected = "set aside: it does not match this trace (docs/method.md §23.6)";
  // Named "(config)" in degraded[]: the config as a whole is the problem, not one of its fields.
  record(r.a,
         Findings{
             {}, {Diagnostic{Severity::warning, Level::L1, Topic::entry, "(config)", check.text}}});
}

void scope_head(Run& r) {
  Head head = scope_to_head(r.topn, r.opts.scope);
  r.a.skipped_count = head.skipped_count;
  r.a.entries = std::move(head.entries);
  record(r.a, std::move(head.findings));
}

void resolve_denominators(Run& r) {
  Findings f;
  ResolvedPeaks peaks = detail::run_peaks(r.in, r.env, f);
  r.a.arch = peaks.gfx;
  r.a.gfx = is_nvidia_arch(r.a.arch) ? "" : r.a.arch;
  r.a.product = peaks.product;
  r.a.peaks = std::move(peaks);
  record(r.a, std::move(f));
  r.peaks_resolved = true;
}

void note_layer_plan(Run& r) {
  if (r.a.run.layer_plan.empty() || !r.config) return;
  record(r.a, Findings{{fmt::format("layer plan: {} (mixers: {}; FFNs: {})", r.a.run.layer_plan,
                                    r.config->plan.mixer_rule, r.config->plan.ffn_rule)},
                       {}});
}

void gather_head_evidence(Run& r) {
  const ProbeSet* workload = r.in.workload.loaded.value ? &*r.in.workload.loaded.value : nullptr;
  EvidenceSummary ev = gather_evidence(r.a.entries, r.in.shapes, r.in.counters, workload);
  if (workload)
    record(r.a, Findings{{fmt::format("{}: per-case counts and latencies of {} kernel(s), folded "
                                      "into the matching head entries (docs/method.md §8.2)",
                                      r.in.workload.display, workload->kernels.size())},
                         {}});
  record(r.a, std::move(ev.findings));
  r.a.measured_inputs = std::move(ev.measured_inputs);
  r.a.unmatched_counter_kernels = std::move(ev.unmatched_counter_kernels);
}

ClassRules class_rules(const Run& r) {
  return ClassRules{r.opts.overrides,
                    r.opts.families ? *r.opts.families : builtin_kernel_classes_rules()};
}

void classify_entries(Run& r) {
  classify_head(r.a.entries, r.topn, class_rules(r));
}

void gather_weight_evidence(Run& r) {
  WeightEvidence w = weight_evidence(r.topn, class_rules(r), r.config, r.env ? r.env->tp : 1.0);
  r.weights = std::move(w.weights);
  record(r.a, Findings{std::move(w.notes), {}});
}

void infer_run_steps(Run& r) {
  record(r.a, infer_steps(r.topn, r.a.entries, r.config).findings);
}

void pick_entry_regimes(Run& r) {
  pick_regimes(r.a.entries, r.topn, r.env, r.config);
}

void count_rows(Run& r) {
  Findings f;
  r.step_rows = count_step_rows(r.a.entries, f);
  record(r.a, std::move(f));
}

void plan_gemms(Run& r) {
  record(r.a, plan_shapeless_gemms(r.a.entries, r.topn, r.config, r.env, r.a.peaks, class_rules(r),
                                   r.step_rows));
}

void load_calibration(Run& r) {
  Findings f;
  r.verdict.calibration = detail::calibration_for(r.in, f);
  // Most launches inside graph replays: the run's short kernels have no CPU launch to blame.
  const auto& t = r.topn;
  const std::optional<double> replayed =
      t.graph_replay ? t.graph_replay->launches : std::optional<double>();
  r.verdict.graph_replayed = replayed && t.num_kernel_launches && *t.num_kernel_launches > 0 &&
                             *replayed >= 0.9 * *t.num_kernel_launches;
  record(r.a, std::move(f));
}

void analyze_entries(Run& r) {
  const std::string status =
      r.config_rejected.empty() ? detail::config_status(r.in, r.config) : r.config_rejected;
  const ModelContext model{r.env,
                           r.config,
                           status,
                           &r.a.peaks,
                           r.topn.serving.present ? &r.topn.serving : nullptr,
                           &r.weights,
                           &r.step_rows};
  const detail::EntryContext ctx{r.topn, model, r.a.peaks, r.verdict, r.env};
  for (HeadEntry& e : r.a.entries) {
    try {
      e = detail::analyze_entry(e, ctx);
    } catch (const std::exception& ex) {
      detail::fail_entry(e, fmt::format("internal error while analysing this entry: {}", ex.what()),
                         fmt::format("analysis failed: {}", ex.what()));
    }
    ++r.analysed;
  }
}

void check_counter_coverage(Run& r) {
  if (r.in.counters.requested) record(r.a, detail::counter_coverage(r.a.entries));
}

void rank_head(Run& r) {
  r.a.rankings = rank_entries(r.a.entries, r.a.peaks);
  record(r.a, r.a.rankings.findings);
}

void record_entry_problems(Run& r) {
  Findings f;
  for (const HeadEntry& e : r.a.entries) {
    if (e.grade.problem)
      f.diagnostics.push_back(Diagnostic{
          e.grade.problem->level == Level::L5 ? Severity::error : Severity::warning,
          e.grade.problem->level, Topic::entry, e.ranking_name, e.grade.problem->reason});
    r.a.stage = std::max(r.a.stage, e.stage);
  }
  record(r.a, std::move(f));
}

void name_head(Run& r) {
  display_names(r.a.entries);
}

void summarize_scope(Run& r) {
  record(r.a,
         Findings{{fmt::format("scope: {} of {} Top-N entries at or above {}% of {} (cap {}); {} "
                               "skipped",
                               r.a.entries.size(), r.topn.entries.size(),
                               fmt::format("{:g}", r.a.head_threshold_pct),
                               r.opts.scope.key == HeadKey::serving_weighted
                                   ? "serving-weighted GPU time"
                                   : "GPU time",
                               r.opts.scope.max_entries, r.a.skipped_count)},
                  {}});
}

struct Pass {
  const char* name;     // the step, as the L5 error and ROOFLINE_TEST_THROW name it
  void (*run)(Run& r);  // the pass: calls its stage, keeps the result, records the findings
  bool always = false;  // runs after an earlier pass failed: the run's own record
};

// The method, one pass per step in its order, each with why it is there.
constexpr Pass k_method[] = {
    // Every input problem first: the run completes whatever is missing.
    {"inputs", check_inputs},
    // steps/check_config: a config the trace contradicts would lend every model wrong dims: held
    // against the trace's own GEMM shapes first (docs/method.md §23.6).
    {"config_check", set_aside_contradicted_config},
    // steps/scope_to_head: only kernels above the bar are worth a verdict; the rest are counted,
    // not degraded.
    {"scope", scope_head},
    // steps/resolve_peaks: a wrong denominator makes every number wrong: product gating and the
    // RDNA4 hard unknown are decided once, up front.
    {"peaks", resolve_denominators},
    // The layer plan every per-layer count below rests on, said once.
    {"layer_plan", note_layer_plan},
    // steps/gather_evidence: stage B/C evidence is matched to the head by kernel name once, before
    // the per-entry pass.
    {"evidence", gather_head_evidence},
    // steps/classify_head: the op class picks the byte model; the classes also tell which kernels
    // run once per layer.
    {"classify", classify_entries},
    // steps/weight_evidence: a kernel whose op passes no weights (an MoE kernel under online
    // quantization) takes their format from the run's own linears before the config's
    // (docs/method.md §23.5).
    {"weights", gather_weight_evidence},
    // steps/infer_steps: without step annotations, the layer plan and the call counts give the
    // steps (docs/method.md §6.4).
    {"steps", infer_run_steps},
    // steps/pick_regimes: the e2e-critical regime fixes each entry's per-launch time and launches
    // per step.
    {"regimes", pick_entry_regimes},
    // steps/plan_shapeless_gemms: GEMMs without shapes take N and K from the config's projections,
    // M from the step (docs/method.md §22.4), assigned over every such kernel of the step at once.
    // steps/count_step_rows: where nothing recorded the step's rows, the norms and activations
    // beside its matrix kernels count them (docs/method.md §22.4).
    {"step_rows", count_rows},
    {"linear_plan", plan_gemms},
    // judge's target_eff: the shipped prior, or a calibrated class (docs/method.md §17.5).
    {"calibration", load_calibration},
    // Per entry (run_entry.cpp): steps/model_work, deepen, judge, grade, advise; a failure degrades
    // that entry only.
    {"entries", analyze_entries},
    // A measured run says which head entries its counters left at stage A/B (L4).
    {"coverage", check_counter_coverage},
    // steps/rank_entries: both orders, never blended: their disagreement is the finding (after a
    // failure, over the
    // entries it left without a verdict: pct order, which their route falls back to).
    {"rankings", rank_head, true},
    // steps/display_names: the names people know each entry by (projection or op, then a short
    // kernel tag), for every surface; `name` stays the key.
    {"names", name_head, true},
    // Each entry's problem is one diagnostic, under the name the rankings use.
    {"problems", record_entry_problems, true},
    // What the head covered, last.
    {"summary", summarize_scope, true},
};

}  // namespace

std::string skill_error_text(const Diagnostic& d) {
  return d.topic == Topic::entry ? fmt::format("entry '{}': {}", d.entry, d.text) : d.text;
}

bool has_problems(const Analysis& a) {
  return std::any_of(a.diagnostics.begin(), a.diagnostics.end(), [](const Diagnostic& d) {
    return d.level.has_value() || d.severity == Severity::error;
  });
}

Analysis analyze(const AnalyzeInputs& in, const AnalyzeOptions& opts) {
  Run r(in, opts);
  for (const Pass& pass : k_method) {
    if (r.stopped && !pass.always) continue;
    try {
      test_fault_point(pass.name);
      pass.run(r);
    } catch (const std::exception& ex) {
      detail::stop_run(r, pass.name, ex.what());
    } catch (...) {
      detail::stop_run(r, pass.name, "unknown exception");
    }
  }
  return std::move(r.a);
}

}  // namespace roofline::analyze
