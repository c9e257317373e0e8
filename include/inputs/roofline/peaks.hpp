#pragma once
// The hardware-peaks table: the shipped default, and validation for `roofline peaks check`.

#include <string>
#include <string_view>
#include <vector>

#include "roofline/inputs.hpp"
#include "roofline/load.hpp"

namespace roofline {

// The built-in table compiled from data/peaks.md. Parsed once; never fails for a shipped binary
// (a broken data/peaks.md is caught by the test suite).
const PeaksTable& builtin_peaks();

// Problems `peaks check` reports beyond parse errors: missing gfx/hbm_bw_bytes_s, bf16 != fp16,
// duplicate (gfx, product) sections. Empty when the table is sound.
std::vector<std::string> check_peaks(const PeaksTable& table);

// The product spellings the table knows (for canonical_product()).
std::vector<std::string> known_products(const PeaksTable& table);

}  // namespace roofline
