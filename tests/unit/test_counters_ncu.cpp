// counters.hpp ingest of Nsight Compute `ncu --csv` output (docs/method.md §11.4) on the real H200
// capture (tests/fixtures/counters/ncu_h200_decode_step_{raw,details}.csv, copied from
// shared/fixtures/ncu: the raw and details pages are separate captures of one decode step) and
// on small hand-written files for what the capture does not show (auto-scaled units, thousands
// separators in every column, older column sets).
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>

#include "roofline/cli/layer.hpp"
#include "roofline/inputs/counters.hpp"
#include "unit/test_helpers.hpp"

namespace unit_counters_ncu {
using namespace roofline::cli;
using roofline::test::any_contains;
using roofline::test::contains;
using roofline::test::rel;

namespace {

std::string fixture(const std::string& name) {
  std::ifstream in(std::string(ROOFLINE_SOURCE_DIR) + "/tests/fixtures/counters/" + name,
                   std::ios::binary);
  REQUIRE(in.good());
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

CounterFile parse(const std::string& text, CounterOptions opt = {}) {
  return parse_counters_text(text, "ncu.csv", opt);
}

// The one kernel whose name starts with `prefix`.
const KernelCounters& kernel(const CounterFile& f, const std::string& prefix) {
  const KernelCounters* found = nullptr;
  for (const auto& k : f.kernels) {
    if (k.name.rfind(prefix, 0) != 0) continue;
    REQUIRE(found == nullptr);
    found = &k;
  }
  REQUIRE(found != nullptr);
  return *found;
}

double sum(const KernelCounters& k, const std::string& counter) {
  auto it = k.counters.find(counter);
  return it == k.counters.end() ? -1.0 : it->second.sum;
}

const char* const k_qkv = "nvjet_sm90_tst_56x64_";
const char* const k_gate_up = "nvjet_sm90_tst_192x8_";
const char* const k_sdpa = "cudnn_generated_fort_native_sdpa_sm80_flash_fprop";
const char* const k_norm = "void at::<unnamed>::vectorized_layer_norm_kernel";

}  // namespace

TEST_CASE("ncu: the H200 raw and details pages, facts from shared/fixtures/README.md",
          "[counters][ncu]") {
  const auto raw = parse(fixture("ncu_h200_decode_step_raw.csv"));
  const auto details = parse(fixture("ncu_h200_decode_step_details.csv"));
  CHECK(raw.format == CounterFormat::ncu_raw);
  CHECK(contains(raw.format_detail, "raw page"));
  CHECK(raw.lines == 35);  // 35 launches; the ==PROF== lines and the units row are no rows
  CHECK(details.format == CounterFormat::ncu_details);
  CHECK(details.lines == 35 * 9);  // 9 metrics per launch
  for (const auto* f : {&raw, &details}) {
    INFO(f->format_detail);
    CHECK(f->errors.empty());
    CHECK(f->notes.empty());
    CHECK(f->bad_rows == 0);
    CHECK(f->rows_used == f->lines);
    CHECK(f->kernels.size() == 23);  // launches grouped by kernel name

    // The qkv GEMM reads 21.25 MB and counts 1.351e9 bf16 tensor ops.
    const auto qkv = measure(kernel(*f, k_qkv), {});
    CHECK(qkv.dispatches == 1);
    CHECK(sum(kernel(*f, k_qkv), "dram__bytes_read.sum") == rel(21.25e6, 1e-3));
    CHECK(qkv.flops.value() == rel(1.351e9, 1e-3));
    CHECK(qkv.flops_source ==
          "sm__ops_path_tensor_src_bf16_dst_fp32.sum (tensor ops), mean per launch");
    // The gate/up batched GEMM: 810.4 MB read, 5.1 MB written, ~191 µs.
    const auto& gu = kernel(*f, k_gate_up);
    CHECK(sum(gu, "dram__bytes_read.sum") == rel(810.4e6, 1e-3));
    CHECK(sum(gu, "dram__bytes_write.sum") == rel(5.1e6, 2e-2));
    const auto gum = measure(gu, {});
    CHECK(gum.bytes.value() == rel(815.5e6, 2e-3));
    CHECK(gum.time_us.value() == rel(191.0, 2e-2));
    CHECK(gum.time_source == "gpu__time_duration.sum, mean over 1 launch");
    // cuDNN SDPA decode: 1141 MB read (the decode model's K+V bytes, 64·8704·4·128·2·2), and
    // 1.825e10 tensor ops, 2.0x the model's 9.13e9 FLOPs.
    const auto& sdpa = kernel(*f, k_sdpa);
    CHECK(sum(sdpa, "dram__bytes_read.sum") == rel(64.0 * 8704 * 4 * 128 * 2 * 2, 1e-3));
    const auto sm = measure(sdpa, {});
    CHECK(sm.flops.value() == rel(1.825e10, 1e-3));
    CHECK(*sm.flops / 9.13e9 == rel(2.0, 1e-2));
    CHECK(sm.bytes_source == "dram__bytes_read.sum + dram__bytes_write.sum, mean over 1 launch");
    CHECK(sm.counters_used == std::vector<std::string>{"dram__bytes_read.sum",
                                                       "dram__bytes_write.sum",
                                                       "sm__ops_path_tensor_src_bf16_dst_fp32.sum",
                                                       "gpu__time_duration.sum"});
    // Small kernels' writes stay in L2: DRAM write bytes 0.
    CHECK(sum(kernel(*f, k_norm), "dram__bytes_write.sum") == 0.0);
    CHECK(kernel(*f, k_norm).dispatches == 2);  // one layer norm before attention, one after
    // A kernel without tensor work: FLOPs from the vector estimate 2·ffma + fadd + fmul.
    const auto norm = measure(kernel(*f, k_norm), {});
    CHECK(contains(norm.flops_source, "2 x ffma + fadd + fmul"));
    CHECK(norm.flops.value() > 0.0);
  }
}

TEST_CASE("ncu: the raw and details captures agree within 1 % on every large kernel",
          "[counters][ncu]") {
  const auto raw = parse(fixture("ncu_h200_decode_step_raw.csv"));
  const auto details = parse(fixture("ncu_h200_decode_step_details.csv"));
  REQUIRE(raw.kernels.size() == details.kernels.size());
  int large = 0;
  for (const auto& rk : raw.kernels) {
    const auto r = measure(rk, {});
    if (r.bytes.value_or(0.0) < 100e6) continue;
    ++large;
    INFO(rk.name);
    const auto d = measure(kernel(details, rk.name), {});
    CHECK(d.bytes.value() == rel(*r.bytes, 1e-2));
    CHECK(d.flops.value() == rel(*r.flops, 1e-2));
    CHECK(d.time_us.value() == rel(*r.time_us, 2e-2));  // clocks differ a little per capture
  }
  CHECK(large == 6);
}

TEST_CASE("ncu: details page with auto-scaled units, separators and ==PROF== lines",
          "[counters][ncu]") {
  const std::string text = fixture("ncu_details_autounits.csv");
  const auto f = parse(text);
  CHECK(f.errors.empty());
  CHECK(f.notes.empty());
  CHECK(f.lines == 20);
  CHECK(f.rows_used == 20);
  REQUIRE(f.kernels.size() == 2);
  const auto& gemm = kernel(f, "void gemm<float, 128>");
  CHECK(gemm.dispatches == 2);
  CHECK(sum(gemm, "dram__bytes_read.sum") == rel(1234.56e6 + 1.23e9, 1e-12));  // Mbyte, Gbyte
  CHECK(sum(gemm, "dram__bytes_write.sum") == rel(512e3, 1e-12));              // Kbyte, byte
  CHECK(gemm.duration_ns_sum == rel(1024.5e3 + 1.03e6, 1e-12));                // usecond, msecond
  CHECK(sum(gemm, "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum") == rel(3e6, 1e-12));
  CHECK_FALSE(gemm.counters.at("lts__t_bytes.sum").summed);  // not a metric measure() reads
  const auto m = measure(gemm, {});
  CHECK(m.bytes.value() == rel((1234.56e6 + 1.23e9 + 512e3) / 2, 1e-12));
  CHECK(m.flops.value() == rel(2147483648.0, 1e-12));  // "2,147,483,648" tensor ops
  CHECK(m.time_us.value() == rel(1027.25, 1e-12));
  const auto ew = measure(kernel(f, "void at::vectorized_elementwise_kernel"), {});
  CHECK(ew.time_us.value() == rel(3.968, 1e-12));  // "3,968" nsecond
  CHECK(ew.flops.value() == rel(2 * 4100.0 + 262144.0 + 1.84e6, 1e-12));
  CHECK(contains(ew.flops_source, "no tensor ops ran"));

  CounterOptions all;
  all.all_counter_values = true;
  const auto every = parse(text, all);
  CHECK(sum(kernel(every, "void gemm"), "lts__t_bytes.sum") == rel(2.5e9 + 0.01e12, 1e-12));

  // A decimal comma is never read as a thousands separator: that row is bad, by its line
  // (the ==PROF== lines count).
  std::string comma = text;
  comma +=
      "\"3\",\"4242\",\"python3\",\"h\",\"k\",\"1\",\"7\",\"(1, 1, 1)\",\"(1, 1, 1)\",\"0\","
      "\"9.0\",\"S\",\"dram__bytes_read.sum\",\"byte\",\"1,5\"\n";
  CHECK(parse(comma).bad_row_lines == std::vector<std::uint64_t>{25});
}

TEST_CASE("ncu: an older details page (no launch geometry columns, Kernel Time, CRLF)",
          "[counters][ncu]") {
  const auto f = parse(fixture("ncu_details_old_columns.csv"));
  CHECK(f.errors.empty());
  CHECK(f.format == CounterFormat::ncu_details);
  CHECK(contains(f.format_detail, "12 columns"));
  const auto m = measure(kernel(f, "sgemm_128x64_nn"), {});
  CHECK(m.dispatches == 2);
  CHECK(m.bytes.value() == rel(16.78e6 + 4.19e6, 1e-12));
  CHECK(m.flops.value() == rel(2 * 268.44e6, 1e-12));
  CHECK(m.flops_source ==
        "2 x ffma + fadd + fmul (smsp__sass_thread_inst_executed_op_*_pred_on.sum), mean per "
        "launch");
  CHECK(m.time_us.value() == rel(26.0, 1e-12));

  // The fewest columns: no Process ID, no Metric Unit (values taken in base units).
  const auto bare = parse(
      "\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Value\"\n"
      "\"0\",\"k\",\"dram__bytes_read.sum\",\"1,000\"\n"
      "\"0\",\"k\",\"dram__bytes_write.sum\",\"24\"\n"
      "\"1\",\"k\",\"dram__bytes_read.sum\",\"3,000\"\n"
      "\"1\",\"k\",\"dram__bytes_write.sum\",\"0\"\n");
  CHECK(bare.errors.empty());
  CHECK(any_contains(bare.notes, {"no Metric Unit column"}));
  CHECK(any_contains(bare.notes, {"no gpu__time_duration.sum metric"}));
  CHECK(measure(kernel(bare, "k"), {}).bytes.value() == rel(2012.0, 1e-12));
  CHECK(kernel(bare, "k").dispatches == 2);
}

TEST_CASE("ncu: raw page with a units row of auto-scaled units", "[counters][ncu]") {
  const auto f = parse(fixture("ncu_raw_autounits.csv"));
  CHECK(f.errors.empty());
  CHECK(f.notes.empty());
  CHECK(contains(f.format_detail, "20 columns (8 metrics)"));  // launch__ columns are no metrics
  CHECK(f.lines == 3);
  const auto& gu = kernel(f, "nvjet_sm90_tst_192x8");
  CHECK(gu.dispatches == 2);  // IDs "0" and "1,001"
  CHECK(gu.counters.count("launch__grid_size") == 0);
  CHECK(sum(gu, "lts__t_bytes.sum") == rel(2.5e9, 1e-12));  // Gbyte; raw pages sum every metric
  CHECK(sum(gu, "sm__cycles_elapsed.avg.per_second") == rel(3.55e9, 1e-12));  // Ghz
  const auto m = measure(gu, {});
  CHECK(m.bytes.value() == rel((810.35e6 + 810.55e6 + 5054.46e3 + 5139.97e3) / 2, 1e-12));
  CHECK(m.time_us.value() == rel((191.01 + 192.96) / 2, 1e-12));
  // bf16 and fp16 tensor ops added, each a mean per launch; the .avg column is not a .sum.
  CHECK(m.flops.value() == rel(6442450944.0 + 500.0, 1e-12));
  CHECK(contains(m.flops_source,
                 "sm__ops_path_tensor_src_bf16_dst_fp32.sum + "
                 "sm__ops_path_tensor_src_fp16_dst_fp32.sum"));
  const auto red = measure(kernel(f, "void at::reduce_kernel"), {});
  CHECK(red.bytes.value() == rel(60e3, 1e-12));
  // Tensor ops 0 and no vector metrics: the work ran on other pipes, its FLOPs not measured.
  CHECK_FALSE(red.flops);
  CHECK(contains(red.flops_source, "not measured"));
}

}  // namespace unit_counters_ncu
