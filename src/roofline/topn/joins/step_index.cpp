// Step spans -> steps (docs/method.md §22.7): overlapping spans on one thread are one step (the
// outer span gives the extent, the span with Σ terms the figures), the CPU side chosen when its
// spans hold the launches, and the per-regime sums of what the steps wrote.
#include "roofline/topn/joins/step_index.hpp"

#include <algorithm>
#include <iterator>
#include <tuple>
#include "roofline/topn/layer.hpp"

namespace roofline::topn::detail {
namespace {

// The spans of one side, grouped: sorted by (key, begin, longest first), a span that starts
// before the current group ends joins it.
std::vector<Step> group_spans(std::vector<const StepSpan*> spans, bool gpu) {
  const auto key_of = [gpu](const StepSpan& s) { return gpu ? s.device : s.thread; };
  std::stable_sort(spans.begin(), spans.end(), [&](const StepSpan* a, const StepSpan* b) {
    return std::make_tuple(key_of(*a), a->begin_us, -a->end_us) <
           std::make_tuple(key_of(*b), b->begin_us, -b->end_us);
  });
  std::vector<Step> out;
  std::vector<const StepSpan*> members;
  const auto close = [&]() {
    if (members.empty()) return;
    const auto best = std::find_if(members.begin(), members.end(),
                                   [](const StepSpan* s) { return s->name.has_sigma(); });
    Step& step = out.back();
    step.name = (best != members.end() ? *best : members.front())->name;
    for (const StepSpan* m : members) step.name.fill_from(m->name);
    step.prefill = step.name.prefill();
    step.rows = step.name.rows();
    step.rows_known = std::all_of(members.begin(), members.end(),
                                  [](const StepSpan* m) { return m->rows_known; });
    step.graph_size = step.name.graph_size();
    members.clear();
  };
  for (const StepSpan* s : spans) {
    if (!out.empty() && out.back().key == key_of(*s) && s->begin_us < out.back().end_us) {
      out.back().end_us = std::max(out.back().end_us, s->end_us);
      members.push_back(s);
      continue;
    }
    close();
    Step step;
    step.key = key_of(*s);
    step.begin_us = s->begin_us;
    step.end_us = s->end_us;
    out.push_back(step);
    members.push_back(s);
  }
  close();
  return out;
}

bool is_launch(RuntimeKind k) {
  return k == RuntimeKind::launch || k == RuntimeKind::graph_launch || k == RuntimeKind::memcpy ||
         k == RuntimeKind::memset || k == RuntimeKind::other;
}

void add_part(const StepPart& p, StepPartSums& into) {
  const bool present = p.requests ? *p.requests > 0 : p.sum_q.value_or(0.0) > 0;
  if (!present) return;
  into.steps += 1.0;
  const auto add = [](const std::optional<double>& v, double& sum, double& steps) {
    if (!v) return;
    sum += *v;
    steps += 1.0;
  };
  add(p.requests, into.requests, into.requests_steps);
  add(p.sum_q, into.sum_q, into.q_steps);
  add(p.sum_kv, into.sum_kv, into.kv_steps);
  add(p.sum_q2, into.sum_q2, into.q2_steps);
  add(p.sum_qkv, into.sum_qkv, into.qkv_steps);
}

void add_sums(const StepPartSums& from, StepPartSums& into) {
  into.steps += from.steps;
  into.requests += from.requests;
  into.sum_q += from.sum_q;
  into.sum_kv += from.sum_kv;
  into.sum_q2 += from.sum_q2;
  into.sum_qkv += from.sum_qkv;
  into.requests_steps += from.requests_steps;
  into.q_steps += from.q_steps;
  into.kv_steps += from.kv_steps;
  into.q2_steps += from.q2_steps;
  into.qkv_steps += from.qkv_steps;
}

void join_source(const std::string& source, std::string& into) {
  if (source.empty()) return;
  if (into.empty()) {
    into = source;
    return;
  }
  std::size_t at = 0;
  while (at <= into.size()) {
    const std::size_t end = std::min(into.find('+', at), into.size());
    if (into.compare(at, end - at, source) == 0) return;
    at = end + 1;
  }
  into += "+" + source;
}

}  // namespace

std::size_t step_holding(const std::vector<Step>& steps, std::int32_t key, double ts,
                         std::size_t& near) {
  // A step that holds ts is the one a search finds: the steps of a key are disjoint and sorted.
  for (std::size_t i = near; i < steps.size() && i < near + 2; ++i)
    if (steps[i].key == key && steps[i].begin_us <= ts && ts < steps[i].end_us) return near = i;
  auto it = std::upper_bound(steps.begin(), steps.end(), std::pair{key, ts},
                             [](const std::pair<std::int32_t, double>& k, const Step& s) {
                               return std::tie(k.first, k.second) < std::tie(s.key, s.begin_us);
                             });
  if (it == steps.begin()) return steps.size();
  --it;
  if (it->key != key || !(ts < it->end_us)) return steps.size();
  return near = static_cast<std::size_t>(it - steps.begin());
}

const Step* StepIndex::find(std::int32_t key, double ts) const {
  const std::size_t at = step_holding(steps, key, ts, near);
  return at < steps.size() ? &steps[at] : nullptr;
}

namespace {

// Drops the steps that state zero tokens or hold no work: a launch on their thread (CPU spans) or
// GPU activity on their device (GPU spans) inside their extent.
void drop_empty_steps(const ChromeEvents& ev, StepIndex& index) {
  std::vector<char> busy(index.steps.size(), 0);
  std::size_t near = 0;
  const auto mark = [&](std::int32_t key, double ts) {
    const std::size_t at = step_holding(index.steps, key, ts, near);
    if (at < busy.size()) busy[at] = 1;
  };
  if (index.by_launch) {
    for (const auto& r : ev.runtime)
      if (is_launch(r.kind)) mark(r.thread, r.ts_us);
    for (const auto& g : ev.gpu)  // the calls joined to their GPU event as they were read
      if (g.launch_thread >= 0) mark(g.launch_thread, g.launch_ts_us());
  } else {
    for (const auto& g : ev.gpu) mark(ev.device_of(g), g.ts_us);
  }
  std::vector<Step> kept;
  for (std::size_t i = 0; i < index.steps.size(); ++i) {
    const Step& s = index.steps[i];
    const bool zero_tokens = s.rows == 0.0 && s.name.step_tokens().value_or(-1.0) == 0.0;
    if (busy[i] && !zero_tokens)
      kept.push_back(s);
    else
      index.empty += 1.0;
  }
  index.steps = std::move(kept);
}

}  // namespace

namespace {

// docs/method.md §22.10: the forward-mode frames of the call stack as CPU step spans — the regime
// from the function's name, no figures (a step of unknown rows).
std::vector<StepSpan> stack_step_spans(const ChromeEvents& ev) {
  std::vector<StepSpan> out;
  for (const StackFrame& f : ev.frames) {
    if (f.role != FrameRole::prefill && f.role != FrameRole::decode) continue;
    StepSpan s;
    s.gpu = false;
    s.thread = f.thread;
    s.begin_us = f.begin_us;
    s.end_us = f.end_us;
    s.name.style = StepStyle::sglang;
    s.name.prefill_kind = f.role == FrameRole::prefill;
    s.prefill = s.name.prefill_kind;
    s.rows_known = false;
    out.push_back(s);
  }
  return out;
}

StepIndex stack_step_index(const ChromeEvents& ev) {
  StepIndex index;
  const std::vector<StepSpan> spans = stack_step_spans(ev);
  if (spans.empty()) return index;
  std::vector<const StepSpan*> cpu;
  for (const StepSpan& s : spans) cpu.push_back(&s);
  index.steps = group_spans(std::move(cpu), false);
  index.by_launch = true;
  index.source = "python_function";
  drop_empty_steps(ev, index);
  index.empty = 0.0;  // a forward that launched nothing is no step, and no annotation either
  return index;
}

}  // namespace

StepIndex build_step_index(const ChromeEvents& ev) {
  std::vector<const StepSpan*> cpu, gpu;
  for (const StepSpan& s : ev.steps) (s.gpu ? gpu : cpu).push_back(&s);
  if (cpu.empty() && gpu.empty()) return stack_step_index(ev);
  StepIndex index;
  if (!cpu.empty()) {
    index.steps = group_spans(std::move(cpu), false);
    index.by_launch = true;
    index.source = "user_annotation";
    const bool holds_launch =
        std::any_of(
            ev.runtime.begin(), ev.runtime.end(),
            [&](const auto& r) { return is_launch(r.kind) && index.find(r.thread, r.ts_us); }) ||
        std::any_of(ev.gpu.begin(), ev.gpu.end(), [&](const auto& g) {
          return g.launch_thread >= 0 && index.find(g.launch_thread, g.launch_ts_us());
        });
    if (holds_launch || gpu.empty()) {
      drop_empty_steps(ev, index);
      return index;
    }
  }
  if (gpu.empty()) return index;
  index.steps = group_spans(std::move(gpu), true);
  index.by_launch = false;
  index.source = "gpu_user_annotation";
  drop_empty_steps(ev, index);
  return index;
}

void add_step_stats(const StepIndex& index, const ChromeEvents& ev, StepStats& stats) {
  for (const Step& s : index.steps) {
    if (!s.rows_known) {  // a forward of the call stack: its regime, nothing counted
      (s.prefill ? stats.n_prefill : stats.n_decode) += 1.0;
      (s.prefill ? stats.prefill_unrowed : stats.decode_unrowed) += 1.0;
      continue;
    }
    if (s.prefill) {
      stats.n_prefill += 1.0;
      stats.prefill_rows_sum += s.rows;
      add_part(s.name.context, stats.prefill_context);
      add_part(s.name.generation, stats.prefill_generation);
    } else {
      stats.n_decode += 1.0;
      stats.decode_batches[static_cast<std::int64_t>(s.rows)] += 1.0;
      StepPart g = s.name.generation;
      if (!g.requests) g.requests = s.name.decode_requests();
      add_part(g, stats.decode_generation);
    }
  }
  if (!index.steps.empty()) join_source(index.source, stats.source);
  stats.empty += index.empty;
  if (ev.unparsed_steps > 0 && stats.unparsed == 0.0) stats.unparsed_example = ev.unparsed_example;
  stats.unparsed += ev.unparsed_steps;
}

void add_step_stats(const StepStats& from, StepStats& into) {
  into.n_prefill += from.n_prefill;
  into.n_decode += from.n_decode;
  into.prefill_rows_sum += from.prefill_rows_sum;
  into.prefill_unrowed += from.prefill_unrowed;
  into.decode_unrowed += from.decode_unrowed;
  into.empty += from.empty;
  for (const auto& [batch, n] : from.decode_batches) into.decode_batches[batch] += n;
  join_source(from.source, into.source);
  add_sums(from.prefill_context, into.prefill_context);
  add_sums(from.prefill_generation, into.prefill_generation);
  add_sums(from.decode_generation, into.decode_generation);
  if (from.unparsed > 0 && into.unparsed == 0.0) into.unparsed_example = from.unparsed_example;
  into.unparsed += from.unparsed;
}

}  // namespace roofline::topn::detail
