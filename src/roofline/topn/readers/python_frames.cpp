// python_function spans into ChromeEvents (chrome_events.hpp): each distinct name read once, and
// of the frames whose words say something only those that say more than the kept frame around them
// (docs/method.md §22.10).
#include <algorithm>
#include <limits>
#include <tuple>

#include "roofline/topn/layer.hpp"
#include "roofline/topn/names/call_stacks.hpp"
#include "roofline/topn/readers/chrome_events.hpp"

namespace roofline::topn::detail {
namespace {

// Whether `f`, arriving on its thread after the frames before it, changes any launch's stack: not
// when the nearest enclosing kept frame has its role and says the same (the innermost frame of a
// role is what a launch reads, and that frame stands for it). Frames out of StackIndex's order
// (begin, longest first) stop the pruning on their thread: from then on every frame is kept.
bool says_more(const StackFrame& f, ChromeEvents& out) {
  const auto thread = static_cast<std::size_t>(f.thread);
  if (out.frame_nesting.size() <= thread) out.frame_nesting.resize(thread + 1);
  FrameNesting& n = out.frame_nesting[thread];
  if (!n.ordered) return true;
  if (!n.open.empty() &&
      std::make_tuple(f.begin_us, -f.end_us) < std::make_tuple(n.last_begin, -n.last_end)) {
    n.ordered = false;
    return true;
  }
  n.last_begin = f.begin_us;
  n.last_end = f.end_us;
  while (!n.open.empty() && out.frames[n.open.back()].end_us < f.end_us) {
    const std::uint32_t closed = n.open.back();
    const StackFrame c = out.frames[closed];
    n.open.pop_back();
    if (c.end_us > f.begin_us) n.improper = true;  // overlaps `f` without enclosing it
    // The frame kept last closes holding a call resolved as read, and nothing read since it was
    // kept can ask for it after the parse (every GPU event resolved, every op taken, no call
    // waiting for its GPU event unresolved): let go. A call or op read later inside it breaks the
    // order (launch_reads.cpp). Forward frames stay: they are steps (step_index.cpp).
    if (out.tail_frame_used && !out.tail_frame_blocked && closed + 1 == out.frames.size() &&
        !(out.op_since_frame && !out.tail_op_used) && out.unresolved_pending == 0 &&
        c.role != FrameRole::prefill && c.role != FrameRole::decode) {
      out.frames.pop_back();
      out.tail_frame_used = false;
      ThreadReads& reads = out.reads_of(f.thread);
      reads.dropped_end = std::max(reads.dropped_end, c.end_us);
    }
  }
  if (!n.open.empty()) {
    const StackFrame& parent = out.frames[n.open.back()];
    // Forward-mode frames are steps of their own (step_index.cpp): always kept.
    if (parent.role == f.role && parent.says == f.says && f.role != FrameRole::prefill &&
        f.role != FrameRole::decode)
      return false;
  }
  n.open.push_back(static_cast<std::uint32_t>(out.frames.size()));
  return true;
}

// A frame whose words say something, or a module span, read on its thread: one beginning at or
// before a call resolved as read may have enclosed it, and the resolving did not see it.
void span_read(ChromeEvents& out, std::int32_t thread, double begin_us, double end_us,
               bool module) {
  if (!out.resolve_as_read) return;
  ThreadReads& reads = out.reads_of(thread);
  if (begin_us <= reads.resolved_max) out.order_broke = true;
  if (!module && reads.first_begin == std::numeric_limits<double>::infinity()) {
    reads.first_begin = begin_us;
    reads.first_end = end_us;
  }
  reads.spans_begin = std::min(reads.spans_begin, begin_us);
  reads.spans_begin_max = std::max(reads.spans_begin_max, begin_us);
  if (module) {
    reads.modules = true;
    reads.modules_end = std::max(reads.modules_end, end_us);
  }
}

}  // namespace

const FrameName& ChromeEvents::frame_name(std::string_view name) {
  if (const auto id = frame_texts.find(name)) return frame_names[*id];
  FrameName f;
  std::string_view module;
  if (module_name_of(name, module)) {
    f.module = labels.intern(module);
  } else {
    const FrameWords words = frame_words(name);
    f.role = words.role;
    if (f.role != FrameRole::none) f.says = labels.intern(words.says);
    if (f.says > k_says_mask) f.role = FrameRole::none;  // past StackFrame's ids: not kept
  }
  frame_texts.intern(name);
  frame_names.push_back(f);
  return frame_names.back();
}

void record_python_frame(const EventScratch& s, ChromeEvents& out) {
  const FrameName& name = out.frame_name(s.name);
  if (!name.kept()) return;
  const std::int32_t thread = out.thread_of(s.pid, s.tid);
  if (name.module != k_no_id) {
    out.modules.push_back({s.ts, s.ts + s.dur, thread, name.module});
    span_read(out, thread, s.ts, s.ts + s.dur, true);
    return;
  }
  StackFrame f;
  f.begin_us = s.ts;
  f.end_us = s.ts + s.dur;
  f.thread = thread;
  f.says = name.says & k_says_mask;
  f.role = name.role;
  span_read(out, thread, f.begin_us, f.end_us, false);
  if (says_more(f, out)) {
    out.frames.push_back(f);
    out.tail_frame_used = false;
    out.op_since_frame = false;
    // A call or op read before it, inside it, may ask for it after the parse.
    out.tail_frame_blocked = out.resolve_as_read && f.begin_us <= out.reads_of(thread).seen_max;
  }
}

}  // namespace roofline::topn::detail
