#pragma once
// The whole command line as one CLI11 App, built without running anything: `run` parses with it,
// and the man page and the shell completions are generated from it, so they cannot drift.

#include "roofline/cli/analyze_cmd.hpp"
#include "roofline/cli/calc_cmd.hpp"
#include "roofline/cli/calibrate_cmd.hpp"
#include "roofline/cli/compare_cmd.hpp"
#include "roofline/cli/counters_cmd.hpp"
#include "roofline/cli/outcomes_cmd.hpp"
#include "roofline/cli/peaks_cmd.hpp"
#include "roofline/cli/topn_cmd.hpp"

namespace CLI {
class App;
}

namespace roofline::cli {

// The option structs of every subcommand, which the App fills while parsing.
struct AllArgs {
  AnalyzeArgs analyze;
  PeaksArgs peaks;
  CalcArgs calc;
  CountersArgs counters;
  CompareArgs compare;
  OutcomesArgs outcomes;
  CalibrateArgs calibrate;
  TopnArgs topn;
};

// The declared subcommands, so the caller can ask which one was parsed.
struct AppCommands {
  CLI::App* analyze = nullptr;
  PeaksCommands peaks;
  CLI::App* calc = nullptr;
  CLI::App* counters = nullptr;
  CLI::App* compare = nullptr;
  CLI::App* outcomes = nullptr;
  CLI::App* calibrate = nullptr;
  CLI::App* topn = nullptr;
};

// Declares the description, version flag, footer and every subcommand on `app` (constructed
// with the program's name), bound to `args`; parses nothing and runs nothing. `args` must outlive
// any parse with `app`.
AppCommands build_app(CLI::App& app, AllArgs& args);

}  // namespace roofline::cli
