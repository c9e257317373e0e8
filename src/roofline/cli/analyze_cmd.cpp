// `roofline analyze`: reads the inputs, runs the pipeline, writes the artifacts, maps the outcome
// to an exit code. Level L0 (ANALYSIS_SKILL) is decided here, before anything is read.
#include "roofline/cli/analyze_cmd.hpp"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string_view>

#include <unistd.h>

#include <fmt/format.h>

#include "roofline/cli/analyze_steps.hpp"
#include "roofline/cli/common.hpp"
#include "roofline/cli/input_checks.hpp"
#include "roofline/cli/layer.hpp"
#include "roofline/inputs/kernel_classes.hpp"
#include "roofline/render/report.hpp"

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

// A round that is not there is a usage error that says which rounds are (docs/method.md §2.2).
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
// mislead (docs/method.md §17.5). Classes it had to skip are only warnings.
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

// The terminal table, after the artifacts are written: if it cannot be rendered, stderr says so
// and the run's outcome stands.
void print_summary(const Analysis& analysis, const std::vector<std::string>& written, bool color) {
  try {
    const std::string text = render_text_summary(analysis, written, color);
    std::fwrite(text.data(), 1, text.size(), stdout);
  } catch (const std::exception& ex) {
    err_line(fmt::format("error: the terminal summary could not be rendered: {}", ex.what()));
  }
}

}  // namespace

void prepare_options(AnalyzeArgs& a) {
  a.options.scope.head_threshold_pct = head_threshold(a);
  a.options.scope.key =
      a.head_key == "serving_weighted" ? HeadKey::serving_weighted : HeadKey::gpu_time;
  for (const auto& spec : a.classify) {
    std::string error;
    auto rule = parse_classify_override(spec, error);
    if (!rule) throw UsageError(error);
    a.options.overrides.push_back(*rule);
  }
}

AnalyzeInputs load_analyze_inputs(AnalyzeArgs& a) {
  std::string calibration_named = "--calibration";
  if (!a.paths.calibration)
    if (const char* env = std::getenv("ROOFLINE_CALIBRATION"); env && *env) {
      a.paths.calibration = env;
      calibration_named = "ROOFLINE_CALIBRATION=";
    }
  AnalyzeInputs inputs = load_inputs(a.paths);
  require_calibration(inputs, calibration_named);
  apply_given_args(a.given, inputs, a.options.given);
  return inputs;
}

int analyze_and_write(const AnalyzeArgs& a, const AnalyzeInputs& inputs, const fs::path& dir,
                      std::vector<std::string> written) {
  // Neither the run nor its renderers let an exception out (docs/method.md §13 L5): what failed is
  // a skill error in the artifacts, which are still written.
  Analysis analysis = analyze::analyze(inputs, a.options);
  const Artifacts artifacts = render_artifacts(analysis);
  for (const auto& line : diagnostic_lines(analysis)) err_line(line);

  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    err_line(fmt::format("artifacts not written: cannot create output folder {}: {}", dir.string(),
                         ec.message()));
    return k_exit_write;
  }
  for (const auto& [name, text] : {std::pair{"profile_roofline.json", &artifacts.json},
                                   std::pair{"profile_roofline.md", &artifacts.markdown},
                                   std::pair{"profile_roofline.svg", &artifacts.svg}}) {
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
    std::fwrite(artifacts.json.data(), 1, artifacts.json.size(), stdout);
  } else if (format == "text") {
    print_summary(analysis, written, use_color(a.color));
  }
  return a.strict && has_problems(analysis) ? k_exit_strict : k_exit_ok;
}

int run_analyze(AnalyzeArgs a) {
  std::string skill;
  if (skill_disabled(skill)) {
    err_line(fmt::format(
        "ANALYSIS_SKILL={} does not name roofline: analysis skipped, nothing written (L0)", skill));
    return k_exit_ok;
  }
  check_input_kinds(a);
  if (!a.traces.empty()) return run_analyze_trace(std::move(a));
  if (!a.captures.empty())
    throw UsageError(
        "--capture reads graph-capture traces for a TRACE: roofline analyze TRACE --capture DIR "
        "(or roofline topn TRACE --capture DIR)");
  if (!a.paths.round && !a.paths.topn)
    throw UsageError(
        "analyze: give a TRACE (roofline analyze TRACE --config config.json), or --round R "
        "(--dir EVAL), or --topn FILE");
  a.paths.eval_dir = a.dir;
  if (a.paths.round && !a.paths.topn) require_round(a.paths.eval_dir, *a.paths.round);
  prepare_options(a);
  const AnalyzeInputs inputs = load_analyze_inputs(a);
  return analyze_and_write(a, inputs, out_dir(a), {});
}

}  // namespace roofline::cli
