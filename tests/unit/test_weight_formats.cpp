// Weight formats (docs/method.md §8.6): bytes per element with block scales, what stays
// unquantized, and the precedence between the entry's dtypes and quantization_config.
#include <catch2/catch.hpp>

#include "roofline/cli/layer.hpp"
#include "roofline/inputs/load.hpp"
#include "unit/test_helpers.hpp"

namespace unit_weight_formats {
using namespace roofline::cli;
using roofline::test::any_contains;
using roofline::test::rel;

namespace {

ModelConfig cfg(const std::string& quant) {
  auto l = parse_model_config(
      R"({"torch_dtype": "bfloat16", "quantization_config": )" + quant + "}", "config.json");
  REQUIRE(l.value);
  return *l.value;
}

}  // namespace

TEST_CASE("weight formats: bytes per element, scales included", "[config][quant]") {
  CHECK(cfg(R"({"quant_method": "fp8"})").quant_weight_bytes.value() == rel(1.0));
  const ModelConfig block = cfg(R"({"quant_method": "fp8", "weight_block_size": [128, 128]})");
  CHECK(block.quant_weight_bytes.value() == rel(1.0 + 4.0 / 16384));
  CHECK(block.quant_weight_key == DtypeKey::fp8);
  CHECK(block.quant_rule.find("block scales") != std::string::npos);
  const ModelConfig mx = cfg(R"({"quant_method": "mxfp4"})");
  CHECK(mx.quant_weight_bytes.value() == rel(0.53125));
  CHECK(mx.quant_weight_key == DtypeKey::fp4);
  CHECK(mx.quant_bits.value() == rel(4));
  CHECK(cfg(R"({"quant_method": "modelopt", "quant_algo": "NVFP4"})").quant_weight_bytes.value() ==
        rel(0.5625));
  CHECK(cfg(R"({"quant_method": "modelopt", "quant_algo": "FP8"})").quant_weight_bytes.value() ==
        rel(1.0));
  // GPTQ/AWQ int4 with group g: 0.5 + 2/g (fp16 scale) + 0.5/g (packed zero).
  const ModelConfig gptq = cfg(R"({"quant_method": "gptq", "bits": 4, "group_size": 128})");
  CHECK(gptq.quant_weight_bytes.value() == rel(0.5 + 2.0 / 128 + 0.5 / 128));
  CHECK(gptq.quant_weight_key == DtypeKey::int4);
  CHECK(cfg(R"({"quant_method": "awq", "w_bit": 4, "q_group_size": 64})")
            .quant_weight_bytes.value() == rel(0.5 + 2.0 / 64 + 0.5 / 64));
  // compressed-tensors: nvfp4 groups of 16, fp8 blocks, int4 groups.
  CHECK(cfg(R"({"quant_method": "compressed-tensors", "format": "nvfp4-pack-quantized",
      "config_groups": {"group_0": {"weights": {"num_bits": 4, "type": "float", "group_size": 16}}}})")
            .quant_weight_bytes.value() == rel(0.5625));
  CHECK(cfg(R"({"quant_method": "compressed-tensors", "config_groups": {"group_0": {"weights":
      {"num_bits": 8, "type": "float", "strategy": "block", "block_structure": [128, 128]}}}})")
            .quant_weight_bytes.value() == rel(1.0 + 4.0 / 16384));
  CHECK(cfg(R"({"quant_method": "compressed-tensors", "config_groups": {"group_0": {"weights":
      {"num_bits": 4, "type": "int", "group_size": 128}}}})")
            .quant_weight_bytes.value() == rel(0.5 + 2.0 / 128 + 0.5 / 128));
}

TEST_CASE("weight formats: modules_to_not_convert / ignore / ignored_layers are kept",
          "[config][quant]") {
  const ModelConfig a = cfg(R"({"quant_method": "mxfp4", "modules_to_not_convert":
      ["model.layers.*.self_attn", "lm_head"]})");
  CHECK(a.unquantized_modules == std::vector<std::string>{"model.layers.*.self_attn", "lm_head"});
  CHECK(a.unquantized_key == "quantization_config.modules_to_not_convert");
  CHECK(cfg(R"({"quant_method": "compressed-tensors", "ignore": ["lm_head"]})").unquantized_key ==
        "quantization_config.ignore");
  CHECK(cfg(R"({"quant_method": "fp8", "ignored_layers": ["mlp.gate"]})").unquantized_modules ==
        std::vector<std::string>{"mlp.gate"});
}

namespace {

// gpt-oss-20b-like: mxfp4 experts, attention / router / lm_head in the model dtype.
struct Quant : roofline::test::ModelCase {
  Quant() {
    config.hidden = 2880;
    config.n_heads = 64;
    config.n_kv_heads = 8;
    config.head_dim = 64;
    config.experts = 32;
    config.vocab = 201088;
    config.quant_method = "mxfp4";
    config.quant_weight_bytes = 0.53125;
    config.quant_weight_key = DtypeKey::fp4;
    config.quant_bits = 4;
    config.quant_rule = "mxfp4";
    config.unquantized_modules = {"model.layers.*.self_attn", "model.layers.*.mlp.router",
                                  "lm_head"};
    config.unquantized_key = "quantization_config.modules_to_not_convert";
    regime.t_ms = 0.05;
    cls.op_class = OpClass::gemm;
  }
  double gemm(std::vector<std::vector<std::int64_t>> shapes, std::string name = "Cijk_x") {
    entry.name = entry.short_name = std::move(name);
    entry.shapes = std::move(shapes);
    entry.dtypes.clear();
    return run().bytes;
  }
};

}  // namespace

TEST_CASE("weight formats: unquantized roles by name, then by shape", "[model][quant]") {
  Quant q;
  const double M = 64, H = 2880;
  auto bytes = [&](double N, double K, double w) { return M * K * 2 + K * N * w + M * N * 2; };
  // qkv by shape: N = (64 + 2·8)·64 = 5120 → bf16.
  CHECK(q.gemm({{64, 2880}, {5120, 2880}}) == rel(bytes(5120, H, 2)));
  // Router by shape: N = experts, K = hidden.
  CHECK(q.gemm({{64, 2880}, {32, 2880}}) == rel(bytes(32, H, 2)));
  // lm_head by shape (N = vocab) and by name.
  CHECK(q.gemm({{64, 2880}, {201088, 2880}}) == rel(bytes(201088, H, 2)));
  CHECK(q.gemm({{64, 2880}, {1000, 2880}}, "lm_head_gemm") == rel(bytes(1000, H, 2)));
  // o_proj by shape: K = n_q·hd = 4096 ≠ hidden, N = hidden.
  CHECK(q.gemm({{64, 4096}, {2880, 4096}}) == rel(bytes(2880, 4096, 2)));
  // Any other GEMM keeps the quantized width.
  CHECK(q.gemm({{64, 2880}, {7000, 2880}}) == rel(bytes(7000, H, 0.53125)));
  // A role the list does not cover stays quantized.
  q.config.unquantized_modules = {"lm_head"};
  CHECK(q.gemm({{64, 2880}, {5120, 2880}}) == rel(bytes(5120, H, 0.53125)));
  // o_proj is not recognised by shape when n_q·hd/tp == hidden (it looks like any H×H GEMM).
  q.config.unquantized_modules = {"self_attn"};
  q.config.head_dim = 45;  // 64·45 = 2880 = hidden
  CHECK(q.gemm({{64, 2880}, {2880, 2880}}) == rel(bytes(2880, H, 0.53125)));
}

TEST_CASE("weight formats: entry dtypes vs quantization_config", "[model][quant]") {
  Quant q;
  q.cls.op_class = OpClass::moe;
  q.config.top_k = 4;
  q.config.moe_intermediate = 2880;
  q.entry.name = q.entry.short_name = "fused_moe_kernel";
  q.entry.shapes = {{64, 2880}, {32, 5760, 1440}, {64, 4}};
  SECTION("a uint8 container never overrides a 4-bit quant_method") {
    q.entry.dtypes = {"torch.bfloat16", "torch.uint8", "torch.int32"};
    WorkEstimate w = q.run();
    CHECK(w.moe->weight_bytes_per_elem == rel(0.53125));
    CHECK(any_contains(w.notes, {"integer container"}));
  }
  SECTION("a float entry dtype wins; matching fp8 takes the config's block scales") {
    q.entry.dtypes = {"torch.bfloat16", "torch.bfloat16", "torch.int32"};
    CHECK(q.run().moe->weight_bytes_per_elem == rel(2.0));
    q.config.quant_method = "fp8";
    q.config.quant_weight_key = DtypeKey::fp8;
    q.config.quant_weight_bytes = 1.0 + 4.0 / 16384;
    q.config.quant_bits = 8;
    q.entry.dtypes = {"torch.bfloat16", "torch.float8_e4m3fn", "torch.int32"};
    WorkEstimate w = q.run();
    CHECK(w.moe->weight_bytes_per_elem == rel(1.0 + 4.0 / 16384));
    CHECK(w.weight_dtype == DtypeKey::fp8);
    CHECK(w.compute_dtype.key == DtypeKey::bf16);
  }
}

}  // namespace unit_weight_formats
