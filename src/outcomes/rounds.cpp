// Round names as strings, the round folders of an evaluation folder, and step counts.
#include "roofline/rounds.hpp"

#include <algorithm>
#include <charconv>
#include <system_error>

#include <fmt/format.h>

namespace roofline {
namespace fs = std::filesystem;

void set_input_round(InputPaths& paths, const std::string& round) {
  paths.round = round;
}

StepCount round_step_count(const TopN& topn) {
  StepCount s;
  const ServingInfo& sv = topn.serving;
  if (!sv.n_prefill_steps && !sv.n_decode_steps) {
    s.reason = sv.present ? "the Top-N's serving block has no step counts"
                          : "the Top-N has no serving step counts (no step annotations)";
    return s;
  }
  const double prefill = sv.n_prefill_steps.value_or(0.0);
  const double decode = sv.n_decode_steps.value_or(0.0);
  if (!(prefill + decode > 0)) {
    s.reason = "the Top-N's serving step counts are zero";
    return s;
  }
  s.steps = prefill + decode;
  s.source = fmt::format("profiler serving: {:g} prefill + {:g} decode steps", prefill, decode);
  return s;
}

}  // namespace roofline
