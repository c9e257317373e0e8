#pragma once
// A part named as people write it (`mi300x`, `AMD Instinct MI300X`, `h100-sxm`, `rtx-pro-6000`):
// which sections of a peaks table answer to it (docs/method.md §22.9).

#include <string>
#include <string_view>
#include <vector>

#include "roofline/inputs/inputs.hpp"
#include "roofline/inputs/layer.hpp"

namespace roofline::inputs {

// The sections a spelling names. A spelling names a section exactly when its words, with vendor
// words (AMD, NVIDIA, Instinct, GeForce) dropped and separators ignored, are the section's product
// key, its `name` or one of its `device_names`; failing any exact match, when its words appear in
// that order among the words of one of them (`rtx pro 6000` names both RTX PRO 6000 editions).
struct ProductMatch {
  std::vector<const PeaksSection*> sections;  // table order; empty = no part answers to it
  bool exact = false;
};
ProductMatch match_product(const PeaksTable& table, std::string_view spelling);

// The spellings a section answers to exactly, as `peaks list` shows them: the product key, the
// name, the device names (duplicates in words dropped).
std::vector<std::string> product_spellings(const PeaksSection& s);

// The section of several parts a spelling cannot tell apart (docs/method.md §22.2): the figures
// they share, the lower where they differ; a figure one of them lacks is dropped. `product` keys
// it.
PeaksSection lower_figures(const std::vector<const PeaksSection*>& parts,
                           const std::string& product);

}  // namespace roofline::inputs
