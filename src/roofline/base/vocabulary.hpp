#pragma once
// The closed sets every layer speaks (docs/method.md §3, §10, §11, §13, §16.1) and their artifact
// spellings. Plain enums and one rule struct; no pipeline logic. Any layer may include this header.

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "roofline/base/class_detail.hpp"
#include "roofline/base/layer.hpp"

namespace roofline::base {

// What kind of work a kernel does; picks the byte/FLOP model (docs/method.md §7).
enum class OpClass { gemm, moe, attn, linear_attn, ssm, comm, elementwise, unknown };
// Which resource bounds a kernel (docs/method.md §10).
enum class Bound { memory, compute, latency, unknown };
// How close to target_eff a kernel runs (docs/method.md §10.5 bands).
enum class Headroom { underperforming, moderate, saturated, unknown };
enum class Confidence { low, medium, high };
// Where the hardware denominators came from (docs/method.md §5).
enum class PeaksSource { table, derived, none };
// Which figure an axis divides by (docs/method.md §5.7): the section's datasheet figure, or the
// `measured:` one a benchmark took on the part.
enum class CeilingKind { datasheet, measured };
enum class Regime { prefill, decode };
// How deep the evidence behind an entry goes (docs/method.md §11): Top-N estimate, captured shapes,
// measured counters. Ordered: a later stage is stronger evidence.
enum class EvidenceLevel { A, B, C };
// The degradation ladder (docs/method.md §13). L0 writes nothing, so it is never recorded.
enum class Level { L1, L2, L3, L4, L5 };
// What a recorded problem does to the run: a warning changes no number by itself (stderr and
// the report); an error is a skill error (docs/method.md §13 L5).
enum class Severity { warning, error };
// Which byte/FLOP figure a candidate is (docs/method.md §9 feasibility rule; the label is display
// text).
enum class CandidateKind {
  model,           // the class model's single figure
  experts_hit,     // MoE: the experts the batch routes to
  all_experts,     // MoE: every expert streamed
  full_context,    // MLA decode over the whole context
  index_topk,      // MLA decode over the index_topk selection
  count_weighted,  // stage B: count-weighted chosen bytes when no candidate is common
  measured,        // stage C: counter bytes
  given,           // `roofline calc`: the numbers on the command line
};
// How a kernel name met its counterpart in another input (the one matcher, pipeline/match).
enum class MatchKind { none, exact, normalized, substring, short_name };

const char* to_string(OpClass c);
const char* to_string(Bound b);
const char* to_string(Headroom h);
const char* to_string(Confidence c);
const char* to_string(PeaksSource s);
const char* to_string(CeilingKind c);
const char* to_string(Regime r);
const char* to_string(EvidenceLevel s);
const char* to_string(Level l);
const char* to_string(MatchKind k);

// "gemm", "moe", "attn" (or "attention"), "linear_attn" (or "linear_attention"), "ssm" (or
// "mamba"), "comm" (or "collective"), "elementwise", "unknown"; case and spaces ignored.
std::optional<OpClass> parse_op_class(std::string_view s);
// "datasheet" | "measured"; nullopt for anything else.
std::optional<CeilingKind> parse_ceiling(std::string_view s);

// What a recorded problem is about.
enum class Topic { input, peaks, probes, counters, entry };

// One recorded problem of a run (docs/method.md §13). The artifact's `degraded[]` lists those with
// a level, `skill_errors[]` those of severity error; stderr shows each once.
struct Diagnostic {
  Severity severity = Severity::warning;
  std::optional<Level> level;  // set: listed in degraded[] at this level
  Topic topic = Topic::input;
  std::string entry;  // topic entry: the entry's ranking name
  std::string text;   // one line a person can act on (an input problem names its file)
};
// The name degraded[] gives the problem: the entry's ranking name, "(peaks)", "(probes)",
// "(counters)", or "" for an input file.
std::string subject(const Diagnostic& d);

// One kernel-family rule (data/kernel_classes.tsv), launching-op rule (data/kernel_ops.tsv) or
// `--classify` override.
struct ClassRule {
  std::string pattern;  // the token rule of docs/method.md §7.2 (`*`, `?`); case-insensitive
  OpClass op_class = OpClass::unknown;
  ClassDetail detail;  // MoE stage, attention variant, elementwise kind, ... (class_detail.hpp)
  std::string description;
  int line = 0;  // 1-based line in the table; 0 for a --classify override
  // The pattern's length in tokens (pattern_length, docs/method.md §7.2), counted once when the
  // table is read: the longest match compares it for every rule and every name. -1: not counted.
  int tokens = -1;
};
struct ClassRules {
  std::vector<ClassRule> overrides;  // --classify, first match wins
  // data/kernel_classes.tsv, the longest match wins: a view (the shipped table, or one read from
  // a file, outlives the rules; a copy per classification cost more than the matching)
  std::span<const ClassRule> families;
  // data/kernel_ops.tsv, matched against the launching op; null = the shipped table
  const std::vector<ClassRule>* ops = nullptr;
};

}  // namespace roofline::base
