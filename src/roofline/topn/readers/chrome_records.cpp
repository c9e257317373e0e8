// ChromeEvents records from parsed events: the op shapes interned (one serialized signature per
// distinct Input Dims / Input type), GPU activity, launches and step spans (chrome_events.hpp).
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <tuple>
#include <unordered_set>

#include <fmt/format.h>

#include "roofline/topn/bytes/byte_source.hpp"
#include "roofline/topn/layer.hpp"
#include "roofline/topn/readers/chrome_events.hpp"

namespace roofline::topn::detail {
namespace {

// Varying scalars kept in all (16 B each): past it, launches keep no scalar ranges.
constexpr std::size_t k_max_scalars_kept = std::size_t{1} << 24;

// The op's numeric scalars that are not keys: kept per launch (their range per signature). The
// same scalars as the last op of its name share that op's set (a fill value, a flag written as
// a number: an op repeats them launch after launch).
void record_scalars(const EventScratch& s, ChromeEvents& out, OpRec& op) {
  ScalarSet set{static_cast<std::uint32_t>(out.scalars.size()), 0};
  for (std::size_t i = 0; i < s.n_concrete && i < k_max_scalar_args; ++i) {
    if (s.concrete[i].empty() || op_scalar_is_key(s.name, i, s.concrete[i])) continue;
    const auto v = op_scalar_number(s.concrete[i]);
    if (!v || !std::isfinite(*v)) continue;
    out.scalars.push_back(OpScalar{static_cast<std::uint32_t>(i), *v});
    ++set.size;
  }
  if (set.size == 0) return;
  if (out.last_scalars.size() <= op.name) out.last_scalars.resize(op.name + 1, k_no_id);
  std::uint32_t& last = out.last_scalars[op.name];
  bool equal = last != k_no_id && out.scalar_sets[last].size == set.size;
  for (std::uint32_t i = 0; equal && i < set.size; ++i) {
    const OpScalar& a = out.scalars[out.scalar_sets[last].begin + i];
    const OpScalar& b = out.scalars[set.begin + i];
    equal = a.arg == b.arg && a.value == b.value;
  }
  if (equal) {
    out.scalars.resize(set.begin);
  } else {
    last = static_cast<std::uint32_t>(out.scalar_sets.size());
    out.scalar_sets.push_back(set);
  }
  op.scalars = last;
}

// A cpu op with an External id: its shapes, name and place (for the launches joined to it).
void record_op(EventScratch& s, ChromeEvents& out, std::int32_t thread) {
  if (s.external_id < 0) return;
  OpRec op;
  op.external_id = s.external_id;
  op.ts_us = s.has_ts ? s.ts : 0.0;
  op.shape = intern_event_shape(s, out);
  op.name = out.labels.intern(s.name);
  op.thread = thread;
  if (out.scalars.size() < k_max_scalars_kept) record_scalars(s, out, op);
  before_op(op, out);
  out.ops.push_back(op);
}

// A kernel launch's geometry id: looked up by its numbers, its text ("376,1,1;128,1,1", as
// `geometries` holds it) made only for a geometry not seen before.
std::uint32_t geometry_id(const EventScratch& s, ChromeEvents& out) {
  const std::array<std::int64_t, 6> key{s.grid[0],  s.grid[1],  s.grid[2],
                                        s.block[0], s.block[1], s.block[2]};
  if (auto it = out.geometry_ids.find(key); it != out.geometry_ids.end()) return it->second;
  const std::uint32_t id = out.geometries.intern(fmt::format(
      "{},{},{};{},{},{}", s.grid[0], s.grid[1], s.grid[2], s.block[0], s.block[1], s.block[2]));
  out.geometry_ids.emplace(key, id);
  return id;
}

bool runtime_name_has(std::string_view s, std::string_view part) {
  return s.find(part) != std::string_view::npos;
}

void record_runtime(EventScratch& s, ChromeEvents& out, std::int32_t thread) {
  RuntimeRec r;
  r.kind = runtime_kind_of(s.name);
  if (r.kind == RuntimeKind::other && (s.correlation < 0 || s.external_id < 0)) return;
  r.correlation = s.correlation;
  r.external_id = s.external_id;
  r.ts_us = s.has_ts ? s.ts : 0.0;
  r.thread = thread;
  out.cpu_read(thread, r.ts_us);
  if (s.has_kernel && !s.kernel.empty()) r.kernel = out.labels.intern(s.kernel);
  // A call of one GPU event waits for it, unless a call of its id already does (kept, as the
  // lookup of the joins would find it).
  const bool one_event = r.kind == RuntimeKind::launch || r.kind == RuntimeKind::memcpy ||
                         r.kind == RuntimeKind::memset;
  if (one_event && !out.keep_runtime && r.correlation >= 0) {
    const auto [it, waiting] = out.pending_runtime.try_emplace(r.correlation, r);
    if (waiting) {
      resolve_call(it->second, out);
      if (it->second.origin == k_no_id) ++out.unresolved_pending;
      return;
    }
  }
  out.runtime.push_back(r);
}

// A step annotation span, CPU or GPU side; a malformed step name is counted.
void record_step(EventScratch& s, ChromeEvents& out, bool gpu, std::int32_t where) {
  const StepNameParse parsed = parse_step_annotation(s.name);
  if (parsed.kind == StepNameKind::malformed) {
    if (out.unparsed_steps == 0.0) out.unparsed_example = s.name.substr(0, 200);
    out.unparsed_steps += 1.0;
    return;
  }
  if (parsed.kind != StepNameKind::step) return;
  StepSpan span;
  span.gpu = gpu;
  (gpu ? span.device : span.thread) = where;
  span.begin_us = s.ts;
  span.end_us = s.ts + s.dur;
  span.name = parsed.step;
  span.prefill = parsed.step.prefill();
  span.rows = parsed.step.rows();
  span.batch = static_cast<std::int64_t>(parsed.step.decode_requests().value_or(0.0));
  out.steps.push_back(std::move(span));
}

void record_annotation(EventScratch& s, ChromeEvents& out, std::int32_t thread) {
  if (auto mark = parse_capture_annotation(s.name)) {
    out.capture_marks.push_back({s.ts, s.ts + s.dur, thread, mark->size, std::move(mark->mode)});
    return;
  }
  record_step(s, out, false, thread);
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

std::optional<std::uint32_t> Interner::find(std::string_view text) const {
  if (auto it = ids_.find(text); it != ids_.end()) return it->second;
  return std::nullopt;
}

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
  if (cat_is(cat, "user_annotation")) return Category::annotation;
  if (cat_is(cat, "python_function")) return Category::python;
  return Category::ignored;
}

RuntimeKind runtime_kind_of(std::string_view name) {
  if (runtime_name_has(name, "StreamBeginCapture")) return RuntimeKind::begin_capture;
  if (runtime_name_has(name, "StreamEndCapture")) return RuntimeKind::end_capture;
  if (runtime_name_has(name, "GraphLaunch")) return RuntimeKind::graph_launch;
  if (runtime_name_has(name, "Memcpy")) return RuntimeKind::memcpy;
  if (runtime_name_has(name, "Memset")) return RuntimeKind::memset;
  if (runtime_name_has(name, "Launch")) return RuntimeKind::launch;
  return RuntimeKind::other;
}

std::uint32_t ChromeEvents::lane_of(std::int32_t device, std::int32_t stream) {
  const std::uint64_t key = (std::uint64_t{static_cast<std::uint32_t>(device)} << 32) |
                            static_cast<std::uint32_t>(stream);
  if (key == last_lane_key) return last_lane;  // a trace's GPU events come stream after stream
  auto it = lane_ids.find(key);
  if (it == lane_ids.end()) {
    if (lanes.size() >= k_max_lanes) return 0;
    it = lane_ids.emplace(key, static_cast<std::uint32_t>(lanes.size())).first;
    lanes.emplace_back(device, stream);
  }
  last_lane_key = key;
  last_lane = it->second;
  return last_lane;
}

std::int32_t ChromeEvents::thread_of(std::int64_t pid, std::int64_t tid) {
  auto [it, inserted] =
      thread_ids.try_emplace({pid, tid}, static_cast<std::int32_t>(threads.size()));
  if (inserted) threads.emplace_back(pid, tid);
  return it->second;
}

std::optional<StepSpan> parse_step_name(std::string_view name) {
  const StepNameParse parsed = parse_step_annotation(name);
  if (parsed.kind != StepNameKind::step) return std::nullopt;
  StepSpan s;
  s.name = parsed.step;
  s.prefill = parsed.step.prefill();
  s.rows = parsed.step.rows();
  s.batch = static_cast<std::int64_t>(parsed.step.decode_requests().value_or(0.0));
  return s;
}

bool module_name_of(std::string_view name, std::string_view& out) {
  constexpr std::string_view k_prefix = "nn.Module: ";
  if (name.substr(0, k_prefix.size()) != k_prefix) return false;
  name.remove_prefix(k_prefix.size());
  std::size_t end = name.size();
  while (end > 0 && name[end - 1] >= '0' && name[end - 1] <= '9') --end;
  if (end < name.size() && end > 1 && name[end - 1] == '_') name = name.substr(0, end - 1);
  out = name;
  return !out.empty();
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
      g.external_id = s.external_id;
      g.set_correlation(s.correlation);
      // A GPU event without a name is still GPU time: it gets one, so the Top-N entry is kept.
      g.name = out.names.intern(!s.name.empty()                  ? std::string_view(s.name)
                                : s.category == Category::kernel ? "(unnamed kernel)"
                                : s.category == Category::memcpy ? "(unnamed memcpy)"
                                                                 : "(unnamed memset)");
      g.lane = out.lane_of(device, s.tid >= 0 && s.tid < (std::int64_t{1} << 30)
                                       ? static_cast<std::int32_t>(s.tid)
                                       : -1) &
               (k_max_lanes - 1);
      g.kind = kind;
      if (s.has_grid && s.has_block) g.geometry = geometry_id(s, out);
      join_runtime(g, out);
      gpu_read(g, out);
      out.gpu.push_back(g);
      return;
    }
    case Category::cpu_op:
      record_op(s, out, out.thread_of(s.pid, s.tid));
      return;
    case Category::launch:
      record_runtime(s, out, out.thread_of(s.pid, s.tid));
      return;
    case Category::step:
      if (s.has_ts && s.has_dur) record_step(s, out, true, device);
      return;
    case Category::annotation:
      // A record function that carries its arguments (Inductor's generated kernels, in builds that
      // record them as user annotations) can launch kernels like an op.
      if (s.has_dims) record_op(s, out, out.thread_of(s.pid, s.tid));
      if (s.has_ts && s.has_dur) record_annotation(s, out, out.thread_of(s.pid, s.tid));
      return;
    case Category::python:
      if (s.has_ts && s.has_dur) record_python_frame(s, out);
      return;
    case Category::none:
    case Category::ignored:
      return;
  }
}

std::string parse_trace_events(const ByteReader& read, ChromeEvents& out) {
  TraceText source(read);
  ByteReader body = [&source](char* buf, std::size_t cap) { return source.read(buf, cap); };
  PeekedInput text(body);
  const std::string_view head = text.peek(4096);
  std::size_t first = 0;
  if (head.substr(0, 3) == "\xEF\xBB\xBF") {
    char bom[3];
    text.read(bom, 3);
  }
  const std::string_view rest_head = text.peek(4096);
  while (first < rest_head.size() && std::strchr(" \t\r\n", rest_head[first]) &&
         rest_head[first] != '\0')
    ++first;
  const auto fail = [&](const std::string& what) { return source.failure(what); };
  if (first >= rest_head.size())
    return fail(rest_head.empty() ? "empty file" : "holds only whitespace");
  if (rest_head[first] != '{' && rest_head[first] != '[')
    return fail("not a Chrome trace (a PyTorch profiler JSON trace)");
  const ByteReader rest = [&text](char* buf, std::size_t cap) { return text.read(buf, cap); };
  if (std::string error = parse_chrome_trace(rest, out); !error.empty()) return fail(error);
  if (!source.error().empty()) return source.error();
  return {};
}

constexpr std::size_t k_taken_kept = 64;

void join_runtime(GpuEventRec& g, ChromeEvents& out) {
  const std::int64_t corr = g.correlation();
  if (corr < 0) return;
  const RuntimeRec* r = nullptr;
  const auto it = out.pending_runtime.find(corr);
  if (it != out.pending_runtime.end()) {
    if (out.taken_runtime.size() < k_taken_kept)
      out.taken_runtime.push_back(it->second);
    else
      out.taken_runtime[out.taken_next] = it->second;
    r = &out.taken_runtime[out.taken_next];
    out.taken_next = (out.taken_next + 1) % k_taken_kept;
    if (it->second.origin == k_no_id) --out.unresolved_pending;
    out.pending_runtime.erase(it);
  } else {
    for (const RuntimeRec& t : out.taken_runtime)
      if (t.correlation == corr) r = &t;
  }
  if (!r) return;
  if (g.external_id < 0) g.external_id = r->external_id;
  g.set_launch(r->thread, r->ts_us, r->kind);
  if (r->origin == k_no_id) return;
  // The call was resolved as read: its GPU event takes its origin — unless it names an op of its
  // own, which the joins over everything would ask for (read again, launch_reads.cpp).
  if (g.external_id != r->external_id) {
    out.order_broke = true;
    return;
  }
  g.set_resolved(r->origin, r->lead_us);
  ++out.resolved;
}

void finish_events(ChromeEvents& out) {
  std::vector<RuntimeRec> left;
  left.reserve(out.pending_runtime.size());
  std::unordered_set<std::int64_t> resolved_left;
  for (auto& [corr, r] : out.pending_runtime) {
    if (r.origin != k_no_id) resolved_left.insert(corr);
    left.push_back(r);
  }
  // A call resolved as read that no GPU event took as read: no join asks for its frames, unless a
  // GPU event read before it, in an earlier part, joins it after the parse (read again).
  if (!resolved_left.empty())
    for (const GpuEventRec& g : out.gpu)
      if (g.launch_thread < 0 && resolved_left.count(g.correlation()) > 0) {
        out.order_broke = true;
        break;
      }
  out.pending_runtime.clear();
  // Ahead of the calls kept as read: a call waiting is the first of its id (the joins' lookup
  // sorts by id and keeps the file's order among equals).
  std::sort(left.begin(), left.end(), [](const RuntimeRec& a, const RuntimeRec& b) {
    return std::tie(a.correlation, a.external_id) < std::tie(b.correlation, b.external_id);
  });
  out.runtime.prepend(left.data(), left.data() + left.size());
}

}  // namespace roofline::topn::detail
