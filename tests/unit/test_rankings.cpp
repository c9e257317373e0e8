// Stage 7b (docs/method.md §5, §16.1): both rankings, duplicate names, hard unknown.
#include <catch2/catch.hpp>

#include "unit/test_helpers.hpp"

using namespace roofline;
using roofline::test::gfx950_peaks;

namespace {

EntryResult entry(const std::string& name, std::optional<long> rank, std::size_t index, double pct,
                  Headroom headroom = Headroom::unknown, double gain = 0.0) {
  EntryResult e;
  e.name = e.short_name = name;
  e.rank = rank;
  e.topn_index = index;
  e.pct_gpu_time = e.key_pct = pct;
  e.verdict.headroom = headroom;
  e.verdict.expected_e2e_gain_pct = gain;
  return e;
}

}  // namespace

TEST_CASE("rank_entries: the worked example — pct puts MoE first, gain puts attention first",
          "[rankings]") {
  std::vector<EntryResult> entries{
      entry("fused_moe_kernel", 1, 0, 26.45, Headroom::saturated, 0.571),
      entry("fused_recurrent_gated_delta_rule_fwd_kernel", 2, 1, 12.82),
      entry("kernel_paged_attention_2d", 3, 2, 8.86, Headroom::underperforming, 5.70),
      entry("_w8a8_block_fp8_matmul", 4, 3, 6.62, Headroom::underperforming, 4.76),
  };
  Rankings r = rank_entries(entries, gfx950_peaks());
  CHECK(r.by_pct ==
        std::vector<std::string>{"fused_moe_kernel", "fused_recurrent_gated_delta_rule_fwd_kernel",
                                 "kernel_paged_attention_2d", "_w8a8_block_fp8_matmul"});
  CHECK(r.by_expected_gain ==
        std::vector<std::string>{"kernel_paged_attention_2d", "_w8a8_block_fp8_matmul",
                                 "fused_moe_kernel",
                                 "fused_recurrent_gated_delta_rule_fwd_kernel"});
}

TEST_CASE("rank_entries: duplicate names get a #rank suffix", "[rankings]") {
  std::vector<EntryResult> entries{
      entry("void wvSplitK_hf_<__hip_bfloat16, 64, 2>(int, int, const __hip_bfloat16*)", 2, 1, 9.0),
      entry("void wvSplitK_hf_<__hip_bfloat16, 64, 2>(int, int, const __hip_bfloat16*)", 5, 4, 6.0),
      entry("rms_norm_kernel", std::nullopt, 6, 5.5),
      entry("triton_poi_fused_0", std::nullopt, 7, 5.2),
      entry("triton_poi_fused_0", std::nullopt, 8, 5.1),
  };
  Rankings r = rank_entries(entries, gfx950_peaks());
  CHECK(r.names[0] ==
        "void wvSplitK_hf_<__hip_bfloat16, 64, 2>(int, int, const __hip_bfloat16*)#2");
  CHECK(r.names[1] ==
        "void wvSplitK_hf_<__hip_bfloat16, 64, 2>(int, int, const __hip_bfloat16*)#5");
  CHECK(r.names[2] == "rms_norm_kernel");  // unique: no suffix
  // Without a profiler rank, the 1-based Top-N position stands in.
  CHECK(r.names[3] == "triton_poi_fused_0#8");
  CHECK(r.names[4] == "triton_poi_fused_0#9");
  REQUIRE(r.by_pct.size() == 5);
  CHECK(r.by_pct[0] == r.names[0]);
  CHECK(r.by_pct[1] == r.names[1]);
}

TEST_CASE("rank_entries: ranking names stay unique even when ranks repeat", "[rankings]") {
  std::vector<EntryResult> entries{entry("fused_moe_kernel", 3, 0, 20.0),
                                   entry("fused_moe_kernel", 3, 1, 10.0),
                                   entry("fused_moe_kernel", 4, 2, 8.0)};
  Rankings r = rank_entries(entries, gfx950_peaks());
  CHECK(r.names[0].rfind("fused_moe_kernel#3", 0) == 0);
  CHECK(r.names[1].rfind("fused_moe_kernel#3", 0) == 0);
  CHECK(r.names[0] != r.names[1]);
  CHECK(r.names[2] == "fused_moe_kernel#4");
  CHECK(r.by_pct == std::vector<std::string>{r.names[0], r.names[1], r.names[2]});
}

TEST_CASE("rank_entries: gain ties and no-verdict entries order by pct", "[rankings]") {
  std::vector<EntryResult> entries{
      entry("a_no_verdict_small", 1, 0, 5.5),
      entry("b_gain_1_small", 2, 1, 6.0, Headroom::moderate, 1.0),
      entry("c_no_verdict_big", 3, 2, 20.0),
      entry("d_gain_1_big", 4, 3, 9.0, Headroom::underperforming, 1.0),
      entry("e_gain_0", 5, 4, 30.0, Headroom::saturated, 0.0),
      entry("f_gain_3", 6, 5, 7.0, Headroom::underperforming, 3.0),
  };
  Rankings r = rank_entries(entries, gfx950_peaks());
  CHECK(r.by_expected_gain == std::vector<std::string>{"f_gain_3", "d_gain_1_big", "b_gain_1_small",
                                                       "e_gain_0", "c_no_verdict_big",
                                                       "a_no_verdict_small"});
  CHECK(r.by_pct == std::vector<std::string>{"e_gain_0", "c_no_verdict_big", "d_gain_1_big",
                                             "f_gain_3", "b_gain_1_small", "a_no_verdict_small"});
}

TEST_CASE("rank_entries: hard unknown — gain ranking empty with a note", "[rankings]") {
  ResolvedPeaks hard;
  hard.gfx = "gfx1201";
  hard.hard_unknown = true;
  std::vector<EntryResult> entries{entry("kernel_paged_attention_2d", 1, 0, 20.0),
                                   entry("fused_moe_kernel", 2, 1, 30.0)};
  Rankings r = rank_entries(entries, hard);
  CHECK(r.by_expected_gain.empty());
  CHECK_FALSE(r.notes.empty());
  CHECK(r.by_pct == std::vector<std::string>{"fused_moe_kernel", "kernel_paged_attention_2d"});
}
