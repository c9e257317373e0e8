// Hostile inputs (issue 5): the input limits, and every fuzz finding as a regression case.
#include <catch2/catch.hpp>

#include "roofline/cli/layer.hpp"
#include "roofline/inputs/load.hpp"
#include "unit/test_helpers.hpp"

namespace unit_hostile_inputs {
using namespace roofline::cli;
using roofline::test::any_contains;

namespace {

std::string nested(std::size_t depth) {
  return std::string(depth, '[') + std::string(depth, ']');
}

std::string topn_with(std::size_t entries) {
  std::string s = R"({"top_kernels": [)";
  for (std::size_t i = 0; i < entries; ++i) {
    if (i > 0) s.append(",");
    s.append(R"({"name": "k)").append(std::to_string(i)).append(R"(", "pct_gpu_time": 10})");
  }
  s.append("]}");
  return s;
}

}  // namespace

TEST_CASE("limits: the Top-N entry cap keeps the first entries and names the option",
          "[hostile][limits]") {
  InputLimits limits;
  limits.max_entries = 2;
  auto loaded = parse_topn(topn_with(5), "t.json", limits);
  REQUIRE(loaded.value);
  REQUIRE(loaded.value->entries.size() == 2);
  CHECK(loaded.value->entries[1].name == "k1");
  CHECK(any_contains(loaded.errors, {"t.json", "5 entries", "first 2", "--max-topn-entries"}));
  auto all = parse_topn(topn_with(5), "t.json");
  CHECK(all.value->entries.size() == 5);
  CHECK(all.errors.empty());
}

TEST_CASE("limits: the nesting cap is exact and configurable for every JSON loader",
          "[hostile][limits]") {
  InputLimits limits;
  limits.max_depth = 4;  // the object plus three array levels
  const std::string at_limit = R"({"gfx": "gfx950", "x": )" + nested(3) + "}";
  const std::string over = R"({"gfx": "gfx950", "x": )" + nested(4) + "}";
  CHECK(parse_env_report(at_limit, "e.json", limits).value);
  auto refused = parse_env_report(over, "e.json", limits);
  CHECK_FALSE(refused.value);
  CHECK(any_contains(refused.errors, {"e.json", "deeper than 4", "--max-json-depth"}));
  CHECK_FALSE(parse_model_config(over, "c.json", limits).value);
  CHECK_FALSE(parse_topn(over, "t.json", limits).value);
  CHECK(parse_topn(over, "t.json").value);  // default limit 256
}

TEST_CASE("limits: 100000-deep nesting is refused by every parser without recursion",
          "[hostile][limits]") {
  const std::string deep = nested(100000);
  CHECK(any_contains(parse_topn(deep, "t.json").errors, {"nested deeper than 256"}));
  CHECK(any_contains(parse_env_report(deep, "e.json").errors, {"nested deeper than 256"}));
  CHECK(any_contains(parse_model_config(deep, "c.json").errors, {"nested deeper than 256"}));
  auto peaks = parse_peaks_md("```yaml\ngfx: gfx950\nflops: " + deep + "\n```\n", "p.md");
  REQUIRE(peaks.value);
  CHECK(peaks.value->sections.empty());
  CHECK(any_contains(peaks.errors, {"p.md:1", "nested deeper than 256", "skipped"}));
}

TEST_CASE("limits: sizes are described in the unit the option takes", "[hostile][limits]") {
  CHECK(describe_size(256u * 1024u * 1024u) == "256 MiB");
  CHECK(describe_size(64u * 1024u) == "64 KiB");
  CHECK(describe_size(2048u * 1024u * 1024u) == "2 GiB");
  CHECK(describe_size(1000) == "1000 bytes");
}

// Fuzz finding (fuzz_config, UBSan float-cast-overflow): a layer count, decoder_sparse_step,
// moe_layer_freq or first_k_dense_replace beyond the range of `long` was cast to long.
// Regression inputs: tests/fuzz/regressions/config/ubsan-*.json.
TEST_CASE("fuzz regression: absurd layer counts and strides in config.json are reported, not cast",
          "[hostile][config]") {
  auto huge_layers = parse_model_config(
      R"({"num_hidden_layers": 1e300, "num_experts": 8, "decoder_sparse_step": 2})", "c.json");
  REQUIRE(huge_layers.value);
  CHECK_FALSE(huge_layers.value->moe_layers);
  CHECK(any_contains(huge_layers.errors, {"c.json", "num_hidden_layers", "implausible"}));

  auto huge_freq = parse_model_config(R"({"num_hidden_layers": 40, "num_experts": 8,
      "moe_layer_freq": 1e300, "first_k_dense_replace": 1e300})",
                                      "c.json");
  REQUIRE(huge_freq.value);
  REQUIRE(huge_freq.value->moe_layers);
  CHECK(*huge_freq.value->moe_layers == 0.0);  // every layer is in the dense prefix

  auto huge_step = parse_model_config(R"({"num_hidden_layers": 40, "num_experts": 8,
      "decoder_sparse_step": 1e300, "mlp_only_layers": [1]})",
                                      "c.json");
  REQUIRE(huge_step.value);
  REQUIRE(huge_step.value->moe_layers);
  CHECK(*huge_step.value->moe_layers == 0.0);  // no layer index reaches the stride

  auto normal = parse_model_config(
      R"({"num_hidden_layers": 40, "num_experts": 8, "decoder_sparse_step": 2})", "c.json");
  REQUIRE(normal.value->moe_layers);
  CHECK(*normal.value->moe_layers == 20.0);
}

}  // namespace unit_hostile_inputs
