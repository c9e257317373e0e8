// The config held against the trace (docs/method.md §23.6): the GEMM shapes of the SGLang Qwen3-8B
// decode trace (tests/fixtures/serving/sglang_qwen3_8b_decode_mi300x, its Top-N's `aten::mm`
// signatures) against the Qwen3-8B and gpt-oss-20b configs of the zoo (../shared/zoo).
#include <catch2/catch.hpp>

#include "roofline/analyze/steps/check_config.hpp"
#include "roofline/cli/layer.hpp"

namespace unit_config_check {
using namespace roofline::cli;

namespace {

TopnEntry mm(std::vector<std::vector<std::int64_t>> dims) {
  TopnEntry e;
  e.op = "aten::mm";
  e.signatures = {dims};
  e.shapes = dims;
  e.dtypes = {"c10::BFloat16"};
  e.dtypes_are_set = true;
  return e;
}

// The five GEMM signatures the Top-N of the SGLang Qwen3-8B decode step records (batch 32).
TopnDocument qwen3_8b_trace() {
  TopnDocument t;
  t.entries = {mm({{32, 4096}, {4096, 24576}}), mm({{32, 12288}, {12288, 4096}}),
               mm({{32, 4096}, {4096, 6144}}), mm({{32, 4096}, {4096, 4096}}),
               mm({{32, 4096}, {4096, 151936}})};
  TopnEntry attn;  // an op the table lacks is no evidence
  attn.op = "sglang_profiler::attention_paged_attention_ragged_100";
  attn.shapes = {{32, 32, 128}};
  t.entries.push_back(attn);
  return t;
}

ModelConfig gpt_oss_20b() {
  ModelConfig c;
  c.hidden = 2880;
  c.n_heads = 64;
  c.n_kv_heads = 8;
  c.head_dim = 64;
  c.intermediate = 2880;
  c.moe_intermediate = 2880;
  c.experts = 32;
  c.top_k = 4;
  c.vocab = 201088;
  return c;
}

ModelConfig qwen3_8b() {
  ModelConfig c;
  c.hidden = 4096;
  c.n_heads = 32;
  c.n_kv_heads = 8;
  c.head_dim = 128;
  c.intermediate = 12288;
  c.vocab = 151936;
  return c;
}

}  // namespace

TEST_CASE("config check: the Qwen3-8B trace under the gpt-oss-20b config is a mismatch",
          "[config_check]") {
  const ConfigCheck c = check_config(qwen3_8b_trace(), gpt_oss_20b(), 1.0);
  CHECK(c.contradicts);
  CHECK(c.trace_gemms.size() == 5);
  CHECK_THAT(c.text, Catch::Contains("the config does not match this trace"));
  CHECK_THAT(c.text, Catch::Contains("4096×24576"));     // the trace's gate_up
  CHECK_THAT(c.text, Catch::Contains("qkv 2880×5120"));  // the config's fused qkv
}

TEST_CASE("config check: the Qwen3-8B trace under its own config matches", "[config_check]") {
  const ConfigCheck c = check_config(qwen3_8b_trace(), qwen3_8b(), 1.0);
  CHECK_FALSE(c.contradicts);
  CHECK(c.text.empty());
  for (bool m : c.matched) CHECK(m);  // gate_up, down, qkv, o, lm_head
}

TEST_CASE("config check: padding and tensor parallelism count as matches", "[config_check]") {
  TopnDocument t;
  // gpt-oss at TP 2: qkv (64 + 16)·64 / 2 = 2560 with the hidden padded 2880 -> 3072
  t.entries = {mm({{8, 3072}, {3072, 2560}}), mm({{8, 2048}, {2048, 2880}})};
  const ConfigCheck c = check_config(t, gpt_oss_20b(), 2.0);
  CHECK_FALSE(c.contradicts);
  CHECK(c.matched == std::vector<bool>{true, true});
}

TEST_CASE("config check: one GEMM shape is not enough evidence", "[config_check]") {
  TopnDocument t;
  t.entries = {mm({{8, 1000}, {1000, 3000}})};
  CHECK_FALSE(check_config(t, qwen3_8b(), 1.0).contradicts);
}

}  // namespace unit_config_check
