#pragma once
// What judge leaves on an entry (docs/method.md §9, §10): utilization, bound, headroom, the
// verdict of each signature and the band of readings; and the parameters it judges with.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "roofline/analyze/entry/work_estimate.hpp"
#include "roofline/analyze/layer.hpp"
#include "roofline/base/vocabulary.hpp"
#include "roofline/inputs/calibration.hpp"

namespace roofline::analyze {

// The launch overhead a dispatch-bound kernel is held to (docs/method.md §10.6).
inline constexpr double k_default_launch_overhead_us = 5.0;

struct VerdictParams {
  double launch_overhead_us = k_default_launch_overhead_us;
  // The run replays captured graphs (most launches inside CUDA/HIP graph replays): a short
  // kernel there has no CPU launch to blame (docs/method.md §10.6).
  bool graph_replayed = false;
  // analyze --calibration (docs/method.md §17.5): null = the shipped priors only.
  const CalibrationTable* calibration = nullptr;
  std::size_t calibration_min_n = k_default_min_n;
};
// Which roof judged an entry (the artifact's `roof`): none = no roof decided (the key is left out).
enum class Roof { none, hbm, compute, link };
// "hbm" | "compute" | "link" ("" for none).
const char* to_string(Roof r);
// One signature judged on its own roof (docs/method.md §22.8).
struct SignatureVerdict {
  std::optional<double> arithmetic_intensity, hbm_util, compute_util;
  std::optional<double> roofline_pct;      // its own roof time over its own time, with a verdict
  std::optional<double> roofline_pct_raw;  // the same ratio, verdict or not
  std::optional<double> roof_launch_ms;    // max(bytes/BW, FLOPs/peak) per launch
  Roof roof = Roof::none;
  Bound bound = Bound::unknown;
  Headroom headroom = Headroom::unknown;
  bool suspect = false, dispatch_bound = false;
  double win_ms = 0.0;  // over its launches: its time less the time at its target
};

// docs/method.md §10.8: one reading judged by the same formulas as the point (§10.1, §10.5).
struct ReadingVerdict {
  Reading reading;
  bool taken = false;     // the reading bytes_est and flops_est are
  bool feasible = false;  // inside the sanity band and not dispatch-bound: it has a verdict
  std::optional<double> roofline_pct;  // set only where feasible: no verdict, no place
  double attainable_speedup = 1.0, expected_e2e_gain_pct = 0.0;
  Headroom headroom = Headroom::unknown;
};
// What the readings say together: one point (the evidence fixes the figure, or one reading is
// feasible), a band inside one headroom class, or a band across classes.
enum class BandKind { point, one_feasible, holds, spans };
const char* to_string(BandKind k);
struct Interval {
  double lo = 0.0, hi = 0.0;
};
struct Band {
  std::vector<ReadingVerdict> readings;  // the taken reading first; empty: no model, no band
  BandKind kind = BandKind::point;
  // Over the feasible readings (unset when none is feasible).
  std::optional<Interval> roofline_pct, attainable_speedup, expected_e2e_gain_pct;
  std::vector<Headroom> classes;  // the feasible readings' classes, best to worst, each once
  std::string settle;             // spans: what evidence would settle the reading
  bool withheld = false;          // spans, and nothing picks the taken reading: no verdict
};

struct Verdict {
  std::vector<SignatureVerdict> signatures;  // parallel to WorkEstimate::signatures
  std::optional<std::size_t> most_to_win;    // index of the signature with the most to win
  std::optional<double> achieved_bw_bytes_s, achieved_flops;
  std::optional<double> hbm_util, compute_util;
  std::optional<double> link_util;  // comm: link_bytes / t / aggregate link roof
  Roof roof = Roof::none;
  // Why no roof judged the entry though its model and the bandwidth are known (a class with math
  // and no FLOP peak for its dtype: docs/method.md §5.3); "" otherwise.
  std::string no_roof_reason;
  std::optional<double> arithmetic_intensity, ridge_point;
  Bound bound = Bound::unknown;
  // roofline_pct: the place on the roof, set only with a verdict (docs/method.md §10.6); above 1
  // where a measured ceiling is beaten within the datasheet (§5.7, ceiling_beaten).
  std::optional<double> roofline_pct, roofline_pct_raw;
  bool ceiling_beaten = false;
  // Which figure the roof axis divides by (docs/method.md §5.7); a link roof is a datasheet one.
  CeilingKind ceiling = CeilingKind::datasheet;
  bool ceiling_recorded = false;  // the run's peaks carry a measured block: the artifact names it
  std::optional<double> target_eff;
  std::string target_eff_source;  // "prior" | "calibrated (n=…, FILE)"; "" without calibration
  double attainable_speedup = 1.0;
  double expected_e2e_gain_pct = 0.0;
  Headroom headroom = Headroom::unknown;
  bool suspect = false;
  bool dispatch_bound = false;
  bool in_graph_replay = false;  // dispatch_bound inside a captured graph: ramp and tail bound it
  bool compute_axis = false;
  std::optional<double> bytes_upper_bound, flops_upper_bound;
  std::optional<double> implied_max_experts_hit;
  bool stage_c_candidate = false;
  Band band;  // docs/method.md §10.8
  std::vector<std::string> notes;
};

// docs/method.md §10.8: the low end of an entry's gain band (its point gain without a band).
double sure_gain_pct(const Verdict& v);

// The noise band of a measured speedup (docs/method.md §17.1): a kernel made faster by less than
// 3.4 % cannot be told from a rerun.
inline constexpr double k_noise_speedup = 0.034;
// docs/method.md §15: a verdict with something to win — its attainable speedup beyond the noise
// band. Only such an entry is ever called the one with "the most to win".
bool gain_beyond_noise(const Verdict& v);

}  // namespace roofline::analyze
