// The one renderer of model terms into note text (term.hpp).
#include "roofline/base/term.hpp"

#include <string_view>

#include <fmt/format.h>

#include "roofline/base/units.hpp"

namespace roofline {

Shown shown_by_default(TermUnit unit) {
  switch (unit) {
    case TermUnit::bytes:
      return Shown::bytes;
    case TermUnit::flops:
      return Shown::sig4;
    case TermUnit::count:
    case TermUnit::ratio:
      return Shown::sig6;
    case TermUnit::fraction:
      return Shown::pct1;
  }
  return Shown::sig6;
}

Term term(std::string name, std::string formula, double value, TermUnit unit) {
  Term t;
  t.name = std::move(name);
  t.formula = std::move(formula);
  t.value = value;
  t.unit = unit;
  return t;
}

Term part(std::string formula, double value, TermUnit unit) {
  return term({}, std::move(formula), value, unit);
}

Term sum(std::string name, std::vector<Term> parts) {
  Term t;
  t.name = std::move(name);
  if (!parts.empty()) t.unit = parts.front().unit;
  for (const Term& p : parts) t.value += p.value;
  t.parts = std::move(parts);
  return t;
}

Term sum_of_formulas(std::string name, std::vector<Term> parts) {
  Term t = sum(std::move(name), std::move(parts));
  for (const Term& p : t.parts) t.formula += (t.formula.empty() ? "" : " + ") + p.formula;
  return t;
}

Term scaled_sum(std::string name, std::string factor_name, double factor, std::vector<Term> parts) {
  Term t = sum(std::move(name), std::move(parts));
  t.value = factor * t.value;
  std::string formulas, values;
  for (const Term& p : t.parts) {
    formulas += (formulas.empty() ? "" : " + ") + p.formula;
    values += (values.empty() ? "" : " + ") + shown(p);
  }
  t.formula = factor_name + "·(" + formulas + ")";
  t.expansion = format_g(factor) + "·(" + values + ")";
  return t;
}

std::string shown(const Term& t) {
  switch (t.display.value_or(shown_by_default(t.unit))) {
    case Shown::bytes:
      return format_bytes(t.value, Digits::exact);
    case Shown::sig4:
      return fmt::format("{:.4g}", t.value);
    case Shown::sig6:
      return format_g(t.value);
    case Shown::fixed2:
      return fmt::format("{:.2f}", t.value);
    case Shown::fixed3:
      return fmt::format("{:.3f}", t.value);
    case Shown::pct1:
      return fmt::format("{:.1f}%", 100.0 * t.value);
  }
  return format_g(t.value);
}

std::string render_part(const Term& t) {
  const std::string& label = t.formula.empty() ? t.name : t.formula;
  if (label.empty()) return shown(t);
  std::string out = label;
  return out.append(" ").append(shown(t));
}

std::string render_parts(const std::vector<Term>& parts) {
  std::string out;
  for (const Term& p : parts) {
    if (!out.empty()) out += " + ";
    out += render_part(p);
  }
  return out;
}

std::string render(const Term& t) {
  const std::string body =
      !t.formula.empty() || t.parts.empty() ? t.formula : render_parts(t.parts);
  std::string out;
  bool related = false;  // the relation is written once, between the first two clauses
  auto clause = [&](const std::string& text) {
    if (out.empty()) {
      out = text;
      return;
    }
    out.append(" ").append(related ? std::string_view("=") : std::string_view(t.relation));
    out.append(" ").append(text);
    related = true;
  };
  if (!t.name.empty()) clause(t.name);
  if (!body.empty()) clause(body);
  if (!t.expansion.empty()) clause(t.expansion);
  clause(shown(t));
  if (!t.remark.empty()) out.append(" (").append(t.remark).append(")");
  return out;
}

std::string render_all(const std::vector<Term>& terms, const std::string& sep) {
  std::string out;
  for (const Term& t : terms) {
    if (!out.empty()) out += sep;
    out += render(t);
  }
  return out;
}

}  // namespace roofline
