#include "roofline/kernel_classes.hpp"

#include <fmt/format.h>

#include "core/json_input.hpp"
#include "roofline/embedded_data.hpp"
#include "roofline/text.hpp"

namespace roofline {
namespace {

// "moe:stage1" -> (moe, "stage1"); nullopt for an unknown class.
std::optional<std::pair<OpClass, std::string>> parse_class_spec(std::string_view spec) {
  std::string s = lower_ascii(trim(spec));
  std::string detail_part;
  if (auto colon = s.find(':'); colon != std::string::npos) {
    detail_part = s.substr(colon + 1);
    s.erase(colon);
  }
  auto cls = parse_op_class(s);
  if (!cls) return std::nullopt;
  return std::pair{*cls, detail_part};
}

}  // namespace

Loaded<std::vector<ClassRule>> parse_kernel_classes(std::string_view text,
                                                    const std::string& display_name) {
  Loaded<std::vector<ClassRule>> out;
  std::vector<ClassRule> rules;
  for (const TableLine& line : table_lines(text)) {
    const std::string t = trim(line.text);
    if (t.empty() || t[0] == '#') continue;
    // pattern, class[:detail], then the rest of the line as the description
    std::size_t at = 0;
    const std::string pattern(next_word(t, at));
    const std::string_view spec = next_word(t, at);
    const std::string description(rest_of_line(t, at));
    auto cls = parse_class_spec(spec);
    if (pattern.empty() || !cls) {
      out.errors.push_back(
          fmt::format("{}:{}: expected 'pattern class[:detail] description', got '{}'",
                      display_name, line.number, t));
      continue;
    }
    rules.push_back(ClassRule{pattern, cls->first, cls->second, description, line.number});
  }
  out.value = std::move(rules);
  return out;
}

const std::vector<ClassRule>& builtin_kernel_classes_rules() {
  static const std::vector<ClassRule> rules = [] {
    auto loaded = parse_kernel_classes(builtin_kernel_classes(), "kernel_classes.tsv");
    return loaded.value.value_or(std::vector<ClassRule>{});
  }();
  return rules;
}

std::optional<ClassRule> parse_classify_override(std::string_view spec, std::string& error) {
  auto eq = spec.rfind('=');
  if (eq == std::string_view::npos || eq == 0) {
    error = fmt::format(
        "--classify '{}': expected PATTERN=CLASS (CLASS one of gemm, moe, attn, linear_attn, "
        "ssm, comm, elementwise, unknown; optionally CLASS:detail)",
        spec);
    return std::nullopt;
  }
  auto cls = parse_class_spec(spec.substr(eq + 1));
  if (!cls) {
    error = fmt::format(
        "--classify '{}': unknown class '{}' (expected gemm, moe, attn, linear_attn, ssm, comm, "
        "elementwise or unknown)",
        spec, spec.substr(eq + 1));
    return std::nullopt;
  }
  return ClassRule{std::string(spec.substr(0, eq)), cls->first, cls->second, "--classify override",
                   0};
}

}  // namespace roofline
