// counters.hpp ingest (docs/method.md §11.4 stage C): every rocprofv3 header generation and rocprof
// v1, the dispatch grouping, broken files, and chunk boundaries. Reads the CSVs of
// tests/fixtures/counters/ (the only unit tests that read files: the fixtures are the formats).
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include <fmt/format.h>

#include "roofline/cli/layer.hpp"
#include "roofline/inputs/counters.hpp"
#include "unit/test_helpers.hpp"

namespace unit_counters {
using namespace roofline::cli;
using roofline::test::any_contains;
using roofline::test::contains;

namespace {

const std::string k_moe = "fused_moe_kernel";
const std::string k_paged =
    "void vllm::paged_attention_v2_kernel<__hip_bfloat16, __hip_bfloat16, 128, 16, 128, "
    "(vllm::Fp8KVCacheDataType)0, false, 512>(float*, float*, __hip_bfloat16*, "
    "__hip_bfloat16 const*, __hip_bfloat16 const*, __hip_bfloat16 const*, int, float, "
    "int const*, int const*, int, float const*, int, int, int, float const*, float const*, int)";

std::string fixture(const std::string& name) {
  std::ifstream in(std::string(ROOFLINE_SOURCE_DIR) + "/tests/fixtures/counters/" + name,
                   std::ios::binary);
  REQUIRE(in.good());
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

CounterFile parse(const std::string& text, CounterOptions opt = {}) {
  return parse_counters_text(text, "counters.csv", opt);
}

const KernelCounters& kernel(const CounterFile& f, const std::string& name) {
  for (const auto& k : f.kernels)
    if (k.name == name) return k;
  FAIL("no kernel " << name);
  return f.kernels.front();
}

CounterSum counter(const KernelCounters& k, const std::string& name) {
  auto it = k.counters.find(name);
  return it == k.counters.end() ? CounterSum{-1.0, 0} : it->second;
}

// Everything a parse produced, as text: two parses agree exactly when their summaries do.
std::string summary(const CounterFile& f) {
  std::string s = fmt::format("{} {} lines={} used={} bad={} [", static_cast<int>(f.format),
                              f.format_detail, f.lines, f.rows_used, f.bad_rows);
  for (auto l : f.bad_row_lines) s += fmt::format("{} ", l);
  s += "]\n";
  for (const auto& e : f.errors) s += "E " + e + "\n";
  for (const auto& n : f.notes) s += "N " + n + "\n";
  for (const auto& k : f.kernels) {
    s += fmt::format("K {} d={} t={} ns={:a}\n", k.name, k.dispatches, k.timed_dispatches,
                     k.duration_ns_sum);
    for (const auto& [n, c] : k.counters)
      s += fmt::format("  {} {:a} {}\n", n, c.sum, c.dispatches);
  }
  return s;
}

// A reader that hands out at most `chunk` bytes per call.
CounterFile parse_chunked(const std::string& text, std::size_t chunk, std::size_t buffer) {
  std::size_t pos = 0;
  ChunkReader read = [&](char* buf, std::size_t cap) {
    const std::size_t n = std::min({chunk, cap, text.size() - pos});
    std::copy_n(text.data() + pos, n, buf);
    pos += n;
    return n;
  };
  CounterOptions opt;
  opt.buffer_bytes = buffer;
  return parse_counters(read, "counters.csv", opt);
}

const char* const k_h63 =
    "Correlation_Id,Dispatch_Id,Agent_Id,Queue_Id,Process_Id,Thread_Id,Grid_Size,Kernel_Id,"
    "Kernel_Name,Workgroup_Size,LDS_Block_Size,Scratch_Size,VGPR_Count,SGPR_Count,Counter_Name,"
    "Counter_Value,Start_Timestamp,End_Timestamp\n";

// One ROCm 6.3 row: dispatch, pid, kernel, counter, value, start, end.
std::string row63(int dispatch, int pid, const std::string& k, const std::string& c,
                  const std::string& v, int start = 0, int end = 1000) {
  return fmt::format("1,{},1,1,{},{},64,1,\"{}\",64,0,0,32,16,\"{}\",{},{},{}\n", dispatch, pid,
                     pid, k, c, v, start, end);
}

}  // namespace

TEST_CASE("counters: ROCm 6.2 layout (15 columns) groups rows by dispatch, has no time",
          "[counters]") {
  const auto f = parse(fixture("rocm62_counter_collection.csv"));
  CHECK(f.errors.empty());
  CHECK(f.format == CounterFormat::rocprofv3);
  CHECK(contains(f.format_detail, "15 columns"));
  CHECK(contains(f.format_detail, "ROCm 6.2"));
  CHECK(f.lines == 15);
  CHECK(f.rows_used == 15);
  REQUIRE(f.kernels.size() == 3);
  CHECK(f.kernels[0].name == k_moe);  // order of first appearance
  CHECK(f.kernels[1].name == k_paged);
  const auto& moe = f.kernels[0];
  CHECK(moe.dispatches == 2);
  CHECK(counter(moe, "FETCH_SIZE").sum == 4000.0);
  CHECK(counter(moe, "FETCH_SIZE").dispatches == 2);
  CHECK(counter(moe, "SQ_INSTS_VALU_MFMA_MOPS_F8").sum == 200.0);
  CHECK(moe.counters.count("MfmaFlops") == 0);
  CHECK(moe.timed_dispatches == 0);
  CHECK(any_contains(f.notes, {"Start_Timestamp", "no per-dispatch time"}));
}

TEST_CASE("counters: ROCm 6.3 and 6.4+/7.x layouts read by column name, time once per dispatch",
          "[counters]") {
  const auto f63 = parse(fixture("rocm63_counter_collection.csv"));
  const auto f64 = parse(fixture("rocm64_counter_collection.csv"));
  CHECK(contains(f63.format_detail, "18 columns (ROCm 6.3)"));
  CHECK(contains(f64.format_detail, "19 columns (ROCm 6.4+/7.x)"));  // "Agent 1" agent ids
  for (const auto* f : {&f63, &f64}) {
    CHECK(f->errors.empty());
    CHECK(f->notes.empty());
    const auto& moe = kernel(*f, k_moe);
    CHECK(moe.dispatches == 2);
    CHECK(moe.timed_dispatches == 2);  // four rows per dispatch, one duration each
    CHECK(moe.duration_ns_sum == 40000.0);
    CHECK(counter(moe, "WRITE_SIZE").sum == 800.0);
    CHECK(counter(kernel(*f, k_paged), "MfmaFlopsBF16").sum == 4096.0);
  }
  // Apart from the header, the two generations hold the same numbers.
  const auto s63 = summary(f63), s64 = summary(f64);
  CHECK(s63.substr(s63.find("\nK ")) == s64.substr(s64.find("\nK ")));
}

TEST_CASE("counters: rocprof v1 results.csv, one row per dispatch, counters as columns",
          "[counters]") {
  const auto f = parse(fixture("rocprof_v1_results.csv"));
  CHECK(f.errors.empty());
  CHECK(f.format == CounterFormat::rocprof_v1);
  CHECK(contains(f.format_detail, "4 counters"));
  REQUIRE(f.kernels.size() == 2);
  const auto& paged = kernel(f, "kernel_paged_attention_2d [clone .kd]");
  CHECK(paged.dispatches == 2);
  CHECK(counter(paged, "FETCH_SIZE").sum == 300.0);
  CHECK(counter(paged, "GRBM_GUI_ACTIVE").sum == 11000.0);
  CHECK(paged.duration_ns_sum == 5000.0);   // EndNs - BeginNs: 2000 + 3000
  CHECK(paged.counters.count("sig") == 0);  // metadata, not counters
  CHECK(paged.counters.count("DispatchNs") == 0);
  const auto& ck =
      kernel(f, "void ck::kernel_gemm<ck::Tuple<int, float>>(ck::Args const*, int) [clone .kd]");
  CHECK(counter(ck, "WRITE_SIZE").sum == 300.0);
}

TEST_CASE("counters: v1 column holding text is not a counter; no Index makes each row a dispatch",
          "[counters]") {
  const auto f = parse(
      "KernelName,gpu-id,Arch,FETCH_SIZE,WRITE_SIZE,BeginNs,EndNs\n"
      "k1,2,gfx942,10,1,0,100\n"
      "k1,2,gfx942,30,3,200,500\n");
  CHECK(f.errors.empty());
  const auto& k = kernel(f, "k1");
  CHECK(k.dispatches == 2);
  CHECK(k.counters.count("Arch") == 0);
  CHECK(counter(k, "FETCH_SIZE").sum == 40.0);
  CHECK(any_contains(f.notes, {"Arch", "text"}));
}

TEST_CASE("counters: rows of one dispatch need not be contiguous", "[counters]") {
  const auto f = parse(fixture("rocm7_interleaved_counter_collection.csv"));
  CHECK(f.errors.empty());
  const auto& aiter = kernel(f, "_ZN5aiter11fmoe_kernelEPKvPvi");
  CHECK(aiter.dispatches == 2);
  CHECK(counter(aiter, "FETCH_SIZE").sum == 6144.0);
  CHECK(counter(aiter, "FETCH_SIZE").dispatches == 2);
  CHECK(counter(aiter, "GRBM_GUI_ACTIVE").dispatches == 1);
  CHECK(aiter.timed_dispatches == 2);
  CHECK(aiter.duration_ns_sum == 1500.0);
  const auto& clone = kernel(f, "kernel_paged_attention_2d [clone .kd]");
  CHECK(clone.dispatches == 1);
  CHECK(counter(clone, "WRITE_SIZE").sum == 16.0);
}

TEST_CASE("counters: the dispatch window bounds memory; an older dispatch is counted again",
          "[counters]") {
  std::string text = k_h63;
  for (int d = 1; d <= 3; ++d) text += row63(d, 7, "k", "FETCH_SIZE", "10");
  text += row63(1, 7, "k", "WRITE_SIZE", "5");  // dispatch 1 comes back
  CounterOptions wide;
  const auto ok = parse(text, wide);
  CHECK(kernel(ok, "k").dispatches == 3);
  CHECK(counter(kernel(ok, "k"), "WRITE_SIZE").dispatches == 1);
  CHECK(ok.notes.empty());
  CounterOptions narrow;
  narrow.dispatch_window = 2;
  const auto cut = parse(text, narrow);
  CHECK(kernel(cut, "k").dispatches == 4);
  CHECK(any_contains(cut.notes, {"1 times a dispatch", "counted again as a new dispatch"}));
}

TEST_CASE("counters: dispatch ids are per process; a counter repeated in a dispatch counts once",
          "[counters]") {
  std::string text = k_h63;
  text += row63(1, 100, "k", "FETCH_SIZE", "10");
  text += row63(1, 200, "k", "FETCH_SIZE", "20");  // same id, other process
  text += row63(1, 200, "k", "FETCH_SIZE", "5");   // repeated counter, same dispatch
  const auto f = parse(text);
  const auto& k = kernel(f, "k");
  CHECK(k.dispatches == 2);
  CHECK(counter(k, "FETCH_SIZE").sum == 35.0);
  CHECK(counter(k, "FETCH_SIZE").dispatches == 2);
  CHECK(k.timed_dispatches == 2);
}

TEST_CASE("counters: numbers of every length, with and without a fraction or exponent",
          "[counters]") {
  const std::vector<std::pair<std::string, double>> ok = {
      {"0", 0.0},
      {"7", 7.0},
      {"00012", 12.0},
      {"12345678", 12345678.0},
      {"123456789", 123456789.0},
      {"9999999999999999", 9999999999999999.0},
      {"1234567890123456789", 1234567890123456789.0},
      {"99999999999999999999", 1e20},  // 20 digits: the general parser
      {"1.5", 1.5},
      {"2.5E2", 250.0},
      {" 42 ", 42.0},
  };
  std::string text = k_h63;
  int d = 0;
  for (const auto& [v, want] : ok) {
    ++d;
    text += row63(d, 7, fmt::format("k{}", d), "FETCH_SIZE", v);
  }
  for (const char* bad : {"12a4", "", "0x10", "1/2", "nan", "inf", "--1"})
    text += row63(++d, 7, "bad", "FETCH_SIZE", bad);
  const auto f = parse(text);
  CHECK(f.rows_used == ok.size());
  CHECK(f.bad_rows == 7);
  for (std::size_t i = 0; i < ok.size(); ++i) {
    INFO(ok[i].first);
    CHECK(counter(kernel(f, fmt::format("k{}", i + 1)), "FETCH_SIZE").sum == ok[i].second);
  }
  std::uint64_t t = 1700000000000000000;
  std::string ts = k_h63;
  ts += fmt::format("1,1,1,1,7,7,64,1,\"k\",64,0,0,32,16,\"FETCH_SIZE\",1,{},{}\n", t, t + 1234567);
  CHECK(kernel(parse(ts), "k").duration_ns_sum == 1234567.0);  // 19-digit timestamps
}

TEST_CASE("counters: CRLF with a UTF-8 BOM, and no final newline, read like the clean files",
          "[counters]") {
  const auto clean64 = summary(parse(fixture("rocm64_counter_collection.csv")));
  CHECK(summary(parse(fixture("crlf_bom_counter_collection.csv"))) == clean64);
  const auto clean63 = summary(parse(fixture("rocm63_counter_collection.csv")));
  CHECK(summary(parse(fixture("no_final_newline_counter_collection.csv"))) == clean63);
}

TEST_CASE("counters: bad rows are counted and listed by line, the rest is used", "[counters]") {
  const auto text = fixture("bad_rows_counter_collection.csv");
  const auto f = parse(text);
  CHECK(f.errors.empty());
  CHECK(f.lines == 8);
  CHECK(f.rows_used == 4);
  CHECK(f.bad_rows == 4);  // 16 columns, "n/a", 19 columns, dispatch "x2"
  CHECK(f.bad_row_lines == std::vector<std::uint64_t>{3, 5, 6, 8});
  CHECK(any_contains(f.notes, {"4 of 8 rows skipped", "lines 3, 5, 6, 8"}));
  const auto& moe = kernel(f, k_moe);
  CHECK(moe.dispatches == 2);
  CHECK(counter(moe, "FETCH_SIZE").sum == 400.0);
  CHECK(counter(moe, "WRITE_SIZE").sum == 80.0);
  CounterOptions two;
  two.bad_lines_listed = 2;
  CHECK(parse(text, two).bad_row_lines == std::vector<std::uint64_t>{3, 5});
}

TEST_CASE("counters: quoted commas, doubled quotes and newlines inside fields", "[counters]") {
  const auto f = parse(fixture("quoted_counter_collection.csv"));
  CHECK(f.lines == 5);  // the blank line is not a row
  CHECK(f.rows_used == 4);
  CHECK(f.bad_row_lines == std::vector<std::uint64_t>{9});  // quoted newlines counted as lines
  const auto& ck =
      kernel(f, "void ck::kernel_gemm<ck::Tuple<int, float>, \"tag\">(ck::Args const*, int)");
  CHECK(counter(ck, "FETCH_SIZE").sum == 10.0);
  const auto& multi = kernel(f, "multi\nline_kernel");
  CHECK(counter(multi, "FETCH_SIZE").sum == 1500.0);  // 1.5e3
  CHECK(counter(multi, "WRITE_SIZE").sum == 250.0);   // 2.5E2
  CHECK(multi.duration_ns_sum == 500.0);
}

TEST_CASE("counters: stray quotes are ordinary bytes and do not shift later rows", "[counters]") {
  std::string text = k_h63;
  text += "1,1,1,1\"x,7,7,64,1,\"k\",64,0,0,32,16,\"FETCH_SIZE\",10,0,100\n";  // quote mid-field
  text += "1,1,1,1,7,7,64,1,\"k\"junk,64,0,0,32,16,\"WRITE_SIZE\",4,0,100\n";  // after closing
  text += row63(2, 7, "k", "FETCH_SIZE", "30");
  const auto f = parse(text);
  CHECK(f.rows_used == 3);
  CHECK(f.bad_rows == 0);
  const auto& k = kernel(f, "k");
  CHECK(k.dispatches == 2);
  CHECK(counter(k, "FETCH_SIZE").sum == 40.0);
  CHECK(counter(k, "WRITE_SIZE").sum == 4.0);
}

TEST_CASE("counters: an unterminated quote at the end is one bad row", "[counters]") {
  std::string text = k_h63 + row63(1, 7, "k", "FETCH_SIZE", "10");
  text += "1,2,1,1,7,7,64,1,\"k,64,0,0,32,16,\"FETCH_SIZE\",10,0,100\n";
  const auto f = parse(text);
  CHECK(f.rows_used == 1);
  CHECK(f.bad_row_lines == std::vector<std::uint64_t>{3});
}

TEST_CASE("counters: broken files are errors, never exceptions", "[counters]") {
  const auto empty = parse(fixture("empty_counter_collection.csv"));
  CHECK(!empty.usable());
  CHECK(empty.format == CounterFormat::unknown);
  CHECK(any_contains(empty.errors, {"counters.csv", "empty file"}));

  const auto header = parse(fixture("header_only_counter_collection.csv"));
  CHECK(!header.usable());
  CHECK(header.format == CounterFormat::rocprofv3);
  CHECK(any_contains(header.errors, {"header only"}));

  const auto garbage = parse(fixture("garbage.csv"));
  CHECK(!garbage.usable());
  CHECK(any_contains(garbage.errors, {"unrecognised header", "Counter_Name"}));
  CHECK(!contains(garbage.errors.at(0), std::string_view("\0", 1)));  // no control bytes

  CHECK(any_contains(parse("\xEF\xBB\xBF\r\n\n").errors, {"no header line"}));
  const auto trace = parse("Kind,Dispatch_Id,Kernel_Name,Start_Timestamp,End_Timestamp\n");
  CHECK(any_contains(trace.errors, {"without counters"}));
  std::string all_bad = k_h63;
  all_bad += "1,2,3\n4,5,6\n";
  const auto bad = parse(all_bad);
  CHECK(!bad.usable());
  CHECK(any_contains(bad.errors, {"no usable rows", "lines 2, 3"}));
}

TEST_CASE("counters: rows longer than the buffer grow it; beyond max_row_bytes they are skipped",
          "[counters]") {
  const std::string long_name = "void ck::kernel<" + std::string(300, 'x') + ", int>(int, float)";
  std::string text = k_h63 + row63(1, 7, long_name, "FETCH_SIZE", "10");
  text += row63(2, 7, "short", "FETCH_SIZE", "20");
  CounterOptions small;
  small.buffer_bytes = 64;
  const auto grown = parse(text, small);
  CHECK(grown.bad_rows == 0);
  CHECK(counter(kernel(grown, long_name), "FETCH_SIZE").sum == 10.0);
  small.max_row_bytes = 256;
  const auto capped = parse(text, small);
  CHECK(capped.bad_row_lines == std::vector<std::uint64_t>{2});
  CHECK(counter(kernel(capped, "short"), "FETCH_SIZE").sum == 20.0);
}

TEST_CASE("counters: results do not depend on read sizes or the buffer size", "[counters]") {
  for (const char* name :
       {"rocm62_counter_collection.csv", "rocm64_counter_collection.csv",
        "rocm7_interleaved_counter_collection.csv", "rocprof_v1_results.csv",
        "crlf_bom_counter_collection.csv", "no_final_newline_counter_collection.csv",
        "bad_rows_counter_collection.csv", "quoted_counter_collection.csv", "garbage.csv",
        "header_only_counter_collection.csv", "ncu_h200_decode_step_raw.csv",
        "ncu_h200_decode_step_details.csv", "ncu_details_autounits.csv",
        "ncu_details_old_columns.csv", "ncu_raw_autounits.csv", "nsys_kernel_sum.csv"}) {
    const std::string text = fixture(name);
    const std::string whole = summary(parse(text));
    for (std::size_t chunk : {1u, 2u, 7u})
      for (std::size_t buffer : {1u, 2u, 7u, 64u, 100u, 1u << 20}) {
        INFO(name << " chunk " << chunk << " buffer " << buffer);
        CHECK(summary(parse_chunked(text, chunk, buffer)) == whole);
      }
  }
}

TEST_CASE("counters: read_counters_file streams a file; a missing one is an error", "[counters]") {
  const std::string dir = std::string(ROOFLINE_SOURCE_DIR) + "/tests/fixtures/counters/";
  const auto f = read_counters_file(dir + "rocm64_counter_collection.csv", "c.csv", {});
  CHECK(summary(f) ==
        summary(parse_counters_text(fixture("rocm64_counter_collection.csv"), "c.csv", {})));
  const auto missing = read_counters_file(dir + "no_such.csv", "no_such.csv", {});
  CHECK(!missing.usable());
  CHECK(any_contains(missing.errors, {"no_such.csv", "cannot open"}));
  CHECK(any_contains(read_counters_file(dir, "dir", {}).errors, {"dir: is a directory"}));
  // A reader that throws is an error in the result, not an exception out of parse_counters.
  const ChunkReader broken = [](char*, std::size_t) -> std::size_t {
    throw std::runtime_error("device went away");
  };
  const auto thrown = parse_counters(broken, "pipe", {});
  CHECK(any_contains(thrown.errors, {"pipe: not read", "device went away"}));
}

}  // namespace unit_counters
