// The kept frames enclosing a launch on its thread (launch_stacks.hpp, docs/method.md §22.10).
#include "roofline/topn/joins/launch_stacks.hpp"

#include "roofline/topn/joins/span_nesting.hpp"

#include <algorithm>
#include <iterator>
#include <tuple>
#include <vector>

namespace roofline::topn::detail {

StackIndex::StackIndex(RecordChain<StackFrame>& f)
    : frames_(f), parent_(nest_spans(f, [](const StackFrame& s) { return s.says; })) {}

LaunchStack StackIndex::at(std::int32_t thread, double ts_us) const {
  LaunchStack out;
  const RecordChain<StackFrame>& f = frames_;
  // The first frame that begins after (thread, ts_us): asked launch after launch in time order,
  // it is mostly the last answer or just past it, else found by a binary search.
  const auto before = [&](std::size_t i) {
    return std::tie(thread, ts_us) < std::tie(f[i].thread, f[i].begin_us);
  };
  std::size_t u = near_;
  while (u < f.size() && u < near_ + 4 && !before(u)) ++u;
  if ((u < f.size() && !before(u)) || (u > 0 && before(u - 1))) {
    const auto it =
        std::upper_bound(f.begin(), f.end(), std::pair{thread, ts_us},
                         [](const std::pair<std::int32_t, double>& k, const StackFrame& s) {
                           return std::tie(k.first, k.second) < std::tie(s.thread, s.begin_us);
                         });
    u = static_cast<std::size_t>(std::distance(f.begin(), it));
  }
  near_ = u;
  if (u == 0) return out;
  auto at = static_cast<std::int32_t>(u - 1);
  if (f[static_cast<std::size_t>(at)].thread != thread) return out;
  for (; at >= 0; at = parent_[static_cast<std::size_t>(at)]) {
    const StackFrame& s = f[static_cast<std::size_t>(at)];
    if (ts_us >= s.end_us) continue;  // ends before the launch: not an enclosing frame
    out.add_outer(s);
  }
  return out;
}

}  // namespace roofline::topn::detail
