#pragma once
// `roofline calibrate`: target_eff per (op_class, arch, product) from the outcome ledger.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "roofline/outcomes/calibrate.hpp"

namespace CLI {
class App;
}

namespace roofline::cli {

struct CalibrateArgs {
  std::vector<std::string> ledgers;  // empty = $ROOFLINE_LEDGER, else ./roofline_outcomes.jsonl
  std::string out;                   // "" = roofline_calibration.json beside the first ledger
  std::size_t min_n = k_default_min_n;
  std::string format = "text";
};

// Declares the subcommand on `app`, filling `args`; returns it so the caller can test parsed().
CLI::App* add_calibrate_command(CLI::App& app, CalibrateArgs& args);
// Reads the ledgers (and stage-C artifacts beside them), writes roofline_calibration.json and
// prints the table. Exit 0; 2 usage error (a ledger not found); 3 the file could not be written.
int run_calibrate(const CalibrateArgs& args);

}  // namespace roofline::cli
