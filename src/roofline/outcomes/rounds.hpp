#pragma once
// What compare and outcomes need of a round beyond its folder (eval_inputs.hpp: round names,
// round_dir, rounds_in): the InputPaths of a round, and its step count.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "roofline/inputs/eval_inputs.hpp"
#include "roofline/inputs/inputs.hpp"
#include "roofline/outcomes/layer.hpp"

namespace roofline::outcomes {

// The one place a round name meets InputPaths: afterwards load_inputs reads that round's folder
// (Top-N, and the env report beside it as the fallback) whatever the name.
void set_input_round(InputPaths& paths, const std::string& round);

// A round's step count, as the GPU-time-per-step comparison needs it. `steps` is set when the
// Top-N gives one; `source` says where it came from, `reason` why there is none.
struct StepCount {
  std::optional<double> steps;
  std::string source;
  std::string reason;
};
// The one function that says how many serving steps a round's profile covers: the profiler's
// `serving` step counts (n_prefill_steps + n_decode_steps, either may be absent but not both);
// else, when the Top-N has no step annotations, the steps infer_steps derives from the layer plan
// and the call counts of the default head (docs/method.md §6.4), as analyze does. `config` may be
// null.
StepCount round_step_count(const TopnDocument& topn, const ModelConfig* config = nullptr);

}  // namespace roofline::outcomes
