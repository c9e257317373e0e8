// ChromeEvents records from parsed events: the op shapes interned (one serialized signature per
// distinct Input Dims / Input type), GPU activity, launches and step spans (chrome_events.hpp).
#include <algorithm>
#include <charconv>

#include "topn/chrome_events.hpp"

namespace roofline::detail {
namespace {

// Types that are not tensors in `Input type` (a tensor's entry is its scalar type).
bool is_tensor_type(std::string_view t) {
  static constexpr std::string_view k_non_tensor[] = {
      "",     "Scalar", "ScalarList", "TensorList",   "GenericList",
      "None", "Device", "Layout",     "MemoryFormat", "String"};
  return std::find(std::begin(k_non_tensor), std::end(k_non_tensor), t) == std::end(k_non_tensor);
}

void append_dims_json(std::string& out, const std::vector<std::int64_t>& dims) {
  out += '[';
  char num[24];
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (i) out += ", ";
    const auto r = std::to_chars(num, num + sizeof num, dims[i]);
    out.append(num, r.ptr);
  }
  out += ']';
}

// A cpu op with shapes: intern its OpShape and remember which External id carries it.
void record_op(EventScratch& s, ChromeEvents& out) {
  if (s.external_id < 0 || (!s.has_dims && s.n_types == 0)) return;
  std::string& key = s.key;
  key.clear();
  std::vector<const Operand*> used;
  for (std::size_t i = 0; i < s.n_operands; ++i)
    if (!s.operands[i].dims.empty()) used.push_back(&s.operands[i]);
  key += '[';
  for (std::size_t i = 0; i < used.size(); ++i) {
    if (i) key += ", ";
    append_dims_json(key, used[i]->dims);
  }
  key += "]\x1f";
  for (const Operand* op : used) {
    key += op->arg < s.n_types ? std::string_view(s.types[op->arg]) : std::string_view();
    key += '\x1e';
  }
  std::vector<std::string_view> tensor_types;
  for (std::size_t i = 0; i < s.n_types; ++i)
    if (is_tensor_type(s.types[i])) tensor_types.push_back(s.types[i]);
  std::sort(tensor_types.begin(), tensor_types.end());
  tensor_types.erase(std::unique(tensor_types.begin(), tensor_types.end()), tensor_types.end());
  key += '\x1f';
  for (std::string_view t : tensor_types) {
    key += t;
    key += '\x1e';
  }
  if (used.empty() && tensor_types.empty()) return;
  auto [it, inserted] =
      out.shape_ids.try_emplace(key, static_cast<std::uint32_t>(out.shapes.size()));
  if (inserted) {
    OpShape shape;
    for (const Operand* op : used) {
      shape.dims.push_back(op->dims);
      shape.dtypes.push_back(op->arg < s.n_types ? s.types[op->arg] : std::string());
    }
    shape.tensor_types.assign(tensor_types.begin(), tensor_types.end());
    out.shapes.push_back(std::move(shape));
  }
  out.op_shapes.push_back({s.external_id, it->second});
}

// ASCII case-insensitive equality (older traces spell categories "Kernel", "Memcpy").
bool cat_is(std::string_view cat, std::string_view want) {
  if (cat.size() != want.size()) return false;
  for (std::size_t i = 0; i < cat.size(); ++i) {
    char c = cat[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != want[i]) return false;
  }
  return true;
}

}  // namespace

std::uint32_t Interner::intern(std::string_view text) {
  if (auto it = ids_.find(text); it != ids_.end()) return it->second;
  const auto id = static_cast<std::uint32_t>(texts_.size());
  texts_.emplace_back(text);
  ids_.emplace(texts_.back(), id);
  return id;
}

Category category_of(std::string_view cat) {
  if (cat_is(cat, "kernel")) return Category::kernel;
  if (cat_is(cat, "gpu_memcpy") || cat_is(cat, "memcpy")) return Category::memcpy;
  if (cat_is(cat, "gpu_memset") || cat_is(cat, "memset")) return Category::memset;
  if (cat_is(cat, "cpu_op") || cat_is(cat, "operator")) return Category::cpu_op;
  if (cat_is(cat, "cuda_runtime") || cat_is(cat, "cuda_driver") || cat_is(cat, "runtime"))
    return Category::launch;
  if (cat_is(cat, "gpu_user_annotation")) return Category::step;
  return Category::ignored;
}

void finish_event(EventScratch& s, ChromeEvents& out) {
  const auto device =
      s.pid >= 0 && s.pid < (std::int64_t{1} << 30) ? static_cast<std::int32_t>(s.pid) : -1;
  switch (s.category) {
    case Category::kernel:
    case Category::memcpy:
    case Category::memset: {
      if (!s.has_dur) return;
      const GpuEventKind kind = s.category == Category::kernel   ? GpuEventKind::kernel
                                : s.category == Category::memcpy ? GpuEventKind::memcpy
                                                                 : GpuEventKind::memset;
      GpuEventRec g;
      g.ts_us = s.has_ts ? s.ts : 0.0;
      g.dur_us = s.dur;
      g.by_correlation = s.external_id < 0 && s.correlation >= 0;
      g.link = g.by_correlation ? s.correlation : s.external_id;
      g.name = out.names.intern(s.name);
      g.device = device;
      g.kind = kind;
      out.gpu.push_back(g);
      return;
    }
    case Category::cpu_op:
      record_op(s, out);
      return;
    case Category::launch:
      if (s.correlation >= 0 && s.external_id >= 0)
        out.launches.push_back({s.correlation, s.external_id});
      return;
    case Category::step:
      if (!s.has_ts || !s.has_dur) return;
      if (auto step = parse_step_name(s.name)) {
        step->device = device;
        step->begin_us = s.ts;
        step->end_us = s.ts + s.dur;
        out.steps.push_back(*step);
      }
      return;
    case Category::none:
    case Category::ignored:
      return;
  }
}

}  // namespace roofline::detail
