#pragma once
// `roofline counters FILE...`: what a stage C counter CSV holds, per kernel, without a Top-N.

#include <string>
#include <vector>

#include "roofline/inputs/counters.hpp"

namespace CLI {
class App;
}

namespace roofline::cli {

struct CountersArgs {
  std::vector<std::string> files;
  std::string format = "text";
  double mfma_f8_flops_per_inst = k_default_mfma_f8_flops;
  bool all_counters = false;  // sum every counter, not only those stage C reads
};

// Declares the subcommand on `app`, filling `args`; returns it so the caller can test parsed().
CLI::App* add_counters_command(CLI::App& app, CountersArgs& args);
// Prints per-kernel dispatches, bytes, FLOPs and time per dispatch over all files merged.
// Exit 0 when every file was usable, 1 when one was not (the reason on stderr).
int run_counters(const CountersArgs& args);

}  // namespace roofline::cli
