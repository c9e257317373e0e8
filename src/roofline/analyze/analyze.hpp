#pragma once
// The whole run (docs/method.md §3): the pure pipeline from read inputs to one Analysis.

#include <vector>

#include "roofline/analyze/analysis.hpp"
#include "roofline/inputs/eval_inputs.hpp"
#include "roofline/analyze/stages.hpp"

namespace roofline {

struct AnalyzeOptions {
  ScopeOptions scope;
  VerdictParams verdict;
  std::vector<ClassRule> overrides;                  // --classify, first match wins
  const std::vector<ClassRule>* families = nullptr;  // null = the shipped kernel-family table
};

// The pipeline, in method order: scope -> peaks -> evidence -> classes -> steps -> per entry
// (regime, model, deepen, judge, grade, advise) -> rankings. Pure, and lets no exception out
// (short of running out of memory while recording one): a failure inside one entry degrades
// that entry (L5); any other exception stops the run at that step as an L5 skill error, keeps
// what the earlier steps found and marks the entries not yet analysed, so the Analysis can still
// be written (docs/method.md §13). Every input problem is recorded and the run still completes.
Analysis analyze(const AnalyzeInputs& inputs, const AnalyzeOptions& options);

}  // namespace roofline
