#pragma once
// The kernel-family table of `roofline topn` (docs/method.md §18, data/kernel_backends.tsv): who
// builds a kernel family, whether it can be edited, and the profiler classification it fixes.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "roofline/inputs/layer.hpp"
#include "roofline/inputs/load.hpp"

namespace roofline::inputs {

// A row of data/kernel_backends.tsv: who builds a kernel family and whether it can be edited.
struct BackendRule {
  std::string pattern;           // the token rule of kernel_classes.tsv (docs/method.md §7.2)
  std::string backend;           // "cublaslt", "vllm", "triton", ...
  std::optional<bool> editable;  // nullopt: unknown
  std::string classification;  // profiler vocabulary (docs/method.md §2.3), "" = from the op class
  std::string hint;            // the family's description, written as opt_hint
  int line = 0;
  int tokens = -1;  // pattern_length(pattern), counted when read (ClassRule::tokens)
};

// One rule per non-comment line: `pattern backend editable classification hint...`
// (whitespace separated; editable yes|no|?; classification one of docs/method.md §2.3's or '-'). A
// row with a value outside those closed columns is an error naming its line and is skipped.
Loaded<std::vector<BackendRule>> parse_kernel_backends(std::string_view text,
                                                       const std::string& display_name);
// The shipped table (data/kernel_backends.tsv), parsed once; the build checked it.
const std::vector<BackendRule>& builtin_kernel_backends_rules();

}  // namespace roofline::inputs
