// Nsight Compute units, numbers and broken files (docs/method.md §11.4): a unit this tool does not
// know, or of the wrong kind, leaves that metric out with an error (never a silently wrong number);
// a CSV from another tool is a clear error; leading profiler messages are skipped however they
// look.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "roofline/cli/layer.hpp"
#include "roofline/inputs/counters.hpp"
#include "roofline/inputs/counters_ingest.hpp"
#include "roofline/inputs/csv_stream.hpp"
#include "unit/test_helpers.hpp"

namespace unit_counters_ncu_units {
using namespace roofline::cli;
using roofline::inputs::detail::CsvField;
using roofline::inputs::detail::ncu_unit;
using roofline::test::any_contains;
using roofline::test::contains;
using roofline::test::rel;

namespace {

CounterFile parse(const std::string& text, CounterOptions opt = {}) {
  return parse_counters_text(text, "ncu.csv", opt);
}

// A details page of one launch of kernel "k": (metric, unit, value) rows.
std::string details(std::initializer_list<std::array<const char*, 3>> rows) {
  std::string t =
      "\"ID\",\"Process ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n";
  for (const auto& r : rows)
    t += std::string("\"0\",\"1\",\"k\",\"") + r[0] + "\",\"" + r[1] + "\",\"" + r[2] + "\"\n";
  return t;
}

std::optional<double> ncu_number(const std::string& text) {
  const std::string padded = text + std::string(64, '9');  // CsvStream's slack after a field
  double v = 0.0;
  if (!detail::parse_ncu_number(CsvField{padded.data(), text.size(), false, false}, v))
    return std::nullopt;
  return v;
}

}  // namespace

TEST_CASE("ncu: units to base units (bytes, ns for times, counts), SI prefixes by 1000",
          "[counters][ncu]") {
  const std::vector<std::tuple<const char*, double, const char*>> known = {
      {"byte", 1, "byte"},
      {"Kbyte", 1e3, "byte"},
      {"Mbyte", 1e6, "byte"},
      {"Gbyte", 1e9, "byte"},
      {"Tbyte", 1e12, "byte"},
      {"ns", 1, "second"},
      {"nsecond", 1, "second"},
      {"usecond", 1e3, "second"},
      {"msecond", 1e6, "second"},
      {"second", 1e9, "second"},
      {"", 1, "count"},
      {"inst", 1, "count"},
      {"Kinst", 1e3, "count"},
      {"Minst", 1e6, "count"},
      {"Ginst", 1e9, "count"},
      {"hz", 1, "hz"},
      {"Ghz", 1e9, "hz"},
      {"pass", 1, "pass"},
      {"%", 1, "%"},
      {"Kcycle", 1e3, "cycle"},
      {"Gbyte/second", 1e9, "rate"},
      {"byte/usecond", 1e6, "rate"},
      {" Mbyte ", 1e6, "byte"}};
  for (const auto& [unit, scale, dim] : known) {
    INFO(unit);
    const auto u = ncu_unit(unit);
    REQUIRE(u.has_value());
    CHECK(u->scale == rel(scale, 1e-15));
    CHECK(u->dimension == dim);
  }
  for (const char* unknown : {"Kibyte", "KiB", "MB", "furlong", "bytes", "Xbyte", "mbyte", "Kpass",
                              "K%", "second/byte", "byte/second/second", "usecond/"}) {
    INFO(unknown);
    CHECK_FALSE(ncu_unit(unknown).has_value());
  }
}

TEST_CASE("ncu: thousands separators only where they group by three", "[counters][ncu]") {
  CHECK(ncu_number("3,968") == 3968.0);
  CHECK(ncu_number("1,945,079,576.00") == 1945079576.0);
  CHECK(ncu_number("-1,234.5") == -1234.5);
  CHECK(ncu_number("2,147,483,648") == 2147483648.0);
  CHECK(ncu_number("999") == 999.0);
  CHECK(ncu_number("7,183.66") == 7183.66);
  for (const char* bad : {"1,5", "12,34", "1234,567", ",123", "1,234,5678", "1.234,5", "1,,234",
                          "1,234,", "1,234e1,0", "n/a", ""}) {
    INFO(bad);
    CHECK_FALSE(ncu_number(bad).has_value());
  }
}

TEST_CASE("ncu: a unit not understood, or of the wrong kind, leaves the metric out with an error",
          "[counters][ncu]") {
  const auto kib = parse(details({{"dram__bytes_read.sum", "Kibyte", "10"},
                                  {"dram__bytes_write.sum", "Kbyte", "1"},
                                  {"gpu__time_duration.sum", "Kbyte", "5"},
                                  {"lts__t_bytes.sum", "furlong", "3"}}));
  CHECK(any_contains(
      kib.errors,
      {"ncu.csv: metric dram__bytes_read.sum: unit 'Kibyte' not understood", "left out (1 row)"}));
  CHECK(any_contains(kib.errors, {"gpu__time_duration.sum", "unit 'Kbyte' is not a second unit"}));
  CHECK(!any_contains(kib.errors, {"lts__t_bytes.sum"}));  // not read: its unit is not looked at
  REQUIRE(kib.kernels.size() == 1);
  const auto m = measure(kib.kernels[0], {});
  CHECK(!m.bytes);  // never a byte count from half the metrics or a guessed unit
  CHECK(contains(m.unusable_reason, "no dram__bytes_read.sum values for this kernel"));
  CHECK(contains(m.unusable_reason, "left out for its unit"));
  CHECK(!m.time_us);

  CounterOptions all;
  all.all_counter_values = true;
  const auto every = parse(details({{"dram__bytes_read.sum", "byte", "10"},
                                    {"dram__bytes_write.sum", "byte", "1"},
                                    {"lts__t_bytes.sum", "furlong", "3"},
                                    {"launch__func_cache_config", "", "CachePreferNone"}}),
                           all);
  CHECK(every.errors.empty());
  CHECK(any_contains(every.notes, {"1 metric left out for their unit", "lts__t_bytes.sum",
                                   "unit 'furlong' not understood"}));
  CHECK(any_contains(every.notes, {"metric launch__func_cache_config holds text"}));
  CHECK(every.bad_rows == 0);
  CHECK(measure(every.kernels.at(0), {}).bytes.value() == 11.0);

  // The raw page: the units row decides for the whole column.
  const auto raw = parse(
      "\"ID\",\"Process ID\",\"Kernel Name\",\"dram__bytes_read.sum\",\"dram__bytes_write.sum\","
      "\"gpu__time_duration.sum\"\n"
      "\"\",\"\",\"\",\"Mbyte\",\"furlong\",\"usecond\"\n"
      "\"0\",\"1\",\"k\",\"1.5\",\"2\",\"3\"\n");
  CHECK(any_contains(raw.errors, {"dram__bytes_write.sum: unit 'furlong' not understood"}));
  CHECK(!measure(raw.kernels.at(0), {}).bytes);
  CHECK(raw.kernels.at(0).counters.at("dram__bytes_read.sum").sum == 1.5e6);
  CHECK(measure(raw.kernels.at(0), {}).time_us.value() == rel(3.0, 1e-12));
}

TEST_CASE("ncu: a raw page without a units row; a text value in a read metric is no value",
          "[counters][ncu]") {
  const auto f = parse(
      "\"ID\",\"Kernel Name\",\"dram__bytes_read.sum\",\"dram__bytes_write.sum\"\n"
      "\"0\",\"k\",\"1,000\",\"24\"\n"
      "\"1\",\"k\",\"n/a\",\"24\"\n");
  CHECK(any_contains(f.notes, {"no units row", "as printed"}));
  CHECK(any_contains(f.notes, {"no gpu__time_duration.sum metric"}));
  // Raw pages read every column like rocprof v1: a column holding text is no counter.
  CHECK(f.kernels.at(0).counters.count("dram__bytes_read.sum") == 0);
  // The details page's "n/a" (a metric the part does not have) leaves the value out; the
  // measurement then says which byte counter it lacks.
  const auto d = parse(
      details({{"dram__bytes_read.sum", "byte", "n/a"}, {"dram__bytes_write.sum", "byte", "1"}}));
  CHECK(d.bad_row_lines.empty());
  const auto m = measure(d.kernels.at(0), {});
  CHECK_FALSE(m.bytes);
  CHECK(contains(m.unusable_reason, "dram__bytes_read.sum"));
  // A rule row (no metric name) of the details page is not a broken row either.
  const auto r = parse(details({{"", "", ""}, {"dram__bytes_write.sum", "byte", "1"}}));
  CHECK(r.bad_row_lines.empty());
  // Nsight Compute 2025 leaves the empty Rule columns off a metric row: the row ends at its value.
  const auto short_rows = parse(
      "\"ID\",\"Process ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\","
      "\"Rule Name\",\"Rule Type\"\n"
      "\"0\",\"1\",\"k\",\"dram__bytes_read.sum\",\"Mbyte\",\"2.33\",\n"
      "\"0\",\"1\",\"k\",\"dram__bytes_write.sum\",\"byte\",\"0\",\n"
      "\"0\",\"1\",\"k\",\"\",\"\",\"\",\"SOLBottleneck\",\"OPT\"\n"
      "\"0\",\"1\",\"k\",\"dram__bytes_read.sum\"\n");
  CHECK(short_rows.bad_row_lines == std::vector<std::uint64_t>{5});  // stops before its value
  CHECK(measure(short_rows.kernels.at(0), {}).bytes.value() == rel(2.33e6, 1e-12));
}

TEST_CASE("ncu: CSVs that are not counter files are clear errors", "[counters][ncu]") {
  const std::string dir = std::string(ROOFLINE_SOURCE_DIR) + "/tests/fixtures/counters/";
  const auto nsys = read_counters_file(dir + "nsys_kernel_sum.csv", "nsys.csv", {});
  CHECK(!nsys.usable());
  CHECK(nsys.format == CounterFormat::unknown);
  // Named for what it is (Nsight Systems' kernel summary: times, no counters) and where it goes.
  CHECK(any_contains(nsys.errors, {"nsys.csv: an Nsight Systems kernel summary",
                                   "cuda_gpu_kern_sum", "no counters", "roofline topn"}));
  // Any other header: the columns it has and the ones each counter layout needs.
  const auto other = parse("\"Time (%)\",\"Total\",\"Name\"\n\"1\",\"2\",\"k\"\n");
  CHECK(other.format == CounterFormat::unknown);
  CHECK(any_contains(
      other.errors, {"ncu.csv: unrecognised header", "Time (%)", "Nsight Compute", "Metric Name"}));
  // A rocprofv3 kernel trace has kernel names and timestamps but no counter: not a counter file
  // (its segment sizes are dispatch metadata, not counters).
  const auto trace = parse(
      "\"Kind\",\"Agent_Id\",\"Dispatch_Id\",\"Kernel_Name\",\"Start_Timestamp\","
      "\"End_Timestamp\",\"Private_Segment_Size\",\"Group_Segment_Size\"\n"
      "\"KERNEL_DISPATCH\",2,1,\"fused_moe_kernel\",1000,2000,0,16384\n");
  CHECK(!trace.usable());
  CHECK(any_contains(trace.errors, {"a kernel list without counters", "kernel_trace.csv"}));
  const auto bare = parse("\"ID\",\"Kernel Name\",\"Block Size\"\n\"0\",\"k\",\"(1, 1, 1)\"\n");
  CHECK(!bare.usable());
  CHECK(bare.format == CounterFormat::ncu_raw);
  CHECK(any_contains(bare.errors, {"Nsight Compute CSV without metrics"}));
  const auto only_messages = parse("==PROF== Connected to process 1\n==ERROR== failed\n");
  CHECK(!only_messages.usable());
  CHECK(any_contains(only_messages.errors, {"no header line"}));
}

TEST_CASE("csv: leading message lines are dropped whole, whatever quotes they hold", "[csv][ncu]") {
  const std::string text =
      "==PROF== Profiling \"k<int, float>(\" - 0: 0%....100%\n"
      "==WARNING== \"a,\"b\n"
      "a,b\n"
      "==PROF== not at the start: a row\n";
  for (std::size_t buffer : {1u, 2u, 5u, 64u, 4096u}) {
    INFO("buffer " << buffer);
    std::size_t pos = 0;
    const ChunkReader read = [&](char* buf, std::size_t cap) {
      const std::size_t n = std::min({std::size_t{3}, cap, text.size() - pos});
      std::copy_n(text.data() + pos, n, buf);
      pos += n;
      return n;
    };
    detail::CsvStream csv(read, buffer, 1 << 20);
    csv.skip_lines_starting_with("==");
    detail::CsvRow row;
    REQUIRE(csv.next(row));
    CHECK(row.line == 3);
    CHECK(row.field_count == 2);
    CHECK(detail::field_text(row[1]) == "b");
    REQUIRE(csv.next(row));
    CHECK(row.line == 4);
    CHECK(detail::field_text(row[0]) == "==PROF== not at the start: a row");
    CHECK(!csv.next(row));
    CHECK(csv.skipped_lines() == 2);
  }
}

}  // namespace unit_counters_ncu_units
