#pragma once
// Round names (RUNS.md §1) and what a round's profile says about steps. Round names are names:
// `0`, `config`, `tuning`, `1`, `2`, … — letters, digits, `_` and `-`, handled as strings.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "roofline/analyze.hpp"
#include "roofline/inputs.hpp"

namespace roofline {

// True when `name` is a usable round name: non-empty, only [A-Za-z0-9_-].
bool valid_round_name(std::string_view name);

// `dir/profile/round_<round>`.
std::filesystem::path round_folder(const std::filesystem::path& eval_dir, const std::string& round);

// Workflow order of round names: `0` (baseline), `config`, `tuning`, other names alphabetically,
// then the numbered milestones `1`, `2`, … by value. A strict weak order (a total order on
// distinct names).
bool round_before(const std::string& a, const std::string& b);

// The rounds of an evaluation folder: every `profile/round_<R>` folder with a valid name, in
// round_before order. Empty when the folder has none (or cannot be read).
std::vector<std::string> list_rounds(const std::filesystem::path& eval_dir);

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
// The one function that says how many serving steps a round's profile covers. Today: the
// profiler's `serving` step counts (n_prefill_steps + n_decode_steps, either may be absent but
// not both). Step inference from the layer plan (MODELS.md §10) replaces the body, not callers.
StepCount round_step_count(const TopN& topn);

}  // namespace roofline
