#pragma once
// The option checks the subcommands' declarations share, with CLI11. Only the files that declare
// options (app_analyze.cpp, app_rounds.cpp) and parse them (cli.cpp, cli_docs.cpp) include CLI11:
// it is header-only and costs seconds per file that includes it.

#include <CLI/CLI.hpp>
#include "roofline/cli/layer.hpp"

namespace roofline::cli {

// Option checks whose messages name the value given and what is accepted, in words
// (docs/method.md §2.1); CLI11's own ranges let NaN through and print limits such as "0.000000 to
// 1.797e308". A finite number in [lo, hi] (hi = infinity: no upper bound).
CLI::Validator finite_range(double lo, double hi);
CLI::Validator non_negative();
// A finite number > 0.
CLI::Validator positive();
// A whole number in [lo, hi].
CLI::Validator whole_number(long long lo, long long hi);

// A noise band: a finite number in (0, 1).
CLI::Validator noise_band_validator();

struct GivenArgs;
// What the run was, over the env report and the trace (docs/method.md §22.9): --product, --conc,
// --isl, --osl, --tp, --regime, as analyze declares them (compare's trace form too).
void add_analyze_given(CLI::App& cmd, GivenArgs& g);

}  // namespace roofline::cli
