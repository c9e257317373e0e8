#pragma once
// Pass classify_head (docs/method.md §7): each head entry's op class, and MoE stages from sibling
// kernels.
#include <cstddef>
#include <string>
#include <vector>

#include "roofline/analyze/entry/head.hpp"
#include "roofline/analyze/layer.hpp"
#include "roofline/classify/classify.hpp"
#include "roofline/inputs/inputs.hpp"

namespace roofline::analyze {

struct HeadEntry;

// The head entry of Top-N record `topn_position` (null when the record is not in the head), and
// the record's class: its head entry's, else classify() under `rules` — for the steps that work
// over the whole Top-N (the MoE siblings, the linear plan).
TopNClass topn_class(std::vector<HeadEntry>& head, const TopnDocument& topn,
                     std::size_t topn_position, const ClassRules& rules);

// classify() (roofline/classify.hpp) over the head, before the per-entry pass: step 5 needs the
// classes. Writes each entry's `classified`.
// Then the MoE stages from sibling kernels (below).
void classify_head(std::vector<HeadEntry>& head, const TopnDocument& topn, const ClassRules& rules);

// Step 4 too (docs/method.md §22.5): two MoE kernels of one family (the name's first token) in
// the same steps (served regimes and calls), exactly one of them fused with an activation
// (`swiglu`, `silu`, `gelu`, `act` as a name token): that one is stage 1 (gate/up), the other
// stage 2 (down). Kernels of a row that fixes both stages, or stage 2, are left alone; the
// siblings may be outside the head. Writes the head entries' `classified` stage and a class note.
void moe_stages_from_siblings(std::vector<HeadEntry>& head, const TopnDocument& topn,
                              const ClassRules& rules);

}  // namespace roofline::analyze
