// Attention from a step's Σ terms (docs/method.md): the two serving fixtures' steps.
#include <catch2/catch.hpp>

#include "roofline/analyze/models/step_attention.hpp"
#include "roofline/cli/layer.hpp"
#include "roofline/inputs/layer_plan.hpp"
#include "unit/test_helpers.hpp"

namespace unit_step_attention {
using namespace roofline::cli;
using roofline::test::contains;
using roofline::test::rel;

TEST_CASE("step_attention: a decode step reduces to the decode model", "[step_attention]") {
  // SGLang Qwen3-8B: 32 requests, Σkv 32 785 (q = 1 each), 8 KV and 32 q heads of 128, bf16.
  const StepSums s{32, 32, 32785, 32.0, 32785.0};
  const AttentionDims d{32, 8, 128, 128, 2, 2};
  std::string missing;
  const auto a = step_attention(s, d, 0.0, missing);
  REQUIRE(a);
  CHECK(a->scores == rel(32785.0));                // Σkv: every new token reads its whole context
  CHECK(a->flops == rel(2.0 * 32 * 256 * 32785));  // 0.537 G, the fixture README's figure
  CHECK(a->kv_bytes == rel(32785.0 * 8 * 256 * 2));  // 134.29 MB
  CHECK(a->qo_bytes == rel(32.0 * 32 * 256 * 2));
  CHECK_FALSE(a->approximate);
  CHECK(contains(a->how, "scores = Σq·kv − Σq²/2 + Σq/2 = 32785 − 32/2 + 32/2 = 32785"));
}

TEST_CASE("step_attention: the vLLM mixed step, full and sliding layers", "[step_attention]") {
  // 9 prefill chunks (Σq 8155, Σkv 8430, Σq² 7 475 785, Σq·kv 7 671 310) and 37 decodes
  // (Σq 37, Σkv 34 489): both parts summed. gpt-oss-20b: 64 q and 8 KV heads of 64.
  const StepSums s{46, 8192, 42919, 7475822.0, 7705799.0};
  const AttentionDims d{64, 8, 64, 64, 2, 2};
  std::string missing;
  const auto full = step_attention(s, d, 0.0, missing);
  REQUIRE(full);
  CHECK(full->scores == rel(7705799.0 - 7475822.0 / 2 + 8192.0 / 2));  // 3 971 984
  CHECK(full->flops == rel(2.0 * 64 * 128 * 3971984.0));
  CHECK(full->kv_bytes == rel(42919.0 * 8 * 128 * 2));
  CHECK(full->qo_bytes == rel(8192.0 * 64 * 128 * 2));
  const auto slide = step_attention(s, d, 128.0, missing);
  REQUIRE(slide);
  CHECK(slide->scores == rel(128.0 * 8192));  // W·Σq bounds it
  CHECK(slide->approximate);
  CHECK(slide->kv_bytes == rel((8192.0 + 46 * 127) * 8 * 128 * 2));  // Σq + R·(W − 1) < Σkv
  // The mean over an alternating plan is the mean of the two.
  LayerPlan plan;
  for (int i = 0; i < 24; ++i)
    plan.layers.push_back({i % 2 ? Mixer::full : Mixer::sliding, i % 2 ? 0.0 : 128.0, Ffn::moe});
  const auto mean = step_attention_mean(s, d, plan, missing);
  REQUIRE(mean);
  CHECK(mean->flops == rel((full->flops + slide->flops) / 2));
  CHECK(mean->bytes() == rel((full->bytes() + slide->bytes()) / 2));
  CHECK(contains(mean->how, "mean over 24 layers"));
}

TEST_CASE("step_attention: the short spellings carry no Σq·kv", "[step_attention]") {
  std::string missing;
  CHECK_FALSE(step_attention(StepSums{2, 6144, 6144, std::nullopt, std::nullopt},
                             AttentionDims{32, 8, 128, 128, 2, 2}, 0.0, missing));
  CHECK(contains(missing, "Σq²"));
}

}  // namespace unit_step_attention
