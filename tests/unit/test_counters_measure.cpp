// counters.hpp after the ingest (docs/method.md §11.4 stage C): per-dispatch measurement and
// merging several files.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "roofline/cli/layer.hpp"
#include "roofline/inputs/counters.hpp"
#include "unit/test_helpers.hpp"

namespace unit_counters_measure {
using namespace roofline::cli;
using roofline::test::contains;
using roofline::test::rel;

namespace {

KernelCounters kc(const std::string& name, std::uint64_t dispatches,
                  std::map<std::string, CounterSum> counters, double ns = 0.0,
                  std::uint64_t timed = 0) {
  KernelCounters k;
  k.name = name;
  k.dispatches = dispatches;
  k.counters = std::move(counters);
  k.duration_ns_sum = ns;
  k.timed_dispatches = timed;
  return k;
}

}  // namespace

TEST_CASE("measure: bytes from FETCH/WRITE in KiB, fp8 FLOPs from MFMA_MOPS_F8, time per dispatch",
          "[counters][measure]") {
  const auto k = kc("fused_moe_kernel", 2,
                    {{"FETCH_SIZE", {4000, 2}},
                     {"WRITE_SIZE", {800, 2}},
                     {"SQ_INSTS_VALU_MFMA_MOPS_F8", {200, 2}}},
                    40000.0, 2);
  const auto m = measure(k, {});
  CHECK(m.dispatches == 2);
  CHECK(m.bytes.value() == rel((2000.0 + 400.0) * 1024.0));
  CHECK(m.flops.value() == rel(100.0 * 512.0));
  CHECK(m.time_us.value() == rel(20.0));
  CHECK(contains(m.bytes_source, "FETCH_SIZE + WRITE_SIZE"));
  CHECK(contains(m.flops_source, "SQ_INSTS_VALU_MFMA_MOPS_F8 x 512"));
  CHECK(contains(m.time_source, "2 dispatches"));
  CHECK(m.unusable_reason.empty());
  CounterOptions opt;
  opt.mfma_f8_flops_per_inst = 1024.0;
  CHECK(measure(k, opt).flops.value() == rel(102400.0));
}

TEST_CASE("measure: MfmaFlops first, else the sum of the typed MfmaFlops counters",
          "[counters][measure]") {
  auto k = kc("gemm", 1,
              {{"FETCH_SIZE", {1, 1}},
               {"WRITE_SIZE", {1, 1}},
               {"MfmaFlops", {1e6, 1}},
               {"MfmaFlopsBF16", {5, 1}},
               {"SQ_INSTS_VALU_MFMA_MOPS_F8", {7, 1}}});
  CHECK(measure(k, {}).flops.value() == rel(1e6));
  CHECK(measure(k, {}).flops_source == "MfmaFlops");
  k.counters.erase("MfmaFlops");
  k.counters["MfmaFlopsF16"] = {3, 1};
  const auto m = measure(k, {});
  CHECK(m.flops.value() == rel(8.0));  // BF16 + F16; F8 not added on top
  CHECK(m.flops_source == "MfmaFlopsBF16 + MfmaFlopsF16");
}

TEST_CASE("measure: typed MfmaFlops all zero while fp8 MFMA ran -> the fp8 count is used",
          "[counters][measure]") {
  const auto k = kc("fp8_gemm", 2,
                    {{"FETCH_SIZE", {2, 2}},
                     {"WRITE_SIZE", {2, 2}},
                     {"MfmaFlopsBF16", {0, 2}},
                     {"SQ_INSTS_VALU_MFMA_MOPS_F8", {40, 2}}});
  const auto m = measure(k, {});
  CHECK(m.flops.value() == rel(20.0 * 512.0));
  CHECK(contains(m.flops_source, "read 0"));
}

TEST_CASE("measure: each counter is averaged over the dispatches that reported it",
          "[counters][measure]") {
  const auto k = kc("k", 4, {{"FETCH_SIZE", {300, 3}}, {"WRITE_SIZE", {10, 1}}});
  CHECK(measure(k, {}).bytes.value() == rel((100.0 + 10.0) * 1024.0));
}

TEST_CASE("measure: no WRITE_SIZE means no bytes and a reason; no timestamps means no time",
          "[counters][measure]") {
  const auto m = measure(kc("k", 3, {{"FETCH_SIZE", {30, 3}}, {"GRBM_GUI_ACTIVE", {9, 3}}}), {});
  CHECK(!m.bytes);
  CHECK(!m.flops);
  CHECK(!m.time_us);
  CHECK(contains(m.unusable_reason, "WRITE_SIZE"));
  CHECK(!contains(m.unusable_reason, "no FETCH_SIZE"));
  CHECK(contains(measure(kc("k", 1, {}), {}).unusable_reason, "FETCH_SIZE or WRITE_SIZE"));
}

TEST_CASE("merge_kernels: same names add up, first appearance keeps the order",
          "[counters][merge]") {
  CounterFile a, b;
  a.kernels = {kc("k1", 2, {{"FETCH_SIZE", {10, 2}}}, 300.0, 2), kc("k2", 1, {})};
  b.kernels = {kc("k3", 1, {}),
               kc("k1", 3, {{"FETCH_SIZE", {5, 1}}, {"WRITE_SIZE", {7, 3}}}, 100.0, 1)};
  const auto merged = merge_kernels({a, b});
  REQUIRE(merged.size() == 3);
  CHECK(merged[0].name == "k1");
  CHECK(merged[1].name == "k2");
  CHECK(merged[2].name == "k3");
  CHECK(merged[0].dispatches == 5);
  CHECK(merged[0].counters.at("FETCH_SIZE").sum == 15.0);
  CHECK(merged[0].counters.at("FETCH_SIZE").dispatches == 3);
  CHECK(merged[0].counters.at("WRITE_SIZE").dispatches == 3);
  CHECK(merged[0].duration_ns_sum == 400.0);
  CHECK(merged[0].timed_dispatches == 3);
}

}  // namespace unit_counters_measure
