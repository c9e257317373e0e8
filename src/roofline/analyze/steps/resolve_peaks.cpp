// Step 2, resolve_peaks (docs/method.md §5): hardware denominators for this run.
#include "roofline/analyze/steps/resolve_peaks.hpp"

#include <cctype>
#include <cmath>

#include <fmt/format.h>

#include "roofline/analyze/evidence/peaks_product.hpp"
#include "roofline/analyze/layer.hpp"
#include "roofline/base/units.hpp"
#include "roofline/inputs/load.hpp"
#include "roofline/inputs/peaks.hpp"

namespace roofline::analyze {
namespace {

bool bf16_equals_fp16(const std::map<DtypeKey, double>& flops) {
  auto bf16 = flops.find(DtypeKey::bf16), fp16 = flops.find(DtypeKey::fp16);
  if (bf16 == flops.end() || fp16 == flops.end()) return false;
  return std::fabs(bf16->second - fp16->second) <= 1e-9 * std::max(bf16->second, fp16->second);
}

// docs/method.md §5.7: where the section measured an axis, and the figure is usable (a datasheet
// figure beside it, at most that figure and at least 0.3 of it), the measured figure becomes the
// axis's ceiling; the datasheet figures stay for feasibility. Notes say which each axis uses.
void check_measured_bf16_fp16(ResolvedPeaks& out);

void apply_measured(const PeaksSection& s, ResolvedPeaks& out) {
  if (!s.measured) return;
  const MeasuredPeaks& m = *s.measured;
  out.measured = m;
  std::vector<std::string> used, kept;
  if (m.hbm_bw_bytes_s) {
    if (std::string why = measured_figure_problem(*m.hbm_bw_bytes_s, s.hbm_bw_bytes_s);
        why.empty()) {
      out.hbm_bw_bytes_s = m.hbm_bw_bytes_s;
      out.memory_ceiling = CeilingKind::measured;
      used.push_back(fmt::format("memory {:.4g} B/s ({:.3f} of the datasheet {:.4g})",
                                 *m.hbm_bw_bytes_s, *m.hbm_bw_bytes_s / *s.hbm_bw_bytes_s,
                                 *s.hbm_bw_bytes_s));
    } else {
      kept.push_back(
          fmt::format("measured hbm_bw_bytes_s {:.4g} {}: the datasheet figure is the "
                      "memory ceiling",
                      *m.hbm_bw_bytes_s, why));
    }
  }
  for (const auto& [key, value] : m.flops) {
    auto ds = s.flops.find(key);
    const std::optional<double> datasheet =
        ds == s.flops.end() ? std::nullopt : std::optional<double>(ds->second);
    if (std::string why = measured_figure_problem(value, datasheet); why.empty()) {
      out.flops[key] = value;
      out.compute_ceiling[key] = CeilingKind::measured;
      used.push_back(fmt::format("{} {:.4g} FLOP/s ({:.3f} of the datasheet {:.4g})", key.str(),
                                 value, value / *datasheet, *datasheet));
    } else {
      kept.push_back(fmt::format("measured flops.{} {:.4g} {}{}", key.str(), value, why,
                                 datasheet ? ": the datasheet figure is the ceiling" : ": unused"));
    }
  }
  // The axes left on the datasheet: memory, then the dtypes in key order.
  std::string rest = out.memory_ceiling == CeilingKind::datasheet ? "memory" : "";
  for (const auto& [key, kind] : out.compute_ceiling)
    if (kind == CeilingKind::datasheet) rest += (rest.empty() ? "" : ", ") + key.str();
  if (!used.empty()) {
    std::string list;
    for (const auto& u : used) list += (list.empty() ? "" : ", ") + u;
    out.notes.push_back(fmt::format(
        "measured ceilings (docs/method.md §5.7): {}{}; feasibility is judged on the datasheet; "
        "measured by: {}",
        list, rest.empty() ? "" : "; datasheet for " + rest,
        m.source.empty() ? "(no source given)" : m.source));
  }
  for (const auto& k : kept) out.notes.push_back(k);
  check_measured_bf16_fp16(out);
}

// Measured bf16 and fp16 agree within timing noise, or one measurement is off; and only one of
// them measured leaves the other on the datasheet (docs/method.md §5.7).
void check_measured_bf16_fp16(ResolvedPeaks& out) {
  auto bf16 = out.compute_ceiling.find(DtypeKey::bf16),
       fp16 = out.compute_ceiling.find(DtypeKey::fp16);
  if (bf16 == out.compute_ceiling.end() || fp16 == out.compute_ceiling.end()) return;
  if (bf16->second == CeilingKind::measured && fp16->second == CeilingKind::measured) {
    // A published pair may differ (AMD's MAF: bf16 708, fp16 654 TFLOP/s on the MI300X): kept as
    // measured data, each dtype judged against its own figure; the datasheet pair stays equal.
    const double b = out.flops[DtypeKey::bf16], f = out.flops[DtypeKey::fp16];
    if (std::fabs(b - f) > k_measured_bf16_fp16_tolerance * std::max(b, f))
      out.notes.push_back(fmt::format(
          "measured bf16 {:.4g} and fp16 {:.4g} differ by {:.1f} % (more than {:g} %; the "
          "datasheet runs both at one rate): bf16 kernels are judged against the measured bf16 "
          "{:.4g}, fp16 kernels against the measured fp16 {:.4g}",
          b, f, 100 * std::fabs(b - f) / std::max(b, f), 100 * k_measured_bf16_fp16_tolerance, b,
          f));
  } else if (bf16->second != fp16->second) {
    const bool bf16_measured = bf16->second == CeilingKind::measured;
    out.notes.push_back(fmt::format(
        "{} has a measured ceiling and {} the datasheet's: {} kernels are judged against the "
        "datasheet figure (measure {} too)",
        bf16_measured ? "bf16" : "fp16", bf16_measured ? "fp16" : "bf16",
        bf16_measured ? "fp16" : "bf16", bf16_measured ? "fp16" : "bf16"));
  }
}

// docs/method.md §5.3: per dtype, the lowest datasheet ridge among the table's parts of the
// arch's vendor (NVIDIA sm_NN, else AMD).
std::map<DtypeKey, ResolvedPeaks::LowestRidge> lowest_ridges(const PeaksTable& table,
                                                             const std::string& arch) {
  std::map<DtypeKey, ResolvedPeaks::LowestRidge> out;
  if (arch.empty()) return out;
  const bool nvidia = is_nvidia_arch(arch);
  for (const PeaksSection& s : table.sections) {
    if (is_nvidia_arch(s.gfx) != nvidia || !s.hbm_bw_bytes_s || !(*s.hbm_bw_bytes_s > 0)) continue;
    for (const auto& [key, flops] : s.flops) {
      const double ridge = flops / *s.hbm_bw_bytes_s;
      auto [it, added] = out.try_emplace(key);
      if (added || ridge < it->second.flop_per_byte)
        it->second = {ridge,
                      s.name.empty() ? s.gfx + (s.product.empty() ? "" : "/" + s.product) : s.name};
    }
  }
  return out;
}

// The peaks of the table section that matches the part (docs/method.md §5), measured ceilings
// applied.
void peaks_from_section(ResolvedPeaks& out, const PeaksTable& table, const PeaksSection& match) {
  out.source = PeaksSource::table;
  out.confidence = Confidence::high;
  out.hbm_bw_bytes_s = match.hbm_bw_bytes_s;
  out.flops = match.flops;
  out.l2_bytes = match.l2_bytes;
  out.mall_bytes = match.mall_bytes;
  out.link = match.link;
  out.part = match.name;
  out.section = fmt::format("{}:{} ({}{})", table.source_name, match.line, match.gfx,
                            match.product.empty() ? "" : ", product " + match.product);
  out.notes.push_back(fmt::format("peaks from {}", out.section));
  if (!match.hbm_bw_bytes_s)
    out.notes.push_back("the matching section has no hbm_bw_bytes_s: memory axis unknown");
  out.compute_validated = bf16_equals_fp16(match.flops);
  if (!out.compute_validated)
    out.notes.push_back(match.flops.count(DtypeKey::bf16) && match.flops.count(DtypeKey::fp16)
                            ? "bf16 != fp16 in the peaks section: compute peaks not validated, "
                              "compute-axis entries get confidence low"
                            : "peaks section lacks bf16 or fp16: compute peaks cannot be "
                              "validated, compute-axis entries get confidence low");
  out.datasheet_hbm_bw_bytes_s = out.hbm_bw_bytes_s;
  out.datasheet_flops = out.flops;
  for (const auto& [key, value] : out.flops) out.compute_ceiling[key] = CeilingKind::datasheet;
  apply_measured(match, out);
}

// No section for the part: bandwidth derived from device_props when they have the memory clock
// and bus width, else peaks unknown. `unmatched` says what failed to match.
void peaks_derive_bw(ResolvedPeaks& out, const DeviceProps& p, const std::string& unmatched) {
  if (p.memory_clock_rate_khz && p.memory_bus_width_bits && *p.memory_clock_rate_khz > 0 &&
      *p.memory_bus_width_bits > 0) {
    out.source = PeaksSource::derived;
    out.confidence = Confidence::low;
    out.hbm_bw_bytes_s = *p.memory_clock_rate_khz * 1e3 * *p.memory_bus_width_bits / 8.0 * 2.0;
    out.datasheet_hbm_bw_bytes_s = out.hbm_bw_bytes_s;
    out.notes.push_back(fmt::format(
        "{}: bandwidth derived from device_props "
        "(memory_clock_rate_khz {} · 1e3 · memory_bus_width_bits {} / 8 · 2 = {:.4g} B/s), "
        "FLOP peaks unknown, confidence low",
        unmatched, *p.memory_clock_rate_khz, *p.memory_bus_width_bits, *out.hbm_bw_bytes_s));
    return;
  }
  out.notes.push_back(
      fmt::format("{} and no device_props (memory_clock_rate_khz, memory_bus_width_bits) "
                  "to derive bandwidth: peaks unknown, every headroom unknown",
                  unmatched));
}

}  // namespace

constexpr const char* k_no_arch =
    "no arch: neither an env report (gfx, gpu_arch or compute_capability) nor the trace names the "
    "GPU: peaks unknown, every headroom unknown; --product would settle it (e.g. --product "
    "mi300x, --product h100; `roofline peaks list` lists the parts)";

ResolvedPeaks resolve_peaks(const PeaksTable& table, const std::string& gfx_spelling,
                            const std::string& product_spelling, const DeviceProps& props,
                            const std::string& device_name, bool pinned) {
  ResolvedPeaks out;
  out.gfx = normalize_arch(gfx_spelling);
  // A part none of its arch's rows describes (docs/method.md §22.2): not the section without
  // product either.
  bool no_row = false;
  if (pinned)
    out.product = product_spelling;
  else if (auto p = product_for(table, out.gfx, product_spelling, device_name, props, out.notes))
    out.product = *p;
  else
    no_row = true;
  const std::string product_text = out.product.empty() ? "no product" : "product " + out.product;
  out.lowest_ridge = lowest_ridges(table, out.gfx);

  if (out.gfx.empty()) {
    out.notes.push_back(k_no_arch);
    return out;
  }
  const PeaksSection* match = nullptr;
  bool gfx_known = false;
  for (const PeaksSection& s : table.sections) {
    if (s.gfx != out.gfx) continue;
    gfx_known = true;
    if (s.product == out.product && !no_row) {
      match = &s;
      break;
    }
  }
  if (match) {
    peaks_from_section(out, table, *match);
    return out;
  }
  // docs/method.md §5.4: the section a user adds for this part, with what the trace says filled in.
  out.section_to_add = section_to_add(out.gfx, device_name, props);
  if (is_client_rdna4(out.gfx)) {
    out.hard_unknown = true;
    out.notes.push_back(fmt::format(
        "{} is client RDNA4 with {}: numeric peaks exist only for a product the table names "
        "(e.g. r9700); hard unknown, no denominator derived, every headroom unknown",
        out.gfx, product_text));
    return out;
  }
  if (gfx_known && !no_row)
    out.notes.push_back(fmt::format(
        "{} has peaks sections, but none for {} (a section without product matches only runs "
        "with no product or device_target 'unknown')",
        out.gfx, product_text));
  // What failed to match, for the L1 reason: the whole arch, or this product of a known arch.
  const std::string unmatched =
      no_row      ? fmt::format("{} with {} CUs matches no section", out.gfx,
                                format_g(props.multi_processor_count.value_or(0.0)))
      : gfx_known ? fmt::format("{} with {} matches no section", out.gfx, product_text)
                  : fmt::format("{} not in the peaks table", out.gfx);
  peaks_derive_bw(out, props, unmatched);
  return out;
}

}  // namespace roofline::analyze
