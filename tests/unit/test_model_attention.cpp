// Stage 4, attention (docs/method.md §8): GQA decode, MLA decode with index_topk, causal prefill.
#include <catch2/catch.hpp>

#include "roofline/cli/layer.hpp"
#include "unit/test_helpers.hpp"

namespace unit_model_attention {
using namespace roofline::cli;
using roofline::test::detail_of;
using roofline::test::gfx950_peaks;
using roofline::test::rel;

namespace {

struct Attn : roofline::test::ModelCase {
  Attn() {
    // kernel_paged_attention_2d of docs/method.md §20: Qwen3.5 attention, 16 q / 2 KV heads,
    // head_dim 256.
    env.kv_cache_dtype = "auto";
    config.layers = 40;
    config.hidden = 2048;
    config.n_heads = 16;
    config.n_kv_heads = 2;
    config.head_dim = 256;
    config.full_attention_layers = 10;
    config.dtype = "bfloat16";
    entry.name = entry.short_name = "kernel_paged_attention_2d";
    entry.pct_gpu_time = 8.86;
    entry.shapes = {{64, 16, 256}, {8192, 16, 2, 256}, {8192, 16, 2, 256}};
    entry.dtypes = {"torch.bfloat16", "torch.bfloat16", "torch.bfloat16"};
    regime.t_ms = 0.141112;
    regime.launches_per_step = 10;
    cls.op_class = OpClass::attn;
    cls.detail = detail_of(OpClass::attn, "decode");
  }
  void deepseek_mla() {
    config = ModelConfig{};
    config.layers = 61;
    config.hidden = 7168;
    config.n_heads = 128;
    config.n_kv_heads = 128;
    config.head_dim = 56;  // hidden / heads: must not be used by the MLA model
    config.kv_lora_rank = 512;
    config.qk_rope_head_dim = 64;
    config.qk_nope_head_dim = 128;
    config.v_head_dim = 128;
    config.dtype = "bfloat16";
    entry.name = entry.short_name = "mla_decode_fwd_kernel";
    entry.shapes.clear();
    entry.dtypes = {"torch.bfloat16"};
    cls.detail = detail_of(OpClass::attn, "mla_decode");
  }
};

}  // namespace

TEST_CASE("model_work attention: GQA decode of SPEC §11", "[model][attn]") {
  Attn x;
  WorkEstimate w = x.run();
  REQUIRE(w.modeled);
  const double B = 64, S = 1024 + 1024 / 2.0, n_kv = 2, n_q = 16, hd = 256, kv = 2;
  CHECK(S == 1536);
  CHECK(w.bytes == rel(B * S * n_kv * hd * 2 * kv));
  CHECK(w.bytes == rel(201326592.0));
  CHECK(w.flops == rel(2 * B * n_q * S * hd * 2));
  CHECK(w.kv_bytes == rel(w.bytes));
  CHECK(w.t_unit_ms == rel(0.141112));
  CHECK(w.unit_launches == rel(1));
}

TEST_CASE("model_work attention: an fp8 KV cache halves the bytes", "[model][attn]") {
  Attn x;
  x.env.kv_cache_dtype = "fp8_e4m3";
  WorkEstimate w = x.run();
  REQUIRE(w.modeled);
  CHECK(w.bytes == rel(64.0 * 1536 * 2 * 256 * 2 * 1));
  CHECK(w.kv_dtype == DtypeKey::fp8);
}

TEST_CASE("model_work attention: per-rank heads under TP, KV heads at least 1", "[model][attn]") {
  Attn x;  // Llama-3-70B-like: 64 q heads, 8 KV heads, head_dim 128
  x.config.n_heads = 64;
  x.config.n_kv_heads = 8;
  x.config.head_dim = 128;
  const double B = 64, S = 1536, hd = 128;
  SECTION("tp 4: 16 q heads, 2 KV heads") {
    x.env.tp = 4;
    WorkEstimate w = x.run();
    CHECK(w.bytes == rel(B * S * 2 * hd * 2 * 2));
    CHECK(w.flops == rel(2 * B * 16 * S * hd * 2));
  }
  SECTION("tp 16: 4 q heads, KV heads max(1, 0.5) = 1") {
    x.env.tp = 16;
    WorkEstimate w = x.run();
    CHECK(w.bytes == rel(B * S * 1 * hd * 2 * 2));
    CHECK(w.flops == rel(2 * B * 4 * S * hd * 2));
  }
}

TEST_CASE("model_work attention: MLA decode, latent not sharded by TP", "[model][attn]") {
  Attn x;
  x.deepseek_mla();
  const double B = 64, S = 1536, c = 512 + 64, rank = 512, kv = 2;
  SECTION("tp 1") {
    WorkEstimate w = x.run();
    REQUIRE(w.modeled);
    REQUIRE(w.candidates.size() == 1);
    CHECK(w.bytes == rel(B * S * c * kv));
    CHECK(w.flops == rel(2 * B * 128 * S * (c + rank)));
  }
  SECTION("tp 8: q heads divided, latent bytes not") {
    x.env.tp = 8;
    WorkEstimate w = x.run();
    REQUIRE(w.modeled);
    CHECK(w.bytes == rel(B * S * c * kv));
    CHECK(w.flops == rel(2 * B * 16 * S * (c + rank)));
  }
  SECTION("a plain 'decode' family with kv_lora_rank in the config is MLA") {
    x.cls.detail = detail_of(OpClass::attn, "decode");
    WorkEstimate w = x.run();
    CHECK(w.bytes == rel(B * S * c * kv));
  }
}

TEST_CASE("model_work attention: MLA with index_topk has two candidates", "[model][attn]") {
  Attn x;
  x.deepseek_mla();
  x.config.index_topk = 2048;  // DeepSeek-V3.2 sparse attention
  x.env.workload = roofline::test::workload(8192, 2048, 64);
  const double B = 64, S = 8192 + 1024, c = 576, kv = 2;
  const double full = B * S * c * kv, selected = B * 2048 * c * kv;
  SECTION("both feasible: the full context (largest) is chosen") {
    x.regime.t_ms = 0.1;  // budget 800 MB
    WorkEstimate w = x.run();
    REQUIRE(w.candidates.size() == 2);
    CHECK(w.candidates[0].bytes == rel(full));
    CHECK(w.candidates[1].bytes == rel(selected));
    CHECK(w.bytes == rel(full));
  }
  SECTION("the full context is refuted by the time: the selection is chosen") {
    x.regime.t_ms = 0.05;  // budget 400 MB < 679 MB
    WorkEstimate w = x.run();
    REQUIRE(w.candidates.size() == 2);
    CHECK_FALSE(w.candidates[0].feasible.value());
    CHECK(w.candidates[1].feasible.value());
    CHECK(w.bytes == rel(selected));
    CHECK(w.flops == rel(2 * B * 128 * 2048 * (c + 512)));
  }
  SECTION("index_topk above S: the selection is S") {
    x.config.index_topk = 100000;
    x.regime.t_ms = 0.1;
    WorkEstimate w = x.run();
    REQUIRE(w.candidates.size() == 2);
    CHECK(w.candidates[1].bytes == rel(full));
  }
}

TEST_CASE("model_work attention: causal prefill", "[model][attn]") {
  Attn x;
  x.entry.name = x.entry.short_name = "context_attention_fwd";
  x.cls.detail = detail_of(OpClass::attn, "prefill");
  x.regime.regime = Regime::prefill;
  x.regime.t_ms = 0.9;
  x.entry.est_shape.prefill =
      EstShape{2048, std::nullopt, std::nullopt};  // two sequences of isl 1024
  WorkEstimate w = x.run();
  REQUIRE(w.modeled);
  const double T = 1024, batch = 2, n_q = 16, n_kv = 2, hd = 256, a = 2;
  CHECK(w.flops == rel(2 * 2 * n_q * hd * T * T / 2 * batch));
  const double q = batch * T * n_q * hd * a, k = batch * T * n_kv * hd * a;
  CHECK(w.bytes == rel(q + k + k + q));
}

TEST_CASE("model_work attention: missing inputs degrade with a reason", "[model][attn]") {
  Attn x;
  SECTION("no config") {
    WorkEstimate w =
        model_work(x.entry, x.regime, x.cls,
                   ModelContext{&x.env, nullptr, "config.json could not be read", &x.peaks});
    CHECK_FALSE(w.modeled);
    CHECK(w.unmodeled_reason.find("config.json") != std::string::npos);
  }
  SECTION("no osl: S unknown") {
    x.env.workload.osl.reset();
    WorkEstimate w = x.run();
    CHECK_FALSE(w.modeled);
    CHECK(w.unmodeled_reason.find("osl") != std::string::npos);
  }
  SECTION("no attention heads") {
    x.config.n_heads.reset();
    WorkEstimate w = x.run();
    CHECK_FALSE(w.modeled);
    CHECK(w.unmodeled_reason.find("num_attention_heads") != std::string::npos);
  }
}

namespace {

LayerPlan windowed(int full, int windowed_layers, Mixer kind, double window) {
  LayerPlan p;
  for (int i = 0; i < windowed_layers; ++i) p.layers.push_back({kind, window, Ffn::moe});
  for (int i = 0; i < full; ++i) p.layers.push_back({Mixer::full, 0.0, Ffn::moe});
  return p;
}

}  // namespace

TEST_CASE("model_work attention: one kernel over sliding and full layers reads the mean tokens",
          "[model][attn][window]") {
  Attn x;  // S = 1536, B = 64, n_kv 2, head_dim 256
  x.config.plan = windowed(12, 12, Mixer::sliding, 128);
  WorkEstimate w = x.run();
  const double mean = (12.0 * 1536 + 12.0 * 128) / 24;
  CHECK(mean == rel(832));
  CHECK(w.bytes == rel(64 * mean * 2 * 256 * 2 * 2));
  CHECK(w.flops == rel(2.0 * 64 * 16 * mean * 256 * 2));
  CHECK(roofline::test::any_contains(w.notes, {"mean tokens 832 = (12·1536 + 12·128)/24"}));
  // A window wider than the context reads the whole context.
  x.config.plan = windowed(12, 12, Mixer::sliding, 4096);
  CHECK(x.run().bytes == rel(64.0 * 1536 * 2 * 256 * 2 * 2));
}

TEST_CASE("model_work attention: chunked layers read ((S−1) mod C) + 1 tokens",
          "[model][attn][window]") {
  Attn x;
  x.env.workload = roofline::test::workload(16384, 2048, 64);  // S = 17408
  x.config.plan = windowed(12, 36, Mixer::chunked, 8192);
  const double chunk_tokens = (17408 - 1) % 8192 + 1;  // 1024
  const double mean = (36 * chunk_tokens + 12 * 17408.0) / 48;
  CHECK(mean == rel(5120));
  CHECK(x.run().bytes == rel(64 * mean * 2 * 256 * 2 * 2));
  // S a multiple of C: the chunk is full.
  x.env.workload = roofline::test::workload(8192, 0, 64);
  CHECK(x.run().bytes == rel(64 * 8192.0 * 2 * 256 * 2 * 2));
}

TEST_CASE("model_work attention: prefill FLOPs follow the windows", "[model][attn][window]") {
  Attn x;
  x.regime.regime = Regime::prefill;
  x.cls.detail = detail_of(OpClass::attn, "prefill");
  x.entry.est_shape.prefill = EstShape{1024, std::nullopt, std::nullopt};  // T = 1024
  const double full_flops = x.run().flops;
  CHECK(full_flops == rel(2.0 * 16 * 1024.0 * 1024 / 2 * 512));
  x.config.plan = windowed(1, 1, Mixer::sliding, 128);
  // sliding: W²/2 + (T − W)·W pairs; full: T²/2; mean of the two.
  const double pairs = (128.0 * 128 / 2 + (1024 - 128) * 128.0 + 1024.0 * 1024 / 2) / 2;
  CHECK(x.run().flops == rel(2.0 * 16 * pairs * 512));
}

TEST_CASE("model_work attention: the DeepSeek-V3.2 indexer (MODELS §7)", "[model][attn]") {
  Attn x;
  x.deepseek_mla();
  x.config.index_head_dim = 128;
  x.config.index_n_heads = 64;
  x.config.index_topk = 2048;
  x.env.tp = 8;  // the index key cache is one head, not sharded
  x.env.workload = roofline::test::workload(8192, 1024, 64);
  x.cls.detail = detail_of(OpClass::attn, "indexer");
  x.entry.name = "fp8_paged_mqa_logits_kernel";
  x.entry.dtypes = {"torch.float8_e4m3fn", "torch.uint8"};
  x.regime.t_ms = 0.02;
  const double B = 64, S = 8704, d = 128, h = 64;
  WorkEstimate w = x.run();
  REQUIRE(w.modeled);
  CHECK(w.bytes == rel(B * S * d * (1 + 4.0 / 128) + B * S * 4));
  CHECK(w.flops == rel(2 * B * h * S * d));
  CHECK(w.compute_dtype.key == DtypeKey::fp8);
  x.entry.dtypes = {"torch.bfloat16"};
  CHECK(x.run().bytes == rel(B * S * d * 2 + B * S * 4));
  x.config.index_head_dim.reset();
  CHECK(x.run().unmodeled_reason.find("index_head_dim") != std::string::npos);
}

}  // namespace unit_model_attention
