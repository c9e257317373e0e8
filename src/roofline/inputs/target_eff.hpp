#pragma once
// The target_eff priors (docs/method.md §14): data/target_eff.tsv, compiled into the binary, and
// the one lookup the verdict (and calibration) makes in it.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "roofline/inputs/load.hpp"
#include "roofline/base/vocabulary.hpp"

namespace roofline {

// One row: the prior of `op_class` on `product` ("" = every part, the table's `*`).
struct TargetEffRow {
  OpClass op_class = OpClass::unknown;
  std::string product;
  double value = 0.0;
  std::string source;  // where the figure comes from
  int line = 0;
};
struct TargetEffTable {
  std::vector<TargetEffRow> rows;
};

// One row per non-comment line: `class product value source...` (whitespace separated; product
// `*` for every part; value in (0, 1]). A bad row is an error naming its line and is skipped; a
// second row for one (class, product) is an error too.
Loaded<TargetEffTable> parse_target_eff(std::string_view text, const std::string& display_name);

// Problems of a parsed table: a class with a byte model but no `*` row, or a product row naming a
// product that is not one of `known_products` (peaks.md's) when that list is given.
std::vector<std::string> check_target_eff(const TargetEffTable& table,
                                          const std::vector<std::string>& known_products = {});

// The prior of `cls` on `product`: the product's row, else the class's `*` row; nullopt when the
// class has none (unknown).
std::optional<double> target_eff_prior(const TargetEffTable& table, OpClass cls,
                                       const std::string& product);

// The shipped table (data/target_eff.tsv), parsed once; the build checked it.
const TargetEffTable& builtin_target_eff();

}  // namespace roofline
