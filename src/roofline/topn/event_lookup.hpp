#pragma once
// Private to src/topn: sorted lookups over the records of one trace — the cpu op of an External
// id, the runtime event of a correlation id, and per GPU event both (looked up once: the
// aggregation and the quantization sweep ask for them launch by launch).

#include <algorithm>
#include <cstdint>
#include <tuple>
#include <vector>

#include "roofline/topn/chrome_events.hpp"
#include "roofline/topn/layer.hpp"

namespace roofline::topn::detail {

// A GPU event's runtime launch (by its correlation id) and launching op (by its External id, else
// its launch's); nullptr where there is none.
struct GpuOrigin {
  const RuntimeRec* launch = nullptr;
  const OpRec* op = nullptr;
};

class EventLookup {
 public:
  // Sorts `ev.ops` and `ev.runtime` in place (no second copy). External ids are unique in a
  // trace; should one repeat, the record that sorts first wins, whatever the file order.
  explicit EventLookup(ChromeEvents& ev) : ev_(ev) {
    std::sort(ev.ops.begin(), ev.ops.end(), [](const OpRec& a, const OpRec& b) {
      return std::tie(a.external_id, a.shape, a.name) < std::tie(b.external_id, b.shape, b.name);
    });
    std::stable_sort(
        ev.runtime.begin(), ev.runtime.end(), [](const RuntimeRec& a, const RuntimeRec& b) {
          return std::tie(a.correlation, a.external_id) < std::tie(b.correlation, b.external_id);
        });
    of_gpu_.reserve(ev.gpu.size());
    for (const GpuEventRec& g : ev.gpu) {
      const RuntimeRec* launch = runtime(g.correlation);
      of_gpu_.push_back({launch, op(g.external_id >= 0 ? g.external_id
                                    : launch           ? launch->external_id
                                                       : -1)});
    }
  }
  // The launch and op of ev.gpu[i].
  const GpuOrigin& origin(std::size_t i) const { return of_gpu_[i]; }
  const OpRec* op(std::int64_t ext) const {
    if (ext < 0) return nullptr;
    auto it = std::lower_bound(ev_.ops.begin(), ev_.ops.end(), ext,
                               [](const OpRec& s, std::int64_t id) { return s.external_id < id; });
    return it != ev_.ops.end() && it->external_id == ext ? &*it : nullptr;
  }
  const RuntimeRec* runtime(std::int64_t corr) const {
    if (corr < 0) return nullptr;
    auto it =
        std::lower_bound(ev_.runtime.begin(), ev_.runtime.end(), corr,
                         [](const RuntimeRec& r, std::int64_t id) { return r.correlation < id; });
    return it != ev_.runtime.end() && it->correlation == corr ? &*it : nullptr;
  }
  const ChromeEvents& events() const { return ev_; }

 private:
  ChromeEvents& ev_;
  std::vector<GpuOrigin> of_gpu_;  // per GPU event, in ev.gpu's order
};

}  // namespace roofline::topn::detail
