#pragma once
// Text of the shipped data files, compiled in by tools/embed_data.cmake.

#include <string_view>
#include "roofline/inputs/layer.hpp"

namespace roofline::inputs {
std::string_view builtin_peaks_md();
std::string_view builtin_kernel_classes();
std::string_view builtin_kernel_ops();       // data/kernel_ops.tsv (the launching-op rule)
std::string_view builtin_kernel_backends();  // data/kernel_backends.tsv (roofline topn)
std::string_view builtin_target_eff_tsv();   // data/target_eff.tsv
std::string_view builtin_op_table_tsv();     // data/op_table.tsv (docs/method.md §23)
// data/measure_peaks.py as shipped (`roofline peaks measure-script`, docs/method.md §5.7).
std::string_view builtin_measure_peaks_py();
}  // namespace roofline::inputs
