#pragma once
// An evaluation folder's inputs (docs/method.md §2.1 defaults, §2): where each file is, and each
// file after reading. Reading is the only I/O before the artifacts are written; every file problem
// becomes data here, so the pipeline never sees I/O.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "roofline/inputs/calibration.hpp"
#include "roofline/inputs/counters.hpp"
#include "roofline/inputs/inputs.hpp"
#include "roofline/inputs/layer.hpp"
#include "roofline/inputs/load.hpp"
#include "roofline/inputs/probes.hpp"

namespace roofline::inputs {

// A Top-N built in memory from a trace (`analyze TRACE`): the documents `roofline topn` would
// write, read as if from files, and named in messages as `display` (the trace) says.
struct BuiltTopN {
  std::string display;        // e.g. "trace.json.gz (Top-N built in memory)"
  std::string topn_json;      // what `roofline topn` writes as profile_topN.json
  std::string workload_json;  // ... and as profile_workload.json
};

// Where the inputs are. Empty optional = use the docs/method.md §2.1 default location.
struct InputPaths {
  std::filesystem::path eval_dir = ".";
  std::optional<std::string>
      round;  // a round name: "0", "config", "tuning", "3" (docs/method.md §2.2)
  std::optional<std::filesystem::path> topn, env, config, peaks;
  std::optional<BuiltTopN> built_topn;  // set: the Top-N and workload come from here, not files
  std::optional<std::filesystem::path> calibration;  // analyze --calibration (docs/method.md §17.5)
  std::vector<std::filesystem::path> shapes;         // stage B: probe files or folders of them
  std::vector<std::filesystem::path> counters;       // stage C: counter CSVs or folders of them
  CounterOptions counter_options;
  InputLimits limits;  // size, nesting and entry caps applied to every file
};

// `eval_dir/profile/round_<R>`: the folder a round's profile, and by default its artifacts, live
// in.
std::filesystem::path round_dir(const std::filesystem::path& eval_dir, const std::string& round);

// A round name is letters, digits, '_' and '-' (docs/method.md §2.2): "0", "config", "tuning",
// "12".
bool valid_round_name(std::string_view round);

// Workflow order of round names: `0` (baseline), `config`, `tuning`, other names alphabetically,
// then the numbered milestones `1`, `2`, … by value. A strict weak order (a total order on
// distinct names).
bool round_before(const std::string& a, const std::string& b);

// The rounds an evaluation folder holds (profile/round_<R>/ folders with a valid name), in
// round_before order; empty when there are none (or the folder cannot be read).
std::vector<std::string> rounds_in(const std::filesystem::path& eval_dir);

// Whether an input was read from a file or is the table compiled into the binary.
enum class InputOrigin { file, builtin };

// One input after reading: the parsed value (or not), with the name used in messages.
template <class T>
struct InputFile {
  std::string display;  // path relative to the evaluation folder when inside it
  bool found = false;
  InputOrigin origin = InputOrigin::file;
  Loaded<T> loaded;
};

// Stage B input: every probe file named or found in a named folder, merged.
struct ShapesInput {
  bool requested = false;
  std::vector<std::string> files;  // as named in messages
  ProbeSet probes;
  std::vector<std::string> errors;
  std::vector<std::string> notes;
};

// Stage C input: the counter files after streaming (per-kernel sums only; rows are not kept).
struct CountersInput {
  bool requested = false;
  std::vector<CounterFile> files;
  std::vector<std::string> errors;  // a named folder without counter CSVs, ...
  CounterOptions options;
};

struct AnalyzeInputs {
  std::optional<std::string> round;  // the round named on the command line, if any
  InputFile<TopnDocument> topn;
  InputFile<EnvReport> env;
  InputFile<ModelConfig> config;
  InputFile<PeaksTable> peaks;  // origin builtin: the table compiled from data/peaks.md
  std::optional<InputFile<CalibrationTable>> calibration;  // only when one was named
  // The profiler's per-case counts and latencies (docs/method.md §2.7), read when
  // profile_workload.json sits beside the Top-N; `found` false otherwise.
  InputFile<ProbeSet> workload;
  ShapesInput shapes;
  CountersInput counters;
};

// Reads every input file of an evaluation (the only I/O before writing). Never throws: a missing
// or broken file is recorded in its InputFile, a broken probe or counter file in ShapesInput /
// CountersInput.
AnalyzeInputs load_inputs(const InputPaths& paths);

// The model config alone, found as load_inputs finds it (--config, else the env report's model
// path, else D/config.json): for the subcommands that need the layer plan but no analysis.
InputFile<ModelConfig> load_run_config(const InputPaths& paths);

}  // namespace roofline::inputs
