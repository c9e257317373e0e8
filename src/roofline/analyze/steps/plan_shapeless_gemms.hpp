#pragma once
// Pass plan_shapeless_gemms (docs/method.md §22.4): GEMMs without shapes take a projection of the
// config's projection plan.
#include <vector>

#include "roofline/analyze/entry/findings.hpp"
#include "roofline/analyze/entry/resolved_peaks.hpp"
#include "roofline/analyze/entry/step_rows.hpp"
#include "roofline/analyze/layer.hpp"
#include "roofline/classify/classify.hpp"
#include "roofline/inputs/inputs.hpp"

namespace roofline::analyze {

struct HeadEntry;

// GEMM entries with no shapes (no operand dims, est_shape, workload case or probe) get a
// projection of the config's linear plan: every GEMM of the Top-N without shapes that ran in the
// same regime is a kernel of the assignment (assign_projections), M the step's rows (decode: the
// measured batch, else workload.conc; prefill: the step's tokens, else workload.isl; lm_head the
// step's requests; where none of those, the rows `step_rows` counted). Writes each such entry's
// `projection` and `plan_notes`; run notes say the plan and the assignment. Reads `classified` and
// `regime`.
Findings plan_shapeless_gemms(std::vector<HeadEntry>& head, const TopnDocument& topn,
                              const ModelConfig* config, const EnvReport* env,
                              const ResolvedPeaks& peaks, const ClassRules& rules,
                              const StepRows& step_rows = {});

}  // namespace roofline::analyze
