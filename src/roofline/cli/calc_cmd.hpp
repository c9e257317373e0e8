#pragma once
// `roofline calc`: the roofline arithmetic on raw bytes, FLOPs and time (a what-if calculator).

#include <string>

#include "roofline/analyze/calc.hpp"

namespace CLI {
class App;
}

namespace roofline::cli {

struct CalcArgs {
  CalcInput in;
  std::string peaks, format = "text";
};

// Declares the subcommand on `app`, filling `args`; returns it so the caller can test parsed().
CLI::App* add_calc_command(CLI::App& app, CalcArgs& args);
// Prints the entry fields `analyze` would emit for these numbers. Exit 0, or 2 for a bad dtype
// or class.
int run_calc(const CalcArgs& args);

}  // namespace roofline::cli
