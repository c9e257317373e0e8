// The part and workload given on the command line, resolved against the peaks table
// (docs/method.md §22.9).
#include "roofline/cli/given_env.hpp"

#include <cctype>

#include <fmt/format.h>

#include "roofline/base/units.hpp"
#include "roofline/cli/common.hpp"
#include "roofline/inputs/peaks.hpp"
#include "roofline/inputs/peaks_alias.hpp"

namespace roofline::cli {
namespace {

std::string shown(const PeaksSection& s) {
  return !s.name.empty() ? s.name : s.product.empty() ? s.gfx : s.product;
}

std::string listed(const std::vector<const PeaksSection*>& parts) {
  std::string out;
  for (const PeaksSection* s : parts)
    out += fmt::format("{}{} ({})", out.empty() ? "" : ", ", shown(*s), s->gfx);
  return out;
}

// A product key for the lower figures of several parts: the spelling's words joined by '-'.
std::string alias_key(const std::string& spelling) {
  std::string out;
  bool dash = false;
  for (char c : lower_ascii(spelling)) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      if (dash && !out.empty()) out += '-';
      out += c;
      dash = false;
    } else {
      dash = true;
    }
  }
  return out;
}

}  // namespace

GivenPart resolve_given_part(PeaksTable& table, const std::string& spelling) {
  const ProductMatch m = match_product(table, spelling);
  if (m.sections.empty())
    throw UsageError(fmt::format(
        "--product '{}': no part in the peaks table answers to it (`roofline peaks list` lists "
        "each part with the names it answers to; --peaks FILE adds one)",
        spelling));
  for (const PeaksSection* s : m.sections)
    if (s->gfx != m.sections.front()->gfx)
      throw UsageError(fmt::format("--product '{}' names parts of different archs: {}; name one",
                                   spelling, listed(m.sections)));
  if (m.sections.size() == 1) {
    const PeaksSection& s = *m.sections.front();
    return GivenPart{s.gfx, s.product, shown(s), ""};
  }
  PeaksSection lower = lower_figures(m.sections, alias_key(spelling));
  GivenPart out{lower.gfx, lower.product, lower.name,
                fmt::format("--product '{}' names {} parts the name does not tell apart ({}): "
                            "their shared figures are used, the lower where they differ "
                            "(docs/method.md §22.2); name one to use its own",
                            spelling, m.sections.size(), listed(m.sections))};
  table.sections.push_back(std::move(lower));
  return out;
}

void apply_given_args(const GivenArgs& args, AnalyzeInputs& inputs, GivenEnv& given) {
  given.conc = args.conc;
  given.isl = args.isl;
  given.osl = args.osl;
  given.tp = args.tp;
  if (!args.regime.empty())
    given.regime = args.regime == "prefill" ? Regime::prefill : Regime::decode;
  if (args.product.empty()) return;
  if (!inputs.peaks.loaded.value) inputs.peaks.loaded.value = builtin_peaks();
  const GivenPart part = resolve_given_part(*inputs.peaks.loaded.value, args.product);
  given.product_spelling = args.product;
  given.arch = part.arch;
  given.product = part.product;
  given.part_name = part.name;
  given.note = part.note;
}

}  // namespace roofline::cli
