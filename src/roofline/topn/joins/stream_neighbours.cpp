// The kernels beside each signature on its stream (docs/method.md §22.4): one sweep per device
// and stream in time order.
#include "roofline/topn/joins/stream_neighbours.hpp"

#include <algorithm>
#include <optional>
#include <tuple>
#include <unordered_map>

#include "roofline/classify/classify.hpp"
#include "roofline/inputs/kernel_classes.hpp"
#include "roofline/topn/joins/input_quant.hpp"
#include "roofline/topn/joins/signature_sums.hpp"
#include "roofline/topn/joins/stream_order.hpp"
#include "roofline/topn/names/names.hpp"

namespace roofline::topn::detail {
namespace {

// A launch as the sweep keys it: (name id, geometry id), and the module that keys its signature.
struct LaunchKey {
  std::uint64_t launch = 0;
  std::uint32_t module = k_no_id;
  bool operator==(const LaunchKey& o) const { return launch == o.launch && module == o.module; }
};
struct LaunchKeyHash {
  std::size_t operator()(const LaunchKey& k) const {
    return std::hash<std::uint64_t>()(k.launch ^ (std::uint64_t{k.module} * 0x9E3779B97F4A7C15ULL));
  }
};

std::uint64_t launch_key(const GpuEventRec& g) {
  return (std::uint64_t{g.name} << 32) | g.geometry;
}

// Per launch key, its neighbours' launch keys with their counts: a short list (a signature has a
// handful of distinct neighbours), scanned rather than hashed.
struct Tally {
  std::vector<std::pair<std::uint64_t, double>> before, after;
  static void add(std::vector<std::pair<std::uint64_t, double>>& list, std::uint64_t key) {
    for (auto& [k, n] : list)
      if (k == key) {
        n += 1.0;
        return;
      }
    list.emplace_back(key, 1.0);
  }
};

NeighbourCounts named(const std::vector<std::pair<std::uint64_t, double>>& list,
                      const ChromeEvents& ev) {
  NeighbourCounts out;
  for (const auto& [key, n] : list) {
    NeighbourKey k;
    k.kernel = ev.names.at(static_cast<std::uint32_t>(key >> 32));
    const auto geometry = static_cast<std::uint32_t>(key & 0xFFFFFFFFu);
    if (geometry != k_no_id) read_geometry(ev.geometries.at(geometry), k.grid, k.block);
    out[k] += n;
  }
  return out;
}

}  // namespace

bool passes_through(const std::string& kernel_name) {
  TopnEntry e;
  fill_entry_names(kernel_name, GpuEventKind::kernel, e);
  static const ClassRules rules = [] {
    ClassRules r;
    r.families = builtin_kernel_classes_rules();
    return r;
  }();
  const Classification c = classify::classify(e, rules);
  if (c.op_class == OpClass::comm) return true;
  if (c.op_class != OpClass::elementwise) return false;
  return c.detail.elementwise == ElementwiseKind::quant ||
         !quant_output_dtype(e.demangled.empty() ? e.name : e.demangled).empty();
}

std::vector<NeighboursByGeometry> stream_neighbours(const ChromeEvents& ev,
                                                    const std::vector<std::uint32_t>& modules) {
  std::vector<signed char> through(ev.names.size(), -1);  // per name id: 1 passes through
  const auto marks = [&](std::uint32_t i) {
    signed char& t = through[ev.gpu[i].name];
    if (t < 0) t = passes_through(ev.names.at(ev.gpu[i].name)) ? 1 : 0;
    return t == 0;
  };
  std::unordered_map<LaunchKey, Tally, LaunchKeyHash> tally;  // addresses survive a rehash
  Tally* last = nullptr;  // the last launch that marks a place on this stream, and its key
  std::uint64_t last_key = 0;
  std::int64_t last_stream = 0;
  in_stream_order(ev, [&](std::uint32_t i, std::int64_t stream) {
    if (stream != last_stream) last = nullptr;
    last_stream = stream;
    if (!marks(i)) return;
    const std::uint64_t key = launch_key(ev.gpu[i]);
    Tally& t = tally[LaunchKey{key, i < modules.size() ? modules[i] : k_no_id}];
    if (last) {
      Tally::add(t.before, last_key);
      Tally::add(last->after, key);
    }
    last = &t;
    last_key = key;
  });
  std::vector<NeighboursByGeometry> out(ev.names.size());
  for (const auto& [key, t] : tally) {
    const auto name = static_cast<std::uint32_t>(key.launch >> 32);
    const auto geometry = static_cast<std::uint32_t>(key.launch & 0xFFFFFFFFu);
    NeighbourPlace at;
    if (geometry != k_no_id)
      read_geometry(ev.geometries.at(geometry), std::get<0>(at), std::get<1>(at));
    if (key.module != k_no_id) std::get<2>(at) = ev.labels.at(key.module);
    GeometryNeighbours& g = out[name][at];
    for (const auto& [k, n] : named(t.before, ev)) g.before[k] += n;
    for (const auto& [k, n] : named(t.after, ev)) g.after[k] += n;
  }
  return out;
}

}  // namespace roofline::topn::detail
