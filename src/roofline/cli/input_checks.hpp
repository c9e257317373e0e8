#pragma once
// Every file named on analyze's command line is of the kind its option reads: a trace where a
// Top-N or a config is expected, or a config where a trace is, is a usage error naming what the
// file is (exit 2, nothing read or written).

#include <string>
#include <vector>

#include "roofline/cli/analyze_cmd.hpp"

namespace roofline::cli {

// Throws UsageError for the first file of the wrong kind.
void check_input_kinds(const AnalyzeArgs& args);
// Whether a file named as a trace is a usage error: empty, or a recognised document of another
// kind (`topn`'s reader names what it is; the exit is 2, not 1).
bool misnamed_trace(const std::string& path);

}  // namespace roofline::cli
