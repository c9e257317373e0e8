// The checks of a peaks table (docs/method.md §2.6, §5.7): what `roofline peaks check` and the
// build apply to data/peaks.md — figures present and in band, measured blocks that say what
// measured them, bf16 = fp16 where one engine runs both, a source for every section.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include <fmt/format.h>

#include "roofline/inputs/dtype.hpp"
#include "roofline/inputs/layer.hpp"
#include "roofline/inputs/peaks.hpp"

namespace roofline::inputs {

namespace {

std::string section_where(const PeaksTable& table, const PeaksSection& s) {
  return fmt::format("{}:{} ({}{})", table.source_name, s.line, s.gfx,
                     s.product.empty() ? "" : ", product " + s.product);
}

// docs/method.md §5.7: a measured block says what measured it, carries a figure, measures only
// axes the datasheet has (feasibility is judged on the datasheet), and keeps bf16 = fp16 within
// timing noise.
void check_measured(const PeaksSection& s, const std::string& where,
                    std::vector<std::string>& problems) {
  const MeasuredPeaks& m = *s.measured;
  if (m.source.empty())
    problems.push_back(fmt::format(
        "{}: measured: no source (say what measured the figures: tool, date, versions, sizes)",
        where));
  if (!m.hbm_bw_bytes_s && m.flops.empty())
    problems.push_back(fmt::format("{}: measured: no figure (hbm_bw_bytes_s or flops)", where));
  for (const auto& [key, value] : m.flops)
    if (!s.flops.count(key))
      problems.push_back(fmt::format(
          "{}: measured flops.{}: the section has no datasheet flops.{} to judge feasibility on",
          where, key.str(), key.str()));
}

}  // namespace

std::vector<std::string> check_peaks(const PeaksTable& table) {
  std::vector<std::string> problems;
  std::set<std::pair<std::string, std::string>> seen;
  std::map<std::pair<std::string, std::string>, std::string> names;  // (arch, name) -> product
  for (const PeaksSection& s : table.sections) {
    const std::string where = section_where(table, s);
    if (!seen.insert({s.gfx, s.product}).second)
      problems.push_back(fmt::format("{}: duplicate section for ({}, {})", where, s.gfx,
                                     s.product.empty() ? "no product" : s.product));
    for (const std::string& name : s.device_names) {
      auto [it, inserted] = names.try_emplace({s.gfx, name}, s.product);
      if (!inserted && it->second != s.product)
        problems.push_back(fmt::format(
            "{}: device name '{}' is also listed for {}: a device_name must pick one section",
            where, name, it->second.empty() ? "the section without product" : it->second));
    }
    if (s.link) {
      const LinkPeak& l = *s.link;
      if (l.topology != "mesh" && l.topology != "switch")
        problems.push_back(
            fmt::format("{}: link.topology '{}': expected mesh or switch", where, l.topology));
      if (!(l.bytes_s > 0))
        problems.push_back(
            fmt::format("{}: link.bytes_s must be > 0 (per-direction bytes/s)", where));
      if (l.topology == "mesh" && !(l.links >= 1))
        problems.push_back(
            fmt::format("{}: link.links must be >= 1 for a mesh (links per GPU)", where));
    }
    auto bf16 = s.flops.find(DtypeKey::bf16), fp16 = s.flops.find(DtypeKey::fp16);
    if (bf16 != s.flops.end() && fp16 != s.flops.end() &&
        std::fabs(bf16->second - fp16->second) > 1e-9 * std::max(bf16->second, fp16->second))
      problems.push_back(fmt::format(
          "{}: bf16 {:g} != fp16 {:g}: matrix units run both at one rate, so one peak is "
          "mis-calibrated (compute axis not validated)",
          where, bf16->second, fp16->second));
    if (s.measured) check_measured(s, where, problems);
  }
  return problems;
}

std::string measured_figure_problem(double measured, std::optional<double> datasheet) {
  if (!datasheet || !(*datasheet > 0))
    return "has no datasheet figure beside it to judge feasibility on";
  if (measured > *datasheet)
    return fmt::format(
        "exceeds the datasheet figure {:g} ({:.3f} of it): a timing error (the hardware cannot "
        "beat its datasheet; was the work timed whole?)",
        *datasheet, measured / *datasheet);
  if (measured < k_measured_floor * *datasheet)
    return fmt::format(
        "is below {:g} of the datasheet figure {:g} ({:.3f} of it): a bad benchmark (too small a "
        "size, a throttled or shared GPU, or not the part's fast path)",
        k_measured_floor, *datasheet, measured / *datasheet);
  return "";
}

std::vector<std::string> check_peaks_warnings(const PeaksTable& table) {
  std::vector<std::string> warnings;
  for (const PeaksSection& s : table.sections) {
    if (!s.measured) continue;
    const std::string where = section_where(table, s);
    const MeasuredPeaks& m = *s.measured;
    if (m.hbm_bw_bytes_s && s.hbm_bw_bytes_s)
      if (std::string why = measured_figure_problem(*m.hbm_bw_bytes_s, s.hbm_bw_bytes_s);
          !why.empty())
        warnings.push_back(
            fmt::format("{}: measured hbm_bw_bytes_s {:g} {}", where, *m.hbm_bw_bytes_s, why));
    for (const auto& [key, value] : m.flops) {
      auto ds = s.flops.find(key);
      if (ds == s.flops.end()) continue;  // a problem, said by check_peaks
      if (std::string why = measured_figure_problem(value, ds->second); !why.empty())
        warnings.push_back(
            fmt::format("{}: measured flops.{} {:g} {}", where, key.str(), value, why));
    }
  }
  return warnings;
}

std::vector<std::string> check_peaks_bf16_fp16(const PeaksTable& table) {
  std::vector<std::string> warnings;
  for (const PeaksSection& s : table.sections) {
    if (!s.measured) continue;
    const auto& m = s.measured->flops;
    auto bf16 = m.find(DtypeKey::bf16), fp16 = m.find(DtypeKey::fp16);
    if (bf16 == m.end() || fp16 == m.end()) continue;
    const double b = bf16->second, f = fp16->second;
    if (std::fabs(b - f) > k_measured_bf16_fp16_tolerance * std::max(b, f))
      warnings.push_back(fmt::format(
          "{}: measured bf16 {:g} and fp16 {:g} differ by {:.1f} % (more than {:g} %): matrix "
          "units run both at one datasheet rate, so the pair is kept as measured data and each "
          "dtype is judged against its own figure (bf16 kernels against {:g}, fp16 against {:g})",
          section_where(table, s), b, f, 100 * std::fabs(b - f) / std::max(b, f),
          100 * k_measured_bf16_fp16_tolerance, b, f));
  }
  return warnings;
}

std::vector<std::string> check_peaks_sources(const PeaksTable& table) {
  std::vector<std::string> warnings;
  for (const PeaksSection& s : table.sections)
    if (s.source.empty())
      warnings.push_back(
          fmt::format("{}: no source: say where the figures come from (datasheet or vendor page)",
                      section_where(table, s)));
  return warnings;
}

std::vector<std::string> known_products(const PeaksTable& table) {
  std::vector<std::string> out;
  for (const PeaksSection& s : table.sections)
    if (!s.product.empty()) out.push_back(s.product);
  return out;
}

}  // namespace roofline::inputs
