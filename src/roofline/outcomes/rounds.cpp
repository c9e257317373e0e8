// Round names as strings, the round folders of an evaluation folder, and step counts.
#include "roofline/outcomes/rounds.hpp"

#include <algorithm>
#include <charconv>
#include <system_error>

#include <fmt/format.h>

#include "roofline/analyze/steps/classify_head.hpp"
#include "roofline/analyze/steps/infer_steps.hpp"
#include "roofline/analyze/steps/scope_to_head.hpp"
#include "roofline/inputs/kernel_classes.hpp"
#include "roofline/outcomes/layer.hpp"

namespace roofline::outcomes {
namespace fs = std::filesystem;

void set_input_round(InputPaths& paths, const std::string& round) {
  paths.round = round;
}

namespace {

// docs/method.md §6.4 over the head analyze would take by default, with the built-in kernel
// classes.
StepInference inferred_steps(const TopnDocument& topn, const ModelConfig* config) {
  Head head = scope_to_head(topn, ScopeOptions{});
  classify_head(head.entries, topn, ClassRules{{}, builtin_kernel_classes_rules()});
  return infer_steps(topn, head.entries, config);
}

}  // namespace

StepCount round_step_count(const TopnDocument& topn, const ModelConfig* config) {
  StepCount s;
  const TopnServing& sv = topn.serving;
  if (!sv.n_prefill_steps && !sv.n_decode_steps) {
    s.reason = sv.present ? "the Top-N's serving block has no step counts"
                          : "the Top-N has no serving step counts (no step annotations)";
    const StepInference inferred = inferred_steps(topn, config);
    // The inference's one note says how it got the steps, or why it declined.
    const std::string note =
        inferred.findings.notes.empty() ? std::string() : inferred.findings.notes.front();
    if (inferred.steps) {
      s.steps = inferred.steps;
      s.source = note;
      s.reason.clear();
    } else if (!note.empty()) {
      s.reason += "; " + note;
    }
    return s;
  }
  const double prefill = sv.n_prefill_steps.value_or(0.0);
  const double decode = sv.n_decode_steps.value_or(0.0);
  if (!(prefill + decode > 0)) {
    s.reason = "the Top-N's serving step counts are zero";
    return s;
  }
  s.steps = prefill + decode;
  s.source = fmt::format("profiler serving: {:g} prefill + {:g} decode steps", prefill, decode);
  return s;
}

}  // namespace roofline::outcomes
