// The kept frames enclosing a launch on its thread (launch_stacks.hpp, docs/method.md §22.10).
#include "roofline/topn/joins/launch_stacks.hpp"

#include "roofline/topn/joins/span_nesting.hpp"

#include <algorithm>
#include <iterator>
#include <tuple>
#include <vector>

namespace roofline::topn::detail {

StackIndex::StackIndex(RecordList<StackFrame>& f)
    : frames_(f), parent_(nest_spans(f, [](const StackFrame& s) { return s.says; })) {}

LaunchStack StackIndex::at(std::int32_t thread, double ts_us) const {
  LaunchStack out;
  const RecordList<StackFrame>& f = frames_;
  auto it = std::upper_bound(f.begin(), f.end(), std::pair{thread, ts_us},
                             [](const std::pair<std::int32_t, double>& k, const StackFrame& s) {
                               return std::tie(k.first, k.second) < std::tie(s.thread, s.begin_us);
                             });
  if (it == f.begin()) return out;
  auto at = static_cast<std::int32_t>(std::distance(f.begin(), it) - 1);
  if (f[static_cast<std::size_t>(at)].thread != thread) return out;
  for (; at >= 0; at = parent_[static_cast<std::size_t>(at)]) {
    const StackFrame& s = f[static_cast<std::size_t>(at)];
    if (ts_us >= s.end_us) continue;  // ends before the launch: not an enclosing frame
    switch (s.role) {
      case FrameRole::collective:
        if (out.collective == 0xFFFFFFFFu) out.collective = s.says;
        break;
      case FrameRole::model_call:
        if (out.call_site == 0xFFFFFFFFu) out.call_site = s.says;
        break;
      case FrameRole::library:
        if (out.library == 0xFFFFFFFFu) out.library = s.says;
        break;
      case FrameRole::prefill:
      case FrameRole::decode:
        if (out.forward == FrameRole::none) out.forward = s.role;
        break;
      case FrameRole::none:
        break;
    }
  }
  return out;
}

}  // namespace roofline::topn::detail
