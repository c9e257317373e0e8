// Stage B (docs/method.md §11): probe files, matching probes to entries, and the §8 models over the
// captured cases, count-weighted.
#include <catch2/catch.hpp>

#include "roofline/analyze/evidence/match.hpp"
#include "roofline/analyze/models/dispatch.hpp"
#include "roofline/cli/layer.hpp"
#include "unit/test_helpers.hpp"

namespace unit_probes {
using namespace roofline::cli;
using roofline::test::any_contains;
using roofline::test::ModelCase;
using roofline::test::rel;

namespace {

const char* k_single = R"({
  "target": "fused_moe_kernel", "pid": 4242, "total_calls": 4000,
  "cases": [
    {"dims": [[64,2048],[256,1024,2048],[256,2048,512],[64,8]],
     "dtypes": ["torch.float8_e4m3fn","torch.float8_e4m3fn","torch.float8_e4m3fn","torch.int32"],
     "arg_labels": ["hidden_states","w1","w2","topk_ids"], "count": 3000, "gpu_us_avg": 49.0,
     "timed_count": 200},
    {"dims": [[32,2048],[256,1024,2048],[256,2048,512],[32,8]], "count": 1000}
  ]})";

const char* k_merged = R"({
  "schema": "per-shape-probe-v1", "workload": {"isl": 1024, "osl": 1024, "conc": 64},
  "kernels": [
    {"target": "vllm._custom_ops.paged_attention", "label": "kernel_paged_attention_2d",
     "probe_status": "ok", "pct_gpu": 8.86,
     "cases": [{"dims": [[64,16,256],[8192,16,2,256]], "dtypes": ["torch.bfloat16"], "count": 7}]},
    {"target": "w8a8_block_fp8_matmul", "label": "", "probe_status": "ok",
     "cases": [{"dims": [[64,2048],[12288,2048]], "count": 5}]},
    {"label": "broken", "cases": [{"dims": "x", "count": 1}, {"count": 2}, 7,
                                 {"dims": [[4,4]], "count": -1}]}
  ]})";

}  // namespace

TEST_CASE("parse_probes: one probe_<pid>_<target>.json file", "[probes]") {
  auto got = parse_probes(k_single, "probe_4242_fused_moe_kernel.json");
  REQUIRE(got.errors.empty());
  REQUIRE(got.value);
  REQUIRE(got.value->kernels.size() == 1);
  const ProbeKernel& k = got.value->kernels[0];
  CHECK(k.target == "fused_moe_kernel");
  CHECK(k.total_calls == 4000);
  CHECK(k.source == "probe_4242_fused_moe_kernel.json");
  REQUIRE(k.cases.size() == 2);
  CHECK(k.cases[0].dims.size() == 4);
  CHECK(k.cases[0].dims[1] == std::vector<std::int64_t>{256, 1024, 2048});
  CHECK(k.cases[0].dtypes[0] == "torch.float8_e4m3fn");
  CHECK(k.cases[0].arg_labels[3] == "topk_ids");
  CHECK(k.cases[0].count == 3000);
  CHECK(k.cases[0].gpu_us_avg == 49.0);
  CHECK(k.cases[0].timed_count == 200);
  CHECK(k.cases[1].count == 1000);
  CHECK_FALSE(k.cases[1].gpu_us_avg);
}

TEST_CASE("parse_probes: merged per_shape_probe.json keeps good kernels and cases", "[probes]") {
  auto got = parse_probes(k_merged, "per_shape_probe.json");
  REQUIRE(got.value);
  REQUIRE(got.value->kernels.size() == 3);
  CHECK(got.value->kernels[0].label == "kernel_paged_attention_2d");
  CHECK(got.value->kernels[0].probe_status == "ok");
  CHECK(got.value->kernels[0].pct_gpu == 8.86);
  CHECK(got.value->kernels[2].cases.empty());  // every case of "broken" is unusable
  CHECK(any_contains(got.errors, {"per_shape_probe.json", "kernels[2].cases[0].dims"}));
  CHECK(any_contains(got.errors, {"kernels[2].cases[1].dims", "missing"}));
  CHECK(any_contains(got.errors, {"kernels[2].cases[2]", "expected a case object"}));
  CHECK(any_contains(got.errors, {"kernels[2].cases[3].count", "positive"}));
}

TEST_CASE("parse_probes: broken files are clear errors, never throws", "[probes]") {
  for (const char* text : {"", "{", "[]", "{\"hello\": 1}", "{\"kernels\": 3}", "null"}) {
    auto got = parse_probes(text, "p.json");
    INFO(text);
    CHECK_FALSE(got.errors.empty());
    if (got.value) CHECK(got.value->kernels.empty());
  }
  auto schema = parse_probes(R"({"schema": "per-shape-probe-v9", "kernels": []})", "p.json");
  CHECK(any_contains(schema.notes, {"per-shape-probe-v9"}));
}

TEST_CASE("probes meet entries through the one matcher; per-process files combine",
          "[probes][match]") {
  // Each probe kernel is known by its target and its label (match.hpp).
  const std::vector<KernelNames> probes{
      {{"fused_moe_kernel"}, ""},                                               // 0: pid 1
      {{"fused_moe_kernel"}, ""},                                               // 1: pid 2
      {{"vllm._custom_ops.paged_attention", "kernel_paged_attention_2d"}, ""},  // 2
      {{"w8a8_block_fp8_matmul"}, ""},                                          // 3
      {{"vllm::fused_add_rms_norm_kernel"}, ""},                                // 4
  };
  const auto m = match_kernel_names(
      {{{"fused_moe_kernel"}, ""},
       {{"kernel_paged_attention_2d [clone .kd]"}, ""},
       {{"_w8a8_block_fp8_matmul"}, ""},
       {{"void vllm::fused_add_rms_norm_kernel<c10::BFloat16, 8>(c10::BFloat16*, int)"}, ""},
       {{"causal_conv1d_update_kernel"}, ""},
       {{"moe"}, ""}},
      probes);
  CHECK(m[0].kind == MatchKind::exact);
  CHECK(m[0].candidates == std::vector<std::size_t>{0, 1});
  CHECK(m[1].kind == MatchKind::normalized);  // through the label
  CHECK(m[1].candidates == std::vector<std::size_t>{2});
  // A Triton kernel's leading underscore marks it private, not different (the probe matcher
  // found this by a bare substring, which the one matcher no longer accepts inside a word).
  CHECK(m[2].kind == MatchKind::normalized);
  CHECK(m[2].candidates == std::vector<std::size_t>{3});
  // C++ names: argument lists, `void`, and namespaces do not get in the way; templates stay.
  CHECK(m[3].kind == MatchKind::substring);
  CHECK(m[3].candidates == std::vector<std::size_t>{4});
  CHECK(m[4].candidates.empty());
  CHECK(m[5].candidates.empty());  // too short to match by substring
}

TEST_CASE("model_work_cases: count-weighted MoE over two captured batch sizes", "[probes][moe]") {
  ModelCase m;
  m.config.hidden = 2048;
  m.config.experts = 256;
  m.config.top_k = 8;
  m.config.moe_intermediate = 512;
  m.config.layers = 40;
  m.config.moe_layers = 40;
  m.config.quant_weight_bytes = 1.0;
  m.config.quant_method = "fp8";
  m.entry.name = "fused_moe_kernel";
  m.cls.op_class = OpClass::moe;
  m.regime.t_ms = 0.05;
  m.regime.launches_per_step = 80;  // 2 launches per MoE layer
  auto set = parse_probes(k_single, "probe.json").value.value();
  std::vector<const ProbeCase*> cases{&set.kernels[0].cases[0], &set.kernels[0].cases[1]};
  WorkEstimate w = model_work_cases(m.entry, m.regime, m.cls,
                                    ModelContext{&m.env, &m.config, "", &m.peaks}, cases);
  REQUIRE(w.modeled);
  CHECK(w.unit_launches == 2);
  // t_unit: case 0 timed (2 × 49 µs), case 1 uses the profile's 2 × 50 µs; weights 3000 : 1000.
  CHECK(w.t_unit_ms == rel((3000 * 0.098 + 1000 * 0.100) / 4000));
  // Each case alone, as stage A would model it at its M, then the count-weighted mean.
  auto alone = [&](double rows) {
    TopnEntry e = m.entry;
    e.est_shape.decode = EstShape{rows, {}, {}};
    if (rows == 64) e.dtypes = set.kernels[0].cases[0].dtypes;  // case 1 names no dtypes
    return model_work(e, m.regime, m.cls, ModelContext{&m.env, &m.config, "", &m.peaks});
  };
  WorkEstimate w64 = alone(64), w32 = alone(32);
  REQUIRE(w64.moe);
  REQUIRE(w.moe);
  CHECK(w.moe->experts_hit ==
        rel((3000 * w64.moe->experts_hit + 1000 * w32.moe->experts_hit) / 4000));
  CHECK(w.candidates[0].bytes ==
        rel((3000 * w64.candidates[0].bytes + 1000 * w32.candidates[0].bytes) / 4000));
  CHECK(w.flops == rel((3000 * w64.flops + 1000 * w32.flops) / 4000));
  CHECK(w.candidates[0].feasible.has_value());
  CHECK(any_contains(w.notes, {"stage B: 2 of 2 probe cases", "4000 calls"}));
  CHECK(any_contains(w.notes, {"M = 64 from dims[0][0] (hidden_states)"}));
}

TEST_CASE("model_work_cases: GEMM takes M from the case, not est_shape", "[probes][gemm]") {
  ModelCase m;
  m.cls.op_class = OpClass::gemm;
  m.regime.t_ms = 0.01;
  m.entry.est_shape.decode = EstShape{999, {}, {}};  // stage A guess, must not win
  ProbeCase c;
  c.dims = {{64, 2048}, {12288, 2048}};
  c.dtypes = {"torch.float8_e4m3fn", "torch.float8_e4m3fn"};
  WorkEstimate w = model_work_cases(m.entry, m.regime, m.cls,
                                    ModelContext{&m.env, &m.config, "", &m.peaks}, {&c});
  REQUIRE(w.modeled);
  CHECK(w.flops == rel(2.0 * 64 * 12288 * 2048));
  CHECK(w.bytes ==
        rel(64.0 * 2048 + 12288.0 * 2048 + 64.0 * 12288 * 2));  // bf16 out  // fp8 in, fp8 weights
}

TEST_CASE("model_work_cases: no modelable case is not modelled, with the reason", "[probes]") {
  ModelCase m;
  m.cls.op_class = OpClass::gemm;
  m.regime.t_ms = 0.01;
  ProbeCase c;
  c.dims = {{64, 2048}, {7, 9}};  // no shared K
  WorkEstimate w = model_work_cases(m.entry, m.regime, m.cls,
                                    ModelContext{&m.env, &m.config, "", &m.peaks}, {&c});
  CHECK_FALSE(w.modeled);
  CHECK(roofline::test::contains(w.unmodeled_reason, "no probe case could be modelled"));
  CHECK(roofline::test::contains(w.unmodeled_reason, "[64,2048], [7,9]"));
}

}  // namespace unit_probes
