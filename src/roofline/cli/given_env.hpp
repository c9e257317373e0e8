#pragma once
// What the command line gives over the env report and the trace (docs/method.md §22.9): the part
// by product name or alias, concurrency, isl/osl, TP and the regime.

#include <optional>
#include <string>

#include "roofline/analyze/analyze.hpp"
#include "roofline/cli/layer.hpp"

namespace roofline::cli {

struct GivenArgs {
  std::string product;  // as typed: mi300x, "AMD Instinct MI300X", h100-sxm, rtx-pro-6000
  std::optional<double> conc, isl, osl, tp;
  std::string regime;  // "" | decode | prefill
};

// The part a spelling names in `table`. One section: that section. Several of one arch (an alias
// such as rtx-pro-6000): the lower of their figures, appended to `table` under the spelling's
// key, with `note` saying so. None, or parts of several archs: a UsageError naming what matched.
struct GivenPart {
  std::string arch, product, name, note;
};
GivenPart resolve_given_part(PeaksTable& table, const std::string& spelling);

// Fills `given` from `args`, resolving the part against `inputs`' peaks table (a lower-figures
// section is added to the table the run reads). A UsageError for an unknown part.
void apply_given_args(const GivenArgs& args, AnalyzeInputs& inputs, GivenEnv& given);

}  // namespace roofline::cli
