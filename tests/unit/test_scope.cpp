// Stage 0 (SPEC §3 step 0): scope to the head of the profile.
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
