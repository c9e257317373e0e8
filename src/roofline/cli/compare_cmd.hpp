#pragma once
// `roofline compare --round A --round B`: round A's predictions against round B's measurements.

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace roofline::cli {

struct CompareArgs {
  std::vector<std::string> rounds;  // exactly two: A (predictions), then B (measurements)
  std::string dir = ".";
  double noise_isolated = 0.034;
  std::vector<std::string> fail_on;  // regression | contradiction
  std::string format = "text";       // text | json | quiet
};

// Declares the subcommand on `app`, filling `args`; returns it so the caller can test parsed().
CLI::App* add_compare_command(CLI::App& app, CompareArgs& args);
// Writes profile/round_B/roofline_compare.json and .md and prints the table. Exit 0; 1 when a
// --fail-on condition holds; 2 usage error (a missing round lists the rounds that exist); 3 the
// files could not be written.
int run_compare(const CompareArgs& args);

}  // namespace roofline::cli
