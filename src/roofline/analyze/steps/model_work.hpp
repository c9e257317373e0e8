#pragma once
// Pass model_work (docs/method.md §8): one entry's bytes and FLOPs per logical unit, from the
// models of analyze/models/.
#include <vector>

#include "roofline/analyze/entry/model_context.hpp"
#include "roofline/analyze/entry/regime_choice.hpp"
#include "roofline/analyze/entry/work_estimate.hpp"
#include "roofline/analyze/layer.hpp"
#include "roofline/classify/classify.hpp"
#include "roofline/inputs/inputs.hpp"
#include "roofline/inputs/probes.hpp"

namespace roofline::analyze {

// The Top-N's own call signatures as cases (docs/method.md §8.2), the input the driver hands step
// 7: one case per signature with its per-operand dtypes by role (operand_dtypes, under `cls`).
// Empty unless the entry's `shapes` were call signatures with a dtype set (`dtypes_are_set`).
SignatureCases signature_cases(const TopnEntry& entry, OpClass cls, const ModelConfig* config);

// Step 7 at confidence stage A. With call signatures (`signatures`, from signature_cases; an entry
// whose `dtypes_are_set` needs them): the case model over them, and when no signature can be
// modelled, the first signature alone at the activation type. Otherwise model_candidates, then
// choose_candidate, over the entry's shapes. An entry left unmodelled with shapes and dtypes gets
// the operand-bytes lower bound (docs/method.md §8.16).
WorkEstimate model_work(const TopnEntry& entry, const RegimeChoice& regime,
                        const Classification& cls, const ModelContext& ctx,
                        const SignatureCases& signatures = {});

}  // namespace roofline::analyze
