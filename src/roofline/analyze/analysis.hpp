#pragma once
// The result of one analysis run (docs/method.md §16.1): everything the renderers need, and nothing
// about where the inputs were read from. Renderers include this header, never the loaders.

#include <optional>
#include <string>
#include <vector>

#include "roofline/analyze/entry/head.hpp"
#include "roofline/analyze/entry/head_entry.hpp"
#include "roofline/analyze/entry/rankings.hpp"
#include "roofline/analyze/entry/resolved_peaks.hpp"
#include "roofline/analyze/layer.hpp"
#include "roofline/base/vocabulary.hpp"

namespace roofline::analyze {

// What the report header says about the run.
struct RunInfo {
  std::string model;
  std::string backend;
  std::string model_arch_class;
  Workload workload;
  double tp = 1.0;
  std::optional<double> n_prefill_steps, n_decode_steps;
  std::string inputs;      // which files were read, for the report header
  std::string layer_plan;  // describe_plan() of the config's layer plan ("" without a config)
};

// One input file the run read, and what it was read as.
struct InputRecord {
  std::string path;  // relative to the evaluation folder when inside it
  std::string
      role;  // topn | env_report | config | peaks | calibration | shapes | counters | workload
};

struct Analysis {
  std::optional<std::string> round;  // null when only --topn named the Top-N
  std::vector<InputRecord> inputs;
  std::string gfx;      // AMD only ("" on NVIDIA)
  std::string arch;     // gfx or sm_NN, both vendors ("" when unknown)
  std::string product;  // canonical, "" = none
  ResolvedPeaks peaks;
  EvidenceLevel stage = EvidenceLevel::A;  // the highest stage any entry reached
  double head_threshold_pct = k_default_head_threshold_pct;
  std::size_t skipped_count = 0;
  std::vector<HeadEntry> entries;  // the head, biggest key pct first (step 1 onwards)
  Rankings rankings;               // indices into `entries`
  // Every problem of the run, once, in the order met: degraded[] (those with a level),
  // skill_errors[] (severity error) and stderr are views of this list.
  std::vector<Diagnostic> diagnostics;
  std::vector<std::string> notes;
  RunInfo run;
  // Stages B/C: one line per probe / counter input (files, format, rows used).
  std::vector<std::string> measured_inputs;
  // Stage C: counter kernels that matched no head entry, most dispatches first.
  std::vector<std::string> unmatched_counter_kernels;
};

// The artifact's `skill_errors[]` text of an error diagnostic (an entry's is prefixed with it).
std::string skill_error_text(const Diagnostic& d);
// True when the run has something for degraded[] or skill_errors[] (what --strict fails on).
bool has_problems(const Analysis& a);

}  // namespace roofline::analyze
