// load.hpp: parse_topn (docs/method.md §2.3) — defensive reading, verbatim pct, per-regime fields.
#include <catch2/catch.hpp>

#include "roofline/cli/layer.hpp"
#include "roofline/inputs/load.hpp"
#include "unit/test_helpers.hpp"

namespace unit_load_topn {
using namespace roofline::cli;
using roofline::test::any_contains;
using roofline::test::rel;

namespace {

const char* const k_file = "profile/round_1/profile_topN.json";

// A GEAK-style Top-N with two kernels; the second name has template commas.
const char* const k_topn = R"json({
  "source": "torch.profiler trace of vLLM serving (gfx950), standardized Top-N",
  "total_gpu_time_ms": 33467.3,
  "num_kernel_launches": 1087412,
  "num_distinct_kernels": 61,
  "serving": {"n_prefill_steps": 24, "n_decode_steps": 2033, "decode_batch_captured": 64,
              "decode_batch_steady": 64, "steady": true},
  "top_kernels": [
    {"rank": 1, "name": "fused_moe_kernel", "short_name": "fused_moe_kernel", "calls": 164560,
     "total_ms": 8851.595, "avg_us": 53.789, "pct_gpu_time": 26.45,
     "shapes": [[64, 2048], [256, 1024, 2048], [256, 2048, 512], [64, 8]],
     "dtypes": ["torch.float8_e4m3fn", "torch.float8_e4m3fn", "torch.float8_e4m3fn", "torch.int32"],
     "classification": "triton", "backend_guess": "vllm", "editable": true,
     "opt_hint": "Triton fused MoE; tune block sizes per batch", "phase": "both",
     "served_regimes": ["prefill", "decode"],
     "phase_calls_measured": {"prefill": 1920, "decode": 162640},
     "calls_per_step": {"prefill": 80, "decode": 80},
     "base_latency_ms": {"prefill": 0.4196, "decode": 0.049471},
     "est_shape": {"prefill": {"M": 2731}, "decode": {"M": 64, "N": 1024, "K": 2048}},
     "est_calls": 164560, "serving_weighted_pct": 27.1},
    {"rank": 2, "name": "void vllm::fused_add_rms_norm_kernel<c10::BFloat16, 8>(c10::BFloat16*, c10::BFloat16*, c10::BFloat16 const*, float, int, int)",
     "short_name": "fused_add_rms_norm_kernel", "calls": 164560, "avg_us": 3.1, "pct_gpu_time": 12,
     "shapes": [[64, 2048], [64, 2048], [2048]], "dtypes": ["c10::BFloat16", "c10::BFloat16", "c10::BFloat16"],
     "classification": "Reduction_Norm", "editable": false, "phase": "Decode"}
  ]
})json";

}  // namespace

TEST_CASE("parse_topn: a well-formed GEAK Top-N reads every field", "[load][topn]") {
  auto loaded = parse_topn(k_topn, k_file);
  REQUIRE(loaded.value.has_value());
  CHECK(loaded.errors.empty());
  const TopnDocument& t = *loaded.value;
  CHECK(t.source.rfind("torch.profiler", 0) == 0);
  CHECK(t.total_gpu_time_ms.value() == rel(33467.3));
  CHECK(t.serving.present);
  CHECK(t.serving.n_prefill_steps.value() == rel(24));
  CHECK(t.serving.n_decode_steps.value() == rel(2033));
  REQUIRE(t.entries.size() == 2);

  const TopnEntry& moe = t.entries[0];
  CHECK(moe.index == 0);
  CHECK(moe.rank.value() == 1);
  CHECK(moe.calls.value() == rel(164560));
  CHECK(moe.avg_us.value() == rel(53.789));
  REQUIRE(moe.shapes.size() == 4);
  CHECK(moe.shapes[1] == std::vector<std::int64_t>{256, 1024, 2048});
  REQUIRE(moe.dtypes.size() == 4);
  CHECK(moe.dtypes[0] == "torch.float8_e4m3fn");
  CHECK(moe.editable.value() == true);
  CHECK(moe.served_regimes == std::vector<std::string>{"prefill", "decode"});
  CHECK(moe.phase_calls_measured.decode.value() == rel(162640));
  CHECK(moe.calls_per_step.prefill.value() == rel(80));
  CHECK(moe.base_latency_ms.decode.value() == rel(0.049471));
  CHECK(moe.base_latency_ms.prefill.value() == rel(0.4196));
  REQUIRE(moe.est_shape.decode.has_value());
  CHECK(moe.est_shape.decode->m.value() == rel(64));
  CHECK(moe.est_shape.decode->n.value() == rel(1024));
  CHECK(moe.est_shape.decode->k.value() == rel(2048));
  CHECK(moe.est_shape.prefill->m.value() == rel(2731));
  CHECK_FALSE(moe.est_shape.prefill->n.has_value());
  CHECK(moe.serving_weighted_pct.value() == rel(27.1));

  const TopnEntry& norm = t.entries[1];
  CHECK(norm.name.find("<c10::BFloat16, 8>(c10::BFloat16*, c10::BFloat16*") != std::string::npos);
  CHECK(norm.short_name == "fused_add_rms_norm_kernel");
  CHECK(norm.editable.value() == false);
  CHECK(norm.classification == "reduction_norm");  // lower-cased for matching
  CHECK(norm.phase == "decode");
  CHECK(norm.shapes[2] == std::vector<std::int64_t>{2048});
}

TEST_CASE("parse_topn: pct_gpu_time is kept verbatim", "[load][topn]") {
  auto loaded = parse_topn(k_topn, k_file);
  REQUIRE(loaded.value);
  const auto& e = loaded.value->entries;
  CHECK(e[0].pct_gpu_time_raw.is_number_float());
  CHECK(e[0].pct_gpu_time_raw.dump() == "26.45");
  CHECK(e[0].pct_gpu_time == rel(26.45));
  // An integer stays an integer in the artifact, not 12.0.
  CHECK(e[1].pct_gpu_time_raw.is_number_integer());
  CHECK(e[1].pct_gpu_time_raw.dump() == "12");
}

TEST_CASE("parse_topn: a bad entry is skipped, the others kept, the message names file and field",
          "[load][topn]") {
  const char* text = R"({"top_kernels": [
    {"name": "kernel_paged_attention_2d", "pct_gpu_time": 8.86, "avg_us": 141.1},
    {"name": "wvSplitK_hf_<__hip_bfloat16, 64, 2>", "pct_gpu_time": "5.2"},
    {"short_name": "", "pct_gpu_time": 4.0},
    {"name": "Cijk_Alik_Bljk_BBS_BH_MT64x16x256", "pct_gpu_time": 3.5},
    17
  ]})";
  auto loaded = parse_topn(text, k_file);
  REQUIRE(loaded.value);
  const auto& entries = loaded.value->entries;
  REQUIRE(entries.size() == 2);
  CHECK(entries[0].name == "kernel_paged_attention_2d");
  CHECK(entries[1].name == "Cijk_Alik_Bljk_BBS_BH_MT64x16x256");
  CHECK(entries[1].index == 3);  // position in top_kernels[] survives the skip
  CHECK(any_contains(loaded.errors,
                     {"profile/round_1/profile_topN.json: top_kernels[1].pct_gpu_time:",
                      "expected a number", "string", "skipped"}));
  CHECK(any_contains(loaded.errors, {k_file, "top_kernels[2].name", "missing"}));
  CHECK(any_contains(loaded.errors, {k_file, "top_kernels[4]", "expected an object"}));
}

TEST_CASE("parse_topn: wrong types on optional fields are reported, the entry kept",
          "[load][topn]") {
  const char* text = R"({"top_kernels": [
    {"name": "fused_moe_kernel", "pct_gpu_time": 26.45, "calls": "many", "avg_us": [53.7],
     "editable": "yes", "shapes": [[64, 2048], [256, -1024, 2048], "64x8"],
     "dtypes": ["torch.bfloat16", 7], "calls_per_step": {"decode": "80"},
     "est_shape": {"decode": {"M": "64"}}}
  ]})";
  auto loaded = parse_topn(text, k_file);
  REQUIRE(loaded.value);
  REQUIRE(loaded.value->entries.size() == 1);
  const TopnEntry& e = loaded.value->entries[0];
  CHECK_FALSE(e.calls.has_value());
  CHECK_FALSE(e.avg_us.has_value());
  CHECK_FALSE(e.editable.has_value());
  CHECK_FALSE(e.calls_per_step.decode.has_value());
  // Operand positions stay aligned with dtypes: unreadable operands become {}.
  REQUIRE(e.shapes.size() == 3);
  CHECK(e.shapes[0] == std::vector<std::int64_t>{64, 2048});
  CHECK(e.shapes[1].empty());
  CHECK(e.shapes[2].empty());
  REQUIRE(e.dtypes.size() == 2);
  CHECK(e.dtypes[1].empty());
  for (const char* field :
       {"top_kernels[0].calls:", "top_kernels[0].avg_us:", "top_kernels[0].editable:",
        "top_kernels[0].shapes[1]:", "top_kernels[0].shapes[2]:", "top_kernels[0].dtypes[1]:",
        "top_kernels[0].calls_per_step.decode:", "top_kernels[0].est_shape.decode.M:"}) {
    INFO(field);
    CHECK(any_contains(loaded.errors, {k_file, field}));
  }
}

TEST_CASE("parse_topn: truncated JSON is one clear error, never an exception", "[load][topn]") {
  std::string full = k_topn;
  std::string truncated = full.substr(0, full.size() / 2);
  Loaded<TopnDocument> loaded;
  REQUIRE_NOTHROW(loaded = parse_topn(truncated, k_file));
  CHECK_FALSE(loaded.value.has_value());
  REQUIRE(loaded.errors.size() == 1);
  CHECK(any_contains(loaded.errors, {k_file, "not valid JSON"}));
}

TEST_CASE("parse_topn: empty file, top-level array, missing top_kernels", "[load][topn]") {
  auto empty = parse_topn("  \n", k_file);
  CHECK_FALSE(empty.value);
  CHECK(any_contains(empty.errors, {k_file, "empty"}));

  auto array = parse_topn("[1, 2]", k_file);
  CHECK_FALSE(array.value);
  CHECK(any_contains(array.errors, {k_file, "expected a JSON object"}));

  auto none = parse_topn(R"({"source": "x"})", k_file);
  REQUIRE(none.value);
  CHECK(none.value->entries.empty());
  CHECK(any_contains(none.errors, {k_file, "top_kernels", "missing"}));

  auto wrong = parse_topn(R"({"top_kernels": {"name": "x"}})", k_file);
  REQUIRE(wrong.value);
  CHECK(wrong.value->entries.empty());
  CHECK(any_contains(wrong.errors, {k_file, "top_kernels", "expected an array"}));
}

TEST_CASE("parse_topn: negative numbers are reported", "[load][topn]") {
  const char* text = R"({"serving": {"n_prefill_steps": -24, "n_decode_steps": 2033},
    "top_kernels": [{"name": "fused_moe_kernel", "pct_gpu_time": -3.0, "avg_us": 53.7}]})";
  auto loaded = parse_topn(text, k_file);
  REQUIRE(loaded.value);
  CHECK_FALSE(loaded.value->serving.n_prefill_steps.has_value());
  CHECK(loaded.value->serving.n_decode_steps.value() == rel(2033));
  CHECK(any_contains(loaded.errors, {k_file, "serving", "negative"}));
  // A negative pct is kept verbatim (pct stays the primary key) but flagged.
  REQUIRE(loaded.value->entries.size() == 1);
  CHECK(loaded.value->entries[0].pct_gpu_time == rel(-3.0));
  CHECK(any_contains(loaded.errors, {k_file, "top_kernels[0].pct_gpu_time", "outside [0, 100]"}));
}

TEST_CASE("parse_topn: a damaged graph_replay block keeps what it can, each problem on its field",
          "[load][topn]") {
  const char* text = R"({"num_kernel_launches": 1000,
    "graph_replay": {"replays": 4, "launches": 900, "with_shapes": "many", "capture_given": true,
                     "paired": -1, "unpaired_reasons": [7, {"reason": "no window", "launches": 20}],
                     "unpaired_replays": {"correlation": 1}},
    "top_kernels": [{"name": "k", "pct_gpu_time": 5}]})";
  auto loaded = parse_topn(text, k_file);
  REQUIRE(loaded.value);
  REQUIRE(loaded.value->graph_replay);
  const TopnGraphReplay& g = *loaded.value->graph_replay;
  CHECK(g.launches.value() == 900);
  CHECK(g.capture_given);
  CHECK_FALSE(g.with_shapes);
  CHECK_FALSE(g.paired);
  REQUIRE(g.unpaired_reasons.size() == 1);
  CHECK(g.unpaired_reasons[0].reason == "no window");
  CHECK(g.unpaired_reasons[0].launches == 20);
  CHECK(g.unpaired_replays.empty());
  CHECK(any_contains(loaded.errors, {k_file, "graph_replay.with_shapes"}));
  CHECK(any_contains(loaded.errors, {k_file, "graph_replay.paired", "negative"}));
  CHECK(any_contains(loaded.errors,
                     {k_file, "graph_replay.unpaired_reasons[0]", "expected an object"}));
  CHECK(any_contains(loaded.errors, {k_file, "graph_replay.unpaired_replays"}));
  CHECK(loaded.value->entries.size() == 1);
}

TEST_CASE("parse_topn: a negative per-launch time is reported on its field",
          "[load][topn][spec-bug]") {
  // docs/method.md §2.1: every problem is one clear line naming the file and what is wrong; §2:
  // inputs are read defensively. A negative avg_us / base_latency_ms / calls cannot be a
  // measurement.
  const char* text =
      R"({"top_kernels": [{"name": "fused_moe_kernel", "pct_gpu_time": 26.45, "avg_us": -53.7,
    "calls": -5, "base_latency_ms": {"decode": -0.049471}}]})";
  auto loaded = parse_topn(text, k_file);
  REQUIRE(loaded.value);
  REQUIRE(loaded.value->entries.size() == 1);
  CHECK(any_contains(loaded.errors, {k_file, "top_kernels[0].avg_us"}));
  CHECK(any_contains(loaded.errors, {k_file, "top_kernels[0].base_latency_ms.decode"}));
  CHECK(any_contains(loaded.errors, {k_file, "top_kernels[0].calls"}));
}

TEST_CASE("parse_topn: served_regimes as a comma string and a UTF-8 BOM are tolerated",
          "[load][topn]") {
  std::string text = "\xEF\xBB\xBF";
  text += R"({"top_kernels": [{"name": "kernel_unified_attention_2d", "pct_gpu_time": 9.5,
                               "served_regimes": "Prefill, decode"}]})";
  auto loaded = parse_topn(text, k_file);
  REQUIRE(loaded.value);
  REQUIRE(loaded.value->entries.size() == 1);
  CHECK(loaded.value->entries[0].served_regimes == std::vector<std::string>{"prefill", "decode"});
  CHECK(loaded.errors.empty());
}

TEST_CASE("parse_topn: short_name stands in for a missing name", "[load][topn]") {
  auto loaded =
      parse_topn(R"({"top_kernels": [{"short_name": "rms_norm", "pct_gpu_time": 6}]})", k_file);
  REQUIRE(loaded.value);
  REQUIRE(loaded.value->entries.size() == 1);
  CHECK(loaded.value->entries[0].name == "rms_norm");
  CHECK(loaded.value->entries[0].short_name == "rms_norm");
}

TEST_CASE("parse_topn: hostile nesting is refused before parsing", "[load][topn]") {
  const std::string deep =
      "{\"top_kernels\": " + std::string(300, '[') + std::string(300, ']') + "}";
  Loaded<TopnDocument> loaded;
  REQUIRE_NOTHROW(loaded = parse_topn(deep, k_file));
  CHECK_FALSE(loaded.value.has_value());
  CHECK(any_contains(loaded.errors, {k_file, "nested deeper"}));
}

TEST_CASE("parse_topn: NaN/Infinity literals (Python's json) read as absent, one note per key",
          "[load][topn]") {
  auto loaded = parse_topn(R"({"total_gpu_time_ms": Infinity, "top_kernels": [
      {"name": "fused_moe_kernel", "pct_gpu_time": 26.45, "avg_us": NaN, "calls": 80,
       "opt_hint": "NaN stays text", "base_latency_ms": {"decode": -Infinity}}]})",
                           k_file);
  REQUIRE(loaded.value);
  CHECK(loaded.errors.empty());
  REQUIRE(loaded.value->entries.size() == 1);
  const TopnEntry& e = loaded.value->entries[0];
  CHECK_FALSE(e.avg_us);
  CHECK_FALSE(e.base_latency_ms.decode);
  CHECK(e.calls.value() == 80);
  CHECK(e.opt_hint == "NaN stays text");
  CHECK_FALSE(loaded.value->total_gpu_time_ms);
  CHECK(loaded.notes.size() == 3);
  CHECK(any_contains(loaded.notes, {k_file, "top_kernels[0].avg_us: non-finite literal NaN"}));
  CHECK(any_contains(loaded.notes, {"total_gpu_time_ms: non-finite literal Infinity"}));
  CHECK(any_contains(loaded.notes,
                     {"top_kernels[0].base_latency_ms.decode: non-finite literal -Infinity"}));
}

}  // namespace unit_load_topn
