// The `counters` subcommand: reads counter CSVs through the stage C ingest and prints the
// per-dispatch measurements, so a capture can be checked before it is handed to `analyze`.
#include "roofline/cli/counters_cmd.hpp"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "roofline/base/json_number.hpp"
#include "roofline/cli/common.hpp"
#include "roofline/cli/layer.hpp"
#include "roofline/inputs/counters.hpp"
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

// Each file of `paths` read, its errors and notes said on stderr; `all_usable` false unless every
// file is usable and without errors.
std::vector<CounterFile> read_counter_files(const std::vector<std::string>& paths,
                                            const CounterOptions& opts, bool& all_usable) {
  std::vector<CounterFile> files;
  all_usable = true;
  for (const auto& path : paths) {
    files.push_back(read_counters_file(path, path, opts));
    for (const auto& e : files.back().errors) err_line("error: " + e);
    for (const auto& n : files.back().notes) err_line("note: " + n);
    all_usable = all_usable && files.back().usable() && files.back().errors.empty();
  }
  return files;
}

// The kernels of `files`, most total time first (the kernels worth a look), then by name for a
// stable order.
std::vector<KernelCounters> kernels_by_time(const std::vector<CounterFile>& files) {
  std::vector<KernelCounters> kernels = merge_kernels(files);
  std::stable_sort(kernels.begin(), kernels.end(), [](const auto& a, const auto& b) {
    if (a.duration_ns_sum != b.duration_ns_sum) return a.duration_ns_sum > b.duration_ns_sum;
    return a.name < b.name;
  });
  return kernels;
}

nlohmann::ordered_json file_json(const CounterFile& f) {
  return {{"file", f.display},      {"format", f.format_detail},
          {"lines", f.lines},       {"rows_used", f.rows_used},
          {"bad_rows", f.bad_rows}, {"bad_row_lines", f.bad_row_lines},
          {"errors", f.errors},     {"notes", f.notes}};
}

nlohmann::ordered_json kernel_json(const KernelCounters& k, const CounterOptions& opts) {
  const KernelMeasurement m = measure(k, opts);
  nlohmann::ordered_json counters = nlohmann::ordered_json::object();
  for (const auto& [name, c] : k.counters)
    counters[name] = {{"sum", c.summed ? nlohmann::ordered_json(c.sum) : nullptr},
                      {"dispatches", c.dispatches}};
  return {{"name", k.name},
          {"dispatches", k.dispatches},
          {"bytes_per_dispatch", json_number(m.bytes)},
          {"flops_per_dispatch", json_number(m.flops)},
          {"time_us_per_dispatch", json_number(m.time_us)},
          {"bytes_source", m.bytes_source},
          {"flops_source", m.flops_source},
          {"time_source", m.time_source},
          {"counters_used", m.counters_used},
          {"unusable_reason", m.unusable_reason},
          {"counters", counters}};
}

// The files and the kernels as JSON on stdout. Kernel names come from the profiler, not always
// as UTF-8: dumped as every artifact is.
void print_counters_json(const std::vector<CounterFile>& files,
                         const std::vector<KernelCounters>& kernels, const CounterOptions& opts) {
  nlohmann::ordered_json out;
  out["files"] = nlohmann::ordered_json::array();
  for (const auto& f : files) out["files"].push_back(file_json(f));
  out["kernels"] = nlohmann::ordered_json::array();
  for (const auto& k : kernels) out["kernels"].push_back(kernel_json(k, opts));
  const std::string text = json_text(out);
  std::fwrite(text.data(), 1, text.size(), stdout);
}

// The files, one line each, then a table of the kernels, on stdout.
void print_counters_text(const std::vector<CounterFile>& files,
                         const std::vector<KernelCounters>& kernels, const CounterOptions& opts) {
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
}

}  // namespace

int run_counters(const CountersArgs& args) {
  CounterOptions opts;
  opts.mfma_f8_flops_per_inst = args.mfma_f8_flops_per_inst;
  opts.all_counter_values = args.all_counters;
  bool all_usable = true;
  const std::vector<CounterFile> files = read_counter_files(args.files, opts, all_usable);
  const std::vector<KernelCounters> kernels = kernels_by_time(files);
  if (args.format == "json")
    print_counters_json(files, kernels, opts);
  else
    print_counters_text(files, kernels, opts);
  // A file named on the command line with nothing usable in it is a usage error (docs/method.md
  // §2.1's exit table); what the other files hold is still printed.
  return all_usable ? k_exit_ok : k_exit_usage;
}

}  // namespace roofline::cli
