// docs/method.md §17.3: ledger records and the merge — idempotent, other keys byte for byte, lines
// that are not records kept and reported.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "roofline/cli/layer.hpp"
#include "roofline/outcomes/ledger.hpp"
#include "unit/test_helpers.hpp"

namespace unit_ledger {
using namespace roofline::cli;
using roofline::test::contains;

namespace {

LedgerRecord rec(const std::string& kernel, const std::string& source, double s) {
  LedgerRecord r;
  r.run = "qwen3.5-35b-a3b-fp8-mi355x";
  r.kernel = kernel;
  r.source = source;
  r.arch = "gfx950";
  r.op_class = "moe";
  r.predicted_present = true;
  r.predicted.roofline_pct = 0.881;
  r.predicted.attainable_speedup = 1.022;
  r.predicted.headroom_class = "saturated";
  r.isolated_speedup = s;
  r.file = "kernels/fused_moe_kernel_task/opbench_result.json";
  r.verdict = "confirmed";
  return r;
}

const std::string k_other =
    R"({"key": ["other-run", "k", "opbench"],   "run": "other-run", "verdict": "confirmed"})";

}  // namespace

TEST_CASE("ledger_line: one compact line in §3 key order, read back the same", "[ledger]") {
  const LedgerRecord r = rec("fused_moe_kernel", "opbench", 1.047);
  const std::string line = ledger_line(r);
  CHECK(line.find('\n') == std::string::npos);
  CHECK(line.rfind(R"({"key":["qwen3.5-35b-a3b-fp8-mi355x","fused_moe_kernel","opbench"],"run":)",
                   0) == 0);
  const auto doc = nlohmann::json::parse(line);
  std::vector<std::string> keys;
  const auto ordered = nlohmann::ordered_json::parse(line);
  for (auto it = ordered.begin(); it != ordered.end(); ++it) keys.push_back(it.key());
  CHECK(keys == std::vector<std::string>{"key", "run", "arch", "product", "model", "op_class",
                                         "regime", "stage", "confidence", "predicted", "measured",
                                         "verdict", "flags", "reason"});
  std::string error;
  const auto back = parse_ledger_record(doc, error);
  REQUIRE(back.has_value());
  CHECK(back->key() == r.key());
  CHECK(back->isolated_speedup.value() == 1.047);
  CHECK(back->predicted.roofline_pct.value() == 0.881);
  CHECK(back->predicted.headroom_class == "saturated");
  CHECK(ledger_line(*back) == line);
}

TEST_CASE("merge_ledger: appends, and merging again changes nothing", "[ledger]") {
  const std::vector<LedgerRecord> rs = {rec("fused_moe_kernel", "director", 1.047),
                                        rec("fused_moe_kernel", "opbench", 1.05)};
  const LedgerMerge first = merge_ledger("", rs, "L");
  CHECK(first.added == 2);
  CHECK(first.changed);
  CHECK(first.text == ledger_line(rs[0]) + "\n" + ledger_line(rs[1]) + "\n");
  const LedgerMerge again = merge_ledger(first.text, rs, "L");
  CHECK_FALSE(again.changed);
  CHECK(again.text == first.text);
  CHECK(again.added == 0);
  CHECK(again.unchanged == 2);
}

TEST_CASE("merge_ledger: replaces in place, keeps other keys and non-JSON lines byte for byte",
          "[ledger]") {
  const LedgerRecord old_moe = rec("fused_moe_kernel", "opbench", 1.02);
  const std::string old_text = k_other + "\n" + ledger_line(old_moe) + "\n" +
                               "this line is not JSON\n" + "\n" + R"({"no": "key"})" + "\n";
  const LedgerRecord new_moe = rec("fused_moe_kernel", "opbench", 1.047);
  const LedgerRecord attn = rec("kernel_paged_attention_2d", "opbench", 1.56);
  const LedgerMerge m = merge_ledger(old_text, {new_moe, attn}, "ledger.jsonl");
  CHECK(m.text == k_other + "\n" + ledger_line(new_moe) + "\n" + "this line is not JSON\n" + "\n" +
                      R"({"no": "key"})" + "\n" + ledger_line(attn) + "\n");
  CHECK(m.updated == 1);
  CHECK(m.added == 1);
  CHECK(m.kept == 1);
  REQUIRE(m.problems.size() == 2);
  CHECK(contains(m.problems[0], "ledger.jsonl:3:"));
  CHECK(contains(m.problems[0], "kept"));
  CHECK(contains(m.problems[1], "ledger.jsonl:5:"));
  CHECK(contains(m.problems[1], "no key"));
}

TEST_CASE("merge_ledger: a key repeated in the ledger ends up once", "[ledger]") {
  const LedgerRecord r = rec("fused_moe_kernel", "opbench", 1.047);
  const std::string dup = ledger_line(rec("fused_moe_kernel", "opbench", 1.0));
  const LedgerMerge m = merge_ledger(dup + "\n" + k_other + "\n" + dup + "\n", {r}, "L");
  CHECK(m.text == ledger_line(r) + "\n" + k_other + "\n");
  CHECK(m.dropped_duplicates == 1);
  // A last line without a newline is still a line.
  const LedgerMerge n = merge_ledger(k_other, {r}, "L");
  CHECK(n.text == k_other + "\n" + ledger_line(r) + "\n");
}

TEST_CASE("ledger_line_key: records only", "[ledger]") {
  std::string why;
  CHECK(ledger_line_key(k_other, why).value() ==
        std::array<std::string, 3>{"other-run", "k", "opbench"});
  CHECK_FALSE(ledger_line_key("{\"key\": [\"a\", \"b\"]}", why).has_value());
  CHECK_FALSE(ledger_line_key("[1, 2", why).has_value());
  CHECK(contains(why, "not valid JSON"));
}

}  // namespace unit_ledger
