// read_trace_stream on kernel CSVs: rocprofv3 kernel_trace / kernel_stats and Nsight Systems
// cuda_gpu_kern_sum (units of --timeunit, progress lines before the header), and CSVs it must
// refuse. Hand-written text, in memory.
#include <string>

#include "roofline/cli/layer.hpp"
#include "test_helpers.hpp"
#include "topn_test_io.hpp"

namespace unit_csv_traces {
using namespace roofline::cli;
using roofline::test::any_contains;
using roofline::test::chunked;
using roofline::test::rel;

namespace {

// A decode signature [[4, 4]] float with `count` launches over `us`.
TraceCase decode_case(double count, double us) {
  TraceCase c;
  c.dims = {{4, 4}};
  c.dtypes = {"float"};
  c.regime = Regime::decode;
  c.count = count;
  c.total_us = us;
  return c;
}

TraceRead read(const std::string& text, std::size_t chunk = 4096) {
  return read_trace_stream(chunked(text, chunk), "prof.csv");
}

const TraceKernel* find(const TraceProfile& p, const std::string& name) {
  for (const auto& k : p.kernels)
    if (k.name == name) return &k;
  return nullptr;
}

}  // namespace

TEST_CASE("rocprofv3 kernel trace: one row per dispatch, summed by kernel name", "[topn][csv]") {
  const std::string csv =
      "\"Kind\",\"Agent_Id\",\"Queue_Id\",\"Kernel_Id\",\"Kernel_Name\",\"Correlation_Id\","
      "\"Start_Timestamp\",\"End_Timestamp\",\"Grid_Size\"\n"
      "\"KERNEL_DISPATCH\",1,1,7,\"void vllm::act_and_mul_kernel<c10::BFloat16, true>(int, "
      "float)\",1,1000000,1002500,256\n"
      "\"KERNEL_DISPATCH\",1,1,8,\"Cijk_Alik_Bljk_BBS_BH_MT64x16x256\",2,1003000,1013000,512\n"
      "\"KERNEL_DISPATCH\",1,1,7,\"void vllm::act_and_mul_kernel<c10::BFloat16, true>(int, "
      "float)\",3,1020000,1021500,256\n";
  for (std::size_t chunk : {5u, 4096u}) {
    TraceRead r = read(csv, chunk);
    INFO(r.error);
    REQUIRE(r.profile);
    CHECK(r.profile->source == "rocprofv3");
    REQUIRE(r.profile->kernels.size() == 2);
    const TraceKernel* act =
        find(*r.profile, "void vllm::act_and_mul_kernel<c10::BFloat16, true>(int, float)");
    REQUIRE(act);
    CHECK(act->calls == 2);
    CHECK(act->total_us == rel(4.0));  // 2500 ns + 1500 ns
    CHECK(act->cases.empty());
    CHECK(find(*r.profile, "Cijk_Alik_Bljk_BBS_BH_MT64x16x256")->total_us == rel(10.0));
  }
}

TEST_CASE("rocprofv3 kernel stats: one row per kernel", "[topn][csv]") {
  const std::string csv =
      "\"Name\",\"Calls\",\"TotalDurationNs\",\"AverageNs\",\"Percentage\",\"MinNs\",\"MaxNs\","
      "\"StdDev\"\n"
      "\"fused_moe_kernel\",164560,8851595000,53789.0,26.45,40000,70000,1.0\n"
      "\"kernel_paged_attention_2d\",20570,2964807000,144133.0,8.86,100000,200000,2.0\n";
  TraceRead r = read(csv);
  REQUIRE(r.profile);
  CHECK(r.profile->source == "rocprofv3");
  const TraceKernel* moe = find(*r.profile, "fused_moe_kernel");
  REQUIRE(moe);
  CHECK(moe->calls == 164560);
  CHECK(moe->total_us == rel(8851595.0));
}

TEST_CASE("Nsight Systems cuda_gpu_kern_sum: progress lines skipped, every time unit converted",
          "[topn][csv]") {
  const std::string progress =
      "Generating SQLite file report.sqlite from report.nsys-rep\n"
      "Processing [report.sqlite] with "
      "[/opt/nvidia/nsight-systems/2024.5.1/host-linux-x64/reports/cuda_gpu_kern_sum.py]... \n"
      "\n"
      " ** CUDA GPU Kernel Summary (cuda_gpu_kern_sum):\n"
      "\n";
  struct Unit {
    std::string heading;
    std::string total;  // the same 1234.5 µs in that unit
  };
  for (const Unit& u : {Unit{"ns", "1234500"}, Unit{"us", "1234.5"}, Unit{"ms", "1.2345"},
                        Unit{"s", "0.0012345"}, Unit{"nsec", "1234500"}, Unit{"usec", "1234.5"},
                        Unit{"msec", "1.2345"}, Unit{"sec", "0.0012345"}}) {
    INFO(u.heading);
    const std::string csv =
        progress + "Time (%),Total Time (" + u.heading + "),Instances,Avg (" + u.heading +
        "),Med (" + u.heading + "),Min (" + u.heading + "),Max (" + u.heading + "),StdDev (" +
        u.heading + "),Name\n" + "60.1," + u.total +
        ",20,1,1,1,1,0,\"void flash_fwd_kernel<Flash_fwd_kernel_traits<128, 64, 64, 4>, true>("
        "Flash_fwd_params)\"\n" +
        "39.9,\"1,000\",3,1,1,1,1,0,nvjet_sm90_tst_192x8_64x8_2x1_v_bz_TNT\n";
    TraceRead r = read(csv);
    INFO(r.error);
    REQUIRE(r.profile);
    CHECK(r.profile->source == "nsys");
    const TraceKernel* fa = find(
        *r.profile,
        "void flash_fwd_kernel<Flash_fwd_kernel_traits<128, 64, 64, 4>, true>(Flash_fwd_params)");
    REQUIRE(fa);
    CHECK(fa->calls == 20);
    CHECK(fa->total_us == rel(1234.5, 1e-12));
    // "1,000" with a thousands separator, in the file's unit.
    const TraceKernel* gemm = find(*r.profile, "nvjet_sm90_tst_192x8_64x8_2x1_v_bz_TNT");
    REQUIRE(gemm);
    CHECK(gemm->total_us == rel(1000 * (u.heading.rfind("n", 0) == 0   ? 1e-3
                                        : u.heading.rfind("u", 0) == 0 ? 1.0
                                        : u.heading.rfind("m", 0) == 0 ? 1e3
                                                                       : 1e6)));
  }
}

TEST_CASE("Kernel CSVs: unknown units, foreign CSVs and empty tables are refused in one line",
          "[topn][csv]") {
  struct Case {
    std::string csv, want;
  };
  const std::vector<Case> cases = {
      {"Time (%),Total Time (min),Instances,Name\n1,2,3,k\n", "time unit 'min'"},
      {"Time (%),Total Time,Instances,Name\n1,2,3,k\n", "time unit ''"},
      {"\"Dispatch_Id\",\"Kernel_Name\",\"Start_Timestamp\",\"End_Timestamp\",\"Counter_Name\","
       "\"Counter_Value\"\n1,\"k\",1,2,\"SQ_WAVES\",4\n",
       "counter collection CSV"},
      {"Id,Kernel,Duration\n1,k,5\n", "line 1 has columns 'Id', 'Kernel', 'Duration'"},
      {"\"Id\",\"Ker\nnel\",x\n1,k,5\n", "columns 'Id', 'Ker\\x0anel', 'x'"},  // kept on one line
      {"Name,Calls,TotalDurationNs\n", "no kernel rows"},
      {"just one line of prose\n", "no CSV header"},
  };
  for (const Case& c : cases) {
    INFO(c.csv);
    TraceRead r = read(c.csv);
    CHECK_FALSE(r.profile);
    CHECK(r.error.rfind("prof.csv: ", 0) == 0);
    CHECK(r.error.find(c.want) != std::string::npos);
    CHECK(r.error.find('\n') == std::string::npos);
  }
}

TEST_CASE("Kernel CSVs: rows without usable numbers are skipped and counted", "[topn][csv]") {
  const std::string csv =
      "Kernel_Name,Start_Timestamp,End_Timestamp\n"
      "a,100,300\n"
      "b,500,400\n"  // ends before it starts
      "c,x,9\n"
      "a,1000,1100\n";
  TraceRead r = read(csv);
  REQUIRE(r.profile);
  REQUIRE(r.profile->kernels.size() == 1);
  CHECK(r.profile->kernels[0].calls == 2);
  CHECK(r.profile->kernels[0].total_us == rel(0.3));
  CHECK(any_contains(r.notes, {"2 row(s) skipped", "line 3"}));
}

TEST_CASE("merge_profiles: several files summed by kernel name", "[topn][csv]") {
  TraceProfile a, b;
  a.source = "torch-trace";
  b.source = "nsys";
  a.kernels = {TraceKernel{"k1", GpuEventKind::kernel, 2, 10, {"float"}, {}, {}, {}, 0, 0, {}, {}},
               TraceKernel{"k2", GpuEventKind::kernel, 1, 5, {}, {}, {}, {}, 0, 0, {}, {}}};
  a.kernels[0].cases = {decode_case(2, 10)};
  b.kernels = {
      TraceKernel{"k1", GpuEventKind::kernel, 3, 6, {"c10::Half"}, {}, {}, {}, 0, 0, {}, {}}};
  b.kernels[0].cases = {decode_case(3, 6)};
  a.steps.n_decode = 2;
  b.steps.n_decode = 3;
  b.steps.decode_batches[8] = 3;
  const TraceProfile m = merge_profiles({a, b});
  CHECK(m.source == "torch-trace+nsys");
  REQUIRE(m.kernels.size() == 2);
  CHECK(m.kernels[0].name == "k1");
  CHECK(m.kernels[0].calls == 5);
  CHECK(m.kernels[0].total_us == rel(16));
  CHECK(m.kernels[0].dtypes == std::vector<std::string>{"c10::Half", "float"});
  REQUIRE(m.kernels[0].cases.size() == 1);
  CHECK(m.kernels[0].cases[0].count == 5);
  CHECK(m.steps.n_decode == 5);
  CHECK(m.steps.decode_batches.at(8) == 3);
}

}  // namespace unit_csv_traces
