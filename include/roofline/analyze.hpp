#pragma once
// The whole run (SPEC §3): load the inputs, run the pure pipeline, produce one Analysis.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "roofline/analysis.hpp"
#include "roofline/counters.hpp"
#include "roofline/load.hpp"

namespace roofline {

// Where the inputs are. Empty optional = use the SPEC §1 default location.
struct InputPaths {
  std::filesystem::path eval_dir = ".";
  std::optional<long> round;
  std::optional<std::filesystem::path> topn, env, config, peaks;
  std::vector<std::filesystem::path> shapes;    // stage B: probe files or folders of them
  std::vector<std::filesystem::path> counters;  // stage C: counter CSVs or folders of them
  CounterOptions counter_options;
  InputLimits limits;  // size, nesting and entry caps applied to every file
};

// One input after reading: the parsed value (or not), with the name used in messages.
template <class T>
struct InputFile {
  std::string display;  // path relative to the evaluation folder when inside it
  bool found = false;
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
  InputFile<TopN> topn;
  InputFile<EnvReport> env;
  InputFile<ModelConfig> config;
  InputFile<PeaksTable> peaks;  // found=false + no value => built-in table
  ShapesInput shapes;
  CountersInput counters;
  std::vector<std::string> notes;
};

struct AnalyzeOptions {
  ScopeOptions scope;
  VerdictParams verdict;
  std::vector<ClassRule> overrides;
  const std::vector<ClassRule>* families = nullptr;  // null = shipped table
};

struct RunInfo {
  std::string model;
  std::string backend;
  std::string model_arch_class;
  Workload workload;
  double tp = 1.0;
  std::string topn_source;  // profiler "source" field
  std::optional<double> n_prefill_steps, n_decode_steps;
  std::string inputs;      // which files were read, for the report header
  std::string layer_plan;  // describe_plan() of the config's layer plan ("" without a config)
};

struct Analysis {
  std::string gfx;
  std::string product;  // canonical, "" = none
  ResolvedPeaks peaks;
  char stage = 'A';
  double head_threshold_pct = 5.0;
  std::size_t skipped_count = 0;
  std::vector<EntryResult> entries;
  Rankings rankings;
  std::vector<Degradation> degraded;
  std::vector<std::string> skill_errors;
  std::vector<std::string> warnings;  // problems that change no number (also in notes): stderr
  std::vector<std::string> notes;
  RunInfo run;
  // Stages B/C: one line per probe / counter input (files, format, rows used, bad rows).
  std::vector<std::string> measured_inputs;
  // Stage C: counter kernels that matched no head entry, most dispatches first.
  std::vector<std::string> unmatched_counter_kernels;
};

// Reads every input file (the only I/O before writing). Never throws.
AnalyzeInputs load_inputs(const InputPaths& paths);

// The pipeline: scope -> peaks -> regime -> classify -> model -> verdict -> advice -> rankings.
// Pure; a failure inside one entry degrades that entry (L5) and never the run.
Analysis analyze(const AnalyzeInputs& inputs, const AnalyzeOptions& options);

}  // namespace roofline
