#pragma once
// `roofline topn TRACE... [-o OUT] [--top N]`: the standardized Top-N from raw profiler output.

#include <cstddef>
#include <string>
#include <vector>
#include "roofline/cli/layer.hpp"

namespace CLI {
class App;
}

namespace roofline::cli {

struct TopnArgs {
  std::vector<std::string> traces;
  std::vector<std::string>
      captures;  // --capture FILE|DIR: graph-capture traces (docs/method.md §22.7)
  std::string out = "profile_topN.json";
  std::size_t top = 25;
  bool fsync = false;
};

// Declares the subcommand on `app`, filling `args`; returns it so the caller can test parsed().
CLI::App* add_topn_command(CLI::App& app, TopnArgs& args);
// Reads every trace, merges them by kernel name and writes the Top-N and, beside it,
// profile_workload.json. Exit 0 written; 1 a trace was unreadable, truncated or of an unknown
// format (nothing written; the reason on stderr, one line naming the file); 2 a file named as a
// trace is empty or a document of another kind; 3 a write failed.
int run_topn(const TopnArgs& args);

}  // namespace roofline::cli
