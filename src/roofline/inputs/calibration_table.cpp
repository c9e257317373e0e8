// roofline_calibration.json as `analyze --calibration` reads it, and the per-entry lookup of
// target_eff in it (docs/method.md §17.5).
#include <fmt/format.h>

#include "roofline/inputs/json_input.hpp"
#include "roofline/inputs/calibration.hpp"

namespace roofline {

Loaded<CalibrationTable> parse_calibration(std::string_view text, const std::string& display,
                                           const InputLimits& limits) {
  Loaded<CalibrationTable> out;
  auto doc = detail::parse_json_object(text, display, limits.max_depth, out.errors);
  if (!doc) return out;
  detail::FieldReader f(display, out.errors);
  if (f.string(*doc, "schema", "schema") != "roofline-calibration-v1") {
    f.error("schema", "expected roofline-calibration-v1");
    return out;
  }
  CalibrationTable t;
  t.display = display;
  const auto* classes = f.array(*doc, "classes", "classes");
  if (!classes) {
    f.error("classes", "missing: no classes");
    return out;
  }
  for (std::size_t i = 0; i < classes->size(); ++i) {
    const auto& c = (*classes)[i];
    const std::string path = fmt::format("classes[{}]", i);
    const std::size_t before = out.errors.size();
    CalibrationClass k;
    k.op_class = f.string(c, "op_class", path + ".op_class").value_or("");
    k.arch = f.string(c, "arch", path + ".arch").value_or("");
    k.product = f.string(c, "product", path + ".product").value_or("");
    if (const auto ceiling = f.string(c, "ceiling", path + ".ceiling")) {
      if (auto kind = parse_ceiling(*ceiling))
        k.ceiling = *kind;
      else
        f.error(path + ".ceiling", fmt::format("'{}': expected datasheet or measured", *ceiling));
    }
    const auto n = f.number(c, "n", path + ".n");
    const auto target = f.number(c, "target_eff", path + ".target_eff");
    const auto used = f.boolean(c, "used", path + ".used");
    k.prior = f.number(c, "prior", path + ".prior").value_or(0.0);
    k.why = f.string(c, "why", path + ".why").value_or("");
    if (out.errors.size() == before &&
        (k.op_class.empty() || k.arch.empty() || !n || *n < 0 || !target || !used))
      f.error(path, "needs op_class, arch, n, target_eff and used");
    if (out.errors.size() > before) {
      out.errors.back() += "; class skipped";
      continue;
    }
    if (!(*target >= k_min_target_eff && *target <= k_max_target_eff)) {
      f.error(path + ".target_eff", fmt::format("{:g} is outside [{:g}, {:g}]; class skipped",
                                                *target, k_min_target_eff, k_max_target_eff));
      continue;
    }
    k.n = static_cast<std::size_t>(*n);
    k.target_eff = *target;
    k.used = *used;
    t.classes.push_back(std::move(k));
  }
  out.value = std::move(t);
  return out;
}

TargetEffChoice choose_target_eff(std::optional<double> prior, OpClass cls, const std::string& arch,
                                  const std::string& product, CeilingKind ceiling,
                                  const CalibrationTable* calibration, std::size_t min_n) {
  TargetEffChoice c;
  c.target_eff = prior;
  if (!calibration) return c;
  c.source = "prior";
  const std::string name = to_string(cls);
  // A datasheet class reads as it always has; a measured one says so.
  const std::string who = fmt::format("({}, {}, {}{})", name, arch.empty() ? "-" : arch,
                                      product.empty() ? "-" : product,
                                      ceiling == CeilingKind::measured ? ", measured ceiling" : "");
  const std::string prior_text = prior ? fmt::format("{:g}", *prior) : std::string("none");
  for (const auto& k : calibration->classes) {
    if (k.op_class != name || k.arch != arch || k.product != product) continue;
    if (k.ceiling != ceiling) continue;
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
  // A class of the other ceiling is no substitute (docs/method.md §5.7, §17.5): said so.
  bool other_ceiling = false;
  for (const auto& k : calibration->classes)
    other_ceiling |= k.op_class == name && k.arch == arch && k.product == product;
  c.note = fmt::format("target_eff {} is the prior: no class {} in {}{}", prior_text, who,
                       calibration->display,
                       !other_ceiling ? ""
                       : ceiling == CeilingKind::measured
                           ? " (its datasheet class does not apply to a measured ceiling)"
                           : " (its measured-ceiling class does not apply to a datasheet one)");
  return c;
}

}  // namespace roofline
