// Stage 4, elementwise / norm / quant / memory (docs/method.md §8): bytes = inputs + outputs, flops
// ≈ elements.
#include <catch2/catch.hpp>

#include "roofline/cli/layer.hpp"
#include "unit/test_helpers.hpp"

namespace unit_model_elementwise {
using namespace roofline::cli;
using roofline::test::detail_of;
using roofline::test::gfx950_peaks;
using roofline::test::rel;

namespace {

struct Elem : roofline::test::ModelCase {
  Elem() {
    config.hidden = 2048;
    config.dtype = "bfloat16";
    entry.pct_gpu_time = 6.0;
    regime.t_ms = 0.0031;
    cls.op_class = OpClass::elementwise;
  }
};

}  // namespace

TEST_CASE("model_work elementwise: RMSNorm from shapes", "[model][elementwise]") {
  Elem x;
  x.entry.name =
      "void vllm::rms_norm_kernel<c10::BFloat16, 8>(c10::BFloat16*, c10::BFloat16 const*, float)";
  x.entry.shapes = {{64, 2048}, {2048}};
  x.entry.dtypes = {"c10::BFloat16", "c10::BFloat16"};
  x.cls.detail = detail_of(OpClass::elementwise, "norm");
  WorkEstimate w = x.run();
  REQUIRE(w.modeled);
  const double in = (64.0 * 2048 + 2048) * 2, out = 64.0 * 2048 * 2;
  CHECK(w.bytes == rel(in + out));
  CHECK(w.flops == rel(64.0 * 2048));
  CHECK_FALSE(w.has_compute_peak_class);  // memory-bound by construction
}

TEST_CASE("model_work elementwise: rows in flight come from est_shape, not the captured shapes",
          "[model][elementwise]") {
  Elem x;
  x.entry.name = "rms_norm_kernel";
  x.entry.shapes = {{8192, 2048}, {2048}};  // captured during a prefill step
  x.entry.dtypes = {"torch.bfloat16", "torch.bfloat16"};
  x.entry.est_shape.decode = EstShape{64, std::nullopt, std::nullopt};
  x.cls.detail = detail_of(OpClass::elementwise, "norm");
  WorkEstimate w = x.run();
  REQUIRE(w.modeled);
  CHECK(w.bytes == rel((64.0 * 2048 + 2048) * 2 + 64.0 * 2048 * 2));
}

TEST_CASE("model_work elementwise: residual add + RMSNorm writes two tensors",
          "[model][elementwise]") {
  Elem x;
  x.entry.name =
      "void vllm::fused_add_rms_norm_kernel<c10::BFloat16, 8>(c10::BFloat16*, c10::BFloat16*, "
      "float)";
  x.entry.shapes = {{64, 2048}, {64, 2048}, {2048}};
  x.entry.dtypes = {"c10::BFloat16", "c10::BFloat16", "c10::BFloat16"};
  x.cls.detail = detail_of(OpClass::elementwise, "add_norm");
  WorkEstimate w = x.run();
  REQUIRE(w.modeled);
  const double in = (2 * 64.0 * 2048 + 2048) * 2, out = 2 * 64.0 * 2048 * 2;
  CHECK(w.bytes == rel(in + out));
}

TEST_CASE("model_work elementwise: fp8 quantization writes 1-byte values", "[model][elementwise]") {
  Elem x;
  x.entry.name = "per_token_group_quant_fp8";
  x.entry.shapes = {{64, 2048}};
  x.entry.dtypes = {"torch.bfloat16"};
  x.cls.detail = detail_of(OpClass::elementwise, "quant");
  WorkEstimate w = x.run();
  REQUIRE(w.modeled);
  CHECK(w.bytes == rel(64.0 * 2048 * 2 + 64.0 * 2048 * 1));
}

TEST_CASE("model_work elementwise: act-and-mul writes half of its input", "[model][elementwise]") {
  Elem x;
  x.entry.name =
      "void vllm::act_and_mul_kernel<c10::BFloat16, &vllm::silu_kernel<c10::BFloat16>, true>";
  x.entry.shapes = {{512, 1024}};
  x.entry.dtypes = {"c10::BFloat16"};
  x.cls.detail = detail_of(OpClass::elementwise, "act_and_mul");
  WorkEstimate w = x.run();
  REQUIRE(w.modeled);
  CHECK(w.bytes == rel(512.0 * 1024 * 2 + 512.0 * 512 * 2));
}

TEST_CASE("model_work elementwise: without shapes, M · hidden at the activation dtype",
          "[model][elementwise]") {
  Elem x;
  x.entry.name = "triton_poi_fused_add_0";
  WorkEstimate w = x.run();
  REQUIRE(w.modeled);
  CHECK(w.bytes == rel(2 * 64.0 * 2048 * 2));  // read + write, bf16 from the config
  CHECK(w.flops == rel(64.0 * 2048));

  x.config.dtype = "float32";
  CHECK(x.run().bytes == rel(2 * 64.0 * 2048 * 4));
}

TEST_CASE("model_work elementwise: no shapes and no hidden size degrades", "[model][elementwise]") {
  Elem x;
  x.entry.name = "triton_poi_fused_add_0";
  x.config.hidden.reset();
  WorkEstimate w = x.run();
  CHECK_FALSE(w.modeled);
  CHECK(w.unmodeled_reason.find("hidden_size") != std::string::npos);

  Elem idx;
  idx.entry.name = "moe_align_block_size_kernel";
  idx.cls.detail = detail_of(OpClass::elementwise, "index");
  WorkEstimate wi = idx.run();
  CHECK_FALSE(wi.modeled);
  CHECK_FALSE(wi.unmodeled_reason.empty());
}

// aten::copy_(self, src) records (destination, source). The H200 trace's 1 GiB device copy
// (`Memcpy DtoD`, shapes [[268435456], [268435456]] float) was billed as three tensors (both
// operands read, one written): 3 GiB, above what 4.8 TB/s moves in its 501 µs.
TEST_CASE("model_work elementwise: a copy reads its source once and writes its destination once",
          "[model][elementwise]") {
  Elem x;
  x.entry.name = "Memcpy DtoD (Device -> Device)";
  x.entry.shapes = {{268435456}, {268435456}};
  x.entry.dtypes = {"float"};
  x.cls.detail = detail_of(OpClass::elementwise, "copy");
  x.regime.t_ms = 0.50103;
  WorkEstimate w = x.run();
  REQUIRE(w.modeled);
  CHECK(w.bytes == rel(2.0 * 268435456 * 4));  // 1 GiB read + 1 GiB written
  CHECK(w.flops == rel(268435456.0));
  CHECK(roofline::test::any_contains(w.notes, {"(destination, source)", "in 1.074 GB"}));

  // A broadcast source is read once at its own size; the destination is written in full.
  x.entry.shapes = {{64, 2048}, {2048}};
  x.entry.dtypes = {"c10::BFloat16", "c10::BFloat16"};
  CHECK(x.run().bytes == rel(2048.0 * 2 + 64.0 * 2048 * 2));
}

TEST_CASE("model_work elementwise: a cast reads the source's dtype and writes the destination's",
          "[model][elementwise]") {
  Elem x;
  x.entry.name = "void at::native::CastFunctor<c10::BFloat16, float>";
  x.entry.shapes = {{64, 128}, {64, 128}};
  x.entry.dtypes = {"c10::BFloat16", "float"};  // destination bf16, source fp32
  x.cls.detail = detail_of(OpClass::elementwise, "cast");
  WorkEstimate w = x.run();
  REQUIRE(w.modeled);
  CHECK(w.bytes == rel(64.0 * 128 * 4 + 64.0 * 128 * 2));
  // One operand (aten::to(self)): read it, write one tensor of its size.
  x.entry.shapes = {{64, 128}};
  x.entry.dtypes = {"float"};
  CHECK(x.run().bytes == rel(2 * 64.0 * 128 * 4));
}

TEST_CASE("model_work elementwise: cat reads the tensors joined and writes their concatenation",
          "[model][elementwise]") {
  Elem x;
  x.entry.name = "void at::native::CatArrayBatchedCopy<c10::BFloat16, unsigned int, 2, 64, 64>";
  x.entry.shapes = {{64, 1024}, {64, 1024}};
  x.entry.dtypes = {"c10::BFloat16"};
  x.cls.detail = detail_of(OpClass::elementwise, "cat");
  WorkEstimate w = x.run();
  REQUIRE(w.modeled);
  CHECK(w.bytes == rel(2 * (2 * 64.0 * 1024 * 2)));
  CHECK(w.flops == rel(2 * 64.0 * 1024));
}

TEST_CASE("model_work elementwise: fill writes its destination, kv_write reads the new K and V",
          "[model][elementwise]") {
  Elem fill;
  fill.entry.name = "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor>";
  fill.entry.shapes = {{128, 8, 2048}};
  fill.entry.dtypes = {"c10::BFloat16"};
  fill.cls.detail = detail_of(OpClass::elementwise, "fill");
  CHECK(fill.run().bytes == rel(128.0 * 8 * 2048 * 2));  // written once, nothing read

  // reshape_and_cache(key, value, key_cache, value_cache, slot_mapping): the sources first.
  Elem kv;
  kv.entry.name = "reshape_and_cache_flash_kernel";
  kv.entry.shapes = {{64, 8, 128}, {64, 8, 128}, {4096, 16, 8, 128}, {4096, 16, 8, 128}, {64}};
  kv.entry.dtypes = {"c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "long"};
  kv.cls.detail = detail_of(OpClass::elementwise, "kv_write");
  CHECK(kv.run().bytes == rel(2 * (2 * 64.0 * 8 * 128 * 2)));  // K and V read, then written
}

}  // namespace unit_model_elementwise
