#pragma once
// The whole run (docs/method.md §3): the pure pipeline from read inputs to one Analysis.

#include <vector>

#include "roofline/analyze/analysis.hpp"
#include "roofline/analyze/entry/head.hpp"
#include "roofline/analyze/entry/verdict.hpp"
#include "roofline/analyze/layer.hpp"
#include "roofline/inputs/eval_inputs.hpp"

namespace roofline::analyze {

// What the command line gives over the env report and the trace (docs/method.md §22.9): the part
// (resolved from --product against the peaks table), --conc, --isl, --osl, --tp, --regime. Each
// wins; a note says where the env report or the trace records otherwise.
struct GivenEnv {
  std::string product_spelling;  // as given; "" = no part given
  std::string arch;              // the part's arch (gfx or sm_NN)
  std::string product;           // its section's product key ("" = the section without product)
  std::string part_name;         // as the section names it
  std::string note;              // how an alias of several parts was resolved; "" otherwise
  std::optional<double> conc, isl, osl, tp;
  std::optional<Regime> regime;
};

struct AnalyzeOptions {
  GivenEnv given;
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

}  // namespace roofline::analyze
