#pragma once
// The command-line layer: the only user of CLI11. Fills plain option structs and calls the core.

namespace roofline::cli {

// Runs the command line; returns the process exit code (docs/method.md §2.1: 0, 1, 2, 3).
int run(int argc, char** argv);

}  // namespace roofline::cli
