#pragma once
// The denominators of every utilization, as resolve_peaks leaves them (docs/method.md §5), and
// the figures read from them.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "roofline/analyze/layer.hpp"
#include "roofline/base/vocabulary.hpp"
#include "roofline/inputs/dtype.hpp"
#include "roofline/inputs/inputs.hpp"
#include "roofline/inputs/peaks.hpp"

namespace roofline::analyze {

struct ResolvedPeaks {
  std::string gfx;      // normalized run arch: the gfx (AMD) or sm_NN (NVIDIA)
  std::string product;  // canonical run product ("" = none)
  // The ceilings every utilization divides by (docs/method.md §5.7): per axis the section's
  // measured figure where it has a usable one, else the datasheet figure.
  std::optional<double> hbm_bw_bytes_s;
  std::map<DtypeKey, double> flops;  // canonical dtype key -> FLOP/s
  // The datasheet figures (or the derived bandwidth, docs/method.md §5.4): what feasibility is
  // judged on (§9, §10.6). Equal to the two above where nothing is measured.
  std::optional<double> datasheet_hbm_bw_bytes_s;
  std::map<DtypeKey, double> datasheet_flops;
  // The lowest datasheet ridge (FLOP/s over bandwidth) of each dtype among the table's parts of
  // the run's vendor, and the part that has it: where this part has no FLOP peak for a dtype, an
  // entry whose AI is below it is memory-bound on any such part (docs/method.md §5.3).
  struct LowestRidge {
    double flop_per_byte = 0.0;
    std::string part;
  };
  std::map<DtypeKey, LowestRidge> lowest_ridge;
  // The section's `measured:` block as written (the artifact records it whole), and which axes
  // divide by a measured figure.
  std::optional<MeasuredPeaks> measured;
  CeilingKind memory_ceiling = CeilingKind::datasheet;
  std::map<DtypeKey, CeilingKind> compute_ceiling;  // one per key of `flops`
  std::optional<double> l2_bytes;
  std::optional<double> mall_bytes;
  std::optional<LinkPeak>
      link;  // interconnect roof (docs/method.md §10.7); none = no verdict for comm
  PeaksSource source = PeaksSource::none;
  Confidence confidence = Confidence::low;  // high (table) or low
  bool compute_validated = false;
  bool hard_unknown = false;  // client RDNA4 without a product section: no numbers at all
  std::string section;        // "built-in peaks.md:31 (gfx950)" when from a table
  std::string part;           // the section's `name` ("MI300X"), "" when none
  // When no section describes the part (L1): the peaks.md section to add, pre-filled with the
  // trace's arch, device name, CU/SM count and memory, its figures FILL (docs/method.md §5.4).
  std::string section_to_add;
  std::vector<std::string> notes;
};

// FLOP/s for a canonical dtype key; nullopt when the table has no figure (never the maximum).
std::optional<double> peak_flops_for(const ResolvedPeaks& peaks, DtypeKey dtype_key);
// The datasheet FLOP/s of a dtype, what a compute rate's feasibility is judged on.
std::optional<double> datasheet_flops_for(const ResolvedPeaks& peaks, DtypeKey dtype_key);
// The bandwidth feasibility is judged on (docs/method.md §9): the datasheet figure, never a
// measured one (a rate between the two is real).
std::optional<double> feasibility_bw(const ResolvedPeaks& peaks);
// Which figure the compute ceiling of a dtype is (datasheet when the dtype has none).
CeilingKind compute_ceiling_for(const ResolvedPeaks& peaks, DtypeKey dtype_key);
// Whether any axis divides by a measured figure.
bool any_measured_ceiling(const ResolvedPeaks& peaks);

}  // namespace roofline::analyze
