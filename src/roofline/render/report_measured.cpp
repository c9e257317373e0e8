#include "roofline/render/report_measured.hpp"

#include <cmath>

#include <fmt/format.h>

#include "roofline/render/md_util.hpp"
#include "roofline/render/report.hpp"

namespace roofline::detail {

std::string render_measured_inputs_md(const Analysis& a) {
  if (a.measured_inputs.empty() && a.unmatched_counter_kernels.empty()) return "";
  std::string out = "## Measured inputs (stages B and C)\n\n";
  for (const auto& line : a.measured_inputs) out += fmt::format("- {}\n", md_escape(line));
  if (!a.unmatched_counter_kernels.empty()) {
    constexpr std::size_t k_listed = 30;
    out += fmt::format(
        "\n{} counter kernel(s) match no head entry (most dispatches first; below the head "
        "threshold, or named differently in the Top-N):\n\n",
        a.unmatched_counter_kernels.size());
    for (std::size_t i = 0; i < a.unmatched_counter_kernels.size() && i < k_listed; ++i)
      out += fmt::format("- {}\n", md_code(a.unmatched_counter_kernels[i], false));
    if (a.unmatched_counter_kernels.size() > k_listed)
      out += fmt::format("- … and {} more\n", a.unmatched_counter_kernels.size() - k_listed);
  }
  return out + "\n";
}

namespace {

// "0.52× (48 % less)", "1.00× (0.3 % more)": the ratio, its direction and distance from 1 (one
// decimal below 1 %, so a small difference never reads "0 % more").
std::string how_far(double ratio) {
  const double pct = std::abs(ratio - 1.0) * 100.0;
  if (ratio == 1.0) return "1.00×";
  return fmt::format("{:.2f}× ({} % {})", ratio,
                     pct < 0.05  ? std::string("< 0.1")
                     : pct < 1.0 ? fmt::format("{:.1f}", pct)
                                 : fmt::format("{:.0f}", pct),
                     ratio < 1.0 ? "less" : "more");
}

bool far(double ratio) {
  return std::abs(ratio - 1.0) > k_far_from_model;
}

}  // namespace

std::string measured_vs_model_md(const HeadEntry& e) {
  if (!e.work.measured_vs_model) return "";
  const MeasuredVsModel& r = *e.work.measured_vs_model;
  std::vector<std::string> said;
  if (!r.bytes) {
    said.push_back(e.work.comm ? "bytes not compared (the counters' DRAM bytes are not link bytes)"
                               : "bytes not compared (no modelled bytes)");
  } else if (far(*r.bytes)) {
    said.push_back(fmt::format(
        "**the kernel moved {} the bytes the model counts**: {} measured against the model's {} "
        "per unit{}",
        how_far(*r.bytes), format_bytes(r.measured_bytes, Digits::exact),
        format_bytes(r.model_bytes, Digits::exact),
        *r.bytes < 1.0 ? " — bytes the model counts never reached DRAM (writes held in L2, reuse), "
                         "or the model over-counts"
                       : " — DRAM traffic the model does not count (re-reads, spills), or the "
                         "model under-counts"));
  } else {
    said.push_back(fmt::format("bytes {} of the model's (within ±{:.0f} %)", how_far(*r.bytes),
                               k_far_from_model * 100));
  }
  if (!r.measured_flops) {
    said.push_back("FLOPs not measured (the model's kept)");
  } else if (!r.flops) {
    said.push_back(fmt::format("FLOPs not compared (the model counts none; {} measured)",
                               format_count(*r.measured_flops)));
  } else if (far(*r.flops)) {
    said.push_back(fmt::format(
        "**the counters show {} the FLOPs the model counts**: {} against the model's {}{}",
        how_far(*r.flops), format_g(*r.measured_flops), format_g(r.model_flops),
        e.work.has_compute_peak_class ? ""
                                      : " (FLOPs do not enter this memory-bound class's verdict)"));
  } else {
    said.push_back(fmt::format("FLOPs {} of the model's", how_far(*r.flops)));
  }
  std::string out = "- **Measured vs model:** ";
  for (std::size_t i = 0; i < said.size(); ++i) out += (i == 0 ? "" : "; ") + said[i];
  out +=
      e.work.comm ? "; the verdict uses the link model" : "; the verdict uses the measured figures";
  return out + (r.timed ? (e.work.comm ? " at the counters' time\n" : "\n")
                        : " at the profile's time (the counters did not time the dispatches)\n");
}

}  // namespace roofline::detail
