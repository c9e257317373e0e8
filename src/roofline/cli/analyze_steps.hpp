#pragma once
// The parts of `roofline analyze` its two forms share — the evaluation folder (`--round R`,
// `--topn F`) and one command from a trace (`analyze TRACE`): options, loading, the run and the
// writes.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "roofline/cli/analyze_cmd.hpp"
#include "roofline/topn/topn.hpp"

namespace roofline::cli {

// --head-threshold / $HEAD_THRESHOLD_PCT, --head-key and --classify into `a.options`; a bad
// value is a UsageError.
void prepare_options(AnalyzeArgs& a);
// load_inputs, with --calibration / $ROOFLINE_CALIBRATION (a named calibration that is none is
// a UsageError).
AnalyzeInputs load_analyze_inputs(AnalyzeArgs& a);
// Runs the analysis, writes the three artifacts into `dir` and prints what --format asks for;
// `written` lists files already written (the summary names them first). The exit code.
int analyze_and_write(const AnalyzeArgs& a, const AnalyzeInputs& inputs,
                      const std::filesystem::path& dir, std::vector<std::string> written);
// `analyze TRACE...`: the Top-N built in memory, written with the artifacts (analyze_trace.cpp).
int run_analyze_trace(AnalyzeArgs a);

// One trace's run of `analyze TRACE`, read and ready, nothing written yet: its options, the Top-N
// built from the trace(s), the inputs read, and the folder it writes (--out, else ./<trace name>/).
struct TraceRun {
  AnalyzeArgs args;
  TopnBuild build;
  AnalyzeInputs inputs;
  std::filesystem::path dir;
};
// Reads the trace(s) and the inputs as `analyze TRACE` does; nullopt when a trace could not be
// read (the reason already on stderr). A bad option is a UsageError.
std::optional<TraceRun> prepare_trace_run(AnalyzeArgs a);
// Writes the run's Top-N, workload and artifacts into its folder; the exit code of analyze.
int write_trace_run(const TraceRun& run);
// "run.pt.trace.json.gz" -> "run": a trace's name without the extensions traces carry.
std::string trace_stem(const std::filesystem::path& trace);

}  // namespace roofline::cli
