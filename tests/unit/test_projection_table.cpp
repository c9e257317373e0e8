// The projection table of every layer type a config declares (docs/method.md §22.4): each zoo
// config's projections with their dims, and the parameter count they imply, held against the
// count its publisher gives (within 1 %). The configs are read from the golden cases that copy
// them verbatim from ../shared/zoo/.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "roofline/analyze/models/projection_plan.hpp"
#include "roofline/cli/layer.hpp"
#include "roofline/inputs/load.hpp"
#include "unit/test_helpers.hpp"

namespace unit_projection_table {
using namespace roofline::cli;
using roofline::test::rel;

namespace {

ModelConfig zoo(const std::string& golden_case) {
  const std::string file = "tests/golden/" + golden_case + "/input/config.json";
  std::ifstream in(std::string(ROOFLINE_SOURCE_DIR) + "/" + file);
  std::stringstream ss;
  ss << in.rdbuf();
  auto cfg = parse_model_config(ss.str(), file);
  REQUIRE(cfg.value);
  return *cfg.value;
}

// The projection of `kind` in the first variant that has it (the fused one, else the split one:
// MLA's q_a and kv_a) at tp 1.
Projection projection(const ModelConfig& cfg, ProjectionKind kind) {
  const ProjectionPlan plan = projection_plan(cfg, 1.0);
  REQUIRE_FALSE(plan.variants.empty());
  for (const PlanVariant& v : plan.variants)
    for (const Projection& p : v.projections)
      if (p.kind == kind) return p;
  FAIL("no " << to_string(kind) << " projection in " << plan.description);
  return {};
}

void check(const Projection& p, double n, double k, double per_step) {
  INFO(to_string(p.kind));
  CHECK(p.n == n);
  CHECK(p.k == k);
  CHECK(p.per_step == per_step);
}

// The parameters the config implies, within 1 % of the published count.
void published(const ModelConfig& cfg, double count) {
  const ParameterCount n = parameter_count(cfg);
  CHECK(n.missing.empty());
  CHECK(n.total == rel(count, 0.01));
}

}  // namespace

TEST_CASE("projection table: dense attention and MLP (Llama-3.1-8B, Gemma-3-1B)", "[plan][zoo]") {
  const ModelConfig llama = zoo("zoo_llama31_8b");
  check(projection(llama, ProjectionKind::qkv), (32 + 2 * 8) * 128, 4096, 32);
  check(projection(llama, ProjectionKind::o), 4096, 32 * 128, 32);
  check(projection(llama, ProjectionKind::gate_up), 2 * 14336, 4096, 32);
  check(projection(llama, ProjectionKind::down), 4096, 14336, 32);
  check(projection(llama, ProjectionKind::lm_head), 128256, 4096, 1);
  // huggingface.co/meta-llama/Llama-3.1-8B: 8.03B parameters (its safetensors).
  published(llama, 8.03e9);
  const ModelConfig gemma = zoo("zoo_gemma3_1b");
  CHECK(gemma.tie_word_embeddings);  // HF's default: lm_head is the embedding
  check(projection(gemma, ProjectionKind::qkv), (4 + 2 * 1) * 256, 1152, 26);
  // Gemma 3 technical report, Table 1: 1B = 302M embedding + 698M non-embedding parameters.
  const ParameterCount g = parameter_count(gemma);
  CHECK(g.parts.at(0).second == rel(698e6, 0.01));  // the projections
  published(gemma, 1.0e9);
}

TEST_CASE("projection table: MoE with and without shared experts", "[plan][zoo]") {
  const ModelConfig qwen = zoo("zoo_qwen3_30b_a3b");
  check(projection(qwen, ProjectionKind::router), 128, 2048, 48);
  // Qwen3-30B-A3B model card: 30.5B parameters in total, 3.3B activated.
  published(qwen, 30.5e9);
  // Mistral AI, "Mixtral of experts": 46.7B total parameters.
  published(zoo("zoo_mixtral_8x7b"), 46.7e9);
  // OpenAI, gpt-oss model card: gpt-oss-20b has 21B parameters (3.6B active).
  published(zoo("zoo_gpt_oss_20b"), 21e9);
  // Llama 4: one shared expert as wide as a routed one beside the routed experts of every MoE
  // layer. Its published 109B counts the vision encoder, which this config does not describe.
  const ModelConfig scout = zoo("zoo_llama4_scout");
  check(projection(scout, ProjectionKind::shared_gate_up), 2 * 8192, 5120, 48);
  check(projection(scout, ProjectionKind::shared_down), 5120, 8192, 48);
  // DeepSeek-V3.2: MLA's low-rank projections, three dense layers, then 58 MoE layers with one
  // shared expert. DeepSeek-V3 technical report: 671B total, 37B activated (V3.2 keeps the
  // architecture and adds a small indexer).
  const ModelConfig ds = zoo("zoo_deepseek_v32");
  check(projection(ds, ProjectionKind::q_a), 1536, 7168, 61);
  check(projection(ds, ProjectionKind::q_b), 128 * (128 + 64), 1536, 61);
  check(projection(ds, ProjectionKind::kv_a), 512 + 64, 7168, 61);
  check(projection(ds, ProjectionKind::kv_b), 128 * (128 + 128), 512, 61);
  check(projection(ds, ProjectionKind::gate_up), 2 * 18432, 7168, 3);
  check(projection(ds, ProjectionKind::shared_gate_up), 2 * 2048, 7168, 58);
  published(ds, 671e9);
}

TEST_CASE("projection table: gated attention and Gated DeltaNet (Qwen3-Next-80B-A3B)",
          "[plan][zoo]") {
  const ModelConfig cfg = zoo("zoo_qwen3_next_80b");
  CHECK(cfg.attn_output_gate);
  CHECK_THAT(cfg.attn_output_gate_rule, Catch::Contains("qwen3_next"));
  // 12 full-attention layers: q and its gate (2·16 heads), 2 KV heads, head_dim 256.
  check(projection(cfg, ProjectionKind::qkv), (2 * 16 + 2 * 2) * 256, 2048, 12);
  check(projection(cfg, ProjectionKind::o), 2048, 16 * 256, 12);
  // 36 linear-attention layers: 16 key heads and 32 value heads of 128.
  check(projection(cfg, ProjectionKind::la_qkvz), 2 * 16 * 128 + 2 * 32 * 128, 2048, 36);
  check(projection(cfg, ProjectionKind::la_ba), 2 * 32, 2048, 36);
  check(projection(cfg, ProjectionKind::la_out), 2048, 32 * 128, 36);
  check(projection(cfg, ProjectionKind::shared_gate_up), 2 * 512, 2048, 48);
  CHECK(projection_label(ProjectionKind::la_qkvz) == "in_proj_qkvz");
  // Qwen3-Next-80B-A3B model card: 80B parameters in total, 3B activated.
  published(cfg, 80e9);
  // At TP 4 the heads split across ranks.
  const ProjectionPlan tp4 = projection_plan(cfg, 4.0);
  for (const Projection& p : tp4.variants.front().projections)
    if (p.kind == ProjectionKind::la_qkvz) CHECK(p.n == 12288 / 4);
}

TEST_CASE("projection table: Mamba mixers (Nemotron-H-56B, Jamba-1.5-Mini, Falcon-H1-7B)",
          "[plan][zoo]") {
  // Nemotron-H: 54 Mamba-2 layers (256 heads of 64, 8 groups, d_state 256), 10 attention
  // layers, 54 squared-ReLU MLPs.
  const ModelConfig nemo = zoo("zoo_nemotron_h_56b");
  check(projection(nemo, ProjectionKind::ssm_in), 2 * 16384 + 2 * 8 * 256 + 256, 8192, 54);
  check(projection(nemo, ProjectionKind::ssm_out), 8192, 16384, 54);
  check(projection(nemo, ProjectionKind::up), 32768, 8192, 54);
  // Nemotron-H-56B-Base-8K model card: 56B model parameters.
  published(nemo, 56e9);
  // Jamba: 28 Mamba-1 layers (d_inner 8192, d_state 16, dt_rank 256), 4 attention layers, MoE
  // on every other layer.
  const ModelConfig jamba = zoo("zoo_jamba_15_mini");
  check(projection(jamba, ProjectionKind::ssm_in), 2 * 8192, 4096, 28);
  check(projection(jamba, ProjectionKind::ssm_x), 256 + 2 * 16, 8192, 28);
  check(projection(jamba, ProjectionKind::ssm_dt), 8192, 256, 28);
  check(projection(jamba, ProjectionKind::ssm_out), 4096, 8192, 28);
  // Jamba-1.5 (arXiv 2408.12570): Jamba-1.5-Mini, 12B active of 52B total parameters.
  published(jamba, 52e9);
  // Falcon-H1: attention and a Mamba-2 mixer side by side in each of its 44 layers.
  const ModelConfig falcon = zoo("zoo_falcon_h1_7b");
  check(projection(falcon, ProjectionKind::ssm_in), 2 * 3072 + 2 * 1 * 256 + 24, 3072, 44);
  check(projection(falcon, ProjectionKind::qkv), 2048, 3072, 44);
  CHECK(parameter_count(falcon).missing.empty());  // no count found published to hold it to
}

}  // namespace unit_projection_table
