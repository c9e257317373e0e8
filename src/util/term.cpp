// The one renderer of model terms into note text (term.hpp).
#include "roofline/term.hpp"

#include <fmt/format.h>

#include "roofline/units.hpp"

namespace roofline {

Shown shown_by_default(Unit unit) {
  switch (unit) {
    case Unit::bytes:
      return Shown::bytes;
    case Unit::flops:
      return Shown::sig4;
    case Unit::count:
    case Unit::ratio:
      return Shown::sig6;
    case Unit::fraction:
      return Shown::pct1;
  }
  return Shown::sig6;
}

Term term(std::string name, std::string formula, double value, Unit unit) {
  Term t;
  t.name = std::move(name);
  t.formula = std::move(formula);
  t.value = value;
  t.unit = unit;
  return t;
}

Term part(std::string formula, double value, Unit unit) {
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
  return label.empty() ? shown(t) : label + " " + shown(t);
}

std::string render_parts(const std::vector<Term>& parts) {
  std::string out;
  for (const Term& p : parts) out += (out.empty() ? "" : " + ") + render_part(p);
  return out;
}

std::string render(const Term& t) {
  const std::string body =
      !t.formula.empty() || t.parts.empty() ? t.formula : render_parts(t.parts);
  std::string out;
  std::string rel = t.relation;  // the first "=" written
  auto clause = [&](const std::string& text) {
    if (out.empty()) {
      out = text;
      return;
    }
    out += " " + rel + " " + text;
    rel = "=";
  };
  if (!t.name.empty()) clause(t.name);
  if (!body.empty()) clause(body);
  if (!t.expansion.empty()) clause(t.expansion);
  clause(shown(t));
  if (!t.remark.empty()) out += " (" + t.remark + ")";
  return out;
}

std::string render_all(const std::vector<Term>& terms, const std::string& sep) {
  std::string out;
  for (const Term& t : terms) out += (out.empty() ? "" : sep) + render(t);
  return out;
}

}  // namespace roofline
