// Which target_eff an analysed entry gets when a calibration is given (OUTCOMES.md §5), pure.
#include <fmt/format.h>

#include "roofline/calibration.hpp"

namespace roofline {

TargetEffChoice choose_target_eff(std::optional<double> prior, OpClass cls, const std::string& arch,
                                  const std::string& product, const CalibrationTable* calibration,
                                  std::size_t min_n) {
  TargetEffChoice c;
  c.target_eff = prior;
  if (!calibration) return c;
  c.source = "prior";
  const std::string name = to_string(cls);
  const std::string who =
      fmt::format("({}, {}, {})", name, arch.empty() ? "-" : arch, product.empty() ? "-" : product);
  const std::string prior_text = prior ? fmt::format("{:g}", *prior) : std::string("none");
  for (const auto& k : calibration->classes) {
    if (k.op_class != name || k.arch != arch || k.product != product) continue;
    if (!prior || !k.used || k.n < min_n) {
      c.note = fmt::format(
          "target_eff {} is the prior: class {} in {} has target_eff {:g} (n={}) but {}",
          prior_text, who, calibration->display, k.target_eff, k.n,
          !prior    ? std::string("the class has no prior to replace")
          : !k.used ? (k.why.empty() ? std::string("is not marked used")
                                     : "is not marked used (" + k.why + ")")
                    : fmt::format("n < --calibration-min-n {}", min_n));
      return c;
    }
    c.target_eff = k.target_eff;
    c.source = fmt::format("calibrated (n={}, {})", k.n, calibration->display);
    c.note = fmt::format("target_eff {:g} calibrated (n={}, {}) instead of the prior {}",
                         k.target_eff, k.n, calibration->display, prior_text);
    return c;
  }
  c.note = fmt::format("target_eff {} is the prior: no class {} in {}", prior_text, who,
                       calibration->display);
  return c;
}

}  // namespace roofline
