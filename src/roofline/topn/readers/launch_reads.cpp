// Launches resolved as they are read (chrome_events.hpp): where a trace writes each launch's
// frames, op and runtime call one after the other (its kernel right after, or later), the call
// takes what its op and call stack give it as it is read, its kernel takes that from the call, and
// the op and the frames can be let go — the trace's memory is then its GPU events', not its CPU
// side's. It is done only where the records read so far decide what the joins over all of them
// would give (the op is the last one read, its id above every earlier op's; the frames on the
// thread arrived nested and in order, none begins after the call; no module span is on the thread),
// and whatever could make that untrue later is watched for: an op whose id is not above those
// taken, a frame or module span beginning before a resolved call, a join asking for an op or a
// frame let go. Any of these sets `order_broke`, and the file is read again holding everything
// (read_trace.cpp).
#include <algorithm>
#include <cmath>

#include "roofline/topn/layer.hpp"
#include "roofline/topn/readers/chrome_events.hpp"

namespace roofline::topn::detail {
namespace {

// Distinct origins kept at most: past it (a trace whose ops' scalars change launch by launch), no
// more launches are resolved as read and their ops are kept as before.
constexpr std::size_t k_max_origins = std::size_t{1} << 16;
// GPU events read before their call kept in mind at most: past it (a trace that writes its GPU
// events first), no call is resolved any more.
constexpr std::size_t k_max_unjoined = 4096;

// The op's start as `lead` before the call's, when a float holds that lead exactly.
bool exact_lead(double call_ts, double op_ts, float& lead) {
  const double d = call_ts - op_ts;
  if (!(d >= 0.0) || d > 1e30) return false;
  lead = static_cast<float>(d);
  return static_cast<double>(lead) == d && call_ts - static_cast<double>(lead) == op_ts;
}

}  // namespace

bool ChromeEvents::op_dropped(std::int64_t ext) const {
  const auto it = std::upper_bound(
      dropped_ops.begin(), dropped_ops.end(), ext,
      [](std::int64_t v, const std::pair<std::int64_t, std::int64_t>& r) { return v < r.first; });
  return it != dropped_ops.begin() && ext <= std::prev(it)->second;
}

std::uint32_t ChromeEvents::intern_origin(const ResolvedOrigin& o) {
  const std::array<std::uint32_t, 6> key{o.shape,      o.op,        o.scalars,
                                         o.collective, o.call_site, o.library};
  const auto [it, fresh] = origin_ids.try_emplace(key, static_cast<std::uint32_t>(origins.size()));
  if (fresh) origins.push_back(o);
  return it->second;
}

void before_op(const OpRec& op, ChromeEvents& out) {
  if (!out.resolve_as_read) return;
  out.cpu_read(op.thread, op.ts_us);
  // The last op, read inside the last frame and taken by no launch resolved as read: a launch may
  // ask for its call stack after the parse.
  if (out.op_since_frame && !out.tail_op_used) out.tail_frame_blocked = true;
  out.op_since_frame = true;
  if (op.external_id <= out.max_resolved_ext) out.order_broke = true;  // it may be a taken op's id
  if (op.external_id <= out.max_op_ext) out.ops_increasing = false;
  if (out.tail_op_used && !out.ops.empty()) {
    const std::int64_t ext = out.ops.back().external_id;
    out.ops.pop_back();
    if (!out.dropped_ops.empty() && out.dropped_ops.back().second + 1 == ext)
      out.dropped_ops.back().second = ext;
    else
      out.dropped_ops.emplace_back(ext, ext);
  }
  out.tail_op_used = false;
  out.min_op_ext = std::min(out.min_op_ext, op.external_id);
  out.max_op_ext = std::max(out.max_op_ext, op.external_id);
}

void gpu_read(const GpuEventRec& g, ChromeEvents& out) {
  if (g.resolved) return;
  out.tail_frame_blocked = true;  // its call stack may be asked for after the parse
  if (!out.resolve_as_read || g.launch_thread >= 0 || g.correlation() < 0) return;
  if (out.unjoined.size() < k_max_unjoined)
    out.unjoined.insert(g.correlation());
  else
    out.unjoined_overflow = true;
}

void resolve_call(RuntimeRec& r, ChromeEvents& out) {
  if (!out.resolve_as_read || out.order_broke || out.keep_runtime || r.thread < 0) return;
  // No op read yet: the CPU side is in another part of the file (a part of a trace that writes
  // every op and frame first), whose frames this part has not seen.
  if (out.ops.empty() || out.origins.size() >= k_max_origins || out.unjoined_overflow) return;
  // Its GPU event came first: it will be joined after the parse, and ask for the op and frames.
  if (!out.unjoined.empty() && out.unjoined.erase(r.correlation) > 0) return;
  const std::int32_t thread = r.thread;
  const double call_ts = r.ts_us;
  ThreadReads& reads = out.reads_of(thread);
  if (reads.modules || !std::isfinite(call_ts)) return;
  ResolvedOrigin o;
  float lead = 0.0f;
  double op_ts = call_ts;
  if (r.external_id >= 0) {
    // Its op (EventLookup: the record of its External id) is the last op read, and no op before it
    // had that id or a larger one.
    if (!out.ops_increasing) return;
    const OpRec& op = out.ops.back();
    if (op.external_id != r.external_id || op.thread != thread) return;
    if (!exact_lead(call_ts, op.ts_us, lead)) return;
    o.shape = op.shape;
    o.op = op.name;
    o.scalars = op.scalars;
    op_ts = op.ts_us;
  }
  // Its call stack (StackIndex::at): the kept frames open on the thread, innermost first, that
  // enclose the call — all of them, when the frames arrived nested, in order, and none after it.
  LaunchStack stack;
  bool tail_frame_in = false;
  if (static_cast<std::size_t>(thread) < out.frame_nesting.size()) {
    const FrameNesting& n = out.frame_nesting[static_cast<std::size_t>(thread)];
    if (!n.ordered || n.improper || (!n.open.empty() && call_ts < n.last_begin)) return;
    for (auto it = n.open.rbegin(); it != n.open.rend(); ++it) {
      const StackFrame& f = out.frames[*it];
      if (call_ts >= f.end_us) continue;
      stack.add_outer(f);
      if (*it + 1 == out.frames.size()) tail_frame_in = true;
    }
  }
  o.collective = stack.collective;
  o.call_site = stack.call_site;
  o.library = stack.library;
  r.origin = out.intern_origin(o);
  r.lead_us = lead;
  if (o.op != k_no_id) {
    out.tail_op_used = true;
    out.min_resolved_ext = std::min(out.min_resolved_ext, r.external_id);
    out.max_resolved_ext = std::max(out.max_resolved_ext, r.external_id);
  }
  if (tail_frame_in) out.tail_frame_used = true;
  reads.resolved_min = std::min(reads.resolved_min, op_ts);
  reads.resolved_max = std::max(reads.resolved_max, call_ts);
}

}  // namespace roofline::topn::detail
