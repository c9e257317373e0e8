#pragma once
// Private to the driver (analyze.cpp, run_*.cpp): the state one run shares while its passes build
// the Analysis, and the pieces of the passes that are more than one call (run_inputs.cpp: what the
// inputs say; run_entry.cpp: one entry's steps 6-11 and the L5 boundary).

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "roofline/analyze/analyze.hpp"
#include "roofline/analyze/entry/findings.hpp"
#include "roofline/analyze/entry/model_context.hpp"
#include "roofline/analyze/entry/run_weights.hpp"
#include "roofline/analyze/entry/step_rows.hpp"
#include "roofline/analyze/layer.hpp"

namespace roofline::analyze::detail {

// Everything one run shares while it is built: its inputs and options, and the Analysis so far.
struct Run {
  Run(const AnalyzeInputs& inputs, const AnalyzeOptions& options);
  const AnalyzeInputs& in;
  const AnalyzeOptions& opts;
  const TopnDocument topn;  // the Top-N read, or an empty one
  // env_report.json, or what the Top-N measured standing in for it (stand_in, pass inputs);
  // null when neither says anything.
  const EnvReport* env = nullptr;
  std::optional<EnvReport> stand_in;
  const ModelConfig* config = nullptr;  // null when config.json is missing/unreadable
  // Why the config was set aside (docs/method.md §23.6: it does not match the trace); "" kept.
  std::string config_rejected;
  VerdictParams verdict;        // the options' and the calibration (pass calibration)
  RunWeights weights;           // the run's linears' weight formats (pass weights)
  StepRows step_rows;           // the steps' rows the trace counts (pass step_rows)
  Analysis a;                   // what the passes have built so far
  bool peaks_resolved = false;  // pass peaks ran to its end
  std::size_t analysed = 0;     // entries [0, analysed) went through steps 6-11
  bool stopped = false;         // a pass threw: only the `always` passes still run
};

// ---- run_inputs.cpp: what the inputs say -------------------------------------------------------
// Input problems are data: a broken or missing required file is a skill error (L5), a missing
// config only a note (the models that need it degrade); what the readers noticed without
// refusing anything is a warning and a note.
Findings input_findings(const AnalyzeInputs& in, const GivenEnv& given);
// Every file the run read, with its role (the artifact's inputs[]).
std::vector<InputRecord> input_records(const AnalyzeInputs& in);
// The environment the run uses (docs/method.md §22.1): env_report.json where it speaks, else what
// the Top-N measured (the trace's device, the step annotations' decode batch and context, the
// world size as TP when a GEMM shape shows it). nullopt when neither says anything. Notes say
// where each figure came from; a disagreement is a warning naming both (the env report wins).
std::optional<EnvReport> effective_env(const EnvReport* env, const TopnDocument& topn,
                                       const GivenEnv& given, const ModelConfig* config,
                                       Findings& found);
// True when the Top-N can stand in for a missing env report: a device with an arch and a serving
// block measured from step annotations.
bool topn_stands_in(const TopnDocument& topn);
// What the report header says about the run.
RunInfo describe_run(const AnalyzeInputs& in, const TopnDocument& topn, const EnvReport* env,
                     const ModelConfig* config);
// The denominators (resolve_peaks over the table read, else the built-in one), what a
// user-supplied table got wrong (it still serves what it can) and the L1 diagnostic.
ResolvedPeaks run_peaks(const AnalyzeInputs& in, const EnvReport* env, Findings& found);
// analyze --calibration (docs/method.md §17.5): the table judge takes target_eff from (null: none),
// and what its reading said (a class it had to skip is a warning).
const CalibrationTable* calibration_for(const AnalyzeInputs& in, Findings& found);
// Why the models have no config, for their reasons ("" when there is one).
std::string config_status(const AnalyzeInputs& in, const ModelConfig* config);

// ---- run_entry.cpp: one entry's steps 6-11, and the L5 boundary
// ---------------------------------- Everything one entry's analysis shares with the others (the
// Top-N, config and denominators).
struct EntryContext {
  const TopnDocument& topn;
  const ModelContext& model;
  const ResolvedPeaks& peaks;
  const VerdictParams& verdict;
  const EnvReport* env;
};
// Steps 6-11 on one entry, in order, each writing its own fields: regime, model (the class the
// model ran under), deepen, judge, grade, advise, then the entry's notes in step order. Returns
// the entry; throws what a stage throws (the caller degrades the entry).
HeadEntry analyze_entry(HeadEntry entry, const EntryContext& ctx);
// An entry whose steps 6-11 did not happen: kept with what steps 1-5 gave it, without a verdict,
// as L5 (`problem`, also its diagnostic), `note` its one note, routed to pct_gpu_time order.
void fail_entry(HeadEntry& entry, std::string note, std::string problem);
// A measured run says which head entries its counters left at stage A/B (L4); nothing when none.
Findings counter_coverage(const std::vector<HeadEntry>& entries);
// The L5 boundary: pass `step` threw `what`. Records the skill error, marks every entry the
// per-entry pass did not reach as not analysed, and says the peaks are unknown when the peaks
// pass did not finish, so that the Analysis stays one the renderers can write (docs/method.md §13).
void stop_run(Run& r, const char* step, const std::string& what);

}  // namespace roofline::analyze::detail
