#pragma once
// What advise leaves on an entry (docs/method.md §14): the route, the byte-reduction levers and
// the fusion partners.
#include <optional>
#include <string>
#include <vector>

#include "roofline/analyze/layer.hpp"

namespace roofline::analyze {

// A kernel the trace launched right beside the entry's on its stream, that a fusion would merge
// with it (docs/method.md §10.4): its short name, its side, the entry's launches it stood beside,
// and its share of GPU time where the Top-N names it once.
struct FusionPartner {
  std::string kernel;   // the partner's full kernel name, as the trace spells it
  std::string display;  // its short name, for people
  std::string side;     // "before" | "after"
  std::string cls;      // its class as the Top-N names it ("elementwise:act_and_mul"); "" unknown
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

}  // namespace roofline::analyze
