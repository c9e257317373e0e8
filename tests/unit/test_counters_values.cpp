// counters.hpp ingest, the parts that keep it fast on real rocprofv3 files: only the counters
// measure() reads have their values converted (all_counter_values converts all), and rows that
// repeat their dispatch's fields are folded into that dispatch without re-reading them, however
// rows of other dispatches, bad rows and rows with quoted line breaks come in between.
#include <catch2/catch.hpp>

#include <string>

#include <fmt/format.h>

#include "roofline/cli/layer.hpp"
#include "roofline/inputs/counters.hpp"
#include "unit/test_helpers.hpp"

namespace unit_counters_values {
using namespace roofline::cli;

namespace {

const char* const k_header =
    "Correlation_Id,Dispatch_Id,Agent_Id,Queue_Id,Process_Id,Thread_Id,Grid_Size,Kernel_Id,"
    "Kernel_Name,Workgroup_Size,LDS_Block_Size,Scratch_Size,VGPR_Count,SGPR_Count,Counter_Name,"
    "Counter_Value,Start_Timestamp,End_Timestamp\n";

std::string row(int dispatch, const std::string& kernel, const std::string& counter,
                const std::string& value, int start = 0, int end = 1000) {
  return fmt::format("1,{},1,1,7,7,64,1,\"{}\",64,0,0,32,16,\"{}\",{},{},{}\n", dispatch, kernel,
                     counter, value, start, end);
}

const KernelCounters* kernel(const CounterFile& f, const std::string& name) {
  for (const auto& k : f.kernels)
    if (k.name == name) return &k;
  return nullptr;
}

}  // namespace

TEST_CASE("counters: only the counters measure() reads are summed unless all are asked for",
          "[counters]") {
  std::string text = k_header;
  for (int d = 1; d <= 2; ++d) {
    text += row(d, "k", "FETCH_SIZE", "1024.500000");
    text += row(d, "k", "WRITE_SIZE", "4.34259040e-02");
    text += row(d, "k", "MfmaFlopsBF16", "16384.000000");
    text += row(d, "k", "MemUnitStalled", d == 1 ? "13.271172" : "n/a");  // broken, unused
    text += row(d, "k", "GRBM_GUI_ACTIVE", "2000.000000");
  }
  const auto some = parse_counters_text(text, "c.csv", {});
  CHECK(some.bad_rows == 0);  // the broken value is in a counter nobody reads
  REQUIRE(kernel(some, "k") != nullptr);
  const auto& k = *kernel(some, "k");
  CHECK(k.dispatches == 2);
  CHECK(k.counters.at("FETCH_SIZE").sum == 2049.0);
  CHECK(k.counters.at("FETCH_SIZE").summed);
  CHECK(k.counters.at("WRITE_SIZE").sum == 2 * 4.34259040e-02);
  CHECK(k.counters.at("MfmaFlopsBF16").sum == 32768.0);
  CHECK_FALSE(k.counters.at("GRBM_GUI_ACTIVE").summed);
  CHECK(k.counters.at("GRBM_GUI_ACTIVE").dispatches == 2);  // still listed, per dispatch
  CHECK(k.counters.at("GRBM_GUI_ACTIVE").sum == 0.0);
  CHECK(counter_used_by_measure("MfmaFlopsF64"));
  CHECK_FALSE(counter_used_by_measure("MemUnitStalled"));

  CounterOptions all;
  all.all_counter_values = true;
  const auto every = parse_counters_text(text, "c.csv", all);
  CHECK(every.bad_rows == 1);
  CHECK(every.bad_row_lines == std::vector<std::uint64_t>{10});
  const auto& e = *kernel(every, "k");
  CHECK(e.counters.at("GRBM_GUI_ACTIVE").summed);
  CHECK(e.counters.at("GRBM_GUI_ACTIVE").sum == 4000.0);
  CHECK(e.counters.at("MemUnitStalled").sum == 13.271172);
  CHECK(e.counters.at("FETCH_SIZE").sum == 2049.0);
  // Merging keeps "not summed" (a sum of values nobody read is no sum).
  const auto merged = merge_kernels({some, every});
  CHECK_FALSE(merged.at(0).counters.at("GRBM_GUI_ACTIVE").summed);
  CHECK(merged.at(0).counters.at("FETCH_SIZE").sum == 4098.0);
}

TEST_CASE("counters: a row repeating an earlier dispatch's fields goes to that dispatch",
          "[counters]") {
  std::string text = k_header;
  text += row(1, "k1", "FETCH_SIZE", "10");
  text += row(1, "k1", "WRITE_SIZE", "5");
  // Another dispatch read by the lenient scan (a line break in its counter name) ...
  text += "1,2,1,1,7,7,64,1,\"k2\",64,0,0,32,16,\"two\nlines\",1,0,1000\n";
  // ... then dispatch 1's fields again: resumed, not counted into dispatch 2.
  text += row(1, "k1", "MfmaFlops", "3");
  // A bad row (one field too many) of dispatch 3, then a good one with the same fields.
  text += "1,3,1,1,7,7,64,1,\"k3\",64,0,0,32,16,\"FETCH_SIZE\",1,0,1000,extra\n";
  text += "1,3,1,1,7,7,64,1,\"k3\",64,0,0,32,16,\"WRITE_SIZE\",7,0,1000\n";
  text += "1,3,1,1,7,7,64,1,\"k3\",64,0,0,32,16,\"FETCH_SIZE\",70,0,1000\n";
  for (std::size_t buffer : {std::size_t{64}, std::size_t{1} << 20}) {
    INFO("buffer " << buffer);
    CounterOptions opt;
    opt.buffer_bytes = buffer;
    const auto f = parse_counters_text(text, "c.csv", opt);
    CHECK(f.bad_row_lines == std::vector<std::uint64_t>{7});
    REQUIRE(kernel(f, "k1") != nullptr);
    REQUIRE(kernel(f, "k2") != nullptr);
    REQUIRE(kernel(f, "k3") != nullptr);
    const auto& k1 = *kernel(f, "k1");
    CHECK(k1.dispatches == 1);
    CHECK(k1.counters.at("MfmaFlops").sum == 3.0);
    CHECK(kernel(f, "k2")->counters.count("MfmaFlops") == 0);
    const auto& k3 = *kernel(f, "k3");
    CHECK(k3.dispatches == 1);
    CHECK(k3.counters.at("WRITE_SIZE").sum == 7.0);
    CHECK(k3.counters.at("FETCH_SIZE").sum == 70.0);
    CHECK(k1.counters.count("WRITE_SIZE") == 1);
    CHECK(k1.counters.at("WRITE_SIZE").sum == 5.0);  // k3's WRITE_SIZE did not land in k1
  }
}

}  // namespace unit_counters_values
