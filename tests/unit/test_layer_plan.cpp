// The layer plan (docs/method.md §8.3): every zoo config loads completely and resolves its plan;
// each precedence rule, window rule and MoE-layer rule; broken inputs become notes, never a lost
// config. The zoo configs are read from the golden cases that copy them verbatim (the only files
// here: the real configs are what is under test).
#include <fstream>
#include <sstream>

#include <catch2/catch.hpp>

#include "roofline/cli/layer.hpp"
#include "roofline/inputs/load.hpp"
#include "unit/test_helpers.hpp"

namespace unit_layer_plan {
using namespace roofline::cli;
using roofline::test::any_contains;
using roofline::test::rel;

namespace {

std::string zoo_config(const std::string& golden_case) {
  std::ifstream in(
      std::string(ROOFLINE_SOURCE_DIR) + "/tests/golden/" + golden_case + "/input/config.json",
      std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

ModelConfig parse_ok(const std::string& text, std::vector<std::string>* notes = nullptr) {
  auto l = parse_model_config(text, "config.json");
  INFO("first error: " << (l.errors.empty() ? std::string() : l.errors.front()));
  CHECK(l.errors.empty());
  REQUIRE(l.value.has_value());
  if (notes) *notes = l.notes;
  return *l.value;
}

}  // namespace

TEST_CASE("layer plan: all 11 zoo configs load completely and resolve their plan",
          "[config][plan][zoo]") {
  struct Zoo {
    const char* golden;
    const char* plan;
    double layers, softmax, linear, mamba, moe;
  };
  const Zoo zoo[] = {
      {"zoo_llama31_8b", "32 layers: 32 full; dense FFN on all", 32, 32, 0, 0, 0},
      {"zoo_mixtral_8x7b", "32 layers: 32 full; MoE on all 32", 32, 32, 0, 0, 32},
      {"zoo_qwen3_30b_a3b", "48 layers: 48 full; MoE on all 48", 48, 48, 0, 0, 48},
      {"zoo_qwen3_next_80b", "48 layers: 36 gdn + 12 full; MoE on all 48", 48, 12, 36, 0, 48},
      {"zoo_deepseek_v32", "61 layers: 61 full; MoE on 58 (layers 3-60), dense FFN on 3", 61, 61, 0,
       0, 58},
      {"zoo_gpt_oss_20b", "24 layers: 12 full + 12 sliding(128); MoE on all 24", 24, 24, 0, 0, 24},
      {"zoo_llama4_scout", "48 layers: 36 chunked(8192) + 12 full; MoE on all 48", 48, 48, 0, 0,
       48},
      {"zoo_gemma3_1b", "26 layers: 22 sliding(512) + 4 full; dense FFN on all", 26, 26, 0, 0, 0},
      {"zoo_nemotron_h_56b",
       "118 layers: 54 mamba2 + 54 FFN-only + 10 full; dense FFN on 54, no FFN on 64", 118, 10, 0,
       54, 0},
      {"zoo_jamba_15_mini", "32 layers: 28 mamba1 + 4 full; MoE on 16 (every 2nd), dense FFN on 16",
       32, 4, 0, 28, 16},
      {"zoo_falcon_h1_7b", "44 layers: 44 hybrid; dense FFN on all", 44, 44, 0, 44, 0},
  };
  for (const Zoo& z : zoo) {
    INFO(z.golden);
    std::vector<std::string> notes;
    const ModelConfig c = parse_ok(zoo_config(z.golden), &notes);
    CHECK(describe_plan(c.plan) == z.plan);
    const PlanCounts n = plan_counts(c.plan);
    CHECK(n.layers == rel(z.layers));
    CHECK(layers_served(c.plan, Served::softmax_attention) == rel(z.softmax));
    CHECK(layers_served(c.plan, Served::linear_attention) == rel(z.linear));
    CHECK(layers_served(c.plan, Served::mamba) == rel(z.mamba));
    CHECK(layers_served(c.plan, Served::moe) == rel(z.moe));
    CHECK(c.plan.problems.empty());
    if (z.moe > 0) CHECK(c.moe_layers.value() == rel(z.moe));
  }
}

TEST_CASE("layer plan: the Nemotron-H Infinity literal is read as absent with one note",
          "[config][plan][zoo]") {
  std::vector<std::string> notes;
  const ModelConfig c = parse_ok(zoo_config("zoo_nemotron_h_56b"), &notes);
  REQUIRE(notes.size() == 1);
  CHECK(any_contains(notes, {"time_step_limit[1]", "non-finite literal Infinity", "absent"}));
  // Everything after the literal is still read.
  CHECK(c.model_type == "nemotron_h");
  CHECK(c.vocab.value() == rel(131072));
  CHECK(c.mamba_heads.value() == rel(256));
  CHECK(c.mamba_groups.value() == rel(8));
  CHECK(c.head_dim.value() == rel(128));  // attention_head_dim
  CHECK(c.hidden_act == "relu2");
}

TEST_CASE("layer plan: zoo key spellings resolve", "[config][plan][zoo]") {
  const ModelConfig falcon = parse_ok(zoo_config("zoo_falcon_h1_7b"));
  CHECK(falcon.mamba_heads.value() == rel(24));
  CHECK(falcon.mamba_head_dim.value() == rel(128));
  CHECK(falcon.ssm_state_size.value() == rel(256));
  CHECK(falcon.mamba_groups.value() == rel(1));
  CHECK(falcon.mamba_conv_kernel.value() == rel(4));
  const ModelConfig jamba = parse_ok(zoo_config("zoo_jamba_15_mini"));
  CHECK(jamba.mamba_expand.value() == rel(2));
  CHECK(jamba.ssm_state_size.value() == rel(16));
  CHECK_FALSE(jamba.sliding_window.has_value());  // null
  const ModelConfig next = parse_ok(zoo_config("zoo_qwen3_next_80b"));
  CHECK(next.linear_key_heads.value() == rel(16));
  CHECK(next.linear_value_heads.value() == rel(32));
  CHECK(next.linear_conv_kernel.value() == rel(4));
  CHECK(next.shared_expert_intermediate.value() == rel(512));
  const ModelConfig ds = parse_ok(zoo_config("zoo_deepseek_v32"));
  CHECK(ds.index_head_dim.value() == rel(128));
  CHECK(ds.index_n_heads.value() == rel(64));
  CHECK(ds.shared_experts.value() == rel(1));
  const ModelConfig scout = parse_ok(zoo_config("zoo_llama4_scout"));
  CHECK(scout.attention_chunk_size.value() == rel(8192));
  CHECK(scout.intermediate_mlp.value() == rel(16384));
  CHECK(scout.from_text_config);
  const ModelConfig gemma = parse_ok(zoo_config("zoo_gemma3_1b"));
  CHECK(gemma.head_dim.value() == rel(256));
  CHECK(gemma.hidden_act == "gelu_pytorch_tanh");
}

TEST_CASE("layer plan: mixer precedence and window rules", "[config][plan]") {
  SECTION("layer_types beats full_attention_interval") {
    const ModelConfig c = parse_ok(R"({"num_hidden_layers": 4, "full_attention_interval": 2,
      "layer_types": ["linear_attention", "linear_attention", "linear_attention", "full_attention"]})");
    CHECK(describe_plan(c.plan) == "4 layers: 3 gdn + 1 full; dense FFN on all");
  }
  SECTION("linear_attention is lightning on MiniMax and KDA with linear_attn_config") {
    CHECK(plan_counts(parse_ok(R"({"model_type": "minimax_m1", "num_hidden_layers": 2,
      "layer_types": ["linear_attention", "full_attention"]})")
                          .plan)
              .lightning == rel(1));
    CHECK(plan_counts(parse_ok(R"({"num_hidden_layers": 2, "linear_attn_config": {"num_heads": 8},
      "layer_types": ["linear_attention", "full_attention"]})")
                          .plan)
              .kda == rel(1));
  }
  SECTION("Gemma-3 without sliding_window_pattern uses 6, Gemma-2 alternates") {
    const ModelConfig g3 = parse_ok(
        R"({"model_type": "gemma3_text", "num_hidden_layers": 12, "sliding_window": 1024})");
    CHECK(describe_plan(g3.plan) == "12 layers: 10 sliding(1024) + 2 full; dense FFN on all");
    const ModelConfig g2 =
        parse_ok(R"({"model_type": "gemma2", "num_hidden_layers": 4, "sliding_window": 4096})");
    CHECK(g2.plan.layers[0].mixer == Mixer::sliding);
    CHECK(g2.plan.layers[1].mixer == Mixer::full);
    CHECK(g2.head_dim.value() == rel(256));  // architecture default
  }
  SECTION("Mistral-style sliding_window slides every layer; use_sliding_window false does not") {
    CHECK(
        plan_counts(parse_ok(R"({"num_hidden_layers": 8, "sliding_window": 4096})").plan).sliding ==
        rel(8));
    CHECK(plan_counts(parse_ok(R"({"num_hidden_layers": 8, "sliding_window": 4096,
      "use_sliding_window": false})")
                          .plan)
              .full == rel(8));
    // Qwen2: with the flag on, layers from max_window_layers slide.
    CHECK(plan_counts(parse_ok(R"({"num_hidden_layers": 8, "sliding_window": 4096,
      "use_sliding_window": true, "max_window_layers": 6})")
                          .plan)
              .sliding == rel(2));
  }
  SECTION("Llama-4 no_rope_layers: 0 marks a global layer") {
    const ModelConfig c = parse_ok(R"({"num_hidden_layers": 4, "attention_chunk_size": 8192,
      "no_rope_layers": [1, 0, 1, 1]})");
    CHECK(c.plan.layers[1].mixer == Mixer::full);
    CHECK(c.plan.layers[0].mixer == Mixer::chunked);
    CHECK(c.plan.layers[0].window == rel(8192));
  }
  SECTION("attn_type_list (MiniMax), KDA lists (1-based), Jamba periods") {
    CHECK(describe_plan(
              parse_ok(R"({"num_hidden_layers": 4, "attn_type_list": [0, 0, 0, 1]})").plan) ==
          "4 layers: 3 lightning + 1 full; dense FFN on all");
    const ModelConfig kimi = parse_ok(R"({"num_hidden_layers": 4, "linear_attn_config":
      {"kda_layers": [1, 2, 3], "full_attn_layers": [4], "num_heads": 32, "head_dim": 128}})");
    CHECK(kimi.plan.layers[3].mixer == Mixer::full);
    CHECK(plan_counts(kimi.plan).kda == rel(3));
    const ModelConfig jamba = parse_ok(R"({"num_hidden_layers": 16, "attn_layer_period": 8,
      "attn_layer_offset": 4, "num_experts": 16, "expert_layer_period": 2, "expert_layer_offset": 1})");
    CHECK(jamba.plan.layers[4].mixer == Mixer::full);
    CHECK(jamba.plan.layers[12].mixer == Mixer::full);
    CHECK(plan_counts(jamba.plan).mamba1 == rel(14));
    CHECK(jamba.plan.layers[1].ffn == Ffn::moe);
    CHECK(jamba.plan.layers[0].ffn == Ffn::dense);
  }
  SECTION("layers_block_type: mamba/attention mixers, mlp/moe FFN-only blocks") {
    const ModelConfig c = parse_ok(R"({"num_hidden_layers": 4, "mamba_n_heads": 8,
      "layers_block_type": ["mamba", "attention", "mlp", "moe"]})");
    CHECK(describe_plan(c.plan) ==
          "4 layers: 2 FFN-only + 1 full + 1 mamba2; MoE on 1, dense FFN on 3");
  }
}

TEST_CASE("layer plan: MoE layer rules", "[config][plan]") {
  auto moe_of = [](const char* text) { return layers_served(parse_ok(text).plan, Served::moe); };
  CHECK(moe_of(R"({"num_hidden_layers": 61, "n_routed_experts": 8, "first_k_dense_replace": 3})") ==
        rel(58));
  CHECK(moe_of(R"({"num_hidden_layers": 8, "n_routed_experts": 8, "first_k_dense_replace": 1,
                   "moe_layer_freq": 2})") == rel(3));  // i >= 1 and i % 2 == 0: 2, 4, 6
  CHECK(moe_of(R"({"num_hidden_layers": 48, "num_local_experts": 128,
                   "interleave_moe_layer_step": 2})") == rel(24));
  CHECK(moe_of(R"({"num_hidden_layers": 24, "num_experts": 60, "decoder_sparse_step": 2,
                   "mlp_only_layers": [1]})") == rel(11));
  CHECK(moe_of(R"({"num_hidden_layers": 6, "num_local_experts": 16, "moe_layers": [1, 3]})") ==
        rel(2));
  CHECK(moe_of(R"({"num_hidden_layers": 4, "hybrid_override_pattern": "ME*E",
                   "num_experts": 8})") == rel(2));
  const ModelConfig maverick = parse_ok(R"({"num_hidden_layers": 48, "num_local_experts": 128,
                   "interleave_moe_layer_step": 2, "attention_chunk_size": 8192})");
  CHECK(describe_plan(maverick.plan) ==
        "48 layers: 36 chunked(8192) + 12 full; MoE on 24 (every 2nd), dense FFN on 24");
}

TEST_CASE("layer plan: broken inputs are notes, the config is kept", "[config][plan]") {
  SECTION("a pattern of the wrong length with an unknown character") {
    auto l = parse_model_config(R"({"num_hidden_layers": 6, "hybrid_override_pattern": "M*Q-"})",
                                "config.json");
    REQUIRE(l.value);
    CHECK(l.errors.empty());
    CHECK(
        any_contains(l.notes, {"hybrid_override_pattern has 4 entries", "num_hidden_layers is 6"}));
    CHECK(any_contains(l.notes, {"unknown layer character 'Q'"}));
    CHECK(plan_counts(l.value->plan).unknown == rel(1));
  }
  SECTION("an unknown layer kind and a window of 0") {
    auto l = parse_model_config(R"({"num_hidden_layers": 3, "sliding_window": 0,
      "layer_types": ["conv", "sliding_attention", "full_attention"]})",
                                "config.json");
    REQUIRE(l.value);
    CHECK(any_contains(l.notes, {"unknown layer kind 'conv'"}));
    CHECK(any_contains(l.notes, {"no usable window", "treated as full"}));
    CHECK(plan_counts(l.value->plan).full == rel(2));
  }
  SECTION("wrong types: an error on the field, the plan from what is left") {
    auto l = parse_model_config(R"({"num_hidden_layers": 4, "hybrid_override_pattern": 42,
      "full_attention_interval": 2, "layer_types": "full"})",
                                "config.json");
    REQUIRE(l.value);
    CHECK(any_contains(l.errors, {"layer_types", "expected a list"}));
    CHECK(any_contains(l.errors, {"hybrid_override_pattern", "expected a pattern string"}));
    CHECK(describe_plan(l.value->plan) == "4 layers: 2 full + 2 gdn; dense FFN on all");
  }
  SECTION("NaN / Infinity / -Infinity anywhere; strings that spell them are left alone") {
    auto l = parse_model_config(R"({"num_hidden_layers": NaN, "hidden_size": 4096,
      "a": {"b": [1, -Infinity]}, "note": "Infinity and NaN in a string", "c": Infinity})",
                                "config.json");
    REQUIRE(l.value);
    CHECK(l.errors.empty());
    CHECK(l.notes.size() == 3);
    CHECK(any_contains(l.notes, {"num_hidden_layers: non-finite literal NaN"}));
    CHECK(any_contains(l.notes, {"a.b[1]: non-finite literal -Infinity"}));
    CHECK(any_contains(l.notes, {"c: non-finite literal Infinity"}));
    CHECK_FALSE(l.value->layers.has_value());
    CHECK(l.value->hidden.value() == rel(4096));
    CHECK(l.value->plan.empty());
    CHECK(describe_plan(l.value->plan).empty());
  }
  SECTION("an implausible layer count is an error, not a plan of a million layers") {
    auto l = parse_model_config(R"({"num_hidden_layers": 1e9})", "config.json");
    REQUIRE(l.value);
    CHECK(l.value->plan.empty());
    CHECK(any_contains(l.errors, {"implausible layer count"}));
  }
}

TEST_CASE("layer plan: a layer list longer than any model is refused", "[config][plan]") {
  const std::string pattern(200000, 'M');
  auto l = parse_model_config(
      R"({"num_hidden_layers": 4, "hybrid_override_pattern": ")" + pattern + R"("})",
      "config.json");
  REQUIRE(l.value);
  CHECK(any_contains(l.errors, {"hybrid_override_pattern", "200000 entries is not a layer list"}));
  CHECK(describe_plan(l.value->plan) == "4 layers: 4 full; dense FFN on all");
}

}  // namespace unit_layer_plan
