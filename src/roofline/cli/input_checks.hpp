#pragma once
// Every file named on analyze's command line is of the kind its option reads: a trace where a
// Top-N or a config is expected, or a config where a trace is, is a usage error naming what the
// file is (exit 2, nothing read or written).

#include "roofline/cli/analyze_cmd.hpp"

namespace roofline::cli {

// Throws UsageError for the first file of the wrong kind.
void check_input_kinds(const AnalyzeArgs& args);

}  // namespace roofline::cli
