// Build-time check of the shipped tables other than peaks.md (which gen_builtin_peaks checks):
// data/kernel_classes.tsv and data/kernel_ops.tsv (pattern, class and its closed detail language),
// data/kernel_backends.tsv (the closed editable and classification columns) and
// data/target_eff.tsv (class, product, value, source; a prior for every modelled class; products
// that peaks.md knows) and data/op_table.tsv (the op table, docs/method.md §23: closed roles,
// layouts, formulas and scalar names, ascending positions, each op once, the operands each
// formula needs). Each is parsed with the parser the binary uses, so a broken row fails the
// build instead of being dropped at run time. In the three pattern tables no pattern may appear
// twice (the longest match wins, ties to the earlier row: a repeated pattern could never win).
// Usage: check_data_tables KERNEL_CLASSES KERNEL_OPS KERNEL_BACKENDS TARGET_EFF OP_TABLE PEAKS_MD
//        STAMP
#include <cctype>
#include <cstdio>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "roofline/inputs/kernel_backends.hpp"
#include "roofline/inputs/kernel_classes.hpp"
#include "roofline/inputs/op_table.hpp"
#include "roofline/inputs/peaks.hpp"
#include "roofline/inputs/target_eff.hpp"

namespace {

bool read(const char* path, std::string& text) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  text = s.str();
  return static_cast<bool>(in);
}

void add(std::vector<std::string>& problems, const std::vector<std::string>& more) {
  problems.insert(problems.end(), more.begin(), more.end());
}

// A pattern written twice (case-insensitively): the second row could never win.
template <class Rule>
void no_repeats(std::vector<std::string>& problems, const std::optional<std::vector<Rule>>& rules,
                const char* table) {
  if (!rules) return;
  std::map<std::string, int> seen;
  for (const Rule& r : *rules) {
    std::string key = r.pattern;
    for (char& c : key) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (auto [it, fresh] = seen.emplace(key, r.line); !fresh)
      problems.push_back(std::string(table) + ":" + std::to_string(r.line) + ": pattern '" +
                         r.pattern + "' repeats line " + std::to_string(it->second) +
                         " (the later row can never win)");
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 8) {
    std::fprintf(stderr,
                 "usage: check_data_tables KERNEL_CLASSES KERNEL_OPS KERNEL_BACKENDS TARGET_EFF "
                 "OP_TABLE PEAKS_MD STAMP\n");
    return 2;
  }
  std::string classes, ops, backends, target_eff, op_table, peaks;
  for (auto [path, text] :
       {std::pair{argv[1], &classes}, std::pair{argv[2], &ops}, std::pair{argv[3], &backends},
        std::pair{argv[4], &target_eff}, std::pair{argv[5], &op_table}, std::pair{argv[6], &peaks}})
    if (!read(path, *text)) {
      std::fprintf(stderr, "check_data_tables: cannot read %s\n", path);
      return 1;
    }
  std::vector<std::string> problems;
  const auto class_rows =
      roofline::inputs::parse_kernel_classes(classes, "data/kernel_classes.tsv");
  add(problems, class_rows.errors);
  no_repeats(problems, class_rows.value, "data/kernel_classes.tsv");
  const auto op_rows = roofline::inputs::parse_kernel_ops(ops, "data/kernel_ops.tsv");
  add(problems, op_rows.errors);
  no_repeats(problems, op_rows.value, "data/kernel_ops.tsv");
  const auto backend_rows =
      roofline::inputs::parse_kernel_backends(backends, "data/kernel_backends.tsv");
  add(problems, backend_rows.errors);
  no_repeats(problems, backend_rows.value, "data/kernel_backends.tsv");
  const auto eff = roofline::inputs::parse_target_eff(target_eff, "data/target_eff.tsv");
  add(problems, eff.errors);
  add(problems, roofline::inputs::parse_op_table(op_table, "data/op_table.tsv").errors);
  const auto table = roofline::inputs::parse_peaks_md(peaks, "data/peaks.md");
  if (eff.value && table.value)
    for (const std::string& p : roofline::inputs::check_target_eff(
             *eff.value, roofline::inputs::known_products(*table.value)))
      problems.push_back("data/target_eff.tsv: " + p);
  if (!problems.empty()) {
    for (const auto& p : problems) std::fprintf(stderr, "check_data_tables: %s\n", p.c_str());
    return 1;
  }
  std::ofstream stamp(argv[7], std::ios::binary);
  stamp << "data/kernel_classes.tsv, data/kernel_ops.tsv, data/kernel_backends.tsv, "
           "data/target_eff.tsv, data/op_table.tsv: checked\n";
  return stamp ? 0 : 1;
}
