// The built-in peaks table. data/peaks.md is parsed with yaml-cpp at build time by
// tools/gen_builtin_peaks.cpp (which fails the build on any problem in the shipped table);
// the result is compiled in here, so a run does not pay for YAML parsing.
#include "roofline/inputs/peaks.hpp"

namespace roofline {

const PeaksTable& builtin_peaks() {
  static const PeaksTable table = [] {
    PeaksTable t;
    t.source_name = "built-in peaks.md";
#include "builtin_peaks.inc"
    return t;
  }();
  return table;
}

}  // namespace roofline
