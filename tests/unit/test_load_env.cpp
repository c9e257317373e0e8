// load.hpp: parse_env_report (docs/method.md §2.4), normalize_gfx, canonical_product.
#include <catch2/catch.hpp>

#include "roofline/cli/layer.hpp"
#include "roofline/inputs/load.hpp"
#include "unit/test_helpers.hpp"

namespace unit_load_env {
using namespace roofline::cli;
using roofline::test::any_contains;
using roofline::test::rel;

namespace {
const char* const k_file = "env_report.json";
}

TEST_CASE("parse_env_report: the worked-example report", "[load][env]") {
  const char* text = R"({
    "gfx": "gfx950:sramecc+:xnack-", "device_target": "unknown", "device_name": "AMD Instinct MI355X",
    "physical_cu_count": 256, "rocm_version": "7.0.1", "model": "Qwen/Qwen3.5-35B-A3B-FP8",
    "model_arch_class": "moe_hybrid_linear_attention", "model_dtype": "fp8", "kv_cache_dtype": "auto",
    "backend": "vllm", "tp": 1, "workload": {"isl": 1024, "osl": 1024, "conc": 64}})";
  auto loaded = parse_env_report(text, k_file);
  REQUIRE(loaded.value);
  CHECK(loaded.errors.empty());
  const EnvReport& env = *loaded.value;
  CHECK(env.gfx_raw == "gfx950:sramecc+:xnack-");
  CHECK(env.gfx == "gfx950");
  CHECK(env.product.empty());  // "unknown" = no product constraint
  CHECK(env.physical_cu_count.value() == rel(256));
  CHECK(env.model == "Qwen/Qwen3.5-35B-A3B-FP8");
  CHECK(env.model_dtype == "fp8");
  CHECK(env.kv_cache_dtype == "auto");
  CHECK(env.backend == "vllm");
  CHECK(env.tp == rel(1));
  CHECK(env.workload.isl.value() == rel(1024));
  CHECK(env.workload.osl.value() == rel(1024));
  CHECK(env.workload.conc.value() == rel(64));
}

TEST_CASE("parse_env_report: gfx feature suffix stripped from the first colon", "[load][env]") {
  auto loaded = parse_env_report(R"({"gfx": "gfx942:sramecc+:xnack-"})", k_file);
  REQUIRE(loaded.value);
  CHECK(loaded.value->gfx == "gfx942");
  CHECK(normalize_gfx("GFX1201") == "gfx1201");
  CHECK(normalize_gfx(" gfx90a:xnack+ ") == "gfx90a");
  CHECK(normalize_gfx("gfx1250") == "gfx1250");
}

TEST_CASE("parse_env_report: product spellings device_target, device_sku, target, sku",
          "[load][env]") {
  SECTION("device_target string") {
    auto l = parse_env_report(R"({"gfx": "gfx1201", "device_target": "R9700"})", k_file);
    CHECK(l.value->product == "r9700");
    CHECK(l.value->product_raw == "R9700");
  }
  SECTION("device_sku") {
    auto l = parse_env_report(R"({"gfx": "gfx1201", "device_sku": "r9700"})", k_file);
    CHECK(l.value->product == "r9700");
  }
  SECTION("target") {
    auto l = parse_env_report(R"({"gfx": "gfx950", "target": "MI355X"})", k_file);
    CHECK(l.value->product == "mi355x");
  }
  SECTION("sku") {
    auto l = parse_env_report(R"({"gfx": "gfx942", "sku": "MI300X"})", k_file);
    CHECK(l.value->product == "mi300x");
  }
  SECTION("object form") {
    auto l = parse_env_report(
        R"({"device_target": {"gfx": "gfx1201:xnack-", "product": "AMD Radeon AI PRO R9700"}})",
        k_file);
    REQUIRE(l.value);
    CHECK(l.value->gfx == "gfx1201");  // gfx read from inside the object when absent at the top
    CHECK(l.value->product_raw == "AMD Radeon AI PRO R9700");
  }
  SECTION("unknown and none mean no product") {
    for (const char* s : {R"({"gfx": "gfx950", "device_target": "unknown"})",
                          R"({"gfx": "gfx950", "device_target": "Unknown", "sku": "none"})",
                          R"({"gfx": "gfx950"})"}) {
      INFO(s);
      auto l = parse_env_report(s, k_file);
      REQUIRE(l.value);
      CHECK(l.value->product.empty());
    }
  }
  SECTION("a wrong type is an error on that field") {
    auto l = parse_env_report(R"({"gfx": "gfx950", "device_target": 9700})", k_file);
    REQUIRE(l.value);
    CHECK(l.value->product.empty());
    CHECK(any_contains(l.errors, {"env_report.json: device_target:", "expected a product"}));
  }
}

TEST_CASE("canonical_product: known products are found as whole words", "[load][env]") {
  const std::vector<std::string> known{"r9700"};
  CHECK(canonical_product("AMD Radeon AI PRO R9700", known) == "r9700");
  CHECK(canonical_product("r9700", known) == "r9700");
  CHECK(canonical_product("AMD Radeon R97000", known) == "amd radeon r97000");  // not a whole word
  CHECK(canonical_product("unknown", known).empty());
  CHECK(canonical_product("N/A", known).empty());
  CHECK(canonical_product("", known).empty());
  CHECK(canonical_product("MI355X", {}) == "mi355x");
}

TEST_CASE("parse_env_report: tp defaults to 1, a bad tp is reported", "[load][env]") {
  auto none = parse_env_report(R"({"gfx": "gfx950"})", k_file);
  REQUIRE(none.value);
  CHECK(none.value->tp == rel(1));
  CHECK_FALSE(none.value->tp_given);

  auto four =
      parse_env_report(R"({"gfx": "gfx950", "tp": "4"})", k_file);  // quoted numbers accepted
  CHECK(four.value->tp == rel(4));
  CHECK(four.value->tp_given);

  auto zero = parse_env_report(R"({"gfx": "gfx950", "tp": 0})", k_file);
  CHECK(zero.value->tp == rel(1));
  CHECK(any_contains(zero.errors, {"env_report.json: tp:"}));

  auto text = parse_env_report(R"({"gfx": "gfx950", "tp": "eight"})", k_file);
  CHECK(text.value->tp == rel(1));
  CHECK(any_contains(text.errors, {"env_report.json: tp:", "expected a number"}));
}

TEST_CASE("parse_env_report: workload fields, negatives ignored with a message", "[load][env]") {
  auto l = parse_env_report(
      R"({"gfx": "gfx950", "workload": {"isl": -1024, "osl": "1024", "conc": [64]}})", k_file);
  REQUIRE(l.value);
  CHECK_FALSE(l.value->workload.isl);
  CHECK(l.value->workload.osl.value() == rel(1024));
  CHECK_FALSE(l.value->workload.conc);
  CHECK(any_contains(l.errors, {"env_report.json: workload.isl:", "negative"}));
  CHECK(any_contains(l.errors, {"env_report.json: workload.conc:", "expected a number"}));
}

TEST_CASE("parse_env_report: model_path stands in for model", "[load][env]") {
  auto l = parse_env_report(R"({"gfx": "gfx942", "model_path": "/models/Mixtral-8x7B"})", k_file);
  CHECK(l.value->model == "/models/Mixtral-8x7B");
}

TEST_CASE("parse_env_report: device_props for the derived-bandwidth fallback", "[load][env]") {
  auto l = parse_env_report(R"({"gfx": "gfx1250", "device_props": {"memory_clock_rate_khz": 2000000,
      "memory_bus_width_bits": 8192, "multi_processor_count": 256, "clock_rate_khz": "2400000"}})",
                            k_file);
  REQUIRE(l.value);
  const DeviceProps& p = l.value->device_props;
  CHECK(p.memory_clock_rate_khz.value() == rel(2.0e6));
  CHECK(p.memory_bus_width_bits.value() == rel(8192));
  CHECK(p.multi_processor_count.value() == rel(256));
  CHECK(p.clock_rate_khz.value() == rel(2.4e6));
}

TEST_CASE("parse_env_report: broken inputs never throw", "[load][env]") {
  Loaded<EnvReport> l;
  REQUIRE_NOTHROW(l = parse_env_report(R"({"gfx": "gfx950", "workload": {"isl": 10)", k_file));
  CHECK_FALSE(l.value);
  CHECK(any_contains(l.errors, {"env_report.json", "not valid JSON"}));

  REQUIRE_NOTHROW(l = parse_env_report(R"({"gfx": 950, "workload": "1024/1024/64"})", k_file));
  REQUIRE(l.value);
  CHECK(l.value->gfx.empty());
  CHECK(any_contains(l.errors, {"env_report.json: gfx:", "expected a string"}));
  CHECK(any_contains(l.errors, {"env_report.json: workload:", "expected an object"}));
}

TEST_CASE("parse_env_report: NVIDIA arch from gpu_arch or compute_capability (REACH §1)",
          "[load][env][nvidia]") {
  struct Case {
    const char* json;
    const char* arch;
  };
  for (const Case& c :
       {Case{R"({"gpu_arch": "sm_90", "device_name": "NVIDIA H200"})", "sm_90"},
        Case{R"({"gpu_arch": "SM_100a"})", "sm_100"}, Case{R"({"gpu_arch": "sm89"})", "sm_89"},
        Case{R"({"compute_capability": "9.0"})", "sm_90"},
        Case{R"({"compute_capability": "10.0"})", "sm_100"},
        Case{R"({"compute_capability": 8.9})", "sm_89"},
        Case{R"({"compute_capability": 9.0})", "sm_90"},
        Case{R"({"gpu_arch": "gfx942:sramecc+:xnack-"})", "gfx942"},
        Case{R"({"gfx": "gfx950", "gpu_arch": "sm_90"})", "gfx950"}}) {
    INFO(c.json);
    auto l = parse_env_report(c.json, k_file);
    REQUIRE(l.value);
    CHECK(l.errors.empty());
    CHECK(l.value->arch == c.arch);
  }
  auto l = parse_env_report(R"({"gpu_arch": "sm_90", "device_name": "  NVIDIA H200 "})", k_file);
  CHECK(l.value->device_name == "NVIDIA H200");
  CHECK(l.value->gfx.empty());  // gfx stays AMD's
  l = parse_env_report(R"({"gpu_arch": "gfx942"})", k_file);
  CHECK(l.value->gfx == "gfx942");
  l = parse_env_report(R"({"compute_capability": "nine"})", k_file);
  CHECK(l.value->arch.empty());
  CHECK(any_contains(l.errors, {"compute_capability", "'nine'"}));
  CHECK(any_contains(l.errors, {"gfx: missing", "gpu_arch"}));
}

TEST_CASE("normalize_arch / arch_from_compute_capability / is_nvidia_arch", "[load][env][nvidia]") {
  CHECK(normalize_arch("sm_90") == "sm_90");
  CHECK(normalize_arch(" SM90A ") == "sm_90");
  CHECK(normalize_arch("compute_80") == "sm_80");
  CHECK(normalize_arch("sm_90xy") == "sm_90xy");  // not an arch spelling: kept, matches nothing
  CHECK(normalize_arch("gfx950:xnack-") == "gfx950");
  CHECK(arch_from_compute_capability("12.0") == "sm_120");
  CHECK(arch_from_compute_capability("9") == "");
  CHECK(arch_from_compute_capability("9.10") == "");
  CHECK(is_nvidia_arch("sm_90"));
  CHECK_FALSE(is_nvidia_arch("sm_"));
  CHECK_FALSE(is_nvidia_arch("gfx950"));
}

}  // namespace unit_load_env
