#include "output/report_measured.hpp"

#include <fmt/format.h>

#include "output/md_util.hpp"
#include "roofline/report.hpp"

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

}  // namespace roofline::detail
