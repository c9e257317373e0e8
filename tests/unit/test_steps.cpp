// Step 5, infer_steps (docs/method.md §6.4), and the regime rules pick_regime applies without step
// annotations: steps from the per-layer kernels' calls and the layer plan, checked per entry.
#include <catch2/catch.hpp>

#include "roofline/analyze/evidence/name_tokens.hpp"
#include "roofline/cli/layer.hpp"
#include "roofline/outcomes/rounds.hpp"
#include "unit/test_helpers.hpp"

namespace unit_steps {
using namespace roofline::cli;
using roofline::test::any_contains;
using roofline::test::contains;

namespace {

// The bundled example's plan: 40 layers, 30 gated-DeltaNet + 10 full attention, MoE on all.
ModelConfig hybrid_config() {
  const auto text = R"({"text_config": {"num_hidden_layers": 40, "hidden_size": 2048,
    "layer_types": ["linear_attention", "linear_attention", "linear_attention", "full_attention",
      "linear_attention", "linear_attention", "linear_attention", "full_attention",
      "linear_attention", "linear_attention", "linear_attention", "full_attention",
      "linear_attention", "linear_attention", "linear_attention", "full_attention",
      "linear_attention", "linear_attention", "linear_attention", "full_attention",
      "linear_attention", "linear_attention", "linear_attention", "full_attention",
      "linear_attention", "linear_attention", "linear_attention", "full_attention",
      "linear_attention", "linear_attention", "linear_attention", "full_attention",
      "linear_attention", "linear_attention", "linear_attention", "full_attention",
      "linear_attention", "linear_attention", "linear_attention", "full_attention"],
    "num_experts": 256, "num_experts_per_tok": 8, "moe_intermediate_size": 512,
    "num_attention_heads": 16, "num_key_value_heads": 2, "head_dim": 256}})";
  auto c = parse_model_config(text, "config.json");
  REQUIRE(c.value);
  return *c.value;
}

struct TestHead {
  TopnDocument topn;
  std::vector<HeadEntry> head;
  void add(const char* name, double calls, OpClass cls) {
    TopnEntry e;
    e.index = topn.entries.size();
    e.name = e.short_name = name;
    e.calls = calls;
    e.pct_gpu_time = 10.0;
    HeadEntry h;
    h.topn_position = h.topn_index = topn.entries.size();
    h.name = h.short_name = name;
    h.classified.op_class = cls;
    head.push_back(h);
    topn.entries.push_back(e);
  }
  StepInference infer(const ModelConfig* config) { return infer_steps(topn, head, config); }
  // What infer_steps wrote into entry i (set whenever it was attempted).
  const InferredLaunches& at(std::size_t i) const { return head.at(i).launches.value(); }
};

// The inference's one run note.
std::string note_of(const StepInference& s) {
  REQUIRE(s.findings.notes.size() == 1);
  CHECK(s.findings.diagnostics.empty());
  return s.findings.notes.front();
}

}  // namespace

TEST_CASE("infer_steps: the example's calls give 2057 steps and the MoE's two-launch unit",
          "[steps]") {
  const ModelConfig config = hybrid_config();
  TestHead h;
  h.add("fused_moe_kernel", 164560, OpClass::moe);
  h.add("fused_recurrent_gated_delta_rule_fwd_kernel", 61710, OpClass::linear_attn);
  h.add("kernel_paged_attention_2d", 20570, OpClass::attn);
  h.add("_w8a8_block_fp8_matmul", 164560, OpClass::gemm);
  const StepInference s = h.infer(&config);
  REQUIRE(s.attempted);
  REQUIRE(s.steps);
  CHECK(*s.steps == 2057.0);  // 61710 / 30 linear layers, the most calls of a per-layer kernel
  CHECK(h.at(0).launches_per_step == 80.0);  // = 2 × 40 MoE layers: a two-launch unit
  CHECK(h.at(1).launches_per_step == 30.0);
  CHECK(h.at(2).launches_per_step == 10.0);
  CHECK(h.at(3).launches_per_step == 80.0);  // a GEMM: calls / steps, unchecked
  CHECK(contains(note_of(s),
                 "2057 = 61710 calls of fused_recurrent_gated_delta_rule_fwd_kernel / 30 "
                 "linear layers"));
  CHECK(contains(note_of(s), "fused_moe_kernel 164560 / 2057 = 80 = 2 × 40 MoE layers ✓"));
  CHECK(
      contains(note_of(s), "kernel_paged_attention_2d 20570 / 2057 = 10 = 10 attention layers ✓"));
  for (const auto& e : h.head) CHECK(e.launches->inconsistent.empty());
}

TEST_CASE("infer_steps: per-layer kernels that disagree make it decline, every entry says so",
          "[steps]") {
  const ModelConfig config = hybrid_config();
  TestHead h;
  h.add("fused_moe_kernel", 164560, OpClass::moe);
  h.add("fused_recurrent_gated_delta_rule_fwd_kernel", 61710, OpClass::linear_attn);
  h.add("kernel_paged_attention_2d", 16000, OpClass::attn);  // 1600 per layer, not 2057
  const StepInference s = h.infer(&config);
  CHECK(s.attempted);
  CHECK_FALSE(s.steps);
  CHECK(contains(note_of(s),
                 "kernel_paged_attention_2d (16000 calls over 10 attention layers) "
                 "proposes 1600"));
  for (const auto& e : h.head) {
    CHECK_FALSE(e.launches->launches_per_step);
    CHECK(contains(e.launches->inconsistent, "steps not inferred"));
  }
}

TEST_CASE("infer_steps: a MoE whose calls fit neither 1 nor 2 launches per layer stays at one",
          "[steps]") {
  const ModelConfig config = hybrid_config();
  TestHead h;
  h.add("fused_moe_kernel", 2057 * 40 * 3, OpClass::moe);  // 3 launches per layer: not a unit
  h.add("fused_recurrent_gated_delta_rule_fwd_kernel", 61710, OpClass::linear_attn);
  const StepInference s = h.infer(&config);
  REQUIRE(s.steps);
  CHECK_FALSE(h.at(0).launches_per_step);
  CHECK(contains(h.at(0).inconsistent, "is not 1 or 2 × 40 MoE layers"));
  CHECK(contains(note_of(s), "✗"));
}

TEST_CASE(
    "infer_steps: not attempted with step counts or per-regime fields; declines without a "
    "plan",
    "[steps]") {
  const ModelConfig config = hybrid_config();
  TestHead h;
  h.add("kernel_paged_attention_2d", 20570, OpClass::attn);
  h.topn.serving.n_decode_steps = 2000;
  CHECK_FALSE(h.infer(&config).attempted);
  CHECK_FALSE(h.head[0].launches);  // not attempted: nothing written
  h.topn.serving.n_decode_steps.reset();
  h.topn.entries[0].calls_per_step.decode = 10;
  CHECK_FALSE(h.infer(&config).attempted);
  h.topn.entries[0].calls_per_step.decode.reset();
  const StepInference none = h.infer(nullptr);
  CHECK(none.attempted);
  CHECK_FALSE(none.steps);
  CHECK(contains(note_of(none), "no layer plan"));
  CHECK(contains(h.at(0).inconsistent, "no layer plan"));
  // An empty head has nothing to infer and says nothing.
  TestHead empty;
  CHECK_FALSE(empty.infer(&config).attempted);
}

TEST_CASE(
    "pick_regime: without step annotations, rows ≤ 2·conc is decode; a flat operand has no "
    "rows",
    "[steps][regime]") {
  TopnEntry e;
  e.name = "k";
  e.calls = 100;
  e.avg_us = 50.0;
  InferredLaunches inferred;
  inferred.launches_per_step = 4;
  inferred.how = "calls 100 / inferred steps 25";
  RegimeHints hints;
  hints.inferred = &inferred;
  hints.conc = 64.0;
  e.shapes = {{1, 128, 2048}, {2048, 2048}};  // leading 1 skipped: 128 rows ≤ 128
  RegimeChoice r = pick_regime(e, TopnServing{}, hints);
  CHECK(r.regime == Regime::decode);
  CHECK(r.launches_per_step == 4.0);
  CHECK(any_contains(r.notes, {"128 rows, ≤ 2 × workload.conc 64"}));
  CHECK(any_contains(r.notes, {"the mean over prefill and decode launches alike"}));
  CHECK(any_contains(r.notes, {"calls 100 / inferred steps 25 (docs/method.md §6.4)"}));

  e.signatures = {{{64, 2048}}, {{4096, 2048}}};  // the signature with the most rows decides
  e.shapes = e.signatures[0];
  CHECK(pick_regime(e, TopnServing{}, hints).regime == Regime::prefill);

  e.signatures.clear();
  e.shapes = {{268435456}, {268435456}};  // a 1 GiB memcpy: no rows in flight
  const RegimeChoice flat = pick_regime(e, TopnServing{}, hints);
  CHECK_FALSE(flat.known);
  CHECK(any_contains(flat.notes, {"no operand rows to weigh against workload.conc"}));
}

// compare's GPU time per step (docs/method.md §17.1) counts steps the same way when a round's Top-N
// has no serving step counts.
TEST_CASE("round_step_count: serving counts first, else steps inferred from the layer plan",
          "[steps][compare]") {
  const ModelConfig config = hybrid_config();
  TopnDocument t;
  auto add = [&](const char* name, double calls, double pct) {
    TopnEntry e;
    e.index = t.entries.size();
    e.name = e.short_name = name;
    e.calls = calls;
    e.pct_gpu_time = pct;
    t.entries.push_back(e);
  };
  add("fused_moe_kernel", 164560, 26.45);
  add("fused_recurrent_gated_delta_rule_fwd_kernel", 61710, 12.82);
  add("kernel_paged_attention_2d", 20570, 8.86);
  const StepCount inferred = round_step_count(t, &config);
  REQUIRE(inferred.steps);
  CHECK(*inferred.steps == 2057.0);
  CHECK(contains(inferred.source, "steps inferred"));
  const StepCount no_plan = round_step_count(t, nullptr);
  CHECK_FALSE(no_plan.steps);
  CHECK(contains(no_plan.reason, "no serving step counts"));
  CHECK(contains(no_plan.reason, "no layer plan"));
  t.serving.n_decode_steps = 2000;
  t.serving.n_prefill_steps = 57;
  const StepCount served = round_step_count(t, &config);
  CHECK(served.steps == 2057.0);
  CHECK(contains(served.source, "profiler serving: 57 prefill + 2000 decode steps"));
}

TEST_CASE("infer_steps: fewer than one step, or a fraction far from a whole number, declines",
          "[steps]") {
  const ModelConfig config = hybrid_config();
  SECTION("6 calls over 10 attention layers: 0.6 steps") {
    TestHead h;
    h.add("kernel_paged_attention_2d", 6, OpClass::attn);
    h.add("_w8a8_block_fp8_matmul", 48, OpClass::gemm);
    const StepInference s = h.infer(&config);
    CHECK(s.attempted);
    CHECK_FALSE(s.steps);
    CHECK(contains(note_of(s), "proposes 0.6 steps, fewer than one"));
    for (const auto& e : h.head) {
      CHECK_FALSE(e.launches->launches_per_step);
      CHECK(contains(e.launches->inconsistent, "fewer than one step"));
    }
  }
  SECTION("25 calls over 10 attention layers: 2.5 steps") {
    TestHead h;
    h.add("kernel_paged_attention_2d", 25, OpClass::attn);
    const StepInference s = h.infer(&config);
    CHECK_FALSE(s.steps);
    CHECK(contains(note_of(s), "proposes 2.5 steps, not a whole number"));
  }
  SECTION("41 calls over 10 layers: 4.1 steps, within 5 % of 4, is kept") {
    TestHead h;
    h.add("kernel_paged_attention_2d", 41, OpClass::attn);
    const StepInference s = h.infer(&config);
    REQUIRE(s.steps);
    CHECK(*s.steps == 4.1);
  }
}

TEST_CASE("pick_regime: an operand's rows are its dims but the last, attention's heads excluded",
          "[steps][regime]") {
  // Qwen1.5-0.5B (the TraceLens H100 trace): 16 heads of 64; 16 sequences of 559 tokens.
  auto c = parse_model_config(
      R"({"num_hidden_layers": 24, "hidden_size": 1024, "num_attention_heads": 16,
          "num_key_value_heads": 16})",
      "config.json");
  REQUIRE(c.value);
  InferredLaunches inferred;
  RegimeHints hints;
  hints.inferred = &inferred;
  hints.conc = 16.0;
  hints.config = &*c.value;
  auto rows = [&](std::vector<std::vector<std::int64_t>> shapes) {
    TopnEntry e;
    e.name = "k";
    e.shapes = std::move(shapes);
    RegimeChoice r = pick_regime(e, TopnServing{}, hints);
    REQUIRE(r.shape_rows);
    return std::make_pair(*r.shape_rows, r.regime);
  };
  CHECK(rows({{16, 559, 16, 64}, {16, 559, 16, 64}}) == std::make_pair(8944.0, Regime::prefill));
  CHECK(rows({{16, 16, 559, 64}}) == std::make_pair(8944.0, Regime::prefill));  // [B, H, S, D]
  CHECK(rows({{16, 1, 16, 64}}) == std::make_pair(16.0, Regime::decode));       // decode, S = 1
  CHECK(rows({{16, 559, 1024}}) == std::make_pair(8944.0, Regime::prefill));    // elementwise
  CHECK(rows({{8944, 1024}, {1024, 3072}}) == std::make_pair(8944.0, Regime::prefill));
  CHECK(rows({{559, 16, 64}}) == std::make_pair(559.0, Regime::prefill));  // [T, H, D]
  CHECK(rows({{128, 8, 2048}, {128, 2048, 1536}}) ==
        std::make_pair(8.0, Regime::decode));  // a batched GEMM: its M
  SECTION("one forward pass, one regime: the dense GEMMs' rows decide") {
    hints.pass_regime = Regime::decode;
    hints.pass_why = "the dense GEMMs' rows (g 16) say decode";
    TopnEntry e;
    e.name = "copy";
    e.shapes = {{128, 8, 2048}};
    RegimeChoice r = pick_regime(e, TopnServing{}, hints);
    CHECK(r.regime == Regime::decode);
    CHECK(contains(r.why, "but one forward pass has one regime"));
  }
}

TEST_CASE(
    "moe_stages_from_siblings: the activation-fused kernel of a pair is gate/up, the other "
    "down",
    "[steps][moe]") {
  TestHead h;
  auto add = [&](const char* name, double calls) {
    h.add(name, calls, OpClass::moe);
    h.topn.entries.back().served_regimes = {"prefill"};
  };
  SECTION("one family, same launches: stage 1 and stage 2, from the sibling") {
    add("my_moe_gemm_silu_bf16", 24);
    add("my_moe_gemm_bf16", 24);
    moe_stages_from_siblings(h.head, h.topn, ClassRules{});
    CHECK(h.head[0].classified.detail.moe.stage == MoeStage::stage1);
    CHECK(h.head[1].classified.detail.moe.stage == MoeStage::stage2);
    CHECK(h.head[1].classified.detail.moe.stage_from_sibling);
    CHECK(contains(h.head[1].classified.notes.back(), "from its sibling 'my_moe_gemm_silu_bf16'"));
  }
  SECTION("different launches, another family, or two unfused kernels: left alone") {
    add("my_moe_gemm_silu_bf16", 24);
    add("my_moe_gemm_bf16", 48);
    add("other_moe_gemm", 24);
    moe_stages_from_siblings(h.head, h.topn, ClassRules{});
    for (const HeadEntry& e : h.head) CHECK(e.classified.detail.moe.stage == MoeStage::unnamed);
  }
  SECTION("the activation is a token: 'exact' is no 'act'") {
    add("my_moe_gemm_exact", 24);
    add("my_moe_gemm", 24);
    moe_stages_from_siblings(h.head, h.topn, ClassRules{});
    CHECK(h.head[0].classified.detail.moe.stage == MoeStage::unnamed);
    CHECK(fused_activation("bmm_E4m3_MxE2m1_swiGlu_x"));
    CHECK(fused_activation("Kernel_SiLU"));  // case-insensitive
  }
}

}  // namespace unit_steps
