// Stage 0 (docs/method.md §4): scope to the head of the profile.
#include <catch2/catch.hpp>

#include "unit/test_helpers.hpp"

using namespace roofline;

namespace {

TopN topn_with(std::initializer_list<double> pcts) {
  TopN t;
  std::size_t i = 0;
  for (double p : pcts) {
    TopNEntry e;
    e.index = i;
    e.rank = static_cast<long>(i + 1);
    e.name = "kernel_" + std::to_string(i);
    e.pct_gpu_time = p;
    t.entries.push_back(e);
    ++i;
  }
  return t;
}

}  // namespace

TEST_CASE("scope_to_head: threshold is inclusive and the order is biggest first", "[scope]") {
  // File order is not pct order: 4.99 is below the bar, 5.0 exactly is kept.
  TopN t = topn_with({8.86, 4.99, 26.45, 5.0, 12.82});
  Scope s = scope_to_head(t, ScopeOptions{5.0, 8});
  CHECK(s.selected == std::vector<std::size_t>{2, 4, 0, 3});
  CHECK(s.skipped_count == 1);
}

TEST_CASE("scope_to_head: the cap keeps the biggest max_entries", "[scope]") {
  TopN t = topn_with({6, 9, 7, 30, 8, 10});
  Scope s = scope_to_head(t, ScopeOptions{5.0, 3});
  CHECK(s.selected == std::vector<std::size_t>{3, 5, 1});
  CHECK(s.skipped_count == 3);
}

TEST_CASE("scope_to_head: a custom threshold and an empty head", "[scope]") {
  TopN t = topn_with({1.5, 0.9, 2.0});
  Scope low = scope_to_head(t, ScopeOptions{1.0, 8});
  CHECK(low.selected == std::vector<std::size_t>{2, 0});
  CHECK(low.skipped_count == 1);
  Scope none = scope_to_head(t, ScopeOptions{5.0, 8});
  CHECK(none.selected.empty());
  CHECK(none.skipped_count == 3);
}

TEST_CASE("scope_to_head: ties keep the profiler's rank", "[scope]") {
  TopN t = topn_with({7.0, 7.0, 7.0});
  t.entries[0].rank = 3;
  t.entries[1].rank = 1;
  t.entries[2].rank = 2;
  Scope s = scope_to_head(t, ScopeOptions{5.0, 8});
  CHECK(s.selected == std::vector<std::size_t>{1, 2, 0});
}

TEST_CASE("scope_to_head: --head-key serving_weighted scopes and orders on serving_weighted_pct",
          "[scope]") {
  // A prefill-heavy capture: the decode kernel is small in the window, large in deployment.
  TopN t = topn_with({30.0, 4.0, 8.0});
  t.entries[1].serving_weighted_pct = 27.1;
  t.entries[0].serving_weighted_pct = 12.0;
  t.entries[2].serving_weighted_pct = 3.0;
  Scope gpu = scope_to_head(t, ScopeOptions{5.0, 8});
  CHECK(gpu.selected == std::vector<std::size_t>{0, 2});
  CHECK(gpu.notes.empty());
  Scope sw = scope_to_head(t, ScopeOptions{5.0, 8, HeadKey::serving_weighted});
  CHECK(sw.selected == std::vector<std::size_t>{1, 0});
  CHECK(sw.key_pct == std::vector<double>{27.1, 12.0});
  CHECK(sw.key_fell_back == std::vector<bool>{false, false});
  CHECK(sw.skipped_count == 1);
  REQUIRE(sw.notes.size() == 1);
  CHECK(sw.notes[0].find("use serving_weighted_pct") != std::string::npos);
}

TEST_CASE("scope_to_head: serving_weighted falls back to pct_gpu_time where an entry has none",
          "[scope]") {
  TopN t = topn_with({30.0, 6.0});
  t.entries[1].serving_weighted_pct = 40.0;
  Scope s = scope_to_head(t, ScopeOptions{5.0, 8, HeadKey::serving_weighted});
  CHECK(s.selected == std::vector<std::size_t>{1, 0});
  CHECK(s.key_fell_back == std::vector<bool>{false, true});
  REQUIRE(s.notes.size() == 1);
  CHECK(s.notes[0].find("1 of 2 Top-N entries carry none") != std::string::npos);

  TopN none = topn_with({30.0, 6.0});
  Scope n = scope_to_head(none, ScopeOptions{5.0, 8, HeadKey::serving_weighted});
  CHECK(n.selected == std::vector<std::size_t>{0, 1});
  REQUIRE(n.notes.size() == 1);
  CHECK(n.notes[0].find("no Top-N entry carries serving_weighted_pct") != std::string::npos);
}
