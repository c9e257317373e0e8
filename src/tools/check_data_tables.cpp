// Build-time check of the shipped tables other than peaks.md (which gen_builtin_peaks checks):
// data/kernel_classes.tsv (pattern, class and its closed detail language), data/kernel_backends.tsv
// (the closed editable and classification columns) and data/target_eff.tsv (class, product, value,
// source; a prior for every modelled class; products that peaks.md knows). Each is parsed with the
// parser the binary uses, so a broken row fails the build instead of being dropped at run time.
// Usage: check_data_tables KERNEL_CLASSES KERNEL_BACKENDS TARGET_EFF PEAKS_MD STAMP
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "roofline/kernel_backends.hpp"
#include "roofline/kernel_classes.hpp"
#include "roofline/peaks.hpp"
#include "roofline/target_eff.hpp"

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

}  // namespace

int main(int argc, char** argv) {
  if (argc != 6) {
    std::fprintf(stderr,
                 "usage: check_data_tables KERNEL_CLASSES KERNEL_BACKENDS TARGET_EFF PEAKS_MD "
                 "STAMP\n");
    return 2;
  }
  std::string classes, backends, target_eff, peaks;
  for (auto [path, text] : {std::pair{argv[1], &classes}, std::pair{argv[2], &backends},
                            std::pair{argv[3], &target_eff}, std::pair{argv[4], &peaks}})
    if (!read(path, *text)) {
      std::fprintf(stderr, "check_data_tables: cannot read %s\n", path);
      return 1;
    }
  std::vector<std::string> problems;
  add(problems, roofline::parse_kernel_classes(classes, "data/kernel_classes.tsv").errors);
  add(problems, roofline::parse_kernel_backends(backends, "data/kernel_backends.tsv").errors);
  const auto eff = roofline::parse_target_eff(target_eff, "data/target_eff.tsv");
  add(problems, eff.errors);
  const auto table = roofline::parse_peaks_md(peaks, "data/peaks.md");
  if (eff.value && table.value)
    for (const std::string& p :
         roofline::check_target_eff(*eff.value, roofline::known_products(*table.value)))
      problems.push_back("data/target_eff.tsv: " + p);
  if (!problems.empty()) {
    for (const auto& p : problems) std::fprintf(stderr, "check_data_tables: %s\n", p.c_str());
    return 1;
  }
  std::ofstream stamp(argv[5], std::ios::binary);
  stamp << "data/kernel_classes.tsv, data/kernel_backends.tsv, data/target_eff.tsv: checked\n";
  return stamp ? 0 : 1;
}
