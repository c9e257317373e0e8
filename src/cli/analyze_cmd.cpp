// `roofline analyze`: reads the inputs, runs the pipeline, writes the artifacts, maps the outcome
// to an exit code. Level L0 (ANALYSIS_SKILL) is decided here, before anything is read.
#include "cli/analyze_cmd.hpp"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string_view>

#include <unistd.h>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "cli/common.hpp"
#include "roofline/kernel_classes.hpp"
#include "roofline/report.hpp"

namespace roofline::cli {
namespace {

namespace fs = std::filesystem;

// ANALYSIS_SKILL set and not naming roofline (e.g. "none") switches analyze off (L0).
bool skill_disabled(std::string& value) {
  const char* v = std::getenv("ANALYSIS_SKILL");
  if (!v || !*v) return false;
  value = v;
  std::string token;
  for (std::size_t i = 0; i <= value.size(); ++i) {
    char c = i < value.size()
                 ? static_cast<char>(std::tolower(static_cast<unsigned char>(value[i])))
                 : ',';
    if (c == ',' || c == ' ' || c == ':' || c == ';' || c == '+') {
      if (token == "roofline" || token == "all" || token == "*") return false;
      token.clear();
    } else {
      token += c;
    }
  }
  return true;
}

// --head-threshold, else $HEAD_THRESHOLD_PCT, else the default.
double head_threshold(const AnalyzeArgs& a) {
  if (a.head_threshold) return *a.head_threshold;
  const char* env = std::getenv("HEAD_THRESHOLD_PCT");
  if (!env || !*env) return k_default_head_threshold_pct;
  char* end = nullptr;
  double v = std::strtod(env, &end);
  if (end == env || *end != '\0' || !std::isfinite(v) || v < 0 || v > 100)
    throw UsageError(
        fmt::format("HEAD_THRESHOLD_PCT='{}': expected a percentage between 0 and 100", env));
  return v;
}

fs::path out_dir(const AnalyzeArgs& a) {
  if (!a.out.empty()) return a.out;
  if (a.paths.topn) {
    const fs::path parent = a.paths.topn->parent_path();
    return parent.empty() ? fs::path(".") : parent;
  }
  return round_dir(a.paths.eval_dir, *a.paths.round);
}

// A round that is not there is a usage error that says which rounds are (RUNS.md §1).
void require_round(const fs::path& eval_dir, const std::string& round) {
  std::error_code ec;
  if (fs::is_directory(round_dir(eval_dir, round), ec)) return;
  const std::vector<std::string> rounds = rounds_in(eval_dir);
  std::string list;
  for (const auto& r : rounds) list += (list.empty() ? "" : ", ") + r;
  throw UsageError(fmt::format(
      "--round {}: no folder {}; {}", round, round_dir(eval_dir, round).string(),
      rounds.empty() ? fmt::format("{} holds no profile/round_<R>/ folders", eval_dir.string())
                     : fmt::format("rounds there: {}", list)));
}

// A calibration that was asked for must be one: falling back to the priors silently would
// mislead (OUTCOMES.md §5). Classes it had to skip are only warnings.
void require_calibration(const AnalyzeInputs& in, const std::string& named) {
  if (!in.calibration) return;
  const auto& c = *in.calibration;
  const std::string how = named == "--calibration" ? named + " " + c.display : named + c.display;
  if (!c.found) throw UsageError(fmt::format("{}: file not found", how));
  if (!c.loaded.value)
    throw UsageError(fmt::format(
        "{}: {}", how, c.loaded.errors.empty() ? "not a calibration" : c.loaded.errors.front()));
}

bool use_color(const std::string& mode) {
  if (mode == "always") return true;
  if (mode != "auto" || !::isatty(STDOUT_FILENO)) return false;
  const char* no_color = std::getenv("NO_COLOR");  // no-color.org: set and non-empty
  const char* term = std::getenv("TERM");
  return !(no_color && *no_color) && !(term && std::string_view(term) == "dumb");
}

}  // namespace

CLI::App* add_analyze_command(CLI::App& app, AnalyzeArgs& a) {
  auto* cmd = app.add_subcommand("analyze", "Analyse one profile round and write the artifacts");
  cmd->footer(
      std::string(
          "Inputs (defaults): D/profile/round_R/profile_topN.json; D/env_report.json, then\n"
          "D/profile/round_R/env_report.json; the env report's model path + /config.json, then "
          "D/config.json;\n"
          "the built-in peaks table; profile_workload.json beside the Top-N when present (the "
          "profiler's\nper-case counts and latencies). A missing or broken default input is "
          "reported in the "
          "artifact\n"
          "(skill_errors / degraded) and the run still writes; a file named explicitly must exist "
          "(else exit 2).\n\n"
          "Outputs: profile_roofline.json (the artifact), profile_roofline.md (the report) and\n"
          "profile_roofline.svg (the roofline chart), beside the profile unless --out says "
          "where.\n\n") +
      fmt::format("Scope: entries with pct_gpu_time (or, with --head-key serving_weighted, "
                  "serving_weighted_pct)\n"
                  ">= the head threshold (default {:g}, or $HEAD_THRESHOLD_PCT),\n"
                  "biggest first, at most --max-entries; smaller ones are skipped (counted, not "
                  "degraded).\n\n"
                  "Every number in the artifact is explained in the entry's notes: unit, byte "
                  "model, assumptions.",
                  k_default_head_threshold_pct));
  InputPaths& p = a.paths;
  cmd->add_option("-r,--round", p.round,
                  "Profile round R: a name of letters, digits, '_' and '-' such as 0, config, "
                  "tuning or 3 (reads D/profile/round_R/)")
      ->check(CLI::Validator(
          [](std::string& r) -> std::string {
            return valid_round_name(r) ? std::string()
                                       : "'" + r +
                                             "' is not a round name: letters, digits, '_' and '-' "
                                             "(e.g. 0, config, tuning, 3)";
          },
          "NAME"));
  cmd->add_option("-d,--dir", a.dir, "Evaluation folder holding profile/round_R/")
      ->check(CLI::ExistingDirectory)
      ->capture_default_str();
  cmd->add_option("--topn", p.topn,
                  "Explicit Top-N file (instead of D/profile/round_R/profile_topN.json)")
      ->check(CLI::ExistingFile);
  cmd->add_option("--env", p.env,
                  "Environment report (default D/env_report.json, then the round folder)")
      ->check(CLI::ExistingFile);
  cmd->add_option("--config", p.config, "HuggingFace model config.json (optional input)")
      ->check(CLI::ExistingFile);
  cmd->add_option("--peaks", p.peaks, "Peaks table in peaks.md format (default: built-in table)")
      ->check(CLI::ExistingFile);
  cmd->add_option("--shapes", p.shapes,
                  "Stage B: captured-shape probe file (probe_<pid>_<target>.json or "
                  "per_shape_probe.json) or a folder of them; repeatable. Matched entries are "
                  "modelled on the real shapes (confidence medium)")
      ->check(CLI::ExistingPath);
  cmd->add_option("--counters", p.counters,
                  "Stage C: rocprofv3 *_counter_collection.csv or rocprof results.csv, or a "
                  "folder searched for them; repeatable. Matched entries use the measured "
                  "(FETCH_SIZE+WRITE_SIZE)*1024 bytes per dispatch (confidence high)")
      ->check(CLI::ExistingPath);
  cmd->add_option("--mfma-f8-flops", p.counter_options.mfma_f8_flops_per_inst,
                  "Stage C: FLOPs per SQ_INSTS_VALU_MFMA_MOPS_F8 count (fp8 has no MfmaFlops "
                  "counter)")
      ->check(finite_range(1e-9, 1e9))
      ->capture_default_str();
  cmd->add_option("--head-threshold", a.head_threshold,
                  fmt::format("Analyse entries at or above this % of GPU time (default: "
                              "$HEAD_THRESHOLD_PCT, else {:g})",
                              k_default_head_threshold_pct))
      ->check(finite_range(0.0, 100.0));
  cmd->add_option("--head-key", a.head_key,
                  "Which share of GPU time scopes the head, weighs the expected gain and orders "
                  "ranking_by_pct: gpu_time (the capture's pct_gpu_time) or serving_weighted (the "
                  "Top-N's serving_weighted_pct, the capture re-weighted to the deployed "
                  "decode/prefill mix; entries without one keep pct_gpu_time)")
      ->check(CLI::IsMember({"gpu_time", "serving_weighted"}))
      ->capture_default_str();
  cmd->add_option("--max-entries", a.options.scope.max_entries, "At most this many head entries")
      ->check(whole_number(1, 100000))
      ->capture_default_str();
  cmd->add_option("--launch-overhead-us", a.options.verdict.launch_overhead_us,
                  "Dispatch floor unit: a unit of <= 2x this is dispatch-bound (no verdict)")
      ->check(non_negative())
      ->capture_default_str();
  cmd->add_option(
      "--classify", a.classify,
      "PATTERN=CLASS[:detail], repeatable: force the op class (gemm, moe, attn, linear_attn, "
      "ssm, comm, elementwise, unknown) of kernels whose name matches PATTERN (substring, or "
      "glob with * ?)");
  cmd->add_option("-o,--out", a.out, "Folder for the artifacts (default: the round folder)");
  cmd->add_option("-f,--format", a.format,
                  "stdout: text (a summary), json (the artifact), quiet. "
                  "Default: text on a terminal, quiet otherwise")
      ->check(CLI::IsMember({"text", "json", "quiet"}));
  cmd->add_option("--color", a.color,
                  "Colour in the text summary: auto (a terminal, and NO_COLOR unset), always, "
                  "never")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->capture_default_str();
  cmd->add_option("--max-input-size", p.limits.max_bytes,
                  "Refuse an input file larger than this (e.g. 64MiB, 1GiB; plain numbers are "
                  "bytes); the file is reported as unreadable and the run goes on")
      ->transform(CLI::AsSizeValue(false))
      ->default_str("256MiB");
  cmd->add_option("--max-json-depth", p.limits.max_depth,
                  "Refuse an input nested deeper than this many levels (JSON arrays/objects, "
                  "YAML flow collections)")
      ->check(whole_number(1, 100000))
      ->capture_default_str();
  cmd->add_option("--max-topn-entries", p.limits.max_entries,
                  "Read at most this many Top-N top_kernels (the rest are reported, not read)")
      ->check(whole_number(1, 100000000))
      ->capture_default_str();
  cmd->add_option("--calibration", p.calibration,
                  "target_eff from a roofline_calibration.json (roofline calibrate) for classes "
                  "marked used (default: $ROOFLINE_CALIBRATION, else the shipped priors)")
      ->check(CLI::ExistingFile);
  cmd->add_option("--calibration-min-n", a.options.verdict.calibration_min_n,
                  "Use a calibrated class only with at least this many outcomes")
      ->check(whole_number(1, 100000))
      ->capture_default_str();
  cmd->add_flag("--strict", a.strict, "Exit 1 when anything is degraded or a skill error occurred");
  cmd->add_flag("--fsync", a.fsync,
                "Flush the artifacts to stable storage before the atomic rename (survives power "
                "loss; slower on some disks). Without it writes are still atomic against crashes");
  return cmd;
}

int run_analyze(AnalyzeArgs a) {
  std::string skill;
  if (skill_disabled(skill)) {
    err_line(fmt::format(
        "ANALYSIS_SKILL={} does not name roofline: analysis skipped, nothing written (L0)", skill));
    return k_exit_ok;
  }
  if (!a.paths.round && !a.paths.topn)
    throw UsageError("analyze: --round is required unless --topn names the Top-N file");
  a.paths.eval_dir = a.dir;
  if (a.paths.round && !a.paths.topn) require_round(a.paths.eval_dir, *a.paths.round);
  a.options.scope.head_threshold_pct = head_threshold(a);
  a.options.scope.key =
      a.head_key == "serving_weighted" ? HeadKey::serving_weighted : HeadKey::gpu_time;
  for (const auto& spec : a.classify) {
    std::string error;
    auto rule = parse_classify_override(spec, error);
    if (!rule) throw UsageError(error);
    a.options.overrides.push_back(*rule);
  }

  std::string calibration_named = "--calibration";
  if (!a.paths.calibration)
    if (const char* env = std::getenv("ROOFLINE_CALIBRATION"); env && *env) {
      a.paths.calibration = env;
      calibration_named = "ROOFLINE_CALIBRATION=";
    }
  const AnalyzeInputs inputs = load_inputs(a.paths);
  require_calibration(inputs, calibration_named);
  const Analysis analysis = analyze(inputs, a.options);
  for (const auto& line : diagnostic_lines(analysis)) err_line(line);

  const std::string json_text = render_json(analysis);
  const std::string md_text = render_markdown(analysis);
  const std::string svg_text = render_roofline_svg(analysis);
  const fs::path dir = out_dir(a);
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    err_line(fmt::format("artifacts not written: cannot create output folder {}: {}", dir.string(),
                         ec.message()));
    return k_exit_write;
  }
  std::vector<std::string> written;
  for (const auto& [name, text] :
       {std::pair{"profile_roofline.json", &json_text}, std::pair{"profile_roofline.md", &md_text},
        std::pair{"profile_roofline.svg", &svg_text}}) {
    const fs::path path = dir / name;
    if (auto error = write_atomic(path, *text, a.fsync)) {
      err_line("artifacts not written: " + *error);
      return k_exit_write;
    }
    written.push_back(path.string());
  }

  const std::string format = !a.format.empty()         ? a.format
                             : ::isatty(STDOUT_FILENO) ? "text"
                                                       : "quiet";
  if (format == "json") {
    std::fwrite(json_text.data(), 1, json_text.size(), stdout);
  } else if (format == "text") {
    const std::string text = render_text_summary(analysis, written, use_color(a.color));
    std::fwrite(text.data(), 1, text.size(), stdout);
  }
  return a.strict && has_problems(analysis) ? k_exit_strict : k_exit_ok;
}

}  // namespace roofline::cli
