#pragma once
// The hardware-peaks table: the shipped default, and validation for `roofline peaks check`.

#include <string>
#include <string_view>
#include <vector>

#include "roofline/inputs/inputs.hpp"
#include "roofline/inputs/layer.hpp"
#include "roofline/inputs/load.hpp"

namespace roofline::inputs {

// The built-in table compiled from data/peaks.md. Parsed once; never fails for a shipped binary
// (a broken data/peaks.md is caught by the test suite).
const PeaksTable& builtin_peaks();

// A measured figure below this fraction of the datasheet's is a bad benchmark (docs/method.md
// §5.7): `peaks check` warns and analyze keeps the datasheet figure for that axis.
inline constexpr double k_measured_floor = 0.3;
// Measured bf16 and fp16 matrix rates must agree within this relative tolerance (timing noise;
// the datasheet figures must be equal).
inline constexpr double k_measured_bf16_fp16_tolerance = 0.05;

// Problems `peaks check` reports beyond parse errors: missing gfx/hbm_bw_bytes_s, bf16 != fp16,
// duplicate (gfx, product) sections, and in a `measured:` block no source, no figure, or a figure
// without a datasheet figure beside it. Empty when the table is sound.
std::vector<std::string> check_peaks(const PeaksTable& table);

// What `peaks check` warns about without refusing the table (docs/method.md §5.7): a measured
// figure above the datasheet's (a timing error) or below 0.3 of it (a bad benchmark). Analyze
// keeps the datasheet figure for such an axis.
std::vector<std::string> check_peaks_warnings(const PeaksTable& table);

// Measured bf16 and fp16 figures more than 5 % apart (docs/method.md §5.7): a warning, not a
// problem. Matrix units run both at one datasheet rate, but a vendor's published achievable
// figures can differ (AMD's MI300X MAF: bf16 708, fp16 654 TFLOP/s); the pair is kept as measured
// data and each dtype is judged against its own figure, named in the notes. The build accepts it.
std::vector<std::string> check_peaks_bf16_fp16(const PeaksTable& table);

// Sections without `source:` (where the figures come from). `peaks check` warns; the build refuses
// a built-in section without one.
std::vector<std::string> check_peaks_sources(const PeaksTable& table);

// Why a measured figure is not used as the axis's ceiling ("" when it is): no datasheet figure
// to judge it by, above the datasheet figure, or below 0.3 of it.
std::string measured_figure_problem(double measured, std::optional<double> datasheet);

// The product spellings the table knows (for canonical_product()).
std::vector<std::string> known_products(const PeaksTable& table);

}  // namespace roofline::inputs
