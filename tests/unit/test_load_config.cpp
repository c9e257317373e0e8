// load.hpp: parse_model_config (docs/method.md §2.5) — HF spellings, text_config first,
// quantization.
#include <catch2/catch.hpp>

#include "roofline/cli/layer.hpp"
#include "roofline/inputs/load.hpp"
#include "unit/test_helpers.hpp"

namespace unit_load_config {
using namespace roofline::cli;
using roofline::test::any_contains;
using roofline::test::rel;

namespace {

const char* const k_file = "config.json";

ModelConfig parse_ok(const std::string& text) {
  auto l = parse_model_config(text, k_file);
  INFO("errors: " << (l.errors.empty() ? std::string() : l.errors.front()));
  REQUIRE(l.value.has_value());
  return *l.value;
}

}  // namespace

TEST_CASE("parse_model_config: Qwen3.5 MoE reads text_config first, quantization at the top",
          "[load][config]") {
  const char* text = R"({
    "model_type": "qwen3_5_moe", "num_hidden_layers": 27, "hidden_size": 1152,
    "text_config": {"model_type": "qwen3_5_moe_text", "hidden_size": 2048, "num_hidden_layers": 40,
      "num_attention_heads": 16, "num_key_value_heads": 2, "head_dim": 256, "num_experts": 256,
      "num_experts_per_tok": 8, "moe_intermediate_size": 512, "full_attention_interval": 4,
      "dtype": "bfloat16"},
    "quantization_config": {"quant_method": "fp8", "fmt": "e4m3", "weight_block_size": [128, 128]},
    "torch_dtype": "float16"})";
  const ModelConfig c = parse_ok(text);
  CHECK(c.from_text_config);
  CHECK(c.model_type == "qwen3_5_moe_text");
  CHECK(c.layers.value() == rel(40));
  CHECK(c.hidden.value() == rel(2048));
  CHECK(c.experts.value() == rel(256));
  CHECK(c.top_k.value() == rel(8));
  CHECK(c.moe_intermediate.value() == rel(512));
  CHECK(c.n_heads.value() == rel(16));
  CHECK(c.n_kv_heads.value() == rel(2));
  CHECK(c.head_dim.value() == rel(256));
  CHECK(c.full_attention_layers.value() == rel(10));  // 40 / interval 4
  CHECK(c.moe_layers.value() == rel(40));
  CHECK(c.dtype == "bfloat16");  // text_config dtype beats top-level torch_dtype
  CHECK(c.quant_method == "fp8");
  CHECK(c.quant_weight_bytes.value() == rel(1.0 + 4.0 / 16384));  // 128×128 fp32 block scales
  CHECK(c.quant_weight_key == DtypeKey::fp8);
}

TEST_CASE("parse_model_config: falls back to the top level when text_config lacks a field",
          "[load][config]") {
  const ModelConfig c = parse_ok(R"({"text_config": {"num_hidden_layers": 32}, "hidden_size": 4096,
                                     "num_attention_heads": 32, "torch_dtype": "bfloat16"})");
  CHECK(c.layers.value() == rel(32));
  CHECK(c.hidden.value() == rel(4096));
  CHECK(c.head_dim.value() == rel(128));  // hidden / heads
  CHECK(c.head_dim_derived);
  CHECK(c.n_kv_heads.value() == rel(32));  // default = attention heads
  CHECK(c.n_kv_heads_defaulted);
  CHECK(c.dtype == "bfloat16");
}

TEST_CASE("parse_model_config: expert count spellings", "[load][config]") {
  CHECK(parse_ok(R"({"num_experts": 128})").experts.value() == rel(128));
  CHECK(parse_ok(R"({"num_local_experts": 8})").experts.value() == rel(8));
  CHECK(parse_ok(R"({"n_routed_experts": 256})").experts.value() == rel(256));
}

TEST_CASE("parse_model_config: routed-per-token spellings", "[load][config]") {
  CHECK(parse_ok(R"({"num_experts_per_tok": 8})").top_k.value() == rel(8));
  CHECK(parse_ok(R"({"experts_per_token": 4})").top_k.value() == rel(4));
  CHECK(parse_ok(R"({"moe_topk": 6})").top_k.value() == rel(6));
}

TEST_CASE("parse_model_config: Mixtral expert FFN falls back to intermediate_size",
          "[load][config]") {
  const ModelConfig mixtral =
      parse_ok(R"({"architectures": ["MixtralForCausalLM"], "num_hidden_layers": 32,
      "hidden_size": 4096, "intermediate_size": 14336, "num_local_experts": 8, "num_experts_per_tok": 2,
      "num_attention_heads": 32, "num_key_value_heads": 8, "torch_dtype": "bfloat16"})");
  CHECK(mixtral.moe_intermediate.value() == rel(14336));
  CHECK(mixtral.experts.value() == rel(8));

  const ModelConfig qwen =
      parse_ok(R"({"intermediate_size": 6144, "moe_intermediate_size": 768, "num_experts": 128})");
  CHECK(qwen.moe_intermediate.value() == rel(768));

  // A dense model must not grow an expert FFN.
  const ModelConfig dense = parse_ok(R"({"intermediate_size": 14336, "hidden_size": 4096})");
  CHECK_FALSE(dense.moe_intermediate.has_value());
}

TEST_CASE("parse_model_config: MoE layer count", "[load][config]") {
  SECTION("first_k_dense_replace (DeepSeek-V3)") {
    const ModelConfig c =
        parse_ok(R"({"num_hidden_layers": 61, "n_routed_experts": 256, "first_k_dense_replace": 3,
                                       "moe_layer_freq": 1})");
    CHECK(c.first_k_dense.value() == rel(3));
    CHECK(c.moe_layers.value() == rel(58));
  }
  SECTION("mlp_only_layers (Qwen2-MoE style)") {
    const ModelConfig c =
        parse_ok(R"({"num_hidden_layers": 24, "num_experts": 60, "decoder_sparse_step": 1,
                                       "mlp_only_layers": [0, 23]})");
    CHECK(c.moe_layers.value() == rel(22));
  }
  SECTION("decoder_sparse_step 2: every second layer") {
    const ModelConfig c =
        parse_ok(R"({"num_hidden_layers": 24, "num_experts": 60, "decoder_sparse_step": 2,
                                       "mlp_only_layers": []})");
    CHECK(c.moe_layers.value() == rel(12));
  }
  SECTION("plain MoE: every layer") {
    const ModelConfig c =
        parse_ok(R"({"num_hidden_layers": 48, "num_experts": 128, "decoder_sparse_step": 1,
                                       "mlp_only_layers": []})");
    CHECK(c.moe_layers.value() == rel(48));
  }
}

TEST_CASE("parse_model_config: attention layer count for hybrid layouts", "[load][config]") {
  SECTION("layer_types counts full_attention") {
    const ModelConfig c =
        parse_ok(R"({"num_hidden_layers": 8, "full_attention_interval": 2, "layer_types":
        ["linear_attention", "linear_attention", "linear_attention", "full_attention",
         "linear_attention", "linear_attention", "linear_attention", "full_attention"]})");
    CHECK(c.full_attention_layers.value() ==
          rel(2));  // layer_types beats the interval (which says 4)
  }
  SECTION("sliding_attention is not full attention") {
    const ModelConfig c = parse_ok(R"({"num_hidden_layers": 6, "sliding_window": 128, "layer_types":
        ["sliding_attention", "sliding_attention", "full_attention", "sliding_attention", "sliding_attention", "full_attention"]})");
    CHECK(c.full_attention_layers.value() == rel(2));
    CHECK(plan_counts(c.plan).sliding == rel(4));
  }
  SECTION("full_attention_interval") {
    const ModelConfig c = parse_ok(R"({"num_hidden_layers": 48, "full_attention_interval": 4})");
    CHECK(c.full_attention_layers.value() == rel(12));
  }
  SECTION("neither: every layer") {
    const ModelConfig c = parse_ok(R"({"num_hidden_layers": 32})");
    CHECK(c.full_attention_layers.value() == rel(32));
  }
}

TEST_CASE("parse_model_config: MLA and sparse-attention keys (DeepSeek-V3.2)", "[load][config]") {
  const ModelConfig c =
      parse_ok(R"({"num_hidden_layers": 61, "hidden_size": 7168, "num_attention_heads": 128,
      "num_key_value_heads": 128, "kv_lora_rank": 512, "qk_rope_head_dim": 64, "qk_nope_head_dim": 128,
      "v_head_dim": 128, "index_topk": 2048, "torch_dtype": "bfloat16",
      "quantization_config": {"quant_method": "fp8", "weight_block_size": [128, 128]}})");
  CHECK(c.kv_lora_rank.value() == rel(512));
  CHECK(c.qk_rope_head_dim.value() == rel(64));
  CHECK(c.qk_nope_head_dim.value() == rel(128));
  CHECK(c.v_head_dim.value() == rel(128));
  CHECK(c.index_topk.value() == rel(2048));
  CHECK(c.quant_weight_bytes.value() == rel(1.0 + 4.0 / 16384));
}

TEST_CASE("parse_model_config: dtype spellings torch_dtype vs dtype", "[load][config]") {
  CHECK(parse_ok(R"({"torch_dtype": "bfloat16"})").dtype == "bfloat16");
  CHECK(parse_ok(R"({"dtype": "float16"})").dtype == "float16");
  CHECK(parse_ok(R"({"torch_dtype": "bfloat16", "dtype": "float32"})").dtype == "bfloat16");
  auto bad = parse_model_config(R"({"torch_dtype": "quaternion"})", k_file);
  CHECK(any_contains(bad.errors, {"config.json: torch_dtype:", "unknown dtype"}));
}

TEST_CASE("parse_model_config: quantization weight width", "[load][config]") {
  CHECK(
      parse_ok(R"({"quantization_config": {"quant_method": "fp8"}})").quant_weight_bytes.value() ==
      rel(1.0));
  // docs/method.md §8.6: scales included.
  CHECK(parse_ok(R"({"quantization_config": {"quant_method": "mxfp4"}})")
            .quant_weight_bytes.value() == rel(0.53125));
  CHECK(parse_ok(R"({"quantization_config": {"quant_method": "gptq", "bits": 4}})")
            .quant_weight_bytes.value() == rel(0.5));  // no group_size: per-channel scales
  CHECK(parse_ok(R"({"quantization_config": {"quant_method": "awq", "bits": 4}})")
            .quant_weight_bytes.value() == rel(0.5));
  // A method that does not say the width is not guessed.
  const ModelConfig unknown =
      parse_ok(R"({"quantization_config": {"quant_method": "bitsandbytes"}})");
  CHECK_FALSE(unknown.quant_weight_bytes.has_value());
  CHECK_FALSE(parse_ok(R"({"torch_dtype": "bfloat16"})").quant_weight_bytes.has_value());
}

TEST_CASE("parse_model_config: wrong types and negatives name the field", "[load][config]") {
  auto l = parse_model_config(R"({"text_config": {"hidden_size": "2048", "num_experts": -8,
      "layer_types": "full_attention"}, "hidden_size": 4096, "mlp_only_layers": 3, "num_hidden_layers": 4,
      "num_local_experts": 8, "quantization_config": "fp8"})",
                              k_file);
  REQUIRE(l.value);
  const ModelConfig& c = *l.value;
  CHECK(c.hidden.value() == rel(4096));  // the bad text_config value is skipped, top level used
  CHECK(c.experts.value() == rel(8));    // negative ignored, fallback spelling used
  CHECK(any_contains(l.errors, {"config.json: text_config.hidden_size:", "expected a number"}));
  CHECK(any_contains(l.errors, {"config.json: text_config.num_experts:", "negative"}));
  CHECK(any_contains(l.errors, {"config.json: text_config.layer_types:"}));
  CHECK(any_contains(l.errors, {"config.json: mlp_only_layers:"}));
  CHECK(any_contains(l.errors, {"config.json: quantization_config:", "expected an object"}));
}

TEST_CASE("parse_model_config: truncated JSON and a top-level array never throw",
          "[load][config]") {
  Loaded<ModelConfig> l;
  REQUIRE_NOTHROW(
      l = parse_model_config(R"({"text_config": {"hidden_size": 2048, "num_exp)", k_file));
  CHECK_FALSE(l.value);
  CHECK(any_contains(l.errors, {"config.json", "not valid JSON"}));
  REQUIRE_NOTHROW(l = parse_model_config("[]", k_file));
  CHECK_FALSE(l.value);
  CHECK(any_contains(l.errors, {"config.json", "expected a JSON object"}));
}

}  // namespace unit_load_config
