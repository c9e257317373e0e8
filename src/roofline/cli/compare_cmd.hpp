#pragma once
// `roofline compare --round A --round B`: round A's predictions against round B's measurements;
// `roofline compare BEFORE AFTER --config F`: the same for two traces, each analysed as
// `analyze TRACE` would.

#include <string>
#include <vector>

#include "roofline/cli/analyze_cmd.hpp"
#include "roofline/cli/layer.hpp"

namespace CLI {
class App;
}

namespace roofline::cli {

struct CompareArgs {
  std::vector<std::string> traces;  // exactly two or none: before (A), after (B)
  std::vector<std::string> rounds;  // exactly two without traces: A (predictions), B (measurements)
  std::string dir = ".";
  // The trace form: each trace's `analyze TRACE` options (--config, --env, --peaks, the part and
  // workload given, --head-threshold).
  AnalyzeArgs analyze;
  double noise_isolated = 0.034;
  std::vector<std::string> fail_on;  // regression | contradiction
  std::string format = "text";       // text | json | quiet
};

// Declares the subcommand on `app`, filling `args`; returns it so the caller can test parsed().
CLI::App* add_compare_command(CLI::App& app, CompareArgs& args);
// Writes profile/round_B/roofline_compare.json and .md (the trace form: each trace's round where
// `analyze TRACE` writes it, the comparison into the second's) and prints the table. Exit 0; 1
// when a --fail-on condition holds; 2 usage error (a missing round lists the rounds that exist; a
// trace that cannot be read or a file of the wrong kind); 3 the files could not be written.
int run_compare(const CompareArgs& args);

}  // namespace roofline::cli
