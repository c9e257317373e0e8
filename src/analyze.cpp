// The run: load inputs (I/O), then the pure pipeline, entry by entry (SPEC §3, §7).
#include "roofline/analyze.hpp"

#include <exception>

#include <fmt/format.h>

#include "roofline/kernel_classes.hpp"
#include "roofline/peaks.hpp"

namespace roofline {
namespace fs = std::filesystem;

namespace {

std::string display_path(const fs::path& p, const fs::path& eval_dir) {
  std::error_code ec;
  fs::path rel = fs::relative(p, eval_dir, ec);
  if (!ec && !rel.empty() && rel.native().rfind("..", 0) != 0) return rel.generic_string();
  return p.generic_string();
}

template <class T, class Parse>
InputFile<T> load_file(const fs::path& path, const fs::path& eval_dir, const InputLimits& limits,
                       Parse parse) {
  InputFile<T> in;
  in.display = display_path(path, eval_dir);
  FileText text = read_text_file(path, limits.max_bytes);
  in.found = text.found;
  if (!text.found) return in;
  if (!text.error.empty()) {
    in.loaded.errors.push_back(fmt::format("{}: {}", in.display, text.error));
    return in;
  }
  in.loaded = parse(text.text, in.display, limits);
  return in;
}

bool exists_file(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec);
}

fs::path round_dir(const InputPaths& p) {
  return p.eval_dir / "profile" / fmt::format("round_{}", p.round.value_or(0));
}

}  // namespace

AnalyzeInputs load_inputs(const InputPaths& paths) {
  AnalyzeInputs in;
  const fs::path& dir = paths.eval_dir;
  const fs::path topn_path = paths.topn ? *paths.topn : round_dir(paths) / "profile_topN.json";
  in.topn = load_file<TopN>(topn_path, dir, paths.limits, parse_topn);

  fs::path env_path;
  if (paths.env) {
    env_path = *paths.env;
  } else {
    env_path = dir / "env_report.json";
    if (!exists_file(env_path)) {
      fs::path alt = paths.topn ? topn_path.parent_path() / "env_report.json"
                                : round_dir(paths) / "env_report.json";
      if (exists_file(alt)) env_path = alt;
    }
  }
  in.env = load_file<EnvReport>(env_path, dir, paths.limits, parse_env_report);

  std::vector<fs::path> config_candidates;
  if (paths.config) {
    config_candidates.push_back(*paths.config);
  } else {
    if (in.env.loaded.value && !in.env.loaded.value->model.empty())
      config_candidates.push_back(fs::path(in.env.loaded.value->model) / "config.json");
    config_candidates.push_back(dir / "config.json");
  }
  fs::path config_path = config_candidates.back();
  for (const auto& c : config_candidates)
    if (exists_file(c)) {
      config_path = c;
      break;
    }
  in.config = load_file<ModelConfig>(config_path, dir, paths.limits, parse_model_config);
  if (!in.config.found) {
    std::string looked;
    for (const auto& c : config_candidates)
      looked += (looked.empty() ? "" : ", ") + display_path(c, dir);
    in.config.display = looked;
  }

  if (paths.peaks) {
    in.peaks = load_file<PeaksTable>(*paths.peaks, dir, paths.limits, parse_peaks_md);
  } else {
    in.peaks.display = "built-in peaks.md";
    in.peaks.found = true;
    in.peaks.loaded.value = builtin_peaks();
  }
  return in;
}

namespace {

// The fields an entry copies verbatim from its Top-N record.
EntryResult entry_identity(const TopNEntry& e) {
  EntryResult r;
  r.topn_index = e.index;
  r.rank = e.rank;
  r.name = e.name;
  r.short_name = e.short_name;
  r.pct_gpu_time_raw = e.pct_gpu_time_raw;
  r.pct_gpu_time = e.pct_gpu_time;
  r.editable = e.editable;
  r.stage = 'A';
  return r;
}

EntryResult analyze_entry(const TopNEntry& e, const TopN& topn, const ClassRules& rules,
                          const ModelContext& ctx, const ResolvedPeaks& peaks,
                          const AnalyzeOptions& opts) {
  EntryResult r = entry_identity(e);
  r.regime = pick_regime(e, topn.serving);
  r.notes.push_back(fmt::format("regime {}: {}", to_string(r.regime.regime), r.regime.why));
  if (r.regime.t_ms)
    r.notes.push_back(
        fmt::format("t_ms {:.6g} ms per launch from {}", *r.regime.t_ms, r.regime.t_source));
  if (r.regime.launches_per_step)
    r.notes.push_back(fmt::format("launches_per_step {:.6g} from {}", *r.regime.launches_per_step,
                                  r.regime.launches_source));
  r.cls = classify(e, rules);
  r.notes.push_back(fmt::format("op class {} by {}{}", to_string(r.cls.op_class), r.cls.rule,
                                r.cls.detail.empty() ? "" : fmt::format(" [{}]", r.cls.detail)));
  r.work = model_work(e, r.regime, r.cls, ctx);
  if (r.work.modeled) {
    r.notes.push_back(fmt::format("unit: {} (t_unit {:.6g} ms)", r.work.unit, r.work.t_unit_ms));
    for (const auto& n : r.work.notes) r.notes.push_back(n);
    r.notes.push_back(
        "units: bytes are HBM bytes per unit, flops dense FLOPs per unit, rates per second of "
        "t_unit");
  } else {
    for (const auto& n : r.work.notes) r.notes.push_back(n);
    r.notes.push_back("not modelled: " + r.work.unmodeled_reason);
  }
  r.verdict = judge(r.work, r.cls.op_class, e.pct_gpu_time, peaks, opts.verdict);
  for (const auto& n : r.verdict.notes) r.notes.push_back(n);

  // Confidence: stage A is an estimate; low peaks or an unvalidated compute axis keep it low.
  r.confidence = Confidence::low;
  r.notes.push_back(
      "confidence low: stage A estimate from Top-N shapes and config (display and annotate only)");
  if (r.verdict.compute_axis && !peaks.compute_validated)
    r.notes.push_back(
        "compute-axis entry on unvalidated compute peaks (bf16 != fp16 or missing): confidence "
        "low");

  if (!r.work.modeled)
    r.degraded = Degradation{e.name, "L2", r.work.unmodeled_reason};
  else if (r.verdict.suspect)
    r.degraded = Degradation{
        e.name, "L3",
        fmt::format(
            "infeasible: raw roofline_pct {:.4g} outside [0.001, 1]; no verdict, stage-C candidate",
            r.verdict.roofline_pct_raw.value_or(0.0))};
  Advice advice = advise(r, topn, peaks);
  r.route = advice.route;
  r.levers = advice.levers;
  return r;
}

}  // namespace

Analysis analyze(const AnalyzeInputs& in, const AnalyzeOptions& opts) {
  Analysis a;
  a.head_threshold_pct = opts.scope.head_threshold_pct;
  for (const auto& n : in.notes) a.notes.push_back(n);

  // Input problems become skill_errors (L5); a missing optional config is only a note.
  auto collect = [&](const auto& file, bool required, const char* what) {
    for (const auto& err : file.loaded.errors) a.skill_errors.push_back(err);
    if (!file.found) {
      if (required)
        a.skill_errors.push_back(fmt::format("{}: not found ({})", file.display, what));
      else
        a.notes.push_back(fmt::format(
            "no model config found (looked for {}): models that need it degrade", file.display));
    }
  };
  collect(in.topn, true, "the Top-N profile is required");
  collect(in.env, true, "environment report: gfx, workload, tp");
  collect(in.config, false, "model config");
  collect(in.peaks, true, "peaks table");

  const TopN topn = in.topn.loaded.value.value_or(TopN{});
  const EnvReport* env = in.env.loaded.value ? &*in.env.loaded.value : nullptr;
  const ModelConfig* config = in.config.loaded.value ? &*in.config.loaded.value : nullptr;
  const PeaksTable& table = in.peaks.loaded.value ? *in.peaks.loaded.value : builtin_peaks();

  if (in.peaks.loaded.value && in.peaks.display != "built-in peaks.md")
    for (const auto& problem : check_peaks(table)) {
      a.warnings.push_back(problem);
      a.notes.push_back("peaks table problem: " + problem);
    }
  a.peaks = resolve_peaks(table, env ? env->gfx_raw : "", env ? env->product_raw : "",
                          env ? env->device_props : DeviceProps{});
  a.gfx = a.peaks.gfx;
  a.product = a.peaks.product;
  for (const auto& n : a.peaks.notes) a.notes.push_back(n);
  if (a.peaks.source != PeaksSource::table)
    a.degraded.push_back(Degradation{
        "(peaks)", "L1", a.peaks.notes.empty() ? "peaks unknown" : a.peaks.notes.back()});

  if (env) {
    a.run.model = env->model;
    a.run.backend = env->backend;
    a.run.model_arch_class = env->model_arch_class;
    a.run.workload = env->workload;
    a.run.tp = env->tp;
  }
  a.run.topn_source = topn.source;
  a.run.n_prefill_steps = topn.serving.n_prefill_steps;
  a.run.n_decode_steps = topn.serving.n_decode_steps;
  a.run.inputs =
      fmt::format("{}; {}; {}; {}", in.topn.display, in.env.display,
                  in.config.found ? in.config.display : "no config.json", in.peaks.display);

  const Scope scope = scope_to_head(topn, opts.scope);
  a.skipped_count = scope.skipped_count;
  ClassRules rules;
  rules.overrides = opts.overrides;
  rules.families = opts.families ? *opts.families : builtin_kernel_classes_rules();
  ModelContext ctx;
  ctx.env = env;
  ctx.config = config;
  ctx.config_status = config ? ""
                      : in.config.found
                          ? fmt::format("{} could not be read", in.config.display)
                          : fmt::format("not found (looked for {})", in.config.display);
  ctx.peaks = &a.peaks;

  for (std::size_t idx : scope.selected) {
    const TopNEntry& e = topn.entries[idx];
    try {
      a.entries.push_back(analyze_entry(e, topn, rules, ctx, a.peaks, opts));
    } catch (const std::exception& ex) {
      EntryResult r = entry_identity(e);
      r.route = "fall back to pct_gpu_time order (analysis failed)";
      r.notes.push_back(fmt::format("internal error while analysing this entry: {}", ex.what()));
      r.degraded = Degradation{e.name, "L5", fmt::format("analysis failed: {}", ex.what())};
      a.skill_errors.push_back(fmt::format("entry '{}': analysis failed: {}", e.name, ex.what()));
      a.entries.push_back(std::move(r));
    }
  }
  a.rankings = rank_entries(a.entries, a.peaks);
  for (const auto& n : a.rankings.notes) a.notes.push_back(n);
  for (const auto& e : a.entries)
    if (e.degraded)
      a.degraded.push_back(Degradation{e.ranking_name, e.degraded->level, e.degraded->reason});
  a.stage = 'A';
  for (const auto& e : a.entries) a.stage = std::max(a.stage, e.stage);
  a.notes.push_back(
      fmt::format("scope: {} of {} Top-N entries at or above {}% of GPU time (cap {}); {} skipped",
                  a.entries.size(), topn.entries.size(), fmt::format("{:g}", a.head_threshold_pct),
                  opts.scope.max_entries, a.skipped_count));
  return a;
}

}  // namespace roofline
