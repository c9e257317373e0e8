// Op shapes interned without a per-launch allocation (docs/method.md §22.8): the fields of a
// signature's shape (operand dims, their dtypes, the distinct tensor types, the key scalars) are
// hashed where they lie — in the event's scratch buffers, or in an OpShape made elsewhere (a
// captured op's) — and compared in full only against the shapes with the same hash.
#include <algorithm>
#include <functional>

#include "roofline/topn/layer.hpp"
#include "roofline/topn/readers/chrome_events.hpp"

namespace roofline::topn::detail {
namespace {

// Types that are not tensors in `Input type` (a tensor's entry is its scalar type).
bool is_tensor_type(std::string_view t) {
  static constexpr std::string_view k_non_tensor[] = {
      "",     "Scalar", "ScalarList", "TensorList",   "GenericList",
      "None", "Device", "Layout",     "MemoryFormat", "String"};
  return std::find(std::begin(k_non_tensor), std::end(k_non_tensor), t) == std::end(k_non_tensor);
}

// The shape an event's scratch holds, read in place (ShapeScratch's lists filled by gather()).
struct ScratchView {
  const EventScratch& s;
  std::size_t size() const { return s.shape.used.size(); }
  const std::vector<std::int64_t>& dims(std::size_t i) const {
    return s.operands[s.shape.used[i]].dims;
  }
  std::string_view dtype(std::size_t i) const {
    const std::size_t arg = s.operands[s.shape.used[i]].arg;
    return arg < s.n_types ? std::string_view(s.types[arg]) : std::string_view();
  }
  std::size_t n_tensor_types() const { return s.shape.tensor_types.size(); }
  std::string_view tensor_type(std::size_t i) const { return s.shape.tensor_types[i]; }
  std::size_t n_scalars() const { return s.shape.scalars.size(); }
  std::size_t scalar_arg(std::size_t i) const { return s.shape.scalars[i].first; }
  std::string_view scalar_text(std::size_t i) const { return s.shape.scalars[i].second; }
};

// A stored OpShape (its dtypes may be fewer than its dims: the missing ones read as "").
struct ShapeView {
  const OpShape& o;
  std::size_t size() const { return o.dims.size(); }
  const std::vector<std::int64_t>& dims(std::size_t i) const { return o.dims[i]; }
  std::string_view dtype(std::size_t i) const {
    return i < o.dtypes.size() ? std::string_view(o.dtypes[i]) : std::string_view();
  }
  std::size_t n_tensor_types() const { return o.tensor_types.size(); }
  std::string_view tensor_type(std::size_t i) const { return o.tensor_types[i]; }
  std::size_t n_scalars() const { return o.key_scalars.size(); }
  std::size_t scalar_arg(std::size_t i) const { return o.key_scalars[i].first; }
  std::string_view scalar_text(std::size_t i) const { return o.key_scalars[i].second; }
};

struct Hash {
  std::uint64_t h = 0x9E3779B97F4A7C15ULL;
  void add(std::uint64_t v) {
    h = (h ^ v) * 0xFF51AFD7ED558CCDULL;
    h ^= h >> 32;
  }
  void add(std::string_view text) { add(std::hash<std::string_view>{}(text)); }
};

template <class View>
std::uint64_t shape_hash(const View& v) {
  Hash x;
  x.add(std::uint64_t{v.size()});
  for (std::size_t i = 0; i < v.size(); ++i) {
    const std::vector<std::int64_t>& d = v.dims(i);
    x.add(std::uint64_t{d.size()});
    for (std::int64_t n : d) x.add(static_cast<std::uint64_t>(n));
    x.add(v.dtype(i));
  }
  x.add(std::uint64_t{v.n_tensor_types()});
  for (std::size_t i = 0; i < v.n_tensor_types(); ++i) x.add(v.tensor_type(i));
  x.add(std::uint64_t{v.n_scalars()});
  for (std::size_t i = 0; i < v.n_scalars(); ++i) {
    x.add(std::uint64_t{v.scalar_arg(i)});
    x.add(v.scalar_text(i));
  }
  return x.h;
}

template <class View>
bool same_shape(const OpShape& stored, const View& v) {
  const ShapeView o{stored};
  if (o.size() != v.size() || o.n_tensor_types() != v.n_tensor_types() ||
      o.n_scalars() != v.n_scalars())
    return false;
  for (std::size_t i = 0; i < v.size(); ++i)
    if (o.dims(i) != v.dims(i) || o.dtype(i) != v.dtype(i)) return false;
  for (std::size_t i = 0; i < v.n_tensor_types(); ++i)
    if (o.tensor_type(i) != v.tensor_type(i)) return false;
  for (std::size_t i = 0; i < v.n_scalars(); ++i)
    if (o.scalar_arg(i) != v.scalar_arg(i) || o.scalar_text(i) != v.scalar_text(i)) return false;
  return true;
}

// The id of the shape `v` reads, made by `make` when the trace has none like it yet.
template <class View, class Make>
std::uint32_t intern(ChromeEvents& out, const View& v, Make make) {
  const auto next = static_cast<std::uint32_t>(out.shapes.size());
  auto [it, fresh] = out.shape_ids.try_emplace(shape_hash(v), next);
  if (!fresh) {
    std::uint32_t id = it->second;
    for (;;) {
      if (same_shape(out.shapes[id], v)) return id;
      if (out.shape_next[id] == k_no_id) break;
      id = out.shape_next[id];
    }
    out.shape_next[id] = next;  // a hash collision: chained after the last of that hash
  }
  out.shapes.push_back(make());
  out.shape_next.push_back(k_no_id);
  return next;
}

// The scratch's used operands (non-empty dims), distinct tensor types (sorted) and key scalars.
void gather(EventScratch& s) {
  ShapeScratch& g = s.shape;
  g.used.clear();
  g.tensor_types.clear();
  g.scalars.clear();
  for (std::size_t i = 0; i < s.n_operands; ++i)
    if (!s.operands[i].dims.empty()) g.used.push_back(static_cast<std::uint32_t>(i));
  for (std::size_t i = 0; i < s.n_types; ++i)
    if (is_tensor_type(s.types[i])) g.tensor_types.push_back(s.types[i]);
  std::sort(g.tensor_types.begin(), g.tensor_types.end());
  g.tensor_types.erase(std::unique(g.tensor_types.begin(), g.tensor_types.end()),
                       g.tensor_types.end());
  for (std::size_t i = 0; i < s.n_concrete && i < k_max_scalar_args; ++i)
    if (op_scalar_is_key(s.name, i, s.concrete[i])) g.scalars.emplace_back(i, s.concrete[i]);
}

}  // namespace

std::uint32_t intern_event_shape(EventScratch& s, ChromeEvents& out) {
  if (!s.has_dims && s.n_types == 0) return k_no_id;
  gather(s);
  const ScratchView v{s};
  if (v.size() == 0 && v.n_tensor_types() == 0) return k_no_id;
  return intern(out, v, [&v] {
    OpShape shape;
    for (std::size_t i = 0; i < v.size(); ++i) {
      shape.dims.push_back(v.dims(i));
      shape.dtypes.emplace_back(v.dtype(i));
    }
    for (std::size_t i = 0; i < v.n_tensor_types(); ++i)
      shape.tensor_types.emplace_back(v.tensor_type(i));
    for (std::size_t i = 0; i < v.n_scalars(); ++i)
      shape.key_scalars.emplace_back(v.scalar_arg(i), std::string(v.scalar_text(i)));
    return shape;
  });
}

std::uint32_t intern_op_shape(ChromeEvents& out, const OpShape& shape) {
  return intern(out, ShapeView{shape}, [&shape] { return shape; });
}

}  // namespace roofline::topn::detail
