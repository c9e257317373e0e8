// counters.hpp after the ingest (SPEC §6 stage C): per-dispatch measurement, kernel-name
// normalization and matching against Top-N names, and merging several files.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "roofline/counters.hpp"
#include "unit/test_helpers.hpp"

using namespace roofline;
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

std::vector<KernelCounters> named(std::initializer_list<const char*> names) {
  std::vector<KernelCounters> out;
  for (const char* n : names) out.push_back(kc(n, 1, {}));
  return out;
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

TEST_CASE("normalize_kernel_name: clone suffix, .kd, argument list, void, spacing, mangling",
          "[counters][match]") {
  CHECK(normalize_kernel_name("kernel_paged_attention_2d [clone .kd]") ==
        "kernel_paged_attention_2d");
  CHECK(normalize_kernel_name("  fused_moe_kernel.kd ") == "fused_moe_kernel");
  CHECK(normalize_kernel_name("void vllm::paged_attention_v2_kernel<__hip_bfloat16, "
                              "__hip_bfloat16, 128, 16, 128, (vllm::Fp8KVCacheDataType)0, false, "
                              "512>(float*, float*, int const*, int)") ==
        "vllm::paged_attention_v2_kernel<__hip_bfloat16,__hip_bfloat16,128,16,128,(vllm::"
        "Fp8KVCacheDataType)0,false,512>");
  // The last balanced (...) only: parentheses inside template arguments and parameters stay.
  CHECK(normalize_kernel_name("void ck::kernel<ck::Tuple<int, float>>(void (*)(int), "
                              "ck::Arg) [clone .kd]") == "ck::kernel<ck::Tuple<int,float>>");
  CHECK(normalize_kernel_name("void vllm::rms_norm_kernel<c10::BFloat16,8>(unsigned int)") ==
        normalize_kernel_name("vllm::rms_norm_kernel<c10::BFloat16, 8>"));
  CHECK(normalize_kernel_name("void f<unsigned int>(int)") == "f<unsigned int>");
  CHECK(normalize_kernel_name("_ZN5aiter11fmoe_kernelEPKvPvi.kd") == "aiter::fmoe_kernel");
  CHECK(normalize_kernel_name("_Znot_really_mangled") == "_Znot_really_mangled");
  CHECK(normalize_kernel_name("Cijk_Alik_Bljk_BBS_BH_MT128x128x64_MI16x16x1_SN_1LDSB1_GRVWA8") ==
        "Cijk_Alik_Bljk_BBS_BH_MT128x128x64_MI16x16x1_SN_1LDSB1_GRVWA8");
  CHECK(normalize_kernel_name("(unnamed)") == "(unnamed)");
}

TEST_CASE("match_kernels: exact first, then normalized, then substring on word boundaries",
          "[counters][match]") {
  const auto kernels = named({
      "fused_moe_kernel",                                                        // 0
      "fused_moe_kernel [clone .kd]",                                            // 1
      "kernel_paged_attention_2d [clone .kd]",                                   // 2
      "void vllm::paged_attention_v2_kernel<__hip_bfloat16, 128>(float*, int)",  // 3
      "_ZN5aiter11fmoe_kernelEPKvPvi",                                           // 4
      "fused_moe_kernel_gptq_awq",                                               // 5
      "Cijk_Alik_Bljk_BBS_BH_MT128x128x64",                                      // 6
      "add",                                                                     // 7
  });
  const auto m = match_kernels(
      {
          "fused_moe_kernel",                                                   // exact only
          "kernel_paged_attention_2d",                                          // normalized
          "paged_attention_v2_kernel",                                          // substring: in it
          "aiter::fmoe_kernel(void const*, void*, int)",                        // demangled
          "void Cijk_Alik_Bljk_BBS_BH_MT128x128x64(float*) [clone .kd] extra",  // contains it
          "gptq",                                                               // too short
          "rms_norm_kernel",                                                    // nothing
          "add_kernel",
      },
      kernels);
  REQUIRE(m.size() == 8);
  CHECK(m[0].kind == MatchKind::exact);
  CHECK(m[0].kernels == std::vector<std::size_t>{0});  // not 1 nor 5: exact wins
  CHECK(m[1].kind == MatchKind::normalized);
  CHECK(m[1].kernels == std::vector<std::size_t>{2});
  CHECK(m[2].kind == MatchKind::substring);
  CHECK(m[2].kernels == std::vector<std::size_t>{3});
  CHECK(m[3].kind == MatchKind::normalized);
  CHECK(m[3].kernels == std::vector<std::size_t>{4});
  CHECK(m[4].kind == MatchKind::substring);
  CHECK(m[4].kernels == std::vector<std::size_t>{6});
  CHECK(m[5].kind == MatchKind::none);  // "gptq" is shorter than the substring minimum
  CHECK(m[6].kind == MatchKind::none);
  CHECK(m[6].kernels.empty());
  CHECK(m[7].kind == MatchKind::none);  // "add" is too short to be matched inside "add_kernel"
  CHECK(std::string(to_string(MatchKind::substring)) == "substring");
  CHECK(std::string(to_string(MatchKind::none)) == "none");
}

TEST_CASE("match_kernels: a kernel matched well by one name is not offered to another's substring",
          "[counters][match]") {
  const auto kernels = named({"fused_moe_kernel [clone .kd]", "moe_align_block_size_kernel"});
  const auto m = match_kernels({"fused_moe_kernel", "fused_moe"}, kernels);
  CHECK(m[0].kind == MatchKind::normalized);
  CHECK(m[1].kind == MatchKind::none);  // would be a substring of kernel 0, which is claimed
  // Without the claim the identifier boundary still decides: "moe" is inside a word there.
  const auto solo = match_kernels({"fused_moe"}, named({"fused_moe::kernel<int>"}));
  CHECK(solo[0].kind == MatchKind::substring);
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
