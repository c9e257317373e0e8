// Stage 6b (docs/method.md §11, §13): confidence from the evidence stage and the peaks, and L2/L3
// problems.
#include <catch2/catch.hpp>

#include "roofline/cli/layer.hpp"
#include "unit/test_helpers.hpp"

namespace unit_grade {
using namespace roofline::cli;
using roofline::test::any_contains;
using roofline::test::contains;
using roofline::test::gfx950_peaks;
using roofline::test::work_of;

namespace {

Verdict memory_verdict() {
  Verdict v;
  v.roofline_pct = v.roofline_pct_raw = 0.5;
  v.headroom = Headroom::underperforming;
  return v;
}

}  // namespace

TEST_CASE("grade: confidence follows the stage — A low, B medium, C high", "[grade]") {
  const WorkEstimate w = work_of(1e8, 1e9, 0.05);
  const ResolvedPeaks peaks = gfx950_peaks();
  const Grade a = grade(EvidenceLevel::A, w, memory_verdict(), peaks);
  CHECK(a.confidence == Confidence::low);
  CHECK(any_contains(a.notes, {"confidence low: stage A"}));
  const Grade b = grade(EvidenceLevel::B, w, memory_verdict(), peaks);
  CHECK(b.confidence == Confidence::medium);
  CHECK(any_contains(b.notes, {"confidence medium: stage B"}));
  const Grade c = grade(EvidenceLevel::C, w, memory_verdict(), peaks);
  CHECK(c.confidence == Confidence::high);
  CHECK(any_contains(c.notes, {"confidence high: stage C"}));
  CHECK_FALSE(c.problem);
}

TEST_CASE("grade: low-confidence peaks keep measured numbers low", "[grade]") {
  ResolvedPeaks derived = gfx950_peaks();
  derived.source = PeaksSource::derived;
  derived.confidence = Confidence::low;
  const Grade g = grade(EvidenceLevel::C, work_of(1e8, 1e9, 0.05), memory_verdict(), derived);
  CHECK(g.confidence == Confidence::low);
  CHECK(any_contains(g.notes, {"stage C numbers over low-confidence peaks"}));
}

TEST_CASE("grade: a compute-axis verdict on unvalidated compute peaks is low", "[grade]") {
  ResolvedPeaks unvalidated = gfx950_peaks();
  unvalidated.compute_validated = false;
  Verdict v = memory_verdict();
  v.compute_axis = true;
  CHECK(grade(EvidenceLevel::B, work_of(1e8, 1e12, 0.05), v, unvalidated).confidence ==
        Confidence::low);
  // The memory axis does not lean on the compute peaks.
  v.compute_axis = false;
  CHECK(grade(EvidenceLevel::B, work_of(1e8, 1e9, 0.05), v, unvalidated).confidence ==
        Confidence::medium);
}

TEST_CASE("grade: no model is L2 with the model's reason", "[grade]") {
  WorkEstimate w;
  w.unmodeled_reason = "op class unknown: no byte model";
  const Grade g = grade(EvidenceLevel::A, w, Verdict{}, gfx950_peaks());
  REQUIRE(g.problem);
  CHECK(g.problem->level == Level::L2);
  CHECK(g.problem->reason == "op class unknown: no byte model");
}

TEST_CASE("grade: an infeasible estimate is L3; stage C clears the stage-C candidacy", "[grade]") {
  Verdict v;
  v.suspect = true;
  v.stage_c_candidate = true;
  v.roofline_pct_raw = 1.62;
  const Grade a = grade(EvidenceLevel::A, work_of(1e9, 1e9, 0.05), v, gfx950_peaks());
  REQUIRE(a.problem);
  CHECK(a.problem->level == Level::L3);
  CHECK(contains(a.problem->reason, "raw roofline_pct 1.62 outside [0.001, 1]"));
  CHECK(a.stage_c_candidate);
  const Grade c = grade(EvidenceLevel::C, work_of(1e9, 1e9, 0.05), v, gfx950_peaks());
  CHECK_FALSE(c.stage_c_candidate);  // it has been measured already
}

TEST_CASE("diagnostics: subject names, skill-error text, and what --strict fails on",
          "[grade][diagnostics]") {
  const Diagnostic entry{Severity::error, Level::L5, Topic::entry, "fused_moe_kernel#2",
                         "analysis failed: boom"};
  CHECK(subject(entry) == "fused_moe_kernel#2");
  CHECK(skill_error_text(entry) == "entry 'fused_moe_kernel#2': analysis failed: boom");
  const Diagnostic counters{Severity::warning, Level::L4, Topic::counters, "", "a.csv: empty file"};
  CHECK(subject(counters) == "(counters)");
  const Diagnostic file{Severity::error, std::nullopt, Topic::input, "", "env_report.json: x"};
  CHECK(subject(file).empty());
  CHECK(skill_error_text(file) == "env_report.json: x");

  Analysis a;
  CHECK_FALSE(has_problems(a));
  a.diagnostics.push_back(
      Diagnostic{Severity::warning, std::nullopt, Topic::peaks, "", "bf16 != fp16"});
  CHECK_FALSE(has_problems(a));  // a warning alone changes no number
  a.diagnostics.push_back(counters);
  CHECK(has_problems(a));
}

}  // namespace unit_grade
