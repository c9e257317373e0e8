#pragma once
// Private to src/topn: a trace's steps (docs/method.md §22.7) — step annotation spans grouped into
// steps (spans that overlap on one thread are one step), and the lookup that attributes a GPU event
// to the step holding its launch (CPU spans) or, when the trace has only those, its GPU time.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "roofline/topn/layer.hpp"
#include "roofline/topn/readers/chrome_events.hpp"

namespace roofline::topn::detail {

struct Step {
  std::int32_t key = -1;  // the thread (CPU spans) or the device (GPU spans)
  double begin_us = 0.0, end_us = 0.0;
  StepName name;  // the figures: the span with Σ terms, completed from the others
  bool prefill = false;
  double rows = 0.0;
  bool rows_known = true;  // false: a step of the call stack's forward frames, which count nothing
  std::optional<double> graph_size;
};

struct StepIndex {
  std::vector<Step> steps;  // sorted by (key, begin_us); disjoint within one key
  bool by_launch = false;   // CPU spans: look a GPU event up by its launch's thread and time
  std::string source;       // "user_annotation", "gpu_user_annotation" or "" (no steps)
  double empty = 0.0;       // annotations dropped as no step: zero tokens or no launch inside
  // The step of `key` whose extent holds `ts`, if any. Asked launch after launch, the step found
  // last and the one after it are tried before a binary search (not to be asked from two threads).
  const Step* find(std::int32_t key, double ts) const;
  mutable std::size_t near = 0;
};

// The index in `steps` (sorted by (key, begin_us), disjoint within one key) of the step of `key`
// whose extent holds `ts`, or steps.size(); `near` is tried first, with the step after it, and is
// left at what was found.
std::size_t step_holding(const std::vector<Step>& steps, std::int32_t key, double ts,
                         std::size_t& near);

// Groups the spans of `ev` into steps. The CPU spans are used when any of them holds a launch
// (a runtime launch event on its thread inside it); otherwise the GPU spans, when there are any;
// otherwise the call stack's forward-mode frames (docs/method.md §22.10: a prefill or decode
// forward of the engine is a step whose regime is known and whose rows are not).
// A step that states zero tokens, or that holds no launch (CPU) or no GPU activity (GPU), is not a
// step (docs/method.md §22.7: vLLM's `execute_context_0(0)_generation_0(0)` launches nothing).
StepIndex build_step_index(const ChromeEvents& ev);

// Adds the steps' counts, rows and Σ terms to `stats` (and the unparsed names of `ev`).
void add_step_stats(const StepIndex& index, const ChromeEvents& ev, StepStats& stats);

// Adds `from` into `into` (several traces).
void add_step_stats(const StepStats& from, StepStats& into);

}  // namespace roofline::topn::detail
