#pragma once
// Private to src/topn: a kernel's launches summed per signature (docs/method.md §22.8) while the
// Chrome-trace events are joined, then turned into the TraceKernel's cases: the launches without a
// launching op inherit the one shaped signature with their grid and block, or stay apart.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "roofline/topn/readers/chrome_events.hpp"

namespace roofline::topn::detail {

enum class StepKind : std::uint8_t { none, prefill, decode, mixed };

// What one launch brings to its signature.
struct SigLaunch {
  double us = 0.0;
  double ts_us = 0.0;  // when it started
  StepKind step = StepKind::none;
  std::optional<double> rows;      // the step's rows
  const void* step_id = nullptr;   // the step it fell in (nullptr: none)
  std::uint32_t module = k_no_id;  // labels id
  // What the call stack said of its launch (call_stacks.hpp; labels ids, k_no_id none).
  std::uint32_t collective = k_no_id, call_site = k_no_id, library = k_no_id;
  const OpRec* op = nullptr;  // its varying scalars (eager launches with an op)
  bool launched = true;       // it has a runtime launch (or an op): its step is known
};

struct ScalarSum {
  double min = 0.0, max = 0.0, sum = 0.0, n = 0.0;
};

struct SigSum {
  double count = 0.0, us = 0.0, min_us = 0.0, max_us = 0.0;
  double first_us = 0.0;  // the start of its first launch
  std::vector<float> durations;
  StepKindCounts steps;
  double step_count = 0.0;          // the steps its launches fell in (a change of step counts one)
  const void* last_step = nullptr;  // the step of its last launch
  std::optional<double> rows;
  bool rows_differ = false;
  std::map<std::uint32_t, double> modules;
  std::map<std::uint32_t, double> collectives, call_sites, libraries;  // what the stack said
  std::map<std::uint32_t, ScalarSum> scalars;                          // argument position -> range
  double inherited = 0.0;
  bool replay = false;
  void add(const SigLaunch& l, const ChromeEvents& ev);
  void merge(const SigSum& other);
};

// A launch geometry as ChromeEvents::geometries spells it ("3,1,1;128,1,1") -> grid {3,1,1} and
// block {128,1,1}; left as they are when the text is not six numbers.
void read_geometry(const std::string& text, std::vector<std::int64_t>& grid,
                   std::vector<std::int64_t>& block);

// (op label, OpShape, geometry, module, collective); k_no_id where the launch has none. The module
// path and the collective the call stack names are keys only of launches without operand shapes
// (docs/method.md §22.10): there they are the evidence that tells two projections, or two
// collectives, of one kernel at one grid apart.
using SigKey =
    std::tuple<std::uint32_t, std::uint32_t, std::uint32_t, std::uint32_t, std::uint32_t>;

struct KernelSignatures {
  std::map<SigKey, SigSum> sigs;
  std::map<SigKey, SigSum> orphans;  // launches with no launching op for shapes
  // Adds one launch: `orphan` when it has no launching op with dims and is not a graph replay. An
  // orphan with no runtime launch of its own is in no step (docs/method.md §22.8).
  void add(const SigKey& key, bool orphan, bool replay, const SigLaunch& l, const ChromeEvents& ev);
  // The inheritance rule, then every signature as a TraceCase (most launches first).
  std::vector<TraceCase> finish(const ChromeEvents& ev);
};

}  // namespace roofline::topn::detail
