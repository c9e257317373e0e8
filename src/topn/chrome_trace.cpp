// PyTorch profiler Chrome trace -> ChromeEvents, in one streaming pass (chrome_events.hpp).
// Each event object is read field by field into reused scratch buffers and reduced to a
// fixed-size record as soon as it closes; the document itself is never held.
#include <algorithm>
#include <charconv>
#include <cstring>

#include <fmt/format.h>

#include "topn/chrome_events.hpp"
#include "topn/json_stream.hpp"

namespace roofline::detail {
namespace {

struct Operand {
  std::size_t arg = 0;  // position in the op's argument list (indexes Input type)
  std::vector<std::int64_t> dims;
};

// What an event is, by its `cat` (older traces spell "Kernel", "Memcpy", "Memset", "Operator").
enum class Category { none, kernel, memcpy, memset, cpu_op, launch, step, ignored };

// The fields of one event that matter, reused from event to event.
struct Scratch {
  Category category = Category::none;
  std::string ph, cat, name;
  double ts = 0.0, dur = 0.0;
  bool has_ts = false, has_dur = false;
  std::int64_t pid = -1;
  std::int64_t external_id = -1, correlation = -1;
  bool has_dims = false;
  std::vector<Operand> operands;
  std::size_t n_operands = 0;  // operands in use (the vector keeps its capacity)
  std::vector<std::string> types;
  std::size_t n_types = 0;
  std::string key;  // serialized OpShape

  void reset() {
    category = Category::none;
    ph.clear();
    cat.clear();
    name.clear();
    has_ts = has_dur = has_dims = false;
    pid = external_id = correlation = -1;
    n_operands = n_types = 0;
  }
  Operand& new_operand(std::size_t arg) {
    if (n_operands == operands.size()) operands.emplace_back();
    Operand& op = operands[n_operands++];
    op.arg = arg;
    op.dims.clear();
    return op;
  }
};

bool is_error(JsonToken t) {
  return t == JsonToken::error || t == JsonToken::end;
}

// Key comparison without decoding (keys with escapes are decoded first).
bool key_is(const JsonStream& js, std::string& tmp, std::string_view want) {
  if (!js.escaped()) {
    const std::string_view raw = js.raw();
    return raw.size() == want.size() && !raw.empty() && raw[0] == want[0] && raw == want;
  }
  tmp.clear();
  js.append_text(tmp);
  return tmp == want;
}

bool read_string_value(JsonStream& js, std::string& out) {
  const JsonToken t = js.next();
  if (t == JsonToken::string) {
    js.append_text(out);
    return true;
  }
  if (t == JsonToken::begin_object || t == JsonToken::begin_array)
    return !is_error(js.skip_container());
  return !is_error(t) && t != JsonToken::key;
}

// A number value (anything else is skipped and leaves `has` false).
bool read_number(JsonStream& js, double& out, bool& has) {
  const JsonToken t = js.next();
  if (t == JsonToken::number) {
    has = js.as_double(out);
    return true;
  }
  if (t == JsonToken::begin_object || t == JsonToken::begin_array)
    return !is_error(js.skip_container());
  return !is_error(t);
}

bool read_int(JsonStream& js, std::int64_t& out) {
  const JsonToken t = js.next();
  if (t == JsonToken::number) {
    if (!js.as_int(out)) out = -1;
    return true;
  }
  if (t == JsonToken::begin_object || t == JsonToken::begin_array)
    return !is_error(js.skip_container());
  return !is_error(t);
}

// The integers of a dims list whose '[' was just read; nested lists are skipped. False on a
// JSON error; `ok` false when an element is not a non-negative integer.
bool read_int_list(JsonStream& js, std::vector<std::int64_t>& out, bool& ok) {
  for (;;) {
    const JsonToken t = js.next();
    if (t == JsonToken::end_array) return true;
    if (is_error(t)) return false;
    std::int64_t v = 0;
    if (t == JsonToken::number && js.as_int(v) && v >= 0) {
      out.push_back(v);
      continue;
    }
    ok = false;
    if ((t == JsonToken::begin_array || t == JsonToken::begin_object) &&
        is_error(js.skip_container()))
      return false;
  }
}

// `Input Dims`: one list per argument; a tensor's dims, [] for a non-tensor, or a list of dims
// lists for a tensor list (each member becomes an operand of that argument).
bool read_input_dims(JsonStream& js, Scratch& s) {
  JsonToken t = js.next();
  if (t != JsonToken::begin_array) {
    if (t == JsonToken::begin_object) return !is_error(js.skip_container());
    return !is_error(t);
  }
  s.has_dims = true;
  for (std::size_t arg = 0;; ++arg) {
    t = js.next();
    if (t == JsonToken::end_array) return true;
    if (is_error(t)) return false;
    if (t == JsonToken::begin_object) {
      if (is_error(js.skip_container())) return false;
      continue;
    }
    if (t != JsonToken::begin_array) continue;
    Operand* op = &s.new_operand(arg);
    bool ok = true;
    for (;;) {
      t = js.next();
      if (t == JsonToken::end_array) break;
      if (is_error(t)) return false;
      std::int64_t v = 0;
      if (t == JsonToken::number && js.as_int(v) && v >= 0) {
        op->dims.push_back(v);
      } else if (t == JsonToken::begin_array) {  // a member of a tensor list
        const std::size_t outer = static_cast<std::size_t>(op - s.operands.data());
        Operand& member = s.new_operand(arg);
        bool member_ok = true;
        if (!read_int_list(js, member.dims, member_ok)) return false;
        if (!member_ok) member.dims.clear();
        op = &s.operands[outer];  // new_operand may have moved the vector
      } else {
        ok = false;
        if (t == JsonToken::begin_object && is_error(js.skip_container())) return false;
      }
    }
    if (!ok) op->dims.clear();
  }
}

bool read_input_types(JsonStream& js, Scratch& s) {
  JsonToken t = js.next();
  if (t != JsonToken::begin_array) {
    if (t == JsonToken::begin_object) return !is_error(js.skip_container());
    return !is_error(t);
  }
  for (;;) {
    t = js.next();
    if (t == JsonToken::end_array) return true;
    if (is_error(t)) return false;
    if (s.n_types == s.types.size()) s.types.emplace_back();
    std::string& type = s.types[s.n_types++];
    type.clear();
    if (t == JsonToken::string)
      js.append_text(type);
    else if ((t == JsonToken::begin_array || t == JsonToken::begin_object) &&
             is_error(js.skip_container()))
      return false;
  }
}

bool read_args(JsonStream& js, Scratch& s, std::string& tmp) {
  JsonToken t = js.next();
  if (t != JsonToken::begin_object) {
    if (t == JsonToken::begin_array) return !is_error(js.skip_container());
    return !is_error(t);
  }
  for (;;) {
    t = js.next();
    if (t == JsonToken::end_object) return true;
    if (t != JsonToken::key) return false;
    bool ok = true;
    if (key_is(js, tmp, "External id"))
      ok = read_int(js, s.external_id);
    else if (key_is(js, tmp, "correlation"))
      ok = read_int(js, s.correlation);
    else if (key_is(js, tmp, "Input Dims"))
      ok = read_input_dims(js, s);
    else if (key_is(js, tmp, "Input type"))
      ok = read_input_types(js, s);
    else
      ok = !is_error(js.skip_value());
    if (!ok) return false;
  }
}

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
void record_op(Scratch& s, ChromeEvents& out) {
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

void finish_event(Scratch& s, ChromeEvents& out) {
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

bool read_event(JsonStream& js, Scratch& s, std::string& tmp, ChromeEvents& out) {
  s.reset();
  for (;;) {
    const JsonToken t = js.next();
    if (t == JsonToken::end_object) break;
    if (t != JsonToken::key) return false;
    bool ok = true;
    if (key_is(js, tmp, "ph")) {
      ok = read_string_value(js, s.ph);
    } else if (key_is(js, tmp, "cat")) {
      ok = read_string_value(js, s.cat);
      s.category = category_of(s.cat);
    } else if (key_is(js, tmp, "name")) {
      ok = read_string_value(js, s.name);
    } else if (key_is(js, tmp, "ts")) {
      ok = read_number(js, s.ts, s.has_ts);
    } else if (key_is(js, tmp, "dur")) {
      ok = read_number(js, s.dur, s.has_dur);
    } else if (key_is(js, tmp, "pid")) {
      ok = read_int(js, s.pid);
    } else if (key_is(js, tmp, "args")) {
      ok = read_args(js, s, tmp);
    } else {
      ok = !is_error(js.skip_value());
    }
    if (!ok) return false;
    // Only complete ("X") events of the categories above matter: skip the rest of any other
    // event without reading its fields (flows, python frames, metadata are most of a trace).
    if (s.category == Category::ignored || (!s.ph.empty() && s.ph != "X"))
      return !is_error(js.skip_container());
  }
  finish_event(s, out);
  return true;
}

// The events array, its '[' already read.
bool read_events(JsonStream& js, ChromeEvents& out) {
  Scratch s;
  std::string tmp;
  for (;;) {
    const JsonToken t = js.next();
    if (t == JsonToken::end_array) return true;
    if (t == JsonToken::begin_object) {
      if (!read_event(js, s, tmp, out)) return false;
    } else if (t == JsonToken::begin_array) {
      if (is_error(js.skip_container())) return false;
    } else if (is_error(t)) {
      return false;
    }
  }
}

}  // namespace

std::uint32_t Interner::intern(std::string_view text) {
  if (auto it = ids_.find(text); it != ids_.end()) return it->second;
  const auto id = static_cast<std::uint32_t>(texts_.size());
  texts_.emplace_back(text);
  ids_.emplace(texts_.back(), id);
  return id;
}

std::string parse_chrome_trace(const ByteReader& read, ChromeEvents& out) {
  JsonStream js(read);
  std::string tmp;
  bool saw_events = false;
  JsonToken t = js.next();
  bool ok = true;
  if (t == JsonToken::begin_array) {  // the JSON Array Format: the events alone
    saw_events = true;
    ok = read_events(js, out);
  } else if (t == JsonToken::begin_object) {
    for (;;) {
      t = js.next();
      if (t == JsonToken::end_object) break;
      if (t != JsonToken::key) {
        ok = false;
        break;
      }
      if (key_is(js, tmp, "traceEvents")) {
        t = js.next();
        if (t == JsonToken::begin_array) {
          saw_events = true;
          ok = read_events(js, out);
        } else if (t == JsonToken::begin_object) {
          ok = !is_error(js.skip_container());
        } else {
          ok = !is_error(t);
        }
      } else {
        ok = !is_error(js.skip_value());
      }
      if (!ok) break;
    }
  } else if (t != JsonToken::error) {
    return "not a Chrome trace: the JSON document is not an object or an array";
  }
  if (ok && t != JsonToken::error) {
    t = js.next();  // only whitespace may follow
    ok = t == JsonToken::end;
  }
  if (!ok || !js.error().empty()) return js.error().empty() ? "invalid JSON" : js.error();
  if (!saw_events) return "not a Chrome trace: no traceEvents array";
  return {};
}

}  // namespace roofline::detail
