#pragma once
// `roofline analyze`: one profile round in, profile_roofline.{json,md,svg} out
// (docs/method.md §2.1).

#include <optional>
#include <string>
#include <vector>

#include "roofline/analyze/analyze.hpp"
#include "roofline/cli/given_env.hpp"
#include "roofline/cli/layer.hpp"
#include "roofline/inputs/eval_inputs.hpp"

namespace CLI {
class App;
}

namespace roofline::cli {

// The options CLI11 fills: straight into the pipeline's own structs where one exists.
struct AnalyzeArgs {
  std::vector<std::string> traces;    // analyze TRACE...: the Top-N is built from them in memory
  std::vector<std::string> captures;  // --capture FILE|DIR, with TRACE (docs/method.md §22.7)
  InputPaths paths;
  AnalyzeOptions options;
  GivenArgs given;  // --product, --conc, --isl, --osl, --tp, --regime
  std::string dir = ".";
  std::optional<double> head_threshold;  // else $HEAD_THRESHOLD_PCT, else the default
  std::string head_key = "gpu_time";     // gpu_time | serving_weighted (docs/method.md §4)
  std::vector<std::string> classify;     // PATTERN=CLASS[:detail]
  std::string out;     // "" = the round folder, the --topn file's folder, or ./<trace name>/
  std::string format;  // text | json | quiet; "" = text on a terminal
  std::string color = "auto";  // auto | always | never
  bool strict = false;
  bool fsync = false;
};

// Declares the subcommand on `app`, filling `args`; returns it so the caller can test parsed().
CLI::App* add_analyze_command(CLI::App& app, AnalyzeArgs& args);
// Runs the analysis and writes the three artifacts; the exit code of docs/method.md §2.1 (0, 1, 2,
// 3).
int run_analyze(AnalyzeArgs args);

}  // namespace roofline::cli
