#pragma once
// Pass pick_regimes (docs/method.md §6): each entry's regime, per-launch time and launches per
// step.
#include <string>
#include <vector>

#include "roofline/analyze/entry/regime_choice.hpp"
#include "roofline/analyze/layer.hpp"
#include "roofline/inputs/inputs.hpp"

namespace roofline::analyze {

struct HeadEntry;

// The entry's own per-regime fields first; else the profiler's step counts; else (docs/method.md
// §6.4, `hints`) what its signatures say, then decode when the shapes' rows are at most 2 × conc;
// else unknown. With the inferred launches per step.
RegimeChoice pick_regime(const TopnEntry& entry, const TopnServing& serving,
                         const RegimeHints& hints = {});

// pick_regime for every head entry, with step 5's launches. Writes each `regime`.
void pick_regimes(std::vector<HeadEntry>& head, const TopnDocument& topn, const EnvReport* env,
                  const ModelConfig* config);

}  // namespace roofline::analyze
