#pragma once
// An entry in a few lines, for the report (above its collapsed derivation) and the terminal
// (under the table): its verdict, the one formula with its numbers, and the assumption that moves
// it most (docs/method.md §16.2). Plain text: the report escapes it.

#include <string>
#include <vector>

#include "roofline/analyze/entry/head_entry.hpp"
#include "roofline/analyze/steps/resolve_peaks.hpp"
#include "roofline/render/layer.hpp"

namespace roofline::render {

struct EntrySummary {
  std::string verdict;     // "memory-bound, moderate: +1.23% e2e at 1.50× attainable"
  std::string formula;     // "203.2 MB / 67.16 µs = 3.03 TB/s = 57.1% of 5.3 TB/s"
  std::string assumption;  // "byte model 'weights + activations' (the alternative … gives …)"
};

// `same_as` (docs/method.md §16.4): an earlier entry whose problem says what this one's does, as
// "entry N (name)": the verdict points to it instead of saying the message again.
EntrySummary summarize_entry(const HeadEntry& e, const ResolvedPeaks& peaks,
                             const std::string& same_as = "");

// The roof column as a person reads it (docs/method.md §10.6): an entry's place on the roof, its
// own figure where a measured ceiling is beaten ("102.1%"), and "—" for every entry without a
// verdict — infeasible, dispatch-bound, a band across classes, no roof: none is a place on the
// roof, and its verdict text says why (an infeasible one with its raw ratio).
std::string roof_pct_shown(const Verdict& v);
std::string roof_pct_shown(const SignatureVerdict& v);
// The bound column: "—" for a withheld band (the readings may sit on either side of the ridge).
std::string bound_shown(const Verdict& v);

// The share of GPU time (pct_gpu_time, summed) the head entries with a verdict cover, and the
// share the others hold: "most to win" is only ever among the former.
struct VerdictCover {
  double with = 0.0, without = 0.0;
};
VerdictCover verdict_cover(const std::vector<HeadEntry>& entries);

}  // namespace roofline::render
