// The names of a verdict's closed sets, and the gain it is sure of (docs/method.md §10.8).
#include "roofline/analyze/entry/verdict.hpp"

#include <algorithm>

namespace roofline::analyze {

const char* to_string(Roof r) {
  switch (r) {
    case Roof::hbm:
      return "hbm";
    case Roof::compute:
      return "compute";
    case Roof::link:
      return "link";
    case Roof::none:
      break;
  }
  return "";
}

const char* to_string(BandKind k) {
  switch (k) {
    case BandKind::one_feasible:
      return "one_feasible";
    case BandKind::holds:
      return "holds";
    case BandKind::spans:
      return "spans";
    case BandKind::point:
      break;
  }
  return "point";
}

double sure_gain_pct(const Verdict& v) {
  return v.band.expected_e2e_gain_pct && v.band.kind != BandKind::point
             ? std::min(v.band.expected_e2e_gain_pct->lo, v.expected_e2e_gain_pct)
             : v.expected_e2e_gain_pct;
}

bool gain_beyond_noise(const Verdict& v) {
  return v.headroom != Headroom::unknown && v.attainable_speedup > 1.0 + k_noise_speedup;
}

}  // namespace roofline::analyze
