#pragma once
// Pass infer_steps (docs/method.md §6.4): serving steps from the layer plan and the call counts.
#include <vector>

#include "roofline/analyze/entry/step_inference.hpp"
#include "roofline/analyze/layer.hpp"
#include "roofline/inputs/inputs.hpp"

namespace roofline::analyze {

struct HeadEntry;

// When the head has no per-regime fields and the Top-N no step counts: each softmax-attention,
// linear-attention or mamba head entry proposes steps = calls / layers it serves (the layer plan);
// the one with the most calls decides, the other per-layer kernels must agree within 5 % (else
// inference declines). Each per-layer entry (and MoE at 1 or 2 launches per MoE layer) is checked:
// a consistent one gets launches_per_step = calls / steps, an inconsistent one stays at one launch
// per unit; other entries take calls / steps unchecked. Reads each entry's `classified`; writes
// each entry's `launches` when attempted, nothing otherwise.
StepInference infer_steps(const TopnDocument& topn, std::vector<HeadEntry>& head,
                          const ModelConfig* config);

}  // namespace roofline::analyze
