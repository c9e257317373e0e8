// `roofline calc`: one synthetic entry through the verdict and advice stages.
#include "roofline/cli/calc_cmd.hpp"

#include <cstdio>

#include <fmt/format.h>

#include "roofline/cli/common.hpp"
#include "roofline/cli/given_env.hpp"
#include "roofline/cli/layer.hpp"
#include "roofline/inputs/peaks_alias.hpp"
#include "roofline/render/report.hpp"

namespace roofline::cli {

int run_calc(const CalcArgs& args) {
  PeaksTable storage;
  PeaksTable table = load_peaks_or_throw(args.peaks, storage);
  CalcInput in = args.in;
  // A name or alias people write (docs/method.md §22.9); with --gfx, a product the table does not
  // name is kept as given (its figures are unknown, as the notes say).
  const bool known = !in.product.empty() && !match_product(table, in.product).sections.empty();
  if (known) {
    const GivenPart part = resolve_given_part(table, in.product);
    if (!in.gfx.empty() && normalize_arch(in.gfx) != part.arch)
      throw UsageError(fmt::format("--gfx {} but --product '{}' is the {}, a {}: give one of them",
                                   in.gfx, in.product, part.name, part.arch));
    if (!part.note.empty()) err_line("note: " + part.note);
    in.gfx = part.arch;
    in.product = part.product;
    in.product_pinned = true;
  } else if (in.gfx.empty() && !in.product.empty()) {
    resolve_given_part(table, in.product);  // the usage error naming what is known
  } else if (in.gfx.empty()) {
    throw UsageError(
        "calc: give the part with --gfx (e.g. gfx942, sm_90) or --product (e.g. mi300x, h100)");
  }
  const CalcResult r = calc(in, table);
  if (!r.errors.empty()) throw UsageError(r.errors.front());
  const std::string out = args.format == "json" ? json_text(calc_json(r)) : calc_text(r);
  std::fwrite(out.data(), 1, out.size(), stdout);
  return k_exit_ok;
}

}  // namespace roofline::cli
