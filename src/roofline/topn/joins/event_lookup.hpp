#pragma once
// Private to src/topn: sorted lookups over the records of one trace — the cpu op of an External
// id, the runtime event of a correlation id, and per GPU event both (looked up once: the
// aggregation and the quantization sweep ask for them launch by launch).

#include <algorithm>
#include <cstdint>
#include <tuple>
#include <vector>

#include "roofline/topn/layer.hpp"
#include "roofline/topn/readers/chrome_events.hpp"

namespace roofline::topn::detail {

// A GPU event's runtime launch (by its correlation id) and launching op (by its External id, else
// its launch's): the launch as its GPU event kept it when it was joined as read, else the record
// kept in ChromeEvents::runtime; nullptr where there is none. A launch resolved as read has its op
// made again from what it kept (its External id, not kept, is -1) and its `resolved` origin.
struct GpuOrigin {
  const RuntimeRec* kept = nullptr;
  RuntimeRec joined;
  bool has_joined = false;
  const OpRec* found = nullptr;
  OpRec remade;
  bool has_remade = false;
  const ResolvedOrigin* resolved = nullptr;
  const RuntimeRec* launch() const { return kept ? kept : has_joined ? &joined : nullptr; }
  const OpRec* op() const { return found ? found : has_remade ? &remade : nullptr; }
};

// One op, whether kept or made again for a launch resolved as read: the same record, or the same
// start, thread and name (what a remade op keeps of it).
inline bool same_op(const OpRec& a, const OpRec& b) {
  return &a == &b || (a.ts_us == b.ts_us && a.thread == b.thread && a.name == b.name);
}

class EventLookup {
 public:
  // Sorts `ev.ops` and `ev.runtime` in place (no second copy). External ids are unique in a
  // trace; should one repeat, the record that sorts first wins, whatever the file order. A trace
  // writes both lists in id order nearly always: one pass finds them sorted, and no sort (nor
  // stable_sort's buffer as large as the list) is needed.
  explicit EventLookup(ChromeEvents& ev) : ev_(ev) {
    const auto op_order = [](const OpRec& a, const OpRec& b) {
      return std::tie(a.external_id, a.shape, a.name) < std::tie(b.external_id, b.shape, b.name);
    };
    if (!std::is_sorted(ev.ops.begin(), ev.ops.end(), op_order))
      std::sort(ev.ops.begin(), ev.ops.end(), op_order);
    const auto runtime_order = [](const RuntimeRec& a, const RuntimeRec& b) {
      return std::tie(a.correlation, a.external_id) < std::tie(b.correlation, b.external_id);
    };
    if (!std::is_sorted(ev.runtime.begin(), ev.runtime.end(), runtime_order))
      std::stable_sort(ev.runtime.begin(), ev.runtime.end(), runtime_order);
  }
  // The launch and op of ev.gpu[i], looked up as asked (nothing is kept per GPU event): asked in
  // GPU order, each is found next to the last one.
  GpuOrigin origin(std::size_t i) const {
    const GpuEventRec& g = ev_.gpu[i];
    GpuOrigin o;
    if (g.resolved) {
      o.has_joined = true;
      o.joined.ts_us = g.launch_ts_us();
      o.joined.thread = g.launch_thread;
      o.joined.kind = g.launch_kind;
      o.resolved = &ev_.origins[g.origin()];
      if (o.resolved->op != k_no_id) {
        o.has_remade = true;
        o.remade = OpRec{-1,
                         g.op_ts_us(),
                         o.resolved->shape,
                         o.resolved->op,
                         g.launch_thread,
                         o.resolved->scalars};
      }
      return o;
    }
    if (g.launch_thread >= 0) {
      o.has_joined = true;
      o.joined.external_id = g.external_id;
      o.joined.ts_us = g.launch_ts_us();
      o.joined.thread = g.launch_thread;
      o.joined.kind = g.launch_kind;
    } else {
      o.kept = find(ev_.runtime, g.correlation(), near_launch_, &RuntimeRec::correlation);
    }
    const std::int64_t ext = g.external_id >= 0 ? g.external_id : o.kept ? o.kept->external_id : -1;
    o.found = find_op(ext, near_op_);
    return o;
  }
  const OpRec* op(std::int64_t ext) const {
    std::size_t near = 0;
    return find_op(ext, near);
  }
  const RuntimeRec* runtime(std::int64_t corr) const {
    std::size_t near = 0;
    return find(ev_.runtime, corr, near, &RuntimeRec::correlation);
  }
  const ChromeEvents& events() const { return ev_; }

 private:
  // The first record of `list` (sorted by `id`) whose id is `want`, or nullptr (none, or `want`
  // negative). `near` is where to look first (set past a hit): in a trace the next GPU event's
  // id is mostly the next record's, found without a binary search over the deque.
  template <class List, class Rec = typename List::value_type>
  static const Rec* find(const List& list, std::int64_t want, std::size_t& near,
                         std::int64_t Rec::*id) {
    if (want < 0) return nullptr;
    std::size_t at = near;
    if (at >= list.size() || list[at].*id != want || (at > 0 && list[at - 1].*id >= want)) {
      const auto it = std::lower_bound(list.begin(), list.end(), want,
                                       [id](const Rec& r, std::int64_t v) { return r.*id < v; });
      at = static_cast<std::size_t>(it - list.begin());
      if (at == list.size() || list[at].*id != want) return nullptr;
    }
    near = at + 1;
    return &list[at];
  }

  // The op of `ext`; one let go as a launch resolved as read took it means the trace must be read
  // again holding everything (launch_reads.cpp).
  const OpRec* find_op(std::int64_t ext, std::size_t& near) const {
    const OpRec* op = find(ev_.ops, ext, near, &OpRec::external_id);
    if (!op && ext >= 0 && !ev_.dropped_ops.empty() && ev_.op_dropped(ext)) ev_.order_broke = true;
    return op;
  }

  ChromeEvents& ev_;
  mutable std::size_t near_launch_ = 0, near_op_ = 0;  // after the last hit
};

}  // namespace roofline::topn::detail
