// Step 2, resolve_peaks (docs/method.md §5): hardware denominators for this run.
#include <cctype>
#include <cmath>

#include <fmt/format.h>

#include "roofline/inputs/load.hpp"
#include "roofline/inputs/peaks.hpp"
#include "roofline/analyze/stages.hpp"
#include "roofline/base/units.hpp"

namespace roofline {
namespace {

// Client RDNA4: "gfx120" followed by digits only (gfx1200, gfx1201). gfx125x is CDNA5.
bool is_client_rdna4(const std::string& gfx) {
  if (gfx.rfind("gfx120", 0) != 0 || gfx.size() == 6) return false;
  for (std::size_t i = 6; i < gfx.size(); ++i)
    if (!std::isdigit(static_cast<unsigned char>(gfx[i]))) return false;
  return true;
}

bool bf16_equals_fp16(const std::map<DtypeKey, double>& flops) {
  auto bf16 = flops.find(DtypeKey::bf16), fp16 = flops.find(DtypeKey::fp16);
  if (bf16 == flops.end() || fp16 == flops.end()) return false;
  return std::fabs(bf16->second - fp16->second) <= 1e-9 * std::max(bf16->second, fp16->second);
}

// docs/method.md §5.2: on an NVIDIA arch the product decides the row — `device_target` when given
// (a product key or one of a row's device names), else `device_name` matched exactly against the
// spellings the rows of that arch list. A name no row lists stays as the (unmatched) product: L1.
std::string nvidia_product(const PeaksTable& table, const std::string& arch,
                           const std::string& product_spelling, const std::string& device_name,
                           std::vector<std::string>& notes) {
  std::vector<const PeaksSection*> rows;
  for (const PeaksSection& s : table.sections)
    if (s.gfx == arch) rows.push_back(&s);
  auto by_name = [&](const std::string& name) -> const PeaksSection* {
    for (const PeaksSection* s : rows)
      for (const std::string& n : s->device_names)
        if (n == name) return s;
    return nullptr;
  };
  std::string products, spellings;
  for (const PeaksSection* s : rows) {
    const std::string p = s->product.empty() ? std::string("no product") : s->product;
    products += (products.empty() ? "" : ", ") + p;
    std::string names;
    for (const std::string& n : s->device_names) names += (names.empty() ? "'" : ", '") + n + "'";
    if (!names.empty())
      spellings += fmt::format("{}{}: {}", spellings.empty() ? "" : "; ", p, names);
  }
  const std::string target = canonical_product(product_spelling, {});
  if (!target.empty()) {
    for (const PeaksSection* s : rows)
      if (s->product == target) return target;
    if (const PeaksSection* s = by_name(target)) {
      notes.push_back(fmt::format("device_target '{}' is a device name of product {}",
                                  product_spelling, s->product));
      return s->product;
    }
    return target;
  }
  const std::string name = lower_ascii(trim_view(device_name));
  if (name.empty()) {
    if (!rows.empty())
      notes.push_back(fmt::format(
          "{} is shared by {}: the product (device_name or device_target) decides the row, and "
          "this run names none",
          arch, products));
    return {};
  }
  if (const PeaksSection* s = by_name(name)) {
    notes.push_back(fmt::format("device_name '{}' is product {}", device_name, s->product));
    return s->product;
  }
  notes.push_back(
      fmt::format("device_name '{}' is not a spelling any {} section lists ({}): no near matches",
                  device_name, arch, spellings.empty() ? "none" : spellings));
  return name;
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
    const double b = out.flops[DtypeKey::bf16], f = out.flops[DtypeKey::fp16];
    if (std::fabs(b - f) > k_measured_bf16_fp16_tolerance * std::max(b, f)) {
      out.compute_validated = false;
      out.notes.push_back(fmt::format(
          "measured bf16 {:.4g} and fp16 {:.4g} differ by more than {:g} %: compute peaks not "
          "validated, compute-axis entries get confidence low",
          b, f, 100 * k_measured_bf16_fp16_tolerance));
    }
  } else if (bf16->second != fp16->second) {
    const bool bf16_measured = bf16->second == CeilingKind::measured;
    out.notes.push_back(fmt::format(
        "{} has a measured ceiling and {} the datasheet's: {} kernels are judged against the "
        "datasheet figure (measure {} too)",
        bf16_measured ? "bf16" : "fp16", bf16_measured ? "fp16" : "bf16",
        bf16_measured ? "fp16" : "bf16", bf16_measured ? "fp16" : "bf16"));
  }
}

// gfx942 is one arch for several parts (docs/method.md §22.2): the MI300X (304 CUs, 192 GiB
// HBM3, reported as 206 141 652 992 B), the MI325X (304 CUs, 256 GiB HBM3E, 6.0 TB/s), and parts
// with other CU counts (MI300A 228, MI308X 80, a partitioned MI300X 152 / 76 / 38) that no gfx942
// row describes. A device name that names a product of the table decides; else the CU count and
// memory. Returns the product ("" = the section without a product, the MI300X) or nullopt when
// the part matches no gfx942 row (named in notes).
std::optional<std::string> gfx942_product(const PeaksTable& table, const DeviceProps& props,
                                          const std::string& device_name,
                                          std::vector<std::string>& notes) {
  if (!device_name.empty()) {
    const std::string named = canonical_product(device_name, known_products(table));
    for (const PeaksSection& s : table.sections)
      if (s.gfx == "gfx942" && !s.product.empty() && s.product == named) {
        notes.push_back(fmt::format("device '{}' is product {}", device_name, named));
        return named;
      }
  }
  const auto& cu = props.multi_processor_count;
  if (!cu) return std::string();
  if (*cu != 304) {
    const char* what = *cu == 228  ? "an MI300A"
                       : *cu == 80 ? "an MI308X"
                       : (*cu == 152 || *cu == 76 || *cu == 38)
                           ? "a partitioned MI300X (a fraction of its bandwidth)"
                           : "not an MI300X or MI325X";
    notes.push_back(fmt::format(
        "gfx942 with {} CUs is {}: no gfx942 row describes it (the MI300X and MI325X rows are "
        "304-CU parts)",
        format_g(*cu), what));
    return std::nullopt;
  }
  const auto& mem = props.memory_bytes;
  if (mem && *mem > 224.0 * 1073741824.0) {
    for (const PeaksSection& s : table.sections)
      if (s.gfx == "gfx942" && s.product == "mi325x") {
        notes.push_back(fmt::format(
            "gfx942 with 304 CUs and {:.0f} GiB is the MI325X (256 GiB HBM3E; the MI300X has 192)",
            *mem / 1073741824.0));
        return std::string("mi325x");
      }
  }
  return std::string();
}

}  // namespace

std::optional<double> datasheet_flops_for(const ResolvedPeaks& peaks, DtypeKey dtype_key) {
  auto it = peaks.datasheet_flops.find(dtype_key);
  if (it == peaks.datasheet_flops.end() || !(it->second > 0))
    return peak_flops_for(peaks, dtype_key);
  return it->second;
}

std::optional<double> feasibility_bw(const ResolvedPeaks& peaks) {
  return peaks.datasheet_hbm_bw_bytes_s ? peaks.datasheet_hbm_bw_bytes_s : peaks.hbm_bw_bytes_s;
}

CeilingKind compute_ceiling_for(const ResolvedPeaks& peaks, DtypeKey dtype_key) {
  auto it = peaks.compute_ceiling.find(dtype_key);
  return it == peaks.compute_ceiling.end() ? CeilingKind::datasheet : it->second;
}

bool any_measured_ceiling(const ResolvedPeaks& peaks) {
  if (peaks.memory_ceiling == CeilingKind::measured) return true;
  for (const auto& [key, kind] : peaks.compute_ceiling)
    if (kind == CeilingKind::measured) return true;
  return false;
}

std::optional<double> peak_flops_for(const ResolvedPeaks& peaks, DtypeKey dtype_key) {
  auto it = peaks.flops.find(dtype_key);
  if (it == peaks.flops.end() || !(it->second > 0)) return std::nullopt;
  return it->second;
}

ResolvedPeaks resolve_peaks(const PeaksTable& table, const std::string& gfx_spelling,
                            const std::string& product_spelling, const DeviceProps& props,
                            const std::string& device_name) {
  ResolvedPeaks out;
  out.gfx = normalize_arch(gfx_spelling);
  out.product = is_nvidia_arch(out.gfx)
                    ? nvidia_product(table, out.gfx, product_spelling, device_name, out.notes)
                    : canonical_product(product_spelling, known_products(table));
  bool no_row = false;  // a gfx942 part no gfx942 row describes (not the MI300X row either)
  if (out.gfx == "gfx942" && out.product.empty()) {
    auto p = gfx942_product(table, props, device_name, out.notes);
    if (p)
      out.product = *p;
    else
      no_row = true;
  }
  const std::string product_text = out.product.empty() ? "no product" : "product " + out.product;

  if (out.gfx.empty()) {
    out.notes.push_back("no gfx in env_report.json: peaks unknown, every headroom unknown");
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
    out.source = PeaksSource::table;
    out.confidence = Confidence::high;
    out.hbm_bw_bytes_s = match->hbm_bw_bytes_s;
    out.flops = match->flops;
    out.l2_bytes = match->l2_bytes;
    out.mall_bytes = match->mall_bytes;
    out.link = match->link;
    out.section = fmt::format("{}:{} ({}{})", table.source_name, match->line, match->gfx,
                              match->product.empty() ? "" : ", product " + match->product);
    out.notes.push_back(fmt::format("peaks from {}", out.section));
    if (!match->hbm_bw_bytes_s)
      out.notes.push_back("the matching section has no hbm_bw_bytes_s: memory axis unknown");
    out.compute_validated = bf16_equals_fp16(match->flops);
    if (!out.compute_validated)
      out.notes.push_back(match->flops.count(DtypeKey::bf16) && match->flops.count(DtypeKey::fp16)
                              ? "bf16 != fp16 in the peaks section: compute peaks not validated, "
                                "compute-axis entries get confidence low"
                              : "peaks section lacks bf16 or fp16: compute peaks cannot be "
                                "validated, compute-axis entries get confidence low");
    out.datasheet_hbm_bw_bytes_s = out.hbm_bw_bytes_s;
    out.datasheet_flops = out.flops;
    for (const auto& [key, value] : out.flops) out.compute_ceiling[key] = CeilingKind::datasheet;
    apply_measured(*match, out);
    return out;
  }
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
  const auto& p = props;
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
    return out;
  }
  out.notes.push_back(
      fmt::format("{} and no device_props (memory_clock_rate_khz, memory_bus_width_bits) "
                  "to derive bandwidth: peaks unknown, every headroom unknown",
                  unmatched));
  return out;
}

}  // namespace roofline
