#pragma once
// Private to src/topn: the kernels of a trace in the order of their streams — by device and
// stream, then start (then index) — the order the sweeps over neighbours (docs/method.md §22.4)
// and input quantizations (§23.5) walk.

#include <algorithm>
#include <cstdint>
#include <tuple>
#include <vector>

#include "roofline/topn/layer.hpp"
#include "roofline/topn/readers/chrome_events.hpp"
#include "roofline/topn/readers/record_arena.hpp"

namespace roofline::topn::detail {

// A GPU event's stream: its device and stream in one key.
inline std::int64_t stream_key(const ChromeEvents& ev, const GpuEventRec& g) {
  return (std::int64_t{ev.device_of(g)} << 32) | std::uint32_t(ev.stream_of(g));
}

// Calls `visit(index, stream_key)` for every kernel of `ev.gpu` in stream order. A trace with one
// stream lists them so already: then in place, with nothing kept per kernel; else through a
// sorted list of their indexes (4 bytes a kernel).
template <class Visit>
void in_stream_order(const ChromeEvents& ev, Visit visit) {
  const auto key = [&ev](std::uint32_t i) {
    const GpuEventRec& g = ev.gpu[i];
    return std::tuple{stream_key(ev, g), g.ts_us, i};
  };
  const auto n = static_cast<std::uint32_t>(ev.gpu.size());
  bool sorted = true, any = false;
  std::tuple<std::int64_t, double, std::uint32_t> last{};
  for (std::uint32_t i = 0; i < n && sorted; ++i) {
    if (ev.gpu[i].kind != GpuEventKind::kernel) continue;
    const auto k = key(i);
    sorted = !any || !(k < last);
    last = k;
    any = true;
  }
  if (sorted) {
    for (std::uint32_t i = 0; i < n; ++i)
      if (ev.gpu[i].kind == GpuEventKind::kernel) visit(i, stream_key(ev, ev.gpu[i]));
    return;
  }
  std::vector<std::uint32_t> order;
  reserve_huge(order, n);
  for (std::uint32_t i = 0; i < n; ++i)
    if (ev.gpu[i].kind == GpuEventKind::kernel) order.push_back(i);
  std::sort(order.begin(), order.end(),
            [&](std::uint32_t a, std::uint32_t b) { return key(a) < key(b); });
  for (const std::uint32_t i : order) visit(i, stream_key(ev, ev.gpu[i]));
}

}  // namespace roofline::topn::detail
