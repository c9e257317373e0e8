#pragma once
// Pass advise (docs/method.md §14): the route and the byte-reduction levers of one entry.
#include <optional>
#include <string>
#include <vector>

#include "roofline/analyze/layer.hpp"
#include "roofline/analyze/steps/resolve_peaks.hpp"
#include "roofline/inputs/inputs.hpp"

namespace roofline::analyze {

struct HeadEntry;

// A kernel the trace launched right beside the entry's on its stream, that a fusion would merge
// with it (docs/method.md §10.4): its short name, its side, the entry's launches it stood beside,
// and its share of GPU time where the Top-N names it once.
struct FusionPartner {
  std::string kernel;
  std::string side;  // "before" | "after"
  double launches = 0.0;
  std::optional<double> pct_gpu_time;
  // docs/method.md §10.4: the most the fusion can win end to end — the intermediate's HBM round
  // trip (written by one kernel, read by the other) on the memory roof. The intermediate is at most
  // the entry's activation traffic (bytes − weights − KV cache per unit), so both are upper
  // bounds; nullopt where the entry has no byte model or roof.
  std::optional<double> round_trip_bytes_max;
  std::optional<double> e2e_gain_pct_max;
};

struct Advice {
  std::string route;
  std::vector<std::string> levers;
  std::vector<FusionPartner> partners;  // the fusion lever's partners, from the trace's order
};
// Route (docs/method.md §10.4 table + shippability gate) and concrete byte-reduction levers
// (saturated only), from the entry's class, work, verdict and grade (steps 7-10; HeadEntry:
// roofline/analyze/head_entry.hpp).
Advice advise(const HeadEntry& entry, const TopnDocument& topn, const ResolvedPeaks& peaks);

}  // namespace roofline::analyze
