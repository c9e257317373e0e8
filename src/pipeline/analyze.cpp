// The run (docs/method.md §3): one call per step of the method, in its order. Each step is a pure
// stage of src/stages; this file only hands one stage's struct to the next.
#include "roofline/analyze.hpp"

#include <algorithm>
#include <exception>

#include <fmt/format.h>

#include "roofline/kernel_classes.hpp"
#include "roofline/peaks.hpp"

namespace roofline {
namespace {

// Input problems are data: a broken or missing required file is a skill error (L5), a missing
// config only a note (the models that need it degrade), and the run goes on.
void record_input_problems(const AnalyzeInputs& in, Analysis& a) {
  auto record = [&](const auto& file, bool required, const char* what) {
    for (const auto& err : file.loaded.errors)
      a.diagnostics.push_back(Diagnostic{Severity::error, std::nullopt, Topic::input, "", err});
    if (file.found) return;
    if (required)
      a.diagnostics.push_back(Diagnostic{Severity::error, std::nullopt, Topic::input, "",
                                         fmt::format("{}: not found ({})", file.display, what)});
    else
      a.notes.push_back(fmt::format(
          "no model config found (looked for {}): models that need it degrade", file.display));
  };
  record(in.topn, true, "the Top-N profile is required");
  record(in.env, true, "environment report: gfx, workload, tp");
  record(in.config, false, "model config");
  record(in.peaks, true, "peaks table");
  // What the readers noticed without refusing anything (non-finite literals read as absent,
  // layer-plan problems): worth a line on stderr, and kept in the artifact's notes.
  // An unreadable profile_workload.json only loses its per-case counts: the Top-N's shapes stay.
  for (const auto* notes : {&in.topn.loaded.notes, &in.env.loaded.notes, &in.config.loaded.notes,
                            &in.workload.loaded.notes, &in.workload.loaded.errors})
    for (const auto& n : *notes) {
      a.notes.push_back(n);
      a.diagnostics.push_back(Diagnostic{Severity::warning, std::nullopt, Topic::input, "", n});
    }
}

// Every file the run read, with its role (the artifact's inputs[]).
std::vector<InputRecord> input_records(const AnalyzeInputs& in) {
  std::vector<InputRecord> out;
  if (in.topn.found) out.push_back({in.topn.display, "topn"});
  if (in.env.found) out.push_back({in.env.display, "env_report"});
  if (in.config.found) out.push_back({in.config.display, "config"});
  if (in.workload.found) out.push_back({in.workload.display, "workload"});
  if (in.peaks.found) out.push_back({in.peaks.display, "peaks"});
  if (in.calibration && in.calibration->found)
    out.push_back({in.calibration->display, "calibration"});
  for (const auto& f : in.shapes.files) out.push_back({f, "shapes"});
  for (const auto& f : in.counters.files) out.push_back({f.display, "counters"});
  return out;
}

RunInfo describe_run(const AnalyzeInputs& in, const TopN& topn, const EnvReport* env,
                     const ModelConfig* config) {
  RunInfo run;
  if (env) {
    run.model = env->model;
    run.backend = env->backend;
    run.model_arch_class = env->model_arch_class;
    run.workload = env->workload;
    run.tp = env->tp;
  }
  if (config) run.layer_plan = describe_plan(config->plan);
  run.n_prefill_steps = topn.serving.n_prefill_steps;
  run.n_decode_steps = topn.serving.n_decode_steps;
  run.inputs =
      fmt::format("{}; {}; {}; {}", in.topn.display, in.env.display,
                  in.config.found ? in.config.display : "no config.json", in.peaks.display);
  return run;
}

// analyze --calibration (docs/method.md §17.5): the table judge takes target_eff from, and what its
// reading said (a class it had to skip is a warning).
const CalibrationTable* calibration_for(const AnalyzeInputs& in, Analysis& a) {
  if (!in.calibration || !in.calibration->loaded.value) return nullptr;
  const CalibrationTable& t = *in.calibration->loaded.value;
  for (const auto& e : in.calibration->loaded.errors) {
    a.diagnostics.push_back(Diagnostic{Severity::warning, std::nullopt, Topic::input, "", e});
    a.notes.push_back("calibration problem: " + e);
  }
  const auto used = std::count_if(t.classes.begin(), t.classes.end(),
                                  [](const CalibrationClass& c) { return c.used; });
  a.notes.push_back(fmt::format("calibration {}: {} class(es), {} marked used", t.display,
                                t.classes.size(), used));
  return &t;
}

// The denominators, and what a user-supplied table got wrong (it still serves what it can).
ResolvedPeaks peaks_for(const AnalyzeInputs& in, const PeaksTable& table, const EnvReport* env,
                        Analysis& a) {
  if (in.peaks.loaded.value && in.peaks.origin == InputOrigin::file)
    for (const auto& problem : check_peaks(table)) {
      a.diagnostics.push_back(
          Diagnostic{Severity::warning, std::nullopt, Topic::peaks, "", problem});
      a.notes.push_back("peaks table problem: " + problem);
    }
  ResolvedPeaks peaks =
      resolve_peaks(table, env ? env->arch : "", env ? env->product_raw : "",
                    env ? env->device_props : DeviceProps{}, env ? env->device_name : "");
  for (const auto& n : peaks.notes) a.notes.push_back(n);
  if (peaks.source != PeaksSource::table)
    a.diagnostics.push_back(Diagnostic{Severity::warning, Level::L1, Topic::peaks, "",
                                       peaks.notes.empty() ? "peaks unknown" : peaks.notes.back()});
  return peaks;
}

// The fields an entry copies verbatim from its Top-N record.
EntryResult entry_identity(const TopNEntry& e) {
  EntryResult r;
  r.topn_index = e.index;
  r.rank = e.rank;
  r.name = e.name;
  r.short_name = e.short_name;
  r.pct_gpu_time_raw = e.pct_gpu_time_raw;
  r.pct_gpu_time = e.pct_gpu_time;
  r.serving_weighted_pct = e.serving_weighted_pct;
  r.key_pct = e.pct_gpu_time;
  r.editable = e.editable;
  return r;
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

// Everything one entry's analysis shares with the others (the Top-N, config and denominators).
struct EntryContext {
  const TopN& topn;
  const ModelContext& model;
  const ResolvedPeaks& peaks;
  const VerdictParams& verdict;
};

// The share of GPU time the head key gave one entry (docs/method.md §4).
struct HeadShare {
  double pct = 0.0;
  bool serving_weighted = false;  // --head-key serving_weighted and the entry carries one
  bool fell_back = false;         // serving_weighted asked for, the entry has none
};

EntryResult analyze_entry(const TopNEntry& e, const EntryContext& ctx, Classification cls,
                          const RegimeHints& hints, const EntryEvidence& ev,
                          const HeadShare& share) {
  EntryResult r = entry_identity(e);
  r.key_pct = share.pct;
  r.key_is_serving_weighted = share.serving_weighted;
  // The e2e-critical regime fixes the per-launch time and the launches per step.
  r.regime = pick_regime(e, ctx.topn.serving, hints);
  r.cls = std::move(cls);
  // Stage A: bytes and FLOPs of one logical unit from the Top-N and the config; the shapes may
  // overrule the name (a batched GEMM over every expert is MoE work).
  WorkEstimate stage_a = model_work(e, r.regime, r.cls, ctx.model);
  if (stage_a.op_class && *stage_a.op_class != r.cls.op_class) {
    r.cls.notes.push_back(fmt::format("op class {} → {}: the byte model's finding (see below)",
                                      to_string(r.cls.op_class), to_string(*stage_a.op_class)));
    r.cls.op_class = *stage_a.op_class;
  }
  // Then captured shapes (B) and measured counters (C) replace what they can.
  Deepened d = deepen(std::move(stage_a), ev, e, r.regime, r.cls, ctx.model);
  r.work = std::move(d.work);
  r.stage = d.stage;
  // Utilization, bound and headroom; the sanity band withholds a verdict it cannot back.
  r.verdict = judge(r.work, r.cls.op_class, r.key_pct, ctx.peaks, ctx.verdict);
  // How far the numbers can be trusted, and why there is no verdict (L2, L3).
  Grade g = grade(r.stage, r.work, r.verdict, ctx.peaks);
  r.confidence = g.confidence;
  r.verdict.stage_c_candidate = g.stage_c_candidate;
  r.problem = g.problem;
  // Route and levers: a saturated kernel is redirected to fewer bytes, never dropped.
  Advice advice = advise(r, ctx.topn, ctx.peaks);
  r.route = std::move(advice.route);
  r.levers = std::move(advice.levers);

  r.notes = r.regime.notes;
  if (share.serving_weighted)
    r.notes.push_back(
        fmt::format("share of GPU time: serving_weighted_pct {:g} (--head-key "
                    "serving_weighted; the capture's pct_gpu_time is {:g})",
                    r.key_pct, e.pct_gpu_time));
  else if (share.fell_back)
    r.notes.push_back(
        fmt::format("share of GPU time: pct_gpu_time {:g} (--head-key "
                    "serving_weighted, but this entry carries no "
                    "serving_weighted_pct)",
                    r.key_pct));
  r.notes.insert(r.notes.end(), r.cls.notes.begin(), r.cls.notes.end());
  r.notes.insert(r.notes.end(), d.notes.begin(), d.notes.end());
  append_work_notes(r.work, r.notes);
  r.notes.insert(r.notes.end(), r.verdict.notes.begin(), r.verdict.notes.end());
  r.notes.insert(r.notes.end(), g.notes.begin(), g.notes.end());
  return r;
}

// An entry whose analysis threw: kept, without a verdict, as L5.
EntryResult failed_entry(const TopNEntry& e, const char* what) {
  EntryResult r = entry_identity(e);
  r.route = "fall back to pct_gpu_time order (analysis failed)";
  r.notes.push_back(fmt::format("internal error while analysing this entry: {}", what));
  r.problem = EntryProblem{Level::L5, fmt::format("analysis failed: {}", what)};
  return r;
}

// A measured run says which head entries its counters left at stage A/B (L4).
std::optional<Diagnostic> counter_coverage(const std::vector<EntryResult>& entries) {
  std::vector<std::string> missing;
  for (const auto& e : entries)
    if (e.stage != Stage::C) missing.push_back(e.name);
  if (missing.empty()) return std::nullopt;
  std::string list;
  for (std::size_t i = 0; i < missing.size() && i < 5; ++i)
    list += fmt::format("{}'{}'", i ? ", " : "", missing[i]);
  return Diagnostic{
      Severity::warning, Level::L4, Topic::counters, "",
      fmt::format("{} of {} head entries not measured ({}{}): stage A/B numbers "
                  "kept, confidence not raised",
                  missing.size(), entries.size(), list, missing.size() > 5 ? ", ..." : "")};
}

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
  Analysis a;
  a.head_threshold_pct = opts.scope.head_threshold_pct;
  const TopN topn = in.topn.loaded.value.value_or(TopN{});
  const EnvReport* env = in.env.loaded.value ? &*in.env.loaded.value : nullptr;
  const ModelConfig* config = in.config.loaded.value ? &*in.config.loaded.value : nullptr;
  const PeaksTable& table = in.peaks.loaded.value ? *in.peaks.loaded.value : builtin_peaks();

  // Every input problem is recorded first; the run completes whatever is missing.
  record_input_problems(in, a);
  a.round = in.round;
  a.inputs = input_records(in);
  a.run = describe_run(in, topn, env, config);

  // Only kernels above the bar are worth a verdict; the rest are counted, not degraded.
  const Scope scope = scope_to_head(topn, opts.scope);
  a.skipped_count = scope.skipped_count;
  a.notes.insert(a.notes.end(), scope.notes.begin(), scope.notes.end());

  // A wrong denominator makes every number wrong: product gating and the RDNA4 hard unknown
  // are decided once, up front.
  a.peaks = peaks_for(in, table, env, a);
  a.arch = a.peaks.gfx;
  a.gfx = is_nvidia_arch(a.arch) ? "" : a.arch;
  a.product = a.peaks.product;
  if (!a.run.layer_plan.empty())
    a.notes.push_back(fmt::format("layer plan: {} (mixers: {}; FFNs: {})", a.run.layer_plan,
                                  config->plan.mixer_rule, config->plan.ffn_rule));

  // Stage B/C evidence is matched to the head by kernel name once, before the per-entry pass.
  const ClassRules rules{opts.overrides,
                         opts.families ? *opts.families : builtin_kernel_classes_rules()};
  const ProbeSet* workload = in.workload.loaded.value ? &*in.workload.loaded.value : nullptr;
  EvidenceSet evidence = gather_evidence(topn, scope, in.shapes, in.counters, workload);
  if (workload)
    a.notes.push_back(fmt::format(
        "{}: per-case counts and latencies of {} kernel(s), folded into the matching head entries "
        "(RUNS.md §2b)",
        in.workload.display, workload->kernels.size()));
  a.notes.insert(a.notes.end(), evidence.notes.begin(), evidence.notes.end());
  a.diagnostics.insert(a.diagnostics.end(), evidence.diagnostics.begin(),
                       evidence.diagnostics.end());
  a.measured_inputs = std::move(evidence.measured_inputs);
  a.unmatched_counter_kernels = std::move(evidence.unmatched_counter_kernels);

  // The op class picks the byte model; the classes also tell which kernels run once per layer.
  std::vector<Classification> classes;
  for (std::size_t idx : scope.selected) classes.push_back(classify(topn.entries[idx], rules));
  // Without step annotations, the layer plan and the call counts give the steps
  // (docs/method.md §6.4).
  const StepInference steps = infer_steps(topn, scope, classes, config);
  if (!steps.note.empty()) a.notes.push_back(steps.note);

  // Per head entry: regime, model, deepen, judge, grade, advise. A failure inside one entry
  // degrades that entry (L5), never the run.
  ModelContext model_ctx{env, config,
                         config ? ""
                         : in.config.found
                             ? fmt::format("{} could not be read", in.config.display)
                             : fmt::format("not found (looked for {})", in.config.display),
                         &a.peaks};
  VerdictParams verdict = opts.verdict;
  verdict.calibration = calibration_for(in, a);
  const EntryContext ctx{topn, model_ctx, a.peaks, verdict};
  for (std::size_t i = 0; i < scope.selected.size(); ++i) {
    const TopNEntry& e = topn.entries[scope.selected[i]];
    RegimeHints hints;
    if (steps.attempted) {
      hints.inferred = &steps.entries[i];
      if (env) hints.conc = env->workload.conc;
    }
    try {
      const HeadShare share{scope.key_pct[i],
                            opts.scope.key == HeadKey::serving_weighted && !scope.key_fell_back[i],
                            scope.key_fell_back[i]};
      a.entries.push_back(analyze_entry(e, ctx, classes[i], hints, evidence.entries[i], share));
    } catch (const std::exception& ex) {
      a.entries.push_back(failed_entry(e, ex.what()));
    }
  }
  if (in.counters.requested && !a.entries.empty())
    if (auto gap = counter_coverage(a.entries)) a.diagnostics.push_back(std::move(*gap));

  // Both orders, never blended: their disagreement is the finding.
  a.rankings = rank_entries(a.entries, a.peaks);
  a.notes.insert(a.notes.end(), a.rankings.notes.begin(), a.rankings.notes.end());
  // Entries are named as the rankings name them, in the report and in degraded[].
  for (std::size_t i = 0; i < a.entries.size(); ++i) {
    EntryResult& e = a.entries[i];
    e.ranking_name = a.rankings.names[i];
    if (e.problem)
      a.diagnostics.push_back(
          Diagnostic{e.problem->level == Level::L5 ? Severity::error : Severity::warning,
                     e.problem->level, Topic::entry, e.ranking_name, e.problem->reason});
    a.stage = std::max(a.stage, e.stage);
  }
  a.notes.push_back(fmt::format(
      "scope: {} of {} Top-N entries at or above {}% of {} (cap {}); {} skipped", a.entries.size(),
      topn.entries.size(), fmt::format("{:g}", a.head_threshold_pct),
      opts.scope.key == HeadKey::serving_weighted ? "serving-weighted GPU time" : "GPU time",
      opts.scope.max_entries, a.skipped_count));
  return a;
}

}  // namespace roofline
