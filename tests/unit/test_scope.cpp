// Stage 0 (docs/method.md §4): scope to the head of the profile.
#include <catch2/catch.hpp>

#include "roofline/cli/layer.hpp"
#include "unit/test_helpers.hpp"

namespace unit_scope {
using namespace roofline::cli;

namespace {

TopnDocument topn_with(std::initializer_list<double> pcts) {
  TopnDocument t;
  std::size_t i = 0;
  for (double p : pcts) {
    TopnEntry e;
    e.index = i;
    e.rank = static_cast<long>(i + 1);
    e.name = "kernel_" + std::to_string(i);
    e.pct_gpu_time = p;
    t.entries.push_back(e);
    ++i;
  }
  return t;
}

// Where each head entry sits in TopnDocument::entries, in head order.
std::vector<std::size_t> positions(const Head& h) {
  std::vector<std::size_t> out;
  for (const auto& e : h.entries) out.push_back(e.topn_position);
  return out;
}

// The ranking name of each head entry, in head order.
std::vector<std::string> ranking_names(const Head& h) {
  std::vector<std::string> out;
  for (const auto& e : h.entries) out.push_back(e.ranking_name);
  return out;
}

}  // namespace

TEST_CASE("scope_to_head: threshold is inclusive and the order is biggest first", "[scope]") {
  // File order is not pct order: 4.99 is below the bar, 5.0 exactly is kept.
  TopnDocument t = topn_with({8.86, 4.99, 26.45, 5.0, 12.82});
  Head s = scope_to_head(t, ScopeOptions{5.0, 8});
  CHECK(positions(s) == std::vector<std::size_t>{2, 4, 0, 3});
  CHECK(s.skipped_count == 1);
}

TEST_CASE("scope_to_head: the cap keeps the biggest max_entries", "[scope]") {
  TopnDocument t = topn_with({6, 9, 7, 30, 8, 10});
  Head s = scope_to_head(t, ScopeOptions{5.0, 3});
  CHECK(positions(s) == std::vector<std::size_t>{3, 5, 1});
  CHECK(s.skipped_count == 3);
}

TEST_CASE("scope_to_head: a custom threshold and an empty head", "[scope]") {
  TopnDocument t = topn_with({1.5, 0.9, 2.0});
  Head low = scope_to_head(t, ScopeOptions{1.0, 8});
  CHECK(positions(low) == std::vector<std::size_t>{2, 0});
  CHECK(low.skipped_count == 1);
  Head none = scope_to_head(t, ScopeOptions{5.0, 8});
  CHECK(none.entries.empty());
  CHECK(none.skipped_count == 3);
}

TEST_CASE("scope_to_head: ties keep the profiler's rank", "[scope]") {
  TopnDocument t = topn_with({7.0, 7.0, 7.0});
  t.entries[0].rank = 3;
  t.entries[1].rank = 1;
  t.entries[2].rank = 2;
  Head s = scope_to_head(t, ScopeOptions{5.0, 8});
  CHECK(positions(s) == std::vector<std::size_t>{1, 2, 0});
}

TEST_CASE("scope_to_head: --head-key serving_weighted scopes and orders on serving_weighted_pct",
          "[scope]") {
  // A prefill-heavy capture: the decode kernel is small in the window, large in deployment.
  TopnDocument t = topn_with({30.0, 4.0, 8.0});
  t.entries[1].serving_weighted_pct = 27.1;
  t.entries[0].serving_weighted_pct = 12.0;
  t.entries[2].serving_weighted_pct = 3.0;
  Head gpu = scope_to_head(t, ScopeOptions{5.0, 8});
  CHECK(positions(gpu) == std::vector<std::size_t>{0, 2});
  CHECK(gpu.findings.notes.empty());
  Head sw = scope_to_head(t, ScopeOptions{5.0, 8, HeadKey::serving_weighted});
  CHECK(positions(sw) == std::vector<std::size_t>{1, 0});
  CHECK(sw.entries[0].share.pct == 27.1);
  CHECK(sw.entries[1].share.pct == 12.0);
  CHECK(sw.entries[0].pct_gpu_time == 4.0);  // the capture's share, kept beside the key's
  for (const auto& e : sw.entries) {
    CHECK(e.share.serving_weighted);
    CHECK_FALSE(e.share.fell_back);
  }
  CHECK_FALSE(gpu.entries[0].share.serving_weighted);
  CHECK(sw.skipped_count == 1);
  REQUIRE(sw.findings.notes.size() == 1);
  CHECK(sw.findings.notes[0].find("use serving_weighted_pct") != std::string::npos);
}

TEST_CASE("scope_to_head: serving_weighted falls back to pct_gpu_time where an entry has none",
          "[scope]") {
  TopnDocument t = topn_with({30.0, 6.0});
  t.entries[1].serving_weighted_pct = 40.0;
  Head s = scope_to_head(t, ScopeOptions{5.0, 8, HeadKey::serving_weighted});
  CHECK(positions(s) == std::vector<std::size_t>{1, 0});
  CHECK_FALSE(s.entries[0].share.fell_back);
  CHECK(s.entries[0].share.serving_weighted);
  CHECK(s.entries[1].share.fell_back);
  CHECK_FALSE(s.entries[1].share.serving_weighted);
  CHECK(s.entries[1].share.pct == 30.0);
  REQUIRE(s.findings.notes.size() == 1);
  CHECK(s.findings.notes[0].find("1 of 2 Top-N entries carry none") != std::string::npos);

  TopnDocument none = topn_with({30.0, 6.0});
  Head n = scope_to_head(none, ScopeOptions{5.0, 8, HeadKey::serving_weighted});
  CHECK(positions(n) == std::vector<std::size_t>{0, 1});
  REQUIRE(n.findings.notes.size() == 1);
  CHECK(n.findings.notes[0].find("no Top-N entry carries serving_weighted_pct") !=
        std::string::npos);
}

TEST_CASE("scope_to_head: each head entry keeps its Top-N record's place and identity", "[scope]") {
  // A broken record the loader skipped leaves index (the file's place) and position apart.
  TopnDocument t = topn_with({3.0, 9.0});
  t.entries[1].index = 5;
  t.entries[1].short_name = "k1";
  t.entries[1].editable = false;
  Head h = scope_to_head(t, ScopeOptions{5.0, 8});
  REQUIRE(h.entries.size() == 1);
  CHECK(h.entries[0].topn_position == 1);
  CHECK(h.entries[0].topn_index == 5);
  CHECK(h.entries[0].name == "kernel_1");
  CHECK(h.entries[0].short_name == "k1");
  CHECK(h.entries[0].editable == std::optional<bool>(false));
  CHECK(h.entries[0].share.pct == 9.0);
}

TEST_CASE("scope_to_head: duplicate names get a #rank suffix", "[scope]") {
  const std::string wv =
      "void wvSplitK_hf_<__hip_bfloat16, 64, 2>(int, int, const __hip_bfloat16*)";
  TopnDocument t = topn_with({9.0, 6.0, 5.5, 5.2, 5.1});
  const std::vector<std::string> kernel = {wv, wv, "rms_norm_kernel", "triton_poi_fused_0",
                                           "triton_poi_fused_0"};
  const std::vector<std::optional<long>> rank = {2, 5, std::nullopt, std::nullopt, std::nullopt};
  const std::vector<std::size_t> index = {1, 4, 6, 7, 8};
  for (std::size_t i = 0; i < t.entries.size(); ++i) {
    t.entries[i].name = kernel[i];
    t.entries[i].rank = rank[i];
    t.entries[i].index = index[i];
  }
  Head h = scope_to_head(t, ScopeOptions{5.0, 8});
  // Without a profiler rank, the 1-based Top-N position stands in.
  CHECK(ranking_names(h) == std::vector<std::string>{wv + "#2", wv + "#5", "rms_norm_kernel",
                                                     "triton_poi_fused_0#8",
                                                     "triton_poi_fused_0#9"});
  CHECK(h.entries[0].name == wv);  // the kernel name itself is kept
}

TEST_CASE("scope_to_head: ranking names stay unique even when ranks repeat", "[scope]") {
  TopnDocument t = topn_with({20.0, 10.0, 8.0});
  for (auto& e : t.entries) e.name = "fused_moe_kernel";
  t.entries[0].rank = 3;
  t.entries[1].rank = 3;
  t.entries[2].rank = 4;
  Head h = scope_to_head(t, ScopeOptions{5.0, 8});
  const auto n = ranking_names(h);
  CHECK(n[0].rfind("fused_moe_kernel#3", 0) == 0);
  CHECK(n[1].rfind("fused_moe_kernel#3", 0) == 0);
  CHECK(n[0] != n[1]);
  CHECK(n[2] == "fused_moe_kernel#4");
}

}  // namespace unit_scope
