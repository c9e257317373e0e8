#pragma once
// What check_config found (docs/method.md §23.6): the trace's GEMM shapes against the config's
// projections.
#include <string>
#include <utility>
#include <vector>

#include "roofline/analyze/layer.hpp"

namespace roofline::analyze {

struct ConfigCheck {
  // (K, N) of each GEMM signature the op table could read, and which of them the config explains.
  std::vector<std::pair<double, double>> trace_gemms;
  std::vector<bool> matched;
  // The config's projections per rank, as (K, N) with their names: "qkv 2048×6144".
  std::vector<std::string> config_gemms;
  // True when the evidence contradicts the config for the whole trace: at least two distinct GEMM
  // shapes and none of them a projection of the config.
  bool contradicts = false;
  std::string text;  // the run-level diagnostic, naming both sides' dims ("" when it matches)
};

}  // namespace roofline::analyze
