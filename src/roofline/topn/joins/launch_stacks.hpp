#pragma once
// Private to src/topn: the call stack of a launch (docs/method.md §22.10) — the kept frames
// (call_stacks.hpp reads their names) that enclose a launch's runtime call on its thread.

#include <cstdint>
#include <vector>

#include "roofline/topn/layer.hpp"
#include "roofline/topn/names/call_stacks.hpp"
#include "roofline/topn/readers/chrome_events.hpp"

namespace roofline::topn::detail {

class StackIndex {
 public:
  // Sorts `frames` by (thread, begin, longest first) and links each to its parent.
  explicit StackIndex(RecordChain<StackFrame>& frames);
  LaunchStack at(std::int32_t thread, double ts_us) const;
  bool empty() const { return frames_.empty(); }

 private:
  const RecordChain<StackFrame>& frames_;
  std::vector<std::int32_t> parent_;  // per frame, the enclosing kept frame (-1 none)
  mutable std::size_t near_ = 0;      // the last answer's upper bound (where to look first)
};

}  // namespace roofline::topn::detail
