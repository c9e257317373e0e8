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

EntrySummary summarize_entry(const HeadEntry& e, const ResolvedPeaks& peaks);

// The roof column as a person reads it: an infeasible (suspect) entry is never a position on the
// roof — its unclamped figure marked "!" ("167.8%!"), or "—" without one; the JSON keeps the
// schema's clamped roofline_pct with suspect and roofline_pct_raw.
// An entry whose band spans classes with nothing to pick its reading (docs/method.md §10.8,
// withheld) is no position on the roof either: "—", the band's line gives its range.
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
