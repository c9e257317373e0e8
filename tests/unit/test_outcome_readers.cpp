// docs/method.md §17.2: the outcome-file readers on text (missing and mistyped fields are messages
// naming the file and the field; nothing crashes, nothing is silently lost) and record building.
#include <catch2/catch.hpp>

#include <map>
#include <string>

#include "roofline/cli/layer.hpp"
#include "roofline/outcomes/compare.hpp"
#include "roofline/outcomes/outcomes.hpp"
#include "unit/test_helpers.hpp"

namespace unit_outcome_readers {
using namespace roofline::cli;
using roofline::test::any_contains;

TEST_CASE("parse_opbench_result: fields, folder-name fallback, measured/suspect", "[outcomes]") {
  OutcomeScan s;
  parse_opbench_result(
      R"({"task": "fused_moe_kernel", "isolated_speedup": 1.047, "pct_gpu_time": 26.45,
          "measured": true, "harness_suspect": false})",
      "kernels/fused_moe_kernel_task/opbench_result.json", "fused_moe_kernel_task", s);
  REQUIRE(s.outcomes.size() == 1);
  CHECK(s.problems.empty());
  CHECK(s.outcomes[0].kernel == "fused_moe_kernel");
  CHECK(s.outcomes[0].isolated_speedup.value() == 1.047);
  CHECK(s.outcomes[0].undefined_reason.empty());

  parse_opbench_result(R"({"isolated_speedup": 1.3, "measured": false})",
                       "kernels/gemm_task/opbench_result.json", "gemm_task", s);
  REQUIRE(s.outcomes.size() == 2);
  CHECK(s.outcomes[1].kernel == "gemm");  // from the kernels/<name>_task folder
  CHECK_FALSE(s.outcomes[1].undefined_reason.empty());

  parse_opbench_result(R"({"task": "k", "isolated_speedup": 2.0, "harness_suspect": true})",
                       "kernels/k_task/opbench_result.json", "k_task", s);
  CHECK(s.outcomes[2].flags == std::vector<std::string>{"harness_suspect"});
  CHECK_FALSE(s.outcomes[2].undefined_reason.empty());
}

TEST_CASE("parse_opbench_result: a mistyped field is one message, the outcome kept undefined",
          "[outcomes][bad]") {
  OutcomeScan s;
  parse_opbench_result(R"({"task": "k", "isolated_speedup": "fast", "measured": "yes"})",
                       "kernels/k_task/opbench_result.json", "k_task", s);
  REQUIRE(s.outcomes.size() == 1);
  CHECK_FALSE(s.outcomes[0].undefined_reason.empty());
  CHECK(any_contains(
      s.problems, {"kernels/k_task/opbench_result.json", "isolated_speedup", "expected a number"}));
  CHECK(any_contains(s.problems, {"kernels/k_task/opbench_result.json", "measured"}));
  // Not an object at all, and not JSON: one message each, no outcome.
  parse_opbench_result("[1, 2]", "kernels/x_task/opbench_result.json", "x_task", s);
  parse_opbench_result("{\"task\": ", "kernels/y_task/opbench_result.json", "y_task", s);
  CHECK(s.outcomes.size() == 1);
  CHECK(any_contains(s.problems, {"x_task", "expected a JSON object"}));
  CHECK(any_contains(s.problems, {"y_task", "not valid JSON"}));
  // No name anywhere: skipped with the reason.
  parse_opbench_result(R"({"isolated_speedup": 1.1})", "kernels/opbench_result.json", "", s);
  CHECK(s.outcomes.size() == 1);
  CHECK(any_contains(s.problems, {"task", "skipped"}));
}

TEST_CASE("parse_director_validation: weighted, else geomean; failed validation undefined",
          "[outcomes]") {
  OutcomeScan s;
  parse_director_validation(
      R"({"kernel_name": "fused_moe_kernel", "director_verified_speedup_weighted": 1.05,
          "director_verified_speedup_geomean": 1.04, "validation_status": "validated",
          "correctness": true})",
      "d1.json", s);
  parse_director_validation(
      R"({"kernel_name": "k", "director_verified_speedup_geomean": 1.4,
          "validation_status": "passed", "correctness": "pass"})",
      "d2.json", s);
  parse_director_validation(
      R"({"kernel_name": "k", "director_verified_speedup_weighted": 1.4, "correctness": false})",
      "d3.json", s);
  parse_director_validation(
      R"({"kernel_name": "k", "director_verified_speedup_weighted": 1.4,
          "validation_status": "incomplete"})",
      "d4.json", s);
  REQUIRE(s.outcomes.size() == 4);
  CHECK(s.outcomes[0].isolated_speedup.value() == 1.05);
  CHECK(s.outcomes[1].isolated_speedup.value() == 1.4);
  CHECK(s.outcomes[1].undefined_reason.empty());
  CHECK(roofline::test::contains(s.outcomes[2].undefined_reason, "correctness"));
  CHECK(roofline::test::contains(s.outcomes[3].undefined_reason, "incomplete"));
  CHECK(s.problems.empty());
}

TEST_CASE("parse_integrate_result and parse_compare_rows", "[outcomes]") {
  OutcomeScan s;
  parse_integrate_result(
      R"({"short_name": "_gqa_share_sparse_fwd_kernel", "isolated_speedup": 7.2,
          "pct_gpu_time": 7.44, "e2e_delta_pct": 8.72, "gate": "accepted", "reason": "ok"})",
      "overlay/cand_1/integrate_result.json", s);
  parse_integrate_result(R"({"short_name": "k", "gate": "maybe"})", "i2.json", s);
  REQUIRE(s.outcomes.size() == 2);
  CHECK(s.outcomes[0].gate == "accepted");
  CHECK(s.outcomes[0].e2e_delta_pct.value() == 8.72);
  CHECK(any_contains(s.problems, {"i2.json", "gate", "maybe"}));

  parse_compare_rows(
      R"({"schema": "roofline-compare-v1", "baseline_round": "0", "round": "tuning", "rows": [
          {"name": "a", "short_name": "a", "speedup": 1.2, "pct_a": 10, "status": ["improved"]},
          {"name": "b", "speedup": null, "status": ["vanished"]},
          {"name": "c", "speedup": null, "status": ["new"]},
          {"speedup": 1.0}]})",
      "profile/round_tuning/roofline_compare.json", s);
  REQUIRE(s.outcomes.size() == 4);  // the new row has no prediction; the nameless row is skipped
  CHECK(s.outcomes[2].in_situ_speedup.value() == 1.2);
  CHECK(s.outcomes[2].round == "tuning");
  CHECK(s.outcomes[3].flags == std::vector<std::string>{"gone"});  // an older file's "vanished"
  CHECK(any_contains(s.problems, {"roofline_compare.json", "rows[3].name"}));
  parse_compare_rows(R"({"schema": "other"})", "x.json", s);
  CHECK(any_contains(s.problems, {"x.json", "schema"}));
}

TEST_CASE("build_ledger_records: pairing, one record per key, unpredicted kept", "[outcomes]") {
  RoundPredictions base;
  base.arch = "gfx950";
  Prediction moe;
  moe.name = "fused_moe_kernel";
  moe.short_name = "fused_moe_kernel";
  moe.op_class = "moe";
  moe.attainable_speedup = 1.022;
  moe.headroom_class = "saturated";
  moe.t_ms = 0.049471;
  base.entries.push_back(moe);
  std::map<std::string, RoundPredictions> rounds{{"0", base}};

  std::vector<Outcome> os(4);
  os[0].source = OutcomeSource::director;
  os[0].file = "kernels/_exp/a/director_validation.json";
  os[0].kernel = "fused_moe_kernel";
  os[0].names = {{"fused_moe_kernel", "fused_moe_kernel"}};
  os[0].isolated_speedup = 1.03;
  os[1] = os[0];
  os[1].file = "kernels/_exp/b/director_validation.json";
  os[1].isolated_speedup = 1.047;  // same key, larger speedup: this one is the record
  os[2] = os[0];
  os[2].file = "kernels/_exp/c/director_validation.json";
  os[2].undefined_reason = "validation_status failed";
  os[2].isolated_speedup = 3.0;  // undefined loses to defined whatever the speedup
  os[3].source = OutcomeSource::opbench;
  os[3].file = "kernels/moe_align_task/opbench_result.json";
  os[3].kernel = "moe_align";
  os[3].names = {{"moe_align", "moe_align"}};
  os[3].isolated_speedup = 1.1;

  std::vector<std::string> notes;
  const auto rs =
      build_ledger_records(os, "0", rounds, OutcomeRun{"run", "model"}, k_noise_isolated, notes);
  REQUIRE(rs.size() == 2);
  CHECK(rs[0].kernel == "fused_moe_kernel");
  CHECK(rs[0].source == "director");
  CHECK(rs[0].isolated_speedup.value() == 1.047);
  CHECK(rs[0].verdict == "confirmed");
  CHECK(rs[0].arch == "gfx950");
  CHECK(rs[1].kernel == "moe_align");
  CHECK(rs[1].verdict == "unpredicted");
  CHECK_FALSE(rs[1].predicted_present);
  CHECK(notes.size() == 2);
  CHECK(any_contains(notes, {"kernels/_exp/a/", "superseded by", "kernels/_exp/b/"}));
}

}  // namespace unit_outcome_readers
