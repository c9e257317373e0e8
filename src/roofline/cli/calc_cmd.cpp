// `roofline calc`: one synthetic entry through the verdict and advice stages.
#include "roofline/cli/calc_cmd.hpp"

#include <cstdio>

#include "roofline/cli/common.hpp"
#include "roofline/render/report.hpp"

namespace roofline::cli {

int run_calc(const CalcArgs& args) {
  PeaksTable storage;
  const PeaksTable& table = load_peaks_or_throw(args.peaks, storage);
  const CalcResult r = calc(args.in, table);
  if (!r.errors.empty()) throw UsageError(r.errors.front());
  const std::string out = args.format == "json" ? json_text(calc_json(r)) : calc_text(r);
  std::fwrite(out.data(), 1, out.size(), stdout);
  return k_exit_ok;
}

}  // namespace roofline::cli
