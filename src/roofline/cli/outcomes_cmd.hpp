#pragma once
// `roofline outcomes`: measured outcomes of an evaluation folder, judged against the baseline
// round's predictions and recorded in the outcome ledger.

#include <string>

namespace CLI {
class App;
}

namespace roofline::cli {

struct OutcomesArgs {
  std::string dir = ".";
  std::string baseline_round;  // "" = 0, else the first round in workflow order
  std::string ledger;          // "" = $ROOFLINE_LEDGER, else D/roofline_outcomes.jsonl
  std::string format = "text";
};

// Declares the subcommand on `app`, filling `args`; returns it so the caller can test parsed().
CLI::App* add_outcomes_command(CLI::App& app, OutcomesArgs& args);
// Reads the outcome files, pairs and judges them, merges the records into the ledger. Exit 0
// (problems in outcome files are reported, not fatal); 2 usage error; 3 the ledger could not be
// written (it is then left as it was).
int run_outcomes(const OutcomesArgs& args);

}  // namespace roofline::cli
