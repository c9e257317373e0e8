// Kernel CSVs -> TraceProfile: rocprofv3 `*kernel_trace.csv` (one row per dispatch) and
// `*kernel_stats.csv` (one row per kernel), and Nsight Systems `cuda_gpu_kern_sum` (one row per
// kernel, in the time unit of --timeunit, possibly after progress lines). Recognised by their
// header names, streamed row by row.
#include <charconv>
#include <map>

#include <fmt/format.h>

#include "roofline/base/units.hpp"

#include "roofline/inputs/csv_stream.hpp"
#include "roofline/topn/layer.hpp"
#include "roofline/topn/readers/csv_traces.hpp"
#include "roofline/topn/readers/dispatch_quant.hpp"

namespace roofline::topn::detail {
namespace {

// The streaming CSV reader of the inputs layer (counter files use it too).
using inputs::detail::CsvField;
using inputs::detail::CsvRow;
using inputs::detail::CsvStream;
using inputs::detail::field_text;

enum class CsvKind { rocprof_trace, rocprof_stats, nsys_sum };

struct Columns {
  CsvKind kind = CsvKind::rocprof_trace;
  std::size_t name = 0, a = 0, b = 0;  // trace: start, end; stats/nsys: calls, total
  double us_per_unit = 1e-3;           // the total/timestamp column's unit in µs
  // trace: the dispatch's queue (Agent_Id and Queue_Id; the stream where no queue is written)
  std::optional<std::size_t> agent, queue;
};

std::optional<std::size_t> column(const std::vector<std::string>& header, std::string_view name) {
  for (std::size_t i = 0; i < header.size(); ++i)
    if (header[i] == name) return i;
  return std::nullopt;
}

// Text from the file as a message shows it: control bytes escaped, so a message stays one line.

// "Total Time (ns)" -> µs per unit; nullopt (with `unit` set) when the unit is unknown.
std::optional<double> nsys_unit(std::string_view heading, std::string& unit) {
  const std::size_t open = heading.find('('), close = heading.rfind(')');
  unit = open != std::string_view::npos && close != std::string_view::npos && close > open
             ? std::string(heading.substr(open + 1, close - open - 1))
             : std::string();
  static const std::pair<std::string_view, double> k_units[] = {
      {"ns", 1e-3},     {"nsec", 1e-3}, {"us", 1.0},   {"usec", 1.0}, {"\u00b5s", 1.0},
      {"\u03bcs", 1.0}, {"ms", 1e3},    {"msec", 1e3}, {"s", 1e6},    {"sec", 1e6}};
  for (const auto& [name, scale] : k_units)
    if (unit == name) return scale;
  return std::nullopt;
}

// The header's kind and columns; "" or what is wrong (unknown unit).
std::optional<Columns> recognise(const std::vector<std::string>& h, std::string& problem) {
  Columns c;
  if (column(h, "Counter_Name") || column(h, "Counter_Value")) {
    // One row per dispatch *and counter*, timed under counter serialization: not a time profile.
    problem =
        "a rocprofv3 counter collection CSV (one row per dispatch and counter; it is read by "
        "`analyze --counters` and `roofline counters`), not a kernel trace: use the "
        "*kernel_trace.csv of `rocprofv3 --kernel-trace` (or --stats)";
    return std::nullopt;
  }
  if (auto n = column(h, "Kernel_Name"), s = column(h, "Start_Timestamp"),
      e = column(h, "End_Timestamp");
      n && s && e) {
    c.kind = CsvKind::rocprof_trace;
    c.name = *n, c.a = *s, c.b = *e;
    c.agent = column(h, "Agent_Id");
    c.queue = column(h, "Queue_Id");
    if (!c.queue) c.queue = column(h, "Stream_Id");
    return c;
  }
  if (auto n = column(h, "Name"), k = column(h, "Calls"), t = column(h, "TotalDurationNs");
      n && k && t) {
    c.kind = CsvKind::rocprof_stats;
    c.name = *n, c.a = *k, c.b = *t;
    return c;
  }
  auto n = column(h, "Name"), k = column(h, "Instances");
  std::optional<std::size_t> total;
  for (std::size_t i = 0; i < h.size(); ++i)
    if (h[i].rfind("Total Time", 0) == 0) total = i;
  if (n && k && total) {
    std::string unit;
    auto scale = nsys_unit(h[*total], unit);
    if (!scale) {
      problem = fmt::format(
          "Nsight Systems kernel summary with time unit '{}' in column '{}' (expected ns, us, ms "
          "or s)",
          escape_for_message(unit), escape_for_message(h[*total]));
      return std::nullopt;
    }
    c.kind = CsvKind::nsys_sum;
    c.name = *n, c.a = *k, c.b = *total;
    c.us_per_unit = *scale;
    return c;
  }
  return std::nullopt;
}

// A number field; thousands separators ("1,234") are tolerated.
bool number(const CsvField& f, double& out) {
  std::string t = field_text(f);
  std::erase(t, ',');
  const auto r = std::from_chars(t.data(), t.data() + t.size(), out);
  return !t.empty() && r.ec == std::errc() && r.ptr == t.data() + t.size() && std::isfinite(out);
}

std::string describe_header(const std::vector<std::string>& h) {
  std::string out;
  for (std::size_t i = 0; i < h.size() && i < 8; ++i)
    out += fmt::format("{}'{}'", i ? ", " : "",
                       escape_for_message(std::string_view(h[i]).substr(0, 40)));
  if (h.size() > 8) out += ", ...";
  return out;
}

// The columns of the first row that is a kernel CSV's header, into `cols`: "" when found, else
// what the file is (a counter collection, an unknown time unit) or is not. Nsight Systems prints
// progress lines (no commas) before its table; anything else with several columns is the header
// of a file we do not read.
std::string read_header(CsvStream& csv, CsvRow& row, std::optional<Columns>& cols) {
  std::vector<std::string> header;
  std::uint64_t rows_before = 0;
  while (!cols && csv.next(row)) {
    header.clear();
    for (const CsvField& f : row.fields()) header.push_back(field_text(f));
    std::string problem;
    cols = recognise(header, problem);
    if (!problem.empty()) return problem;
    if (!cols && (header.size() > 1 || ++rows_before > 200))
      return fmt::format(
          "not a kernel trace this tool reads (a PyTorch Chrome trace, a rocprofv3 "
          "kernel_trace/kernel_stats CSV or an Nsight Systems cuda_gpu_kern_sum CSV): line {} "
          "has columns {}",
          row.line, describe_header(header));
  }
  if (!cols) return "no CSV header found (empty file?)";
  return {};
}

using KernelSums = std::map<std::string, std::pair<double, double>, std::less<>>;  // calls, µs

// The queue of a trace row: Agent_Id and Queue_Id (or Stream_Id), 0 where not written.
std::int64_t queue_of(const CsvRow& row, const Columns& cols) {
  const auto id = [&](const std::optional<std::size_t>& c) {
    double v = 0.0;
    return c && *c < row.stored && number(row[*c], v) ? static_cast<std::int64_t>(v) : 0;
  };
  return (id(cols.agent) << 32) | (id(cols.queue) & 0xFFFFFFFF);
}

// The calls and time of a data row added to its kernel's sums (a trace's dispatch to
// `dispatches`); false when its numbers are missing or negative, or its name is empty.
bool add_row(const CsvRow& row, const Columns& cols, KernelSums& sums, DispatchLog& dispatches) {
  const std::size_t need = std::max({cols.name, cols.a, cols.b}) + 1;
  double a = 0.0, b = 0.0;
  bool ok =
      !row.oversized && row.stored >= need && number(row[cols.a], a) && number(row[cols.b], b);
  double calls = 1.0, us = 0.0;
  if (ok && cols.kind == CsvKind::rocprof_trace) {
    ok = b >= a;
    us = (b - a) * 1e-3;
  } else if (ok) {
    calls = a;
    us = b * cols.us_per_unit;
    ok = calls >= 0 && us >= 0;
  }
  std::string name = ok ? field_text(row[cols.name]) : std::string();
  if (!ok || name.empty()) return false;
  if (cols.kind == CsvKind::rocprof_trace) dispatches.add(queue_of(row, cols), a, name);
  auto& s = sums[name];
  s.first += calls;
  s.second += us;
  return true;
}

}  // namespace

std::string parse_kernel_csv(const ByteReader& read, TraceProfile& out,
                             std::vector<std::string>& notes) {
  CsvStream csv(read, std::size_t{1} << 20, std::size_t{16} << 20);
  CsvRow row;
  std::optional<Columns> cols;
  if (std::string problem = read_header(csv, row, cols); !problem.empty()) return problem;
  KernelSums sums;
  DispatchLog dispatches;
  std::uint64_t bad = 0, first_bad = 0;
  while (csv.next(row)) {
    if (add_row(row, *cols, sums, dispatches)) continue;
    if (bad++ == 0) first_bad = row.line;
  }
  if (bad)
    notes.push_back(fmt::format("{} row(s) skipped: missing or negative numbers (first at line {})",
                                bad, first_bad));
  out.source = cols->kind == CsvKind::nsys_sum ? "nsys" : "rocprofv3";
  for (auto& [name, s] : sums) {
    TraceKernel k;
    k.name = name;
    k.calls = s.first;
    k.total_us = s.second;
    out.kernels.push_back(std::move(k));
  }
  dispatches.attach(out.kernels);
  if (out.kernels.empty()) return "the CSV has a header but no kernel rows";
  return {};
}

}  // namespace roofline::topn::detail
