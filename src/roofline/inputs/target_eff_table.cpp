// data/target_eff.tsv -> TargetEffTable, its checks and the one lookup (docs/method.md §14 priors).
#include <cmath>
#include <set>

#include <fmt/format.h>

#include "roofline/inputs/target_eff.hpp"
#include "roofline/base/units.hpp"

namespace roofline {
namespace {

bool is_field_space(char c) {
  return c == ' ' || c == '\t' || c == '\r';
}

// The next whitespace-separated word of `line` from `at`; advances `at`.
std::string_view next_word(std::string_view line, std::size_t& at) {
  while (at < line.size() && is_field_space(line[at])) ++at;
  const std::size_t begin = at;
  while (at < line.size() && !is_field_space(line[at])) ++at;
  return line.substr(begin, at - begin);
}

// A fraction in (0, 1] spelled as a plain decimal; nullopt otherwise.
std::optional<double> fraction(std::string_view word) {
  if (word.empty() || word.size() > 16) return std::nullopt;
  const std::string s(word);
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size() || !std::isfinite(v) || !(v > 0.0) || v > 1.0)
    return std::nullopt;
  return v;
}

// One row from a line, or the reason it is not one.
std::optional<TargetEffRow> parse_row(std::string_view line, std::string& why) {
  std::size_t at = 0;
  const std::string_view cls = next_word(line, at);
  const std::string_view product = next_word(line, at);
  const std::string_view value = next_word(line, at);
  while (at < line.size() && is_field_space(line[at])) ++at;
  TargetEffRow r;
  const auto op = parse_op_class(cls);
  if (!op || *op == OpClass::unknown) {
    why = fmt::format(
        "class '{}' is not one of gemm, moe, attn, linear_attn, ssm, comm, "
        "elementwise",
        cls);
    return std::nullopt;
  }
  r.op_class = *op;
  if (product.empty() || (product != "*" && lower_ascii(product) != product)) {
    why = fmt::format("product '{}': expected a lower-case product key or *", product);
    return std::nullopt;
  }
  r.product = product == "*" ? std::string() : std::string(product);
  const auto v = fraction(value);
  if (!v) {
    why = fmt::format("value '{}': expected a fraction in (0, 1]", value);
    return std::nullopt;
  }
  r.value = *v;
  r.source = trim(line.substr(at));
  if (r.source.empty()) {
    why = "no source: say where the figure comes from";
    return std::nullopt;
  }
  return r;
}

}  // namespace

Loaded<TargetEffTable> parse_target_eff(std::string_view text, const std::string& display_name) {
  Loaded<TargetEffTable> out;
  TargetEffTable table;
  std::set<std::pair<OpClass, std::string>> seen;
  int lineno = 0;
  for (std::size_t pos = 0; pos < text.size();) {
    std::size_t eol = text.find('\n', pos);
    if (eol == std::string_view::npos) eol = text.size();
    const std::string line = trim(text.substr(pos, eol - pos));
    pos = eol + 1;
    ++lineno;
    if (line.empty() || line[0] == '#') continue;
    std::string why;
    auto row = parse_row(line, why);
    if (!row) {
      out.errors.push_back(
          fmt::format("{}:{}: expected 'class product value source' ({}), got '{}'", display_name,
                      lineno, why, line));
      continue;
    }
    if (!seen.insert({row->op_class, row->product}).second) {
      out.errors.push_back(fmt::format("{}:{}: a second row for ({}, {})", display_name, lineno,
                                       to_string(row->op_class),
                                       row->product.empty() ? "*" : row->product));
      continue;
    }
    row->line = lineno;
    table.rows.push_back(std::move(*row));
  }
  out.value = std::move(table);
  return out;
}

std::vector<std::string> check_target_eff(const TargetEffTable& table,
                                          const std::vector<std::string>& known_products) {
  std::vector<std::string> problems;
  for (OpClass cls : {OpClass::gemm, OpClass::moe, OpClass::attn, OpClass::linear_attn,
                      OpClass::ssm, OpClass::comm, OpClass::elementwise}) {
    bool any = false;
    for (const TargetEffRow& r : table.rows) any = any || (r.op_class == cls && r.product.empty());
    if (!any)
      problems.push_back(
          fmt::format("no '{} *' row: the class has a byte model but no prior", to_string(cls)));
  }
  if (!known_products.empty())
    for (const TargetEffRow& r : table.rows) {
      if (r.product.empty()) continue;
      bool known = false;
      for (const std::string& p : known_products) known = known || p == r.product;
      if (!known)
        problems.push_back(
            fmt::format("line {}: product '{}' is no product of peaks.md", r.line, r.product));
    }
  return problems;
}

std::optional<double> target_eff_prior(const TargetEffTable& table, OpClass cls,
                                       const std::string& product) {
  const TargetEffRow* any = nullptr;
  for (const TargetEffRow& r : table.rows) {
    if (r.op_class != cls) continue;
    if (!product.empty() && r.product == product) return r.value;
    if (r.product.empty()) any = &r;
  }
  if (any) return any->value;
  return std::nullopt;
}

}  // namespace roofline
