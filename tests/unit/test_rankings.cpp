// Step 12 (docs/method.md §5, §16.1): both rankings as entry indices, ties, hard unknown.
#include <catch2/catch.hpp>

#include "roofline/cli/layer.hpp"
#include "unit/test_helpers.hpp"

namespace unit_rankings {
using namespace roofline::cli;
using roofline::test::gfx950_peaks;

namespace {

HeadEntry entry(const std::string& name, double pct, Headroom headroom = Headroom::unknown,
                double gain = 0.0) {
  HeadEntry e;
  e.name = e.short_name = e.ranking_name = name;
  e.pct_gpu_time = e.share.pct = pct;
  e.verdict.headroom = headroom;
  e.verdict.expected_e2e_gain_pct = gain;
  return e;
}

// The ranking names of an order, for readable checks.
std::vector<std::string> names(const std::vector<HeadEntry>& entries,
                               const std::vector<std::size_t>& order) {
  std::vector<std::string> out;
  for (std::size_t i : order) out.push_back(entries.at(i).ranking_name);
  return out;
}

}  // namespace

TEST_CASE("rank_entries: the worked example — pct puts MoE first, gain puts attention first",
          "[rankings]") {
  std::vector<HeadEntry> entries{
      entry("fused_moe_kernel", 26.45, Headroom::saturated, 0.571),
      entry("fused_recurrent_gated_delta_rule_fwd_kernel", 12.82),
      entry("kernel_paged_attention_2d", 8.86, Headroom::underperforming, 5.70),
      entry("_w8a8_block_fp8_matmul", 6.62, Headroom::underperforming, 4.76),
  };
  Rankings r = rank_entries(entries, gfx950_peaks());
  CHECK(r.by_pct == std::vector<std::size_t>{0, 1, 2, 3});
  CHECK(r.by_expected_gain == std::vector<std::size_t>{2, 3, 0, 1});
  CHECK(names(entries, r.by_expected_gain) ==
        std::vector<std::string>{"kernel_paged_attention_2d", "_w8a8_block_fp8_matmul",
                                 "fused_moe_kernel",
                                 "fused_recurrent_gated_delta_rule_fwd_kernel"});
}

TEST_CASE("rank_entries: the key pct orders, and equal shares order by ranking name",
          "[rankings]") {
  // --head-key serving_weighted: the share, not the capture's pct_gpu_time, orders.
  std::vector<HeadEntry> entries{entry("b_kernel", 10.0), entry("a_kernel", 10.0),
                                 entry("c_kernel", 4.0)};
  entries[2].share.pct = 30.0;
  Rankings r = rank_entries(entries, gfx950_peaks());
  CHECK(names(entries, r.by_pct) == std::vector<std::string>{"c_kernel", "a_kernel", "b_kernel"});
}

TEST_CASE("rank_entries: gain ties and no-verdict entries order by pct", "[rankings]") {
  std::vector<HeadEntry> entries{
      entry("a_no_verdict_small", 5.5),
      entry("b_gain_1_small", 6.0, Headroom::moderate, 1.0),
      entry("c_no_verdict_big", 20.0),
      entry("d_gain_1_big", 9.0, Headroom::underperforming, 1.0),
      entry("e_gain_0", 30.0, Headroom::saturated, 0.0),
      entry("f_gain_3", 7.0, Headroom::underperforming, 3.0),
  };
  Rankings r = rank_entries(entries, gfx950_peaks());
  CHECK(names(entries, r.by_expected_gain) ==
        std::vector<std::string>{"f_gain_3", "d_gain_1_big", "b_gain_1_small", "e_gain_0",
                                 "c_no_verdict_big", "a_no_verdict_small"});
  CHECK(names(entries, r.by_pct) ==
        std::vector<std::string>{"e_gain_0", "c_no_verdict_big", "d_gain_1_big", "f_gain_3",
                                 "b_gain_1_small", "a_no_verdict_small"});
}

TEST_CASE("rank_entries: hard unknown — gain ranking empty with a note", "[rankings]") {
  ResolvedPeaks hard;
  hard.gfx = "gfx1201";
  hard.hard_unknown = true;
  std::vector<HeadEntry> entries{entry("kernel_paged_attention_2d", 20.0),
                                 entry("fused_moe_kernel", 30.0)};
  Rankings r = rank_entries(entries, hard);
  CHECK(r.by_expected_gain.empty());
  CHECK_FALSE(r.findings.notes.empty());
  CHECK(r.by_pct == std::vector<std::size_t>{1, 0});
}

}  // namespace unit_rankings
