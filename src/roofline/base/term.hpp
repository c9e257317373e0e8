#pragma once
// A named term of a byte/FLOP model: the quantity, its value and unit, where its inputs came from
// and the formula that computed it, written once beside the code that computes it. The notes are
// rendered from terms by one renderer (render), so the number a note prints is the number the
// model goes on to use, and a formula's text cannot drift from its code unnoticed.
//
//   const Term bytes = sum("bytes", {term("M·K·a", m * k * a), term("K·N·w", k * n * w)});
//   render(bytes)  ->  "bytes = M·K·a 1.05 MB + K·N·w 8.39 MB = 9.44 MB"

#include <optional>
#include <string>
#include <vector>

namespace roofline {

// What a term counts.
enum class TermUnit { bytes, flops, count, ratio, fraction };
// How a note shows the value: exact bytes ("697.18 MB"), four or six significant digits, two or
// three decimals, or a percentage with one decimal. Each unit has its default (shown_by_default).
enum class Shown { bytes, sig4, sig6, fixed2, fixed3, pct1 };

struct Term {
  std::string name;     // "bytes", "experts_hit", "link bytes per GPU (inbound)"; "" = none
  std::string formula;  // "M·K·a + K·N·w + M·N·a", with any remark that belongs before the value
  double value = 0.0;
  TermUnit unit = TermUnit::bytes;
  std::string source;            // where the inputs came from ("config.json", "est_shape.decode.M")
  std::string expansion;         // the formula with numbers in ("8·(1 MB + 2 MB)"), "" = none
  std::string remark;            // after the value, in parentheses ("K and V; Q and O negligible")
  std::vector<Term> parts;       // the summands, when the term is their sum (sum())
  std::string relation = "=";    // between the name and the rest: "=", "≈", "≥"
  std::optional<Shown> display;  // nullopt: the unit's default
};

// Bytes exact, FLOPs and ratios to four and six significant digits, counts to six, fractions as a
// percentage.
Shown shown_by_default(TermUnit unit);

// A term whose value the caller computed beside its formula.
Term term(std::string name, std::string formula, double value, TermUnit unit = TermUnit::bytes);
// A term with no name of its own (a summand, or a formula that names itself): "M·K·a".
Term part(std::string formula, double value, TermUnit unit = TermUnit::bytes);
// The sum of `parts` (value Σ parts, unit of the first part): "name = p1 v1 + p2 v2 = total".
Term sum(std::string name, std::vector<Term> parts);
// The sum of `parts` written by their formulas alone: "name = f1 + f2 = total".
Term sum_of_formulas(std::string name, std::vector<Term> parts);
// `factor` times the sum of `parts`: "name = F·(p1 + p2) = 8·(v1 + v2) = total".
Term scaled_sum(std::string name, std::string factor_name, double factor, std::vector<Term> parts);

// The value as a note shows it: "697.18 MB", "1.234e+09", "98.94", "12.3%".
std::string shown(const Term& t);
// The one renderer: "name = formula [= expansion] = value [(remark)]". Without a formula a sum
// writes its parts ("name = p1 v1 + p2 v2 = total"); without a name it starts at the formula
// ("formula = value"); without either it is the value alone. `relation` replaces the first "=".
std::string render(const Term& t);
// A summand as a sum writes it: "formula value" ("M·K·a 1.05 MB", "Q 2.1 MB").
std::string render_part(const Term& t);
// Summands joined by " + ": "in 1.05 MB + out 2.10 MB".
std::string render_parts(const std::vector<Term>& parts);
// Terms joined by `sep`: "bytes = … = 1 MB; flops = … = 2e+09".
std::string render_all(const std::vector<Term>& terms, const std::string& sep = "; ");

}  // namespace roofline
