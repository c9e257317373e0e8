// The `topn` subcommand: raw profiler output in, profile_topN.json and profile_workload.json out,
// so `roofline analyze` works without the agent workflow's profiler.
#include "roofline/cli/topn_cmd.hpp"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "roofline/cli/common.hpp"
#include "roofline/cli/input_checks.hpp"
#include "roofline/cli/layer.hpp"
#include "roofline/cli/trace_topn.hpp"
#include "roofline/inputs/kernel_classes.hpp"
#include "roofline/render/report.hpp"
#include "roofline/topn/profile/graph_capture.hpp"
#include "roofline/topn/topn.hpp"

namespace roofline::cli {
namespace {

namespace fs = std::filesystem;

}  // namespace

int run_topn(const TopnArgs& args) {
  const std::optional<TopnBuild> built = topn_from_traces(args.traces, args.captures, args.top);
  if (!built) {
    // A trace named on the command line that cannot be read (empty, truncated, of another kind
    // or of no supported format) is a usage error (docs/method.md §2.1's exit table).
    err_line("nothing written: fix or leave out the file(s) above");
    return k_exit_usage;
  }
  const TopnDocument& doc = built->topn;
  std::error_code ec;
  fs::path out = args.out;
  // A folder: one that exists, a path written with a trailing separator, or one whose name is not
  // a .json file (`-o run/profile/round_1/` creates it).
  const std::string spelled = out.string();
  const bool folder = fs::is_directory(out, ec) ||
                      (!spelled.empty() && (spelled.back() == '/' || spelled.back() == '\\')) ||
                      (!spelled.empty() && out.extension() != ".json");
  if (folder) out /= "profile_topN.json";
  const fs::path dir = out.parent_path();
  if (!dir.empty()) {
    fs::create_directories(dir, ec);
    if (ec) {
      err_line(
          fmt::format("nothing written: cannot create folder {}: {}", dir.string(), ec.message()));
      return k_exit_write;
    }
  }
  const fs::path workload = (dir.empty() ? fs::path(".") : dir) / "profile_workload.json";
  for (const auto& [path, text] :
       {std::pair{out, render_topn_json(doc)}, std::pair{workload, render_workload_json(*built)}}) {
    if (const auto error = write_atomic(path, text, args.fsync)) {
      err_line("not written: " + *error);
      return k_exit_write;
    }
  }
  fmt::print("roofline topn: {} of {} kernels, {} launches, {} ms of GPU time ({}{})\n",
             doc.entries.size(), doc.num_distinct_kernels.value_or(0.0),
             doc.num_kernel_launches.value_or(0.0), doc.total_gpu_time_ms.value_or(0.0), doc.source,
             doc.serving.present ? fmt::format(", {} prefill + {} decode steps",
                                               doc.serving.n_prefill_steps.value_or(0.0),
                                               doc.serving.n_decode_steps.value_or(0.0))
                                 : std::string());
  fmt::print("  wrote {}\n  wrote {}\n", out.string(), workload.string());
  return k_exit_ok;
}

}  // namespace roofline::cli
