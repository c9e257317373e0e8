// The figures read from the resolved peaks (docs/method.md §5.7, §9).
#include "roofline/analyze/entry/resolved_peaks.hpp"

namespace roofline::analyze {

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

}  // namespace roofline::analyze
