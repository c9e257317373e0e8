// The run: load inputs (I/O), then the pure pipeline, entry by entry (SPEC §3, §7).
#include "roofline/analyze.hpp"

#include <algorithm>
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

// The files a --shapes / --counters argument names: the file itself, or the matching files
// under a folder (recursively, sorted so runs are deterministic).
std::vector<fs::path> expand(const fs::path& p, bool (*wanted)(const std::string& filename)) {
  std::error_code ec;
  if (!fs::is_directory(p, ec)) return {p};
  std::vector<fs::path> out;
  for (auto it =
           fs::recursive_directory_iterator(p, fs::directory_options::skip_permission_denied, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
    if (it->is_regular_file(ec) && wanted(it->path().filename().string()))
      out.push_back(it->path());
  std::sort(out.begin(), out.end());
  return out;
}

bool is_probe_file(const std::string& f) {
  return f.size() > 5 && f.compare(f.size() - 5, 5, ".json") == 0 &&
         (f.rfind("probe_", 0) == 0 || f.find("per_shape_probe") != std::string::npos);
}

bool is_counter_csv(const std::string& f) {
  return f.size() > 4 && f.compare(f.size() - 4, 4, ".csv") == 0 &&
         (f.find("counter_collection") != std::string::npos || f.rfind("results", 0) == 0);
}

ShapesInput load_shapes(const std::vector<fs::path>& args, const fs::path& dir,
                        const InputLimits& limits) {
  ShapesInput in;
  in.requested = !args.empty();
  for (const auto& arg : args) {
    auto files = expand(arg, is_probe_file);
    if (files.empty())
      in.errors.push_back(
          fmt::format("{}: no probe files (probe_*.json, per_shape_probe.json) in this folder",
                      display_path(arg, dir)));
    for (const auto& f : files) {
      auto file = load_file<ProbeSet>(f, dir, limits, parse_probes);
      in.files.push_back(file.display);
      for (auto& e : file.loaded.errors) in.errors.push_back(std::move(e));
      for (auto& n : file.loaded.notes) in.notes.push_back(std::move(n));
      if (!file.found) in.errors.push_back(fmt::format("{}: not found", file.display));
      if (file.loaded.value)
        for (auto& k : file.loaded.value->kernels) in.probes.kernels.push_back(std::move(k));
    }
  }
  return in;
}

CountersInput load_counters(const std::vector<fs::path>& args, const fs::path& dir,
                            const CounterOptions& options) {
  CountersInput in;
  in.requested = !args.empty();
  in.options = options;
  for (const auto& arg : args) {
    auto files = expand(arg, is_counter_csv);
    if (files.empty())
      in.errors.push_back(
          fmt::format("{}: no counter CSVs (*counter_collection.csv, results*.csv) in this folder",
                      display_path(arg, dir)));
    for (const auto& f : files)
      in.files.push_back(read_counters_file(f, display_path(f, dir), options));
  }
  return in;
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
  in.shapes = load_shapes(paths.shapes, dir, paths.limits);
  in.counters = load_counters(paths.counters, dir, paths.counter_options);
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

// What stages B and C found for one entry, matched outside the pure per-entry analysis.
struct Evidence {
  ProbeMatch probe;
  std::optional<KernelMeasurement> measured;
  std::string measured_source;  // "fused_moe_kernel in a.csv (exact match)"
};

// Stage B then stage C over the stage-A model: each replaces what it can and says so.
void deepen(EntryResult& r, const TopNEntry& e, const ModelContext& ctx, const ResolvedPeaks& peaks,
            const Evidence& ev) {
  if (!ev.probe.kernels.empty()) {
    std::vector<const ProbeCase*> cases;
    std::string targets;
    for (const ProbeKernel* k : ev.probe.kernels) {
      for (const ProbeCase& c : k->cases) cases.push_back(&c);
      targets += fmt::format("{}{} in {}", targets.empty() ? "" : "; ",
                             k->target.empty() ? k->label : k->target, k->source);
    }
    WorkEstimate b =
        cases.empty() ? WorkEstimate{} : model_work_cases(e, r.regime, r.cls, ctx, cases);
    if (cases.empty()) b.unmodeled_reason = "the matched probe has no usable cases";
    if (b.modeled) {
      r.notes.push_back(fmt::format("stage B: probe {} ({} match, {} cases)", targets, ev.probe.how,
                                    cases.size()));
      if (r.work.modeled)
        r.notes.push_back(fmt::format(
            "stage A model for comparison: {:.6g} B, {:.6g} FLOPs per unit over {:.6g} ms",
            r.work.bytes, r.work.flops, r.work.t_unit_ms));
      r.work = std::move(b);
      r.stage = 'B';
    } else {
      r.notes.push_back(fmt::format("stage B not reached: probe {} ({} match): {}; stage A kept",
                                    targets, ev.probe.how, b.unmodeled_reason));
    }
  }
  if (ev.measured) {
    const KernelMeasurement& m = *ev.measured;
    if (!m.bytes) {
      r.notes.push_back(
          fmt::format("stage C not reached: counters for {}: {}", ev.measured_source,
                      m.unusable_reason.empty() ? "no byte counters" : m.unusable_reason));
    } else if (!r.work.modeled) {
      r.notes.push_back(fmt::format(
          "measured but not modelled: {} gives {:.6g} B per dispatch{}; no verdict without a model "
          "of the op",
          ev.measured_source, *m.bytes,
          m.time_us ? fmt::format(" in {:.6g} µs", *m.time_us) : std::string()));
    } else {
      apply_measurement(r.work, m, ev.measured_source, peaks);
      r.stage = 'C';
    }
  }
}

EntryResult analyze_entry(const TopNEntry& e, const TopN& topn, const ClassRules& rules,
                          const ModelContext& ctx, const ResolvedPeaks& peaks,
                          const AnalyzeOptions& opts, const Evidence& ev) {
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
  if (r.work.op_class && *r.work.op_class != r.cls.op_class) {  // the shapes overrule the name
    r.notes.push_back(fmt::format("op class {} → {}: the byte model's finding (see below)",
                                  to_string(r.cls.op_class), to_string(*r.work.op_class)));
    r.cls.op_class = *r.work.op_class;
  }
  deepen(r, e, ctx, peaks, ev);
  if (r.work.modeled) {
    r.notes.push_back(fmt::format("unit: {} (t_unit {:.6g} ms)", r.work.unit, r.work.t_unit_ms));
    for (const auto& n : r.work.notes) r.notes.push_back(n);
    r.notes.push_back(r.work.comm ? "units: bytes are link bytes per unit (inbound per GPU), "
                                    "rates per second of t_unit"
                                  : "units: bytes are HBM bytes per unit, flops dense FLOPs per "
                                    "unit, rates per second of t_unit");
  } else {
    for (const auto& n : r.work.notes) r.notes.push_back(n);
    r.notes.push_back("not modelled: " + r.work.unmodeled_reason);
  }
  r.verdict = judge(r.work, r.cls.op_class, e.pct_gpu_time, peaks, opts.verdict);
  for (const auto& n : r.verdict.notes) r.notes.push_back(n);

  // Confidence follows the stage (SPEC §6); low peaks or an unvalidated compute axis keep it low.
  r.confidence = r.stage == 'C'   ? Confidence::high
                 : r.stage == 'B' ? Confidence::medium
                                  : Confidence::low;
  if (r.stage == 'A')
    r.notes.push_back(
        "confidence low: stage A estimate from Top-N shapes and config (display and annotate "
        "only)");
  if (r.stage != 'A' && peaks.confidence == Confidence::low) {
    r.confidence = Confidence::low;
    r.notes.push_back(
        fmt::format("confidence low: stage {} numbers over low-confidence peaks", r.stage));
  } else if (r.verdict.compute_axis && !peaks.compute_validated) {
    r.confidence = Confidence::low;
    r.notes.push_back(
        "compute-axis entry on unvalidated compute peaks (bf16 != fp16 or missing): confidence "
        "low");
  } else if (r.stage != 'A') {
    r.notes.push_back(
        r.stage == 'C' ? "confidence high: stage C, measured bytes (rank; cite)"
                       : "confidence medium: stage B, captured shapes (rank as a secondary key)");
  }
  if (r.stage == 'C') r.verdict.stage_c_candidate = false;

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

// Stage B/C evidence for each selected entry; input problems become notes, warnings, L4/L5.
std::vector<Evidence> gather_evidence(const AnalyzeInputs& in, const TopN& topn, const Scope& scope,
                                      Analysis& a) {
  std::vector<Evidence> ev(scope.selected.size());
  if (in.shapes.requested) {
    for (const auto& err : in.shapes.errors) a.skill_errors.push_back(err);
    for (const auto& n : in.shapes.notes) a.notes.push_back(n);
    std::size_t matched = 0;
    for (std::size_t i = 0; i < scope.selected.size(); ++i) {
      ev[i].probe = match_probes(topn.entries[scope.selected[i]], in.shapes.probes);
      if (!ev[i].probe.kernels.empty()) ++matched;
    }
    a.measured_inputs.push_back(fmt::format(
        "stage B input: {} probe file(s), {} probe kernel(s); {} of {} head entries matched",
        in.shapes.files.size(), in.shapes.probes.kernels.size(), matched, scope.selected.size()));
    a.notes.push_back(a.measured_inputs.back());
  }
  if (!in.counters.requested) return ev;
  for (const auto& err : in.counters.errors) {
    a.measured_inputs.push_back(err);
    a.warnings.push_back(err);
    a.degraded.push_back(Degradation{"(counters)", "L4", err});
  }
  for (const CounterFile& f : in.counters.files) {
    for (const auto& n : f.notes) a.notes.push_back(n);
    if (f.usable())
      a.measured_inputs.push_back(fmt::format("stage C input: {} ({}): {} rows used, {} kernels",
                                              f.display, f.format_detail, f.rows_used,
                                              f.kernels.size()));
    for (const auto& err : f.errors) {
      a.measured_inputs.push_back(err);
      a.warnings.push_back(err);
      a.degraded.push_back(Degradation{"(counters)", "L4", err});
    }
    if (f.bad_rows > 0) {
      std::string lines;
      for (auto l : f.bad_row_lines) lines += fmt::format("{}{}", lines.empty() ? "" : ", ", l);
      a.measured_inputs.push_back(fmt::format(
          "{}: {} of {} rows unusable (wrong column count or value; first at line{} {}); the "
          "rest used",
          f.display, f.bad_rows, f.lines, f.bad_row_lines.size() == 1 ? "" : "s", lines));
      a.warnings.push_back(a.measured_inputs.back());  // the parser's own note is in notes
    }
  }
  for (const auto& line : a.measured_inputs)
    if (line.rfind("stage C input:", 0) == 0) a.notes.push_back(line);
  const std::vector<KernelCounters> kernels = merge_kernels(in.counters.files);
  std::vector<std::string> names, short_names;
  for (std::size_t idx : scope.selected) {
    names.push_back(topn.entries[idx].name);
    short_names.push_back(topn.entries[idx].short_name);
  }
  std::vector<KernelMatch> matches = match_kernels(names, kernels);
  const std::vector<KernelMatch> by_short = match_kernels(short_names, kernels);
  std::vector<bool> used(kernels.size(), false);
  for (std::size_t i = 0; i < matches.size(); ++i) {
    if (matches[i].kernels.empty() && !short_names[i].empty()) matches[i] = by_short[i];
    if (matches[i].kernels.empty()) continue;
    KernelCounters sum;
    std::string which;
    for (std::size_t k : matches[i].kernels) {
      used[k] = true;
      add_kernel_counters(sum, kernels[k]);
      if (which.empty()) which = kernels[k].name;
    }
    if (matches[i].kernels.size() > 1)
      which += fmt::format(" and {} more", matches[i].kernels.size() - 1);
    ev[i].measured = measure(sum, in.counters.options);
    ev[i].measured_source =
        fmt::format("counters of '{}' ({} match)", which, to_string(matches[i].kind));
  }
  std::vector<std::size_t> unmatched;
  for (std::size_t k = 0; k < kernels.size(); ++k)
    if (!used[k]) unmatched.push_back(k);
  std::stable_sort(unmatched.begin(), unmatched.end(), [&](std::size_t x, std::size_t y) {
    return kernels[x].dispatches > kernels[y].dispatches;
  });
  for (std::size_t k : unmatched) a.unmatched_counter_kernels.push_back(kernels[k].name);
  if (!unmatched.empty())
    a.notes.push_back(fmt::format(
        "{} counter kernel(s) match no head entry (most dispatches first: {}{})", unmatched.size(),
        kernels[unmatched[0]].name, unmatched.size() > 1 ? ", ..." : ""));
  return ev;
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
  for (const auto& n : in.config.loaded.notes) {  // non-finite literals, layer-plan problems
    a.notes.push_back(n);
    a.warnings.push_back(n);
  }
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
  if (config) a.run.layer_plan = describe_plan(config->plan);
  if (!a.run.layer_plan.empty())
    a.notes.push_back(fmt::format("layer plan: {} (mixers: {}; FFNs: {})", a.run.layer_plan,
                                  config->plan.mixer_rule, config->plan.ffn_rule));
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

  std::vector<Evidence> evidence = gather_evidence(in, topn, scope, a);
  for (std::size_t i = 0; i < scope.selected.size(); ++i) {
    const TopNEntry& e = topn.entries[scope.selected[i]];
    try {
      a.entries.push_back(analyze_entry(e, topn, rules, ctx, a.peaks, opts, evidence[i]));
    } catch (const std::exception& ex) {
      EntryResult r = entry_identity(e);
      r.route = "fall back to pct_gpu_time order (analysis failed)";
      r.notes.push_back(fmt::format("internal error while analysing this entry: {}", ex.what()));
      r.degraded = Degradation{e.name, "L5", fmt::format("analysis failed: {}", ex.what())};
      a.skill_errors.push_back(fmt::format("entry '{}': analysis failed: {}", e.name, ex.what()));
      a.entries.push_back(std::move(r));
    }
  }
  if (in.counters.requested) {
    std::vector<std::string> missing;
    for (const auto& e : a.entries)
      if (e.stage != 'C') missing.push_back(e.name);
    if (!missing.empty() && !a.entries.empty()) {
      std::string list;
      for (std::size_t i = 0; i < missing.size() && i < 5; ++i)
        list += fmt::format("{}'{}'", i ? ", " : "", missing[i]);
      a.degraded.push_back(Degradation{
          "(counters)", "L4",
          fmt::format("{} of {} head entries not measured ({}{}): stage A/B numbers kept, "
                      "confidence not raised",
                      missing.size(), a.entries.size(), list, missing.size() > 5 ? ", ..." : "")});
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
