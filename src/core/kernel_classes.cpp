#include "roofline/kernel_classes.hpp"

#include <fmt/format.h>

#include "core/json_input.hpp"
#include "roofline/embedded_data.hpp"

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
  int lineno = 0;
  for (std::size_t pos = 0; pos < text.size();) {
    std::size_t eol = text.find('\n', pos);
    if (eol == std::string_view::npos) eol = text.size();
    const std::string t = trim(text.substr(pos, eol - pos));
    pos = eol + 1;
    ++lineno;
    if (t.empty() || t[0] == '#') continue;
    // pattern, class[:detail], then the rest of the line as the description
    auto is_space = [](char c) { return c == ' ' || c == '\t'; };
    std::size_t p_end = 0;
    while (p_end < t.size() && !is_space(t[p_end])) ++p_end;
    std::size_t s_begin = p_end;
    while (s_begin < t.size() && is_space(t[s_begin])) ++s_begin;
    std::size_t s_end = s_begin;
    while (s_end < t.size() && !is_space(t[s_end])) ++s_end;
    const std::string pattern = t.substr(0, p_end);
    const std::string spec = t.substr(s_begin, s_end - s_begin);
    const std::string description = t.substr(s_end);
    auto cls = parse_class_spec(spec);
    if (pattern.empty() || !cls) {
      out.errors.push_back(
          fmt::format("{}:{}: expected 'pattern class[:detail] description', got '{}'",
                      display_name, lineno, t));
      continue;
    }
    rules.push_back(ClassRule{pattern, cls->first, cls->second, trim(description), lineno});
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
