#pragma once
// The whole run (docs/method.md §3): the pure pipeline from read inputs to one Analysis.

#include <vector>

#include "roofline/analysis.hpp"
#include "roofline/eval_inputs.hpp"
#include "roofline/stages.hpp"

namespace roofline {

struct AnalyzeOptions {
  ScopeOptions scope;
  VerdictParams verdict;
  std::vector<ClassRule> overrides;                  // --classify, first match wins
  const std::vector<ClassRule>* families = nullptr;  // null = the shipped kernel-family table
};

// The pipeline, in method order: scope -> peaks -> evidence -> per entry (regime, classify,
// model, deepen, judge, grade, advise) -> rankings. Pure; a failure inside one entry degrades that
// entry (L5) and never the run; every input problem is recorded and the run still completes.
Analysis analyze(const AnalyzeInputs& inputs, const AnalyzeOptions& options);

}  // namespace roofline
