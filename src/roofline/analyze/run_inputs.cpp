// What the inputs say (the driver's passes inputs, peaks and calibration): their problems, their
// records, the run header, the denominators and the calibration table.
#include <algorithm>

#include <fmt/format.h>

#include "roofline/analyze/layer.hpp"
#include "roofline/analyze/run.hpp"
#include "roofline/inputs/peaks.hpp"

namespace roofline::analyze::detail {

Run::Run(const AnalyzeInputs& inputs, const AnalyzeOptions& options)
    : in(inputs),
      opts(options),
      topn(inputs.topn.loaded.value.value_or(TopnDocument{})),
      env(inputs.env.loaded.value ? &*inputs.env.loaded.value : nullptr),
      config(inputs.config.loaded.value ? &*inputs.config.loaded.value : nullptr),
      verdict(options.verdict) {
  a.head_threshold_pct = options.scope.head_threshold_pct;
}

Findings input_findings(const AnalyzeInputs& in, const GivenEnv& given) {
  Findings f;
  auto check = [&](const auto& file, bool required, const char* what) {
    for (const auto& err : file.loaded.errors)
      f.diagnostics.push_back(Diagnostic{Severity::error, std::nullopt, Topic::input, "", err});
    if (file.found) return;
    if (required)
      f.diagnostics.push_back(Diagnostic{Severity::error, std::nullopt, Topic::input, "",
                                         fmt::format("{}: not found ({})", file.display, what)});
    else
      f.notes.push_back(fmt::format(
          "no model config found (looked for {}): models that need it degrade", file.display));
  };
  check(in.topn, true, "the Top-N profile is required");
  // A Top-N that names its device and measured its steps needs no env report (a note, not L5).
  // One that names only its device is an optional input too, and so is the report where --product
  // gives the device: what it lacks degrades the models that need it, each saying so.
  const TopnDocument* topn = in.topn.loaded.value ? &*in.topn.loaded.value : nullptr;
  const bool stands_in = topn && topn_stands_in(*topn);
  const bool device_only = topn && !stands_in && topn->device && !topn->device->arch.empty();
  if (stands_in && !in.env.found)
    f.notes.push_back(
        fmt::format("{}: not found; the Top-N's device and measured serving block stand in for it",
                    in.env.display));
  else if (device_only && !in.env.found)
    f.notes.push_back(
        fmt::format("{}: not found; the Top-N's device stands in for it (no measured workload)",
                    in.env.display));
  else if (!given.arch.empty() && !in.env.found)
    f.notes.push_back(fmt::format("{}: not found; --product '{}' gives the device (no workload)",
                                  in.env.display, given.product_spelling));
  else
    check(in.env, true, "environment report: gfx, workload, tp");
  check(in.config, false, "model config");
  check(in.peaks, true, "peaks table");
  // What the readers noticed without refusing anything (non-finite literals read as absent,
  // layer-plan problems): worth a line on stderr, and kept in the artifact's notes.
  // An unreadable profile_workload.json only loses its per-case counts: the Top-N's shapes stay.
  for (const auto* notes : {&in.topn.loaded.notes, &in.env.loaded.notes, &in.config.loaded.notes,
                            &in.workload.loaded.notes, &in.workload.loaded.errors})
    for (const auto& n : *notes) {
      f.notes.push_back(n);
      f.diagnostics.push_back(Diagnostic{Severity::warning, std::nullopt, Topic::input, "", n});
    }
  return f;
}

std::vector<InputRecord> input_records(const AnalyzeInputs& in) {
  std::vector<InputRecord> out;
  if (in.topn.found) out.push_back({in.topn.display, "topn"});
  if (in.env.found) out.push_back({in.env.display, "env_report"});
  if (in.config.found) out.push_back({in.config.display, "config"});
  // A workload built with the Top-N from a trace (analyze TRACE) is that trace, listed once.
  if (in.workload.found && in.workload.display != in.topn.display)
    out.push_back({in.workload.display, "workload"});
  if (in.peaks.found) out.push_back({in.peaks.display, "peaks"});
  if (in.calibration && in.calibration->found)
    out.push_back({in.calibration->display, "calibration"});
  for (const auto& f : in.shapes.files) out.push_back({f, "shapes"});
  for (const auto& f : in.counters.files) out.push_back({f.display, "counters"});
  return out;
}

namespace {

// The report's Inputs row: exactly the files read, each with what the run took from it.
std::string inputs_read(const AnalyzeInputs& in, const TopnDocument& topn) {
  std::vector<std::string> parts;
  std::string from_topn = "kernels and times";
  if (topn.device) from_topn += ", the GPU";
  if (topn.serving.present && !topn.serving.step_source.empty()) from_topn += ", the steps";
  if (const auto& g = topn.graph_replay; g && g->capture_given && g->launches)
    from_topn += fmt::format(
        ", the shapes of {:g} of its {:g} graph-replayed launches from the "
        "graph-capture trace (--capture)",
        g->paired.value_or(0.0), *g->launches);
  parts.push_back(fmt::format("{}: {}", in.topn.display, from_topn));
  if (in.workload.found && in.workload.display != in.topn.display)
    parts.push_back(fmt::format("{}: per-case counts and latencies", in.workload.display));
  parts.push_back(in.env.found ? fmt::format("{}: GPU, workload, tp", in.env.display)
                               : std::string("no env report"));
  parts.push_back(in.config.found
                      ? fmt::format("{}: the model and its layer plan", in.config.display)
                      : std::string("no config.json"));
  parts.push_back(fmt::format("{}: the roofs", in.peaks.display));
  if (in.calibration && in.calibration->found)
    parts.push_back(fmt::format("{}: calibrated target_eff", in.calibration->display));
  for (const auto& f : in.shapes.files) parts.push_back(fmt::format("{}: stage B shapes", f));
  for (const auto& f : in.counters.files)
    parts.push_back(fmt::format("{}: stage C counters", f.display));
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : "; ") + p;
  return out;
}

}  // namespace

RunInfo describe_run(const AnalyzeInputs& in, const TopnDocument& topn, const EnvReport* env,
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
  // Without an env report naming it, the model is what its config says it is.
  if (run.model.empty() && config)
    run.model = !config->architecture.empty() ? config->architecture : config->model_type;
  run.n_prefill_steps = topn.serving.n_prefill_steps;
  run.n_decode_steps = topn.serving.n_decode_steps;
  run.inputs = inputs_read(in, topn);
  return run;
}

ResolvedPeaks run_peaks(const AnalyzeInputs& in, const EnvReport* env, Findings& found) {
  const PeaksTable& table = in.peaks.loaded.value ? *in.peaks.loaded.value : builtin_peaks();
  if (in.peaks.loaded.value && in.peaks.origin == InputOrigin::file)
    for (const auto& problem : check_peaks(table)) {
      found.diagnostics.push_back(
          Diagnostic{Severity::warning, std::nullopt, Topic::peaks, "", problem});
      found.notes.push_back("peaks table problem: " + problem);
    }
  if (in.peaks.loaded.value && in.peaks.origin == InputOrigin::file) {
    for (const auto& warning : check_peaks_warnings(table))
      found.diagnostics.push_back(
          Diagnostic{Severity::warning, std::nullopt, Topic::peaks, "", warning});
    for (const auto& warning : check_peaks_bf16_fp16(table))
      found.diagnostics.push_back(
          Diagnostic{Severity::warning, std::nullopt, Topic::peaks, "", warning});
  }
  // The CU count tells parts of one arch apart (docs/method.md §22.2): the env report's
  // physical_cu_count where device_props has none.
  DeviceProps props = env ? env->device_props : DeviceProps{};
  if (env && !props.multi_processor_count && env->physical_cu_count)
    props.multi_processor_count = env->physical_cu_count;
  ResolvedPeaks peaks =
      resolve_peaks(table, env ? env->arch : "", env ? env->product_raw : "", props,
                    env ? env->device_name : "", env && env->product_pinned);
  found.notes.insert(found.notes.end(), peaks.notes.begin(), peaks.notes.end());
  if (peaks.source != PeaksSource::table) {
    std::string message = peaks.notes.empty() ? "peaks unknown" : peaks.notes.back();
    // docs/method.md §5.4: say what to add, with what the trace knows filled in.
    if (!peaks.section_to_add.empty())
      message += fmt::format(
          "; to judge this part, add this section to a copy of the built-in peaks.md "
          "(/usr/share/roofline/peaks.md, data/peaks.md in the source) given as --peaks FILE, "
          "replace each FILL with the datasheet's figure and check it with `roofline peaks "
          "check FILE`:\n{}",
          peaks.section_to_add);
    found.diagnostics.push_back(
        Diagnostic{Severity::warning, Level::L1, Topic::peaks, "", std::move(message)});
  }
  return peaks;
}

const CalibrationTable* calibration_for(const AnalyzeInputs& in, Findings& found) {
  if (!in.calibration || !in.calibration->loaded.value) return nullptr;
  const CalibrationTable& t = *in.calibration->loaded.value;
  for (const auto& e : in.calibration->loaded.errors) {
    found.diagnostics.push_back(Diagnostic{Severity::warning, std::nullopt, Topic::input, "", e});
    found.notes.push_back("calibration problem: " + e);
  }
  const auto used = std::count_if(t.classes.begin(), t.classes.end(),
                                  [](const CalibrationClass& c) { return c.used; });
  found.notes.push_back(fmt::format("calibration {}: {} class(es), {} marked used", t.display,
                                    t.classes.size(), used));
  return &t;
}

std::string config_status(const AnalyzeInputs& in, const ModelConfig* config) {
  if (config) return "";
  return in.config.found ? fmt::format("{} could not be read", in.config.display)
                         : fmt::format("not found (looked for {}); --config FILE would settle it",
                                       in.config.display);
}

}  // namespace roofline::analyze::detail
