// The `counters` subcommand: reads counter CSVs through the stage C ingest and prints the
// per-dispatch measurements, so a capture can be checked before it is handed to `analyze`.
#include "roofline/cli/counters_cmd.hpp"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "roofline/cli/common.hpp"
#include "roofline/inputs/counters.hpp"
#include "roofline/base/json_number.hpp"
#include "roofline/render/report.hpp"

namespace roofline::cli {
namespace {

std::string num(const std::optional<double>& v) {
  return v ? fmt::format("{:.4g}", *v) : "-";
}

// One kernel per line even when a name holds a line break.
std::string one_line(const std::string& s) {
  std::string out;
  for (char c : s)
    out += c == '\n' ? std::string("\\n") : c == '\r' ? std::string("\\r") : std::string(1, c);
  return out;
}

}  // namespace

int run_counters(const CountersArgs& args) {
  CounterOptions opts;
  opts.mfma_f8_flops_per_inst = args.mfma_f8_flops_per_inst;
  opts.all_counter_values = args.all_counters;
  std::vector<CounterFile> files;
  bool all_usable = true;
  for (const auto& path : args.files) {
    files.push_back(read_counters_file(path, path, opts));
    for (const auto& e : files.back().errors) err_line("error: " + e);
    for (const auto& n : files.back().notes) err_line("note: " + n);
    all_usable = all_usable && files.back().usable() && files.back().errors.empty();
  }
  std::vector<KernelCounters> kernels = merge_kernels(files);
  // Most total time first (the kernels worth a look), then by name for a stable order.
  std::stable_sort(kernels.begin(), kernels.end(), [](const auto& a, const auto& b) {
    if (a.duration_ns_sum != b.duration_ns_sum) return a.duration_ns_sum > b.duration_ns_sum;
    return a.name < b.name;
  });

  if (args.format == "json") {
    nlohmann::ordered_json out;
    out["files"] = nlohmann::ordered_json::array();
    for (const auto& f : files) {
      out["files"].push_back({{"file", f.display},
                              {"format", f.format_detail},
                              {"lines", f.lines},
                              {"rows_used", f.rows_used},
                              {"bad_rows", f.bad_rows},
                              {"bad_row_lines", f.bad_row_lines},
                              {"errors", f.errors},
                              {"notes", f.notes}});
    }
    out["kernels"] = nlohmann::ordered_json::array();
    for (const auto& k : kernels) {
      const KernelMeasurement m = measure(k, opts);
      nlohmann::ordered_json counters = nlohmann::ordered_json::object();
      for (const auto& [name, c] : k.counters)
        counters[name] = {{"sum", c.summed ? nlohmann::ordered_json(c.sum) : nullptr},
                          {"dispatches", c.dispatches}};
      out["kernels"].push_back({{"name", k.name},
                                {"dispatches", k.dispatches},
                                {"bytes_per_dispatch", json_number(m.bytes)},
                                {"flops_per_dispatch", json_number(m.flops)},
                                {"time_us_per_dispatch", json_number(m.time_us)},
                                {"bytes_source", m.bytes_source},
                                {"flops_source", m.flops_source},
                                {"time_source", m.time_source},
                                {"counters_used", m.counters_used},
                                {"unusable_reason", m.unusable_reason},
                                {"counters", counters}});
    }
    // Kernel names come from the profiler, not always as UTF-8: dumped as every artifact is.
    const std::string text = json_text(out);
    std::fwrite(text.data(), 1, text.size(), stdout);
    return all_usable ? k_exit_ok : k_exit_strict;
  }

  for (const auto& f : files)
    fmt::print("{}: {}; {} rows, {} used, {} bad\n", f.display,
               f.format_detail.empty() ? "not read" : f.format_detail, f.lines, f.rows_used,
               f.bad_rows);
  fmt::print("\n{:>10}  {:>12}  {:>12}  {:>12}  {}\n", "dispatches", "bytes/disp", "FLOPs/disp",
             "us/disp", "kernel");
  for (const auto& k : kernels) {
    const KernelMeasurement m = measure(k, opts);
    fmt::print("{:>10}  {:>12}  {:>12}  {:>12}  {}\n", k.dispatches, num(m.bytes), num(m.flops),
               num(m.time_us), one_line(k.name));
  }
  return all_usable ? k_exit_ok : k_exit_strict;
}

}  // namespace roofline::cli
