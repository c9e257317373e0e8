// Stage 4, elementwise / norm / quant / memory (SPEC §4): bytes = inputs + outputs, flops ≈
// elements.
#include <catch2/catch.hpp>

#include "unit/test_helpers.hpp"

using namespace roofline;
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
  x.cls.detail = "norm";
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
  x.cls.detail = "norm";
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
  x.cls.detail = "add_norm";
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
  x.cls.detail = "quant";
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
  x.cls.detail = "act_and_mul";
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
  idx.cls.detail = "index";
  WorkEstimate wi = idx.run();
  CHECK_FALSE(wi.modeled);
  CHECK_FALSE(wi.unmodeled_reason.empty());
}
