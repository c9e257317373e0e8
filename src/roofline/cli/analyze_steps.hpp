#pragma once
// The parts of `roofline analyze` its two forms share — the evaluation folder (`--round R`,
// `--topn F`) and one command from a trace (`analyze TRACE`): options, loading, the run and the
// writes.

#include <filesystem>
#include <string>
#include <vector>

#include "roofline/cli/analyze_cmd.hpp"

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

}  // namespace roofline::cli
