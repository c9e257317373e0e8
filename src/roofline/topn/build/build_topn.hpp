#pragma once
// The build of `roofline topn` (docs/method.md §18): TraceProfile -> TopnBuild (the TopnDocument
// and its signatures): ranking, rounding, short names, shapes/dtypes, classification and the
// kernel-family fields, per-regime fields. Pure.

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "roofline/classify/classify.hpp"
#include "roofline/inputs/inputs.hpp"
#include "roofline/inputs/kernel_backends.hpp"
#include "roofline/inputs/load.hpp"
#include "roofline/inputs/probes.hpp"
#include "roofline/topn/layer.hpp"
#include "roofline/topn/profile/trace_profile.hpp"

namespace roofline::topn {

// The kernel-family table (BackendRule, data/kernel_backends.tsv): roofline/kernel_backends.hpp.

// Python's round(x, digits) (round half to even on the exact binary value).
double round_to(double x, int digits);

struct TopnOptions {
  std::size_t top = 25;
};

// One signature as profile_workload.json writes it (docs/method.md §22.8).
struct WorkloadCase {
  std::vector<std::vector<std::int64_t>> dims;
  std::vector<std::string> dtypes;
  std::optional<Regime> regime;
  double count = 0.0;
  double baseline_latency_ms = 0.0;  // mean per call, rounded to 6 decimals
  std::optional<double> rows;        // the step's rows: tokens (prefill), requests (decode)
  std::string op, module;
  std::string collective, call_site;  // what the call stack said (docs/method.md §22.10)
  std::string library;
  std::vector<std::pair<std::size_t, std::string>> key_scalars;
  std::vector<ScalarRange> scalar_ranges;
  std::vector<std::int64_t> grid, block;
  std::optional<CaseNeighbour> before, after;  // the most common neighbour on its stream
  double total_ms = 0.0, mean_us = 0.0, median_us = 0.0, min_us = 0.0, max_us = 0.0;
  StepKindCounts steps;
  double step_count = 0.0;  // the steps its launches fell in
  double inherited = 0.0;
  bool replay = false;
  std::optional<std::size_t> order;  // first-launch rank, written when the kernel has several
};

// One Top-N entry's signatures, as profile_workload.json writes them (docs/method.md §22.8).
struct WorkloadKernel {
  std::vector<WorkloadCase> cases;  // most calls first
  double calls_without_shapes = 0.0;
};

// What `roofline topn` makes of a profile: profile_topN.json's document (the vocabulary load_topn
// reads it back into, roofline/inputs/topn_document.hpp) and, entry by entry, the signatures of
// profile_workload.json.
struct TopnBuild {
  TopnDocument topn;
  std::vector<WorkloadKernel> workload;  // aligned with topn.entries
  std::vector<std::string> warnings;     // one line each, for stderr (e.g. replays without shapes)
};

// Ranks the profile's kernels by total GPU time (ties by name), keeps the first `options.top`
// and fills every Top-N field. Pure: the same profile always gives the same document.
TopnBuild build_topn(const TraceProfile& profile, const TopnOptions& options,
                     const std::vector<ClassRule>& class_families,
                     const std::vector<BackendRule>& backends);

}  // namespace roofline::topn
