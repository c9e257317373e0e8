// A large plain Chrome trace read in parts (chrome_split.hpp): the boundaries, the parts' parsers
// on two cores, and the join of their records in file order.
#include "roofline/topn/readers/chrome_split.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <limits>
#include <memory>
#include <tuple>
#include <vector>

#include "roofline/topn/bytes/byte_source.hpp"

namespace roofline::topn::detail {
namespace {

bool is_space(char c) {
  return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

// The stream offset of the first `{` after `}` `,` (whitespace between) in the file's bytes from
// stream offset `from` on; 0 when none shows in the next 256 KiB.
std::uint64_t event_boundary_after(std::FILE* f, const SplitSource& src, std::uint64_t from) {
  if (std::fseek(f, static_cast<long>(src.origin + from), SEEK_SET) != 0) return 0;
  std::vector<char> window(std::size_t{256} << 10);
  const std::size_t n = std::fread(window.data(), 1, window.size(), f);
  for (std::size_t i = 0; i < n; ++i) {
    if (window[i] != '}') continue;
    std::size_t j = i + 1;
    while (j < n && is_space(window[j])) ++j;
    if (j >= n || window[j] != ',') continue;
    ++j;
    while (j < n && is_space(window[j])) ++j;
    if (j < n && window[j] == '{') return from + j;
  }
  return 0;
}

}  // namespace

SplitParts::~SplitParts() {
  cancel_.store(true);
  for (std::thread& w : workers_) w.join();
}

void SplitParts::start(const SplitSource& src, std::uint64_t from, std::string_view open,
                       const ChromeEvents& first) {
  const std::uint64_t end = src.size > src.origin ? src.size - src.origin : 0;
  if (end < from || end - from < src.min_bytes) return;
  const std::uint64_t rest = end - from;
  const std::size_t n =
      std::clamp<std::uint64_t>(rest / std::max<std::uint64_t>(src.part_bytes, 1), 2, k_max_parts);
  {
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(src.path.c_str(), "rb"),
                                                      &std::fclose);
    if (!f) return;
    for (std::size_t k = 1; k < n; ++k) {
      const std::uint64_t at = event_boundary_after(f.get(), src, from + rest / n * k);
      if (at > (bounds_.empty() ? from : bounds_.back())) bounds_.push_back(at);
    }
  }
  if (bounds_.empty()) return;
  first_ = PartStops(bounds_, 0);
  for (std::size_t k = 0; k < bounds_.size(); ++k) {
    ChromeEvents& events = parts_.emplace_back().events;
    events.meta = first.meta;
    events.resolve_as_read = first.resolve_as_read;
  }
  path_ = src.path;
  origin_ = src.origin;
  open_ = std::string(open);
  // Threads beside this one read the parts in order; this one joins in once its part is read.
  const std::size_t cores = std::max(std::thread::hardware_concurrency(), 2u);
  const std::size_t n_workers =
      std::min({src.workers ? src.workers : cores - 1, k_max_workers, parts_.size()});
  for (std::size_t w = 0; w < n_workers; ++w)
    workers_.emplace_back([this] {
      for (std::size_t k = 0; k < parts_.size() && !cancel_.load(); ++k)
        if (take(k)) read_part(k);
    });
}

bool SplitParts::take(std::size_t k) {
  int waiting = 0;
  return parts_[k].state.compare_exchange_strong(waiting, 1);
}

void SplitParts::read_part(std::size_t k) {
  Part& part = parts_[k];
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path_.c_str(), "rb"), &std::fclose);
  if (!f || std::fseek(f.get(), static_cast<long>(origin_ + bounds_[k]), SEEK_SET) != 0) {
    part.error = "cannot reopen the trace";
  } else {
    FileReader reader(f.get());
    PartStops stops(bounds_, k + 1);
    part.error =
        parse_chrome_part([&reader](char* buf, std::size_t cap) { return reader.read(buf, cap); },
                          bounds_[k], open_, stops, part.events, cancel_);
    if (part.error.empty() && !reader.error().empty()) part.error = reader.error();
    part.landed = part.error.empty() ? stops.landed() : k_no_part;
  }
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    part.state.store(2);
  }
  read_.notify_all();
}

std::string SplitParts::finish(ChromeEvents& into) {
  for (std::size_t k = first_.landed(); k != k_no_part;) {
    // Rather than wait for part k, read the next part no one has begun (one comes later).
    for (std::size_t j = k; parts_[k].state.load() != 2 && j < parts_.size(); ++j)
      if (take(j)) read_part(j);
    {
      std::unique_lock<std::mutex> lock(mutex_);
      read_.wait(lock, [&] { return parts_[k].state.load() == 2; });
    }
    Part& part = parts_[k];
    join_events(into, part.events);
    if (!part.error.empty()) return part.error;
    k = part.landed;
  }
  return {};
}

namespace {

// `from`'s ids in `into`'s tables, made in `from`'s order (the order of first appearance in the
// file, as one parser would have made them).
struct IdMaps {
  std::vector<std::uint32_t> names, labels, geometries, shapes, lanes;
  std::vector<std::int32_t> threads;
  std::uint32_t label(std::uint32_t id) const { return id == k_no_id ? id : labels[id]; }
  std::int32_t thread(std::int32_t t) const {
    return t < 0 ? t : threads[static_cast<std::size_t>(t)];
  }
};

IdMaps map_ids(ChromeEvents& into, const ChromeEvents& from) {
  IdMaps m;
  for (std::uint32_t i = 0; i < from.names.size(); ++i)
    m.names.push_back(into.names.intern(from.names.at(i)));
  for (std::uint32_t i = 0; i < from.labels.size(); ++i)
    m.labels.push_back(into.labels.intern(from.labels.at(i)));
  for (const auto& [pid, tid] : from.threads) m.threads.push_back(into.thread_of(pid, tid));
  for (const auto& [device, stream] : from.lanes) m.lanes.push_back(into.lane_of(device, stream));
  std::vector<const std::array<std::int64_t, 6>*> by_id(from.geometries.size(), nullptr);
  for (const auto& [key, id] : from.geometry_ids) by_id[id] = &key;
  for (std::uint32_t i = 0; i < from.geometries.size(); ++i) {
    const auto it = by_id[i] ? into.geometry_ids.find(*by_id[i]) : into.geometry_ids.end();
    if (it != into.geometry_ids.end()) {
      m.geometries.push_back(it->second);
      continue;
    }
    m.geometries.push_back(into.geometries.intern(from.geometries.at(i)));
    if (by_id[i]) into.geometry_ids.emplace(*by_id[i], m.geometries.back());
  }
  for (const OpShape& shape : from.shapes) m.shapes.push_back(intern_op_shape(into, shape));
  return m;
}

// Appends `from`'s records to `into`, each through `remap`, giving `from`'s memory back as it goes
// (the small lists; the large ones are chained, RecordChain::join).
template <class T, class Remap>
void move_records(RecordList<T>& into, RecordList<T>& from, Remap remap) {
  constexpr std::size_t k_chunk = (std::size_t{2} << 20) / sizeof(T);
  for (std::size_t i = 0; i < from.size(); ++i) {
    T r = from[i];
    remap(r);
    into.push_back(r);
    if ((i + 1) % k_chunk == 0) from.release_before(i + 1);
  }
  from = RecordList<T>();
}

// A launch `from` resolved as read, in `into`'s ids: what the frames of `into` still open on its
// thread that enclose its call say, where its own frames said nothing (they are inner).
std::uint32_t with_outer_frames(ChromeEvents& into, std::int32_t launch_thread, double ts,
                                std::uint32_t origin) {
  const auto thread = static_cast<std::size_t>(launch_thread);
  if (launch_thread < 0 || thread >= into.frame_nesting.size()) return origin;
  LaunchStack outer;
  bool any = false;
  const std::vector<std::uint32_t>& open = into.frame_nesting[thread].open;
  for (auto it = open.rbegin(); it != open.rend(); ++it) {
    const StackFrame& f = into.frames[*it];
    if (ts < f.begin_us || ts >= f.end_us) continue;
    outer.add_outer(f);
    any = true;
  }
  if (!any) return origin;
  ResolvedOrigin o = into.origins[origin];
  if (o.collective == k_no_id) o.collective = outer.collective;
  if (o.call_site == k_no_id) o.call_site = outer.call_site;
  if (o.library == k_no_id) o.library = outer.library;
  return into.intern_origin(o);
}

void move_gpu(ChromeEvents& into, ChromeEvents& from, const IdMaps& m,
              const std::vector<std::uint32_t>& origins) {
  into.gpu.join(from.gpu, [&](GpuEventRec& g) {
    g.name = m.names[g.name];
    g.lane = m.lanes[g.lane] & (k_max_lanes - 1);
    if (g.geometry != k_no_id) g.geometry = m.geometries[g.geometry];
    if (g.launch_thread >= 0)
      g.set_launch(m.thread(g.launch_thread), g.launch_ts_us(), g.launch_kind);
    if (g.resolved)
      g.set_resolved(
          with_outer_frames(into, g.launch_thread, g.launch_ts_us(), origins[g.origin()]),
          g.lead_us());
    else if (g.launch_thread < 0)
      join_runtime(g, into);  // its call, read before the boundary, waits in `into`
  });
  // `from`'s calls still waiting (their events, if any, come later or never): as if read after.
  for (auto& [corr, r] : from.pending_runtime) {
    RuntimeRec c = r;
    c.thread = m.thread(c.thread);
    c.kernel = m.label(c.kernel);
    if (c.origin != k_no_id)  // resolved in `from`: the open frames before it too
      c.origin = with_outer_frames(into, c.thread, c.ts_us, origins[c.origin]);
    if (!into.pending_runtime.try_emplace(corr, c).second) {
      if (c.origin != k_no_id) into.order_broke = true;  // kept, not joined as read
      into.runtime.push_back(c);
    } else if (c.origin == k_no_id) {
      ++into.unresolved_pending;
    }
  }
  from.pending_runtime.clear();
}

void move_cpu_side(ChromeEvents& into, ChromeEvents& from, const IdMaps& m) {
  const auto scalar_offset = static_cast<std::uint32_t>(into.scalars.size());
  const auto set_offset = static_cast<std::uint32_t>(into.scalar_sets.size());
  move_records(into.scalars, from.scalars, [](OpScalar&) {});
  move_records(into.scalar_sets, from.scalar_sets, [&](ScalarSet& s) { s.begin += scalar_offset; });
  into.ops.join(from.ops, [&](OpRec& op) {
    if (op.shape != k_no_id) op.shape = m.shapes[op.shape];
    op.name = m.label(op.name);
    op.thread = m.thread(op.thread);
    if (op.scalars != k_no_id) op.scalars += set_offset;
  });
  move_records(into.runtime, from.runtime, [&](RuntimeRec& r) {
    r.thread = m.thread(r.thread);
    r.kernel = m.label(r.kernel);
  });
  into.frames.join(from.frames, [&](StackFrame& f) {
    f.thread = m.thread(f.thread);
    f.says = m.label(f.says) & k_says_mask;
  });
  into.modules.join(from.modules, [&](ModuleSpan& s) {
    s.thread = m.thread(s.thread);
    s.name = m.label(s.name);
  });
  for (StepSpan& s : from.steps) {
    if (!s.gpu) s.thread = m.thread(s.thread);
    into.steps.push_back(std::move(s));
  }
  for (CaptureMark& c : from.capture_marks) {
    c.thread = m.thread(c.thread);
    into.capture_marks.push_back(std::move(c));
  }
  if (into.unparsed_steps == 0.0) into.unparsed_example = from.unparsed_example;
  into.unparsed_steps += from.unparsed_steps;
}

// `from`'s origins in `into`'s table (their scalar sets moved after `into`'s `set_offset`).
std::vector<std::uint32_t> move_origins(ChromeEvents& into, const ChromeEvents& from,
                                        const IdMaps& m, std::uint32_t set_offset) {
  std::vector<std::uint32_t> ids;
  ids.reserve(from.origins.size());
  for (ResolvedOrigin o : from.origins) {
    if (o.shape != k_no_id) o.shape = m.shapes[o.shape];
    o.op = m.label(o.op);
    if (o.scalars != k_no_id) o.scalars += set_offset;
    o.collective = m.label(o.collective);
    o.call_site = m.label(o.call_site);
    o.library = m.label(o.library);
    ids.push_back(into.intern_origin(o));
  }
  return ids;
}

// What each part's resolving as read assumed of the records before it (launch_reads.cpp), checked
// against `into`'s as one parser reading on would have: an op of `from` at or below an id a
// launch of `into` took, an op of `into` at or above an id `from` took; on a thread, a frame or
// module span of `from` beginning at or before a launch `into` resolved, or, where `from`
// resolved launches, `into`'s frames out of order or overlapping, a frame of `into` let go or
// beginning after one of them, a module span of `into` reaching one, `from`'s frames before
// `into`'s, a call or op of `from` inside a frame `into` let go, one of `into` at or after the
// first frame of `from` where `from` let frames go. `into`'s frames still open at its end may
// enclose launches `from` resolved: those take what they say as they move (move_gpu). Then their
// figures as one parser's.
void join_reads(ChromeEvents& into, ChromeEvents& from, const IdMaps& m) {
  if (from.order_broke || from.min_op_ext <= into.max_resolved_ext ||
      into.max_op_ext >= from.min_resolved_ext)
    into.order_broke = true;
  into.ops_increasing =
      into.ops_increasing && from.ops_increasing && from.min_op_ext > into.max_op_ext;
  into.min_op_ext = std::min(into.min_op_ext, from.min_op_ext);
  into.max_op_ext = std::max(into.max_op_ext, from.max_op_ext);
  into.min_resolved_ext = std::min(into.min_resolved_ext, from.min_resolved_ext);
  into.max_resolved_ext = std::max(into.max_resolved_ext, from.max_resolved_ext);
  into.resolved += from.resolved;
  into.dropped_ops.insert(into.dropped_ops.end(), from.dropped_ops.begin(), from.dropped_ops.end());
  if (!std::is_sorted(into.dropped_ops.begin(), into.dropped_ops.end())) {
    std::sort(into.dropped_ops.begin(), into.dropped_ops.end());
    std::vector<std::pair<std::int64_t, std::int64_t>> merged;
    for (const auto& r : into.dropped_ops)
      if (!merged.empty() && r.first <= merged.back().second + 1)
        merged.back().second = std::max(merged.back().second, r.second);
      else
        merged.push_back(r);
    into.dropped_ops = std::move(merged);
  }
  for (std::size_t t = 0; t < from.thread_reads.size(); ++t) {
    const ThreadReads& f = from.thread_reads[t];
    const std::int32_t thread = m.thread(static_cast<std::int32_t>(t));
    ThreadReads& i = into.reads_of(thread);
    if (into.frame_nesting.size() <= static_cast<std::size_t>(thread))
      into.frame_nesting.resize(static_cast<std::size_t>(thread) + 1);
    const FrameNesting& n = into.frame_nesting[static_cast<std::size_t>(thread)];
    const bool frames_before = !n.open.empty() && std::make_tuple(f.first_begin, -f.first_end) <
                                                      std::make_tuple(n.last_begin, -n.last_end);
    if (f.spans_begin <= i.resolved_max || f.seen_min < i.dropped_end ||
        (f.dropped_end > -std::numeric_limits<double>::infinity() && f.spans_begin <= i.seen_max))
      into.order_broke = true;
    if (f.resolved_any() &&
        (!n.ordered || n.improper || frames_before || i.dropped_end > f.resolved_min ||
         i.spans_begin_max > f.resolved_min || i.modules_end > f.resolved_min))
      into.order_broke = true;
    i.resolved_min = std::min(i.resolved_min, f.resolved_min);
    i.resolved_max = std::max(i.resolved_max, f.resolved_max);
    i.spans_begin = std::min(i.spans_begin, f.spans_begin);
    i.spans_begin_max = std::max(i.spans_begin_max, f.spans_begin_max);
    if (i.first_begin == std::numeric_limits<double>::infinity()) {
      i.first_begin = f.first_begin;
      i.first_end = f.first_end;
    }
    i.modules_end = std::max(i.modules_end, f.modules_end);
    i.dropped_end = std::max(i.dropped_end, f.dropped_end);
    i.seen_min = std::min(i.seen_min, f.seen_min);
    i.seen_max = std::max(i.seen_max, f.seen_max);
    i.modules = i.modules || f.modules;
  }
}

// After the join: the frames open at `from`'s end stay open after `into`'s on each thread (those of
// `into` that `from`'s frames closed enclose nothing after them, and a launch passes them by).
void join_nesting(ChromeEvents& into, ChromeEvents& from, const IdMaps& m,
                  std::uint32_t frame_offset) {
  for (std::size_t t = 0; t < from.frame_nesting.size(); ++t) {
    const FrameNesting& f = from.frame_nesting[t];
    const auto thread = static_cast<std::size_t>(m.thread(static_cast<std::int32_t>(t)));
    if (into.frame_nesting.size() <= thread) into.frame_nesting.resize(thread + 1);
    FrameNesting& n = into.frame_nesting[thread];
    const ThreadReads* reads = t < from.thread_reads.size() ? &from.thread_reads[t] : nullptr;
    if (reads && !n.open.empty() &&
        std::make_tuple(reads->first_begin, -reads->first_end) <
            std::make_tuple(n.last_begin, -n.last_end))
      n.ordered = false;
    n.ordered = n.ordered && f.ordered;
    n.improper = n.improper || f.improper;
    if (!f.open.empty() || f.last_begin != 0.0 || f.last_end != 0.0) {
      n.last_begin = f.last_begin;
      n.last_end = f.last_end;
    }
    for (std::uint32_t i : f.open) n.open.push_back(i + frame_offset);
    // A frame of `into` that ended by the last frame's start encloses nothing read after it (a
    // launch resolved before that start broke the order): no launch of a later part asks for it.
    std::erase_if(n.open, [&](std::uint32_t i) { return into.frames[i].end_us <= n.last_begin; });
  }
}

}  // namespace

void join_events(ChromeEvents& into, ChromeEvents& from) {
  const IdMaps m = map_ids(into, from);
  const auto set_offset = static_cast<std::uint32_t>(into.scalar_sets.size());
  const std::vector<std::uint32_t> origins = move_origins(into, from, m, set_offset);
  join_reads(into, from, m);
  const auto frame_offset = static_cast<std::uint32_t>(into.frames.size());
  move_cpu_side(into, from, m);  // runtime calls kept before the GPU events take waiting ones
  move_gpu(into, from, m, origins);
  join_nesting(into, from, m, frame_offset);
  into.meta = std::move(from.meta);  // it began with `into`'s and read the keys after
}

}  // namespace roofline::topn::detail
