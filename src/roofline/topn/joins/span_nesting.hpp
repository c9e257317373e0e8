#pragma once
// Private to src/topn: spans on threads that nest like a call stack (Python frames, nn.Module
// spans) — sorted by thread, then start, the longer first, then `tie` — and each span's parent:
// the innermost span before it on its thread that lasts at least as long, found in one sweep.

#include <algorithm>
#include <cstdint>
#include <tuple>
#include <vector>

#include "roofline/topn/layer.hpp"
#include "roofline/topn/readers/record_arena.hpp"

namespace roofline::topn::detail {

// Sorts `spans` (thread, begin_us, end_us fields) and returns their parents' indexes (-1 none).
template <class List, class Tie>
std::vector<std::int32_t> nest_spans(List& spans, Tie tie) {
  using Span = typename List::value_type;
  const auto order = [&tie](const Span& a, const Span& b) {
    return std::make_tuple(a.thread, a.begin_us, -a.end_us, tie(a)) <
           std::make_tuple(b.thread, b.begin_us, -b.end_us, tie(b));
  };
  // A trace of one thread lists them so already: one pass finds it, no sort.
  if (!std::is_sorted(spans.begin(), spans.end(), order))
    std::sort(spans.begin(), spans.end(), order);
  std::vector<std::int32_t> parent(spans.size(), -1), open;
  for (std::size_t i = 0; i < spans.size(); ++i) {
    if (i > 0 && spans[i].thread != spans[i - 1].thread) open.clear();
    while (!open.empty() && spans[static_cast<std::size_t>(open.back())].end_us < spans[i].end_us)
      open.pop_back();
    parent[i] = open.empty() ? -1 : open.back();
    open.push_back(static_cast<std::int32_t>(i));
  }
  return parent;
}

}  // namespace roofline::topn::detail
