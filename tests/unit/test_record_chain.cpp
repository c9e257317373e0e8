// RecordChain (record_arena.hpp): records of several parts read as one list — indexed across the
// parts in any order, sorted and searched through its iterators, joined without copying, a joined
// part's records remapped in place, and a part's unused pages given back without losing a record.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "roofline/topn/readers/record_arena.hpp"
#include "test_helpers.hpp"

namespace unit_record_chain {
using roofline::topn::detail::RecordChain;

namespace {

struct Rec {
  std::int64_t id = 0;
  double ts = 0.0;
};

// A chain of parts of the given sizes, ids 0, 1, 2, … across them, each part its own list.
RecordChain<Rec> chain_of(const std::vector<int>& sizes) {
  RecordChain<Rec> out;
  std::int64_t id = 0;
  for (int n : sizes) {
    RecordChain<Rec> part;
    for (int i = 0; i < n; ++i, ++id) part.push_back({id, static_cast<double>(id) / 2});
    out.join(part, [](Rec&) {});
    CHECK(part.empty());
  }
  return out;
}

}  // namespace

TEST_CASE("RecordChain: parts read as one list", "[topn][records]") {
  RecordChain<Rec> c = chain_of({3, 0, 5000, 1, 70});
  REQUIRE(c.size() == 5074);
  // Forwards, backwards and jumping between parts, each index finds its record.
  for (std::size_t i = 0; i < c.size(); ++i) CHECK(c[i].id == static_cast<std::int64_t>(i));
  for (std::size_t i = c.size(); i-- > 0;) CHECK(c[i].id == static_cast<std::int64_t>(i));
  for (std::size_t i : {5073u, 0u, 3002u, 2u, 5003u, 3u, 5002u}) CHECK(c[i].id == std::int64_t(i));
  CHECK(c.back().id == 5073);
  CHECK(std::distance(c.begin(), c.end()) == 5074);
  CHECK(std::is_sorted(c.begin(), c.end(), [](const Rec& a, const Rec& b) { return a.id < b.id; }));
  const auto it = std::lower_bound(c.begin(), c.end(), std::int64_t{5003},
                                   [](const Rec& r, std::int64_t v) { return r.id < v; });
  CHECK(it - c.begin() == 5003);
  CHECK(it->ts == 2501.5);
  // Sorted through its iterators, the records move across parts.
  std::sort(c.begin(), c.end(), [](const Rec& a, const Rec& b) { return a.id > b.id; });
  CHECK(c[0].id == 5073);
  CHECK(c[5073].id == 0);
  CHECK(c[3].id == 5070);
  // A part joined later: remapped in place, after the others; pushes go on after it.
  RecordChain<Rec> more = chain_of({2});
  c.join(more, [](Rec& r) { r.id += 10000; });
  c.push_back({-1, 0.0});
  REQUIRE(c.size() == 5077);
  CHECK(c[5074].id == 10000);
  CHECK(c[5075].id == 10001);
  CHECK(c[5076].id == -1);
  CHECK(c[5073].id == 0);
}

TEST_CASE("RecordChain: a part's pages given back keep its records", "[topn][records]") {
  // Large enough to grow its list several times (and past a huge page).
  RecordChain<Rec> c = chain_of({200000, 150001, 7});
  REQUIRE(c.size() == 350008);
  std::int64_t wrong = 0;
  for (std::size_t i = 0; i < c.size(); ++i) wrong += c[i].id != static_cast<std::int64_t>(i);
  CHECK(wrong == 0);
  c.push_back({350008, 0.0});  // the last part, shrunk when the next joined, grows again
  CHECK(c[350008].id == 350008);
  CHECK(c[350007].id == 350007);
}

TEST_CASE("RecordChain: records read between pushes, copies and moves", "[topn][records]") {
  // The part asked last is cached: a push that grows (and so moves) the last part, a copy and a
  // move must each leave every index finding its own record.
  RecordChain<Rec> c = chain_of({10});
  for (std::int64_t id = 10; id < 200000; ++id) {
    c.push_back({id, 0.0});
    if (id % 997 == 0) {
      CHECK(c[static_cast<std::size_t>(id)].id == id);
      CHECK(c[3].id == 3);
    }
  }
  CHECK(c[199999].id == 199999);
  RecordChain<Rec> copy = c;
  c[5].id = -5;
  CHECK(copy[5].id == 5);
  CHECK(copy[150000].id == 150000);
  RecordChain<Rec> moved = std::move(copy);
  CHECK(moved[150001].id == 150001);
  CHECK(moved[5].id == 5);
  copy = chain_of({4});
  CHECK(copy[3].id == 3);
  CHECK(copy.size() == 4);
}

}  // namespace unit_record_chain
