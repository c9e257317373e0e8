// render_topn_json / render_workload_json: the text loads back through parse_topn (the loader
// `analyze` uses) with every field intact, and renders again to the same bytes (one vocabulary,
// TopnDocument, on both sides); workload-v1 carries each case; same input, same bytes.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "roofline/cli/layer.hpp"
#include "roofline/inputs/load.hpp"
#include "roofline/topn/topn.hpp"
#include "test_helpers.hpp"

namespace unit_write_topn {
using namespace roofline::cli;
using roofline::test::rel;

namespace {

// A bf16 workload case: dims, regime, launches and mean latency.
WorkloadCase workload_case(std::vector<std::vector<std::int64_t>> dims,
                           std::optional<Regime> regime, double count, double latency_ms) {
  WorkloadCase c;
  c.dims = std::move(dims);
  c.dtypes = {"c10::BFloat16", "c10::BFloat16"};
  c.regime = regime;
  c.count = count;
  c.baseline_latency_ms = latency_ms;
  return c;
}

using Dims = std::vector<std::vector<std::int64_t>>;

TopnBuild sample_build() {
  TopnBuild b;
  TopnDocument& d = b.topn;
  d.source = "torch-trace";
  d.total_gpu_time_ms = 22.6844;
  d.num_kernel_launches = 480;
  d.num_distinct_kernels = 21;
  TopnServing s;
  s.present = true;
  s.n_prefill_steps = 2;
  s.n_decode_steps = 18;
  s.decode_batch_captured = 64;
  s.decode_batch_steady = 64;
  s.steady = true;
  d.serving = s;
  TopnEntry e;
  e.index = 0;
  e.rank = 1;
  e.name = "nvjet_sm90_tst_192x8_64x8_2x1_v_bz_TNT";
  e.short_name = e.name;
  e.calls = 20;
  e.total_ms = 3.8486;
  e.avg_us = 192.429;
  e.pct_gpu_time = 16.97;
  e.signatures = {Dims{{128, 8, 2048}, {128, 2048, 1536}}, Dims{{64, 8, 2048}, {64, 2048, 1536}}};
  e.shapes = e.signatures.front();
  e.dtypes_are_set = true;
  e.dtypes = {"c10::BFloat16"};
  e.classification = "library_gemm";
  e.backend_guess = "cublaslt";
  e.editable = false;
  e.opt_hint = "cuBLASLt GEMM \"nvjet\"";
  e.phase = "both";
  e.served_regimes = {"prefill", "decode"};
  e.phase_calls_measured.prefill = 2;
  e.phase_calls_measured.decode = 18;
  e.calls_per_step.prefill = 1;
  e.calls_per_step.decode = 1;
  e.base_latency_ms.prefill = 0.25;
  e.base_latency_ms.decode = 0.18;
  e.est_shape.prefill = EstShape{4096, std::nullopt, std::nullopt};
  e.est_shape.decode = EstShape{64, std::nullopt, std::nullopt};
  WorkloadKernel ew;
  ew.cases = {workload_case(Dims{{128, 8, 2048}, {128, 2048, 1536}}, Regime::decode, 18, 0.18),
              workload_case(Dims{{64, 8, 2048}, {64, 2048, 1536}}, std::nullopt, 2, 0.25)};
  TopnEntry f;
  f.index = 1;
  f.rank = 2;
  f.name = "Memcpy DtoD (Device -> Device)";
  f.short_name = "Memcpy DtoD";
  f.calls = 20;
  f.total_ms = 10.0206;
  f.avg_us = 501.03;
  f.pct_gpu_time = 44.17;
  f.classification = "memory";
  f.backend_guess = "unknown";
  WorkloadKernel fw;
  fw.calls_without_shapes = 20;
  d.entries = {e, f};
  b.workload = {ew, fw};
  return b;
}

TopnDocument sample() {
  return sample_build().topn;
}

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

TEST_CASE("render_topn_json: parse_topn reads back every field, shapes three levels deep",
          "[topn][write]") {
  const std::string text = render_topn_json(sample());
  auto loaded = parse_topn(text, "profile_topN.json");
  INFO(text);
  CHECK(loaded.errors.empty());
  REQUIRE(loaded.value);
  const TopnDocument& t = *loaded.value;
  CHECK(t.source == "torch-trace");
  CHECK(t.total_gpu_time_ms.value() == 22.6844);
  CHECK(t.num_kernel_launches.value() == 480);
  CHECK(t.num_distinct_kernels.value() == 21);
  CHECK(t.serving.present);
  CHECK(t.serving.n_decode_steps.value() == 18);
  CHECK(t.serving.decode_batch_steady.value() == 64);
  REQUIRE(t.entries.size() == 2);
  const TopnEntry& e = t.entries[0];
  CHECK(e.rank.value() == 1);
  CHECK(e.pct_gpu_time == 16.97);
  CHECK(e.pct_gpu_time_raw.dump() == "16.97");
  CHECK(e.calls.value() == 20);
  CHECK(e.avg_us.value() == 192.429);
  CHECK(e.total_ms.value() == 3.8486);
  REQUIRE(e.signatures.size() == 2);
  CHECK(e.signatures[1] == Dims{{64, 8, 2048}, {64, 2048, 1536}});
  CHECK(e.shapes == Dims{{128, 8, 2048}, {128, 2048, 1536}});  // the first signature
  CHECK(e.dtypes == std::vector<std::string>{"c10::BFloat16"});
  CHECK(e.classification == "library_gemm");
  CHECK(e.backend_guess == "cublaslt");
  CHECK(e.editable == false);
  CHECK(e.opt_hint == "cuBLASLt GEMM \"nvjet\"");
  CHECK(e.phase == "both");
  CHECK(e.served_regimes == std::vector<std::string>{"prefill", "decode"});
  CHECK(e.phase_calls_measured.decode.value() == 18);
  CHECK(e.calls_per_step.prefill.value() == 1);
  CHECK(e.base_latency_ms.decode.value() == 0.18);
  CHECK(e.est_shape.prefill->m.value() == 4096);
  CHECK(e.est_shape.decode->m.value() == 64);
  const TopnEntry& f = t.entries[1];
  CHECK(f.shapes.empty());
  CHECK_FALSE(f.editable);  // written as null: unknown
  CHECK(f.phase.empty());
  // Counts are integers, shapes one line each: readable and exactly what Python writes.
  CHECK(text.find("\"calls\": 20,") != std::string::npos);
  CHECK(text.find("\"shapes\": [[[128, 8, 2048], [128, 2048, 1536]], [[64, 8, 2048], [64, 2048, "
                  "1536]]],") != std::string::npos);
  CHECK(text == render_topn_json(sample()));
}

TEST_CASE("render_workload_json: workload-v1, one case per signature and dtypes", "[topn][write]") {
  const std::string text = render_workload_json(sample_build());
  const auto j = nlohmann::json::parse(text);
  CHECK(j["schema"] == "workload-v1");
  CHECK(j["source"] == "torch-trace");
  REQUIRE(j["kernels"].size() == 2);
  const auto& k = j["kernels"][0];
  CHECK(k["name"] == "nvjet_sm90_tst_192x8_64x8_2x1_v_bz_TNT");
  CHECK(k["calls"] == 20);
  CHECK(k["calls_without_shapes"] == 0);
  REQUIRE(k["cases"].size() == 2);
  CHECK(k["cases"][0]["dims"] == nlohmann::json::parse("[[128, 8, 2048], [128, 2048, 1536]]"));
  CHECK(k["cases"][0]["dtypes"] == nlohmann::json::parse(R"(["c10::BFloat16", "c10::BFloat16"])"));
  CHECK(k["cases"][0]["count"] == 18);
  CHECK(k["cases"][0]["baseline_latency_ms"] == 0.18);
  CHECK(k["cases"][0]["regime"] == "decode");
  CHECK_FALSE(k["cases"][1].contains("regime"));
  CHECK(j["kernels"][1]["cases"].empty());
  CHECK(j["kernels"][1]["calls_without_shapes"] == 20);
}

TEST_CASE("parse_topn: a two-level shapes list is still one signature", "[topn][write][load]") {
  auto loaded = parse_topn(
      R"({"top_kernels": [{"name": "k", "pct_gpu_time": 5, "shapes": [[64, 2048], [1024, 2048]]}]})",
      "t.json");
  REQUIRE(loaded.value);
  CHECK(loaded.errors.empty());
  CHECK(loaded.value->entries.at(0).shapes == Dims{{64, 2048}, {1024, 2048}});
  CHECK(loaded.value->entries.at(0).signatures.empty());
}

TEST_CASE("render_topn_json: every block reads back and renders to the same bytes",
          "[topn][write][load]") {
  TopnDocument d = sample();
  d.device = TopnDevice{"NVIDIA H200",    "NVIDIA", "sm_90", 132, 150e9, "trace deviceProperties",
                        "2 entries agree"};
  d.world_size = 2;
  d.serving.step_source = "user_annotation";
  d.serving.decode_batch = 63.5;
  d.serving.decode_from = "decode steps";
  d.serving.decode_generation = TopnPartSums{18, 1143, std::nullopt, 2.5e6, std::nullopt, 7};
  d.serving.unparsed_step_annotations = 1;
  d.serving.unparsed_step_example = "execute_model_";
  TopnGraphReplay g;
  g.replays = 18;
  g.launches = 900;
  g.with_shapes = 850;
  g.capture_given = true;
  g.capture_windows = 4;
  g.paired = 880;
  g.unpaired_reasons = {{"no capture window of this size", 1, 20}};
  g.unpaired_replays = {{4242, 20, 96, "no capture window of this size"}};
  d.graph_replay = g;
  d.entries[0].demangled = "void gemm<bf16>(Params)";
  d.entries[0].demangle_note = "read from the _ZN prefix";
  d.entries[0].op = "aten::mm";
  d.entries[0].module = "Qwen2MLP.RowParallelLinear";
  d.entries[0].est_shape.decode = EstShape{64, 1536, 2048};
  d.entries[1].est_calls = 40;
  d.entries[1].serving_weighted_pct = 12.5;
  const std::string text = render_topn_json(d);
  const auto loaded = parse_topn(text, "profile_topN.json");
  INFO(text);
  CHECK(loaded.errors.empty());
  REQUIRE(loaded.value);
  const TopnDocument& t = *loaded.value;
  REQUIRE(t.device);
  CHECK(t.device->note == "2 entries agree");
  REQUIRE(t.graph_replay);
  CHECK(t.graph_replay->unpaired_replays.at(0).step_size == 96);
  CHECK(t.serving.decode_generation.sum_kv == 2.5e6);
  CHECK_FALSE(t.serving.decode_generation.sum_q);
  CHECK(t.entries.at(0).demangle_note == "read from the _ZN prefix");
  CHECK(t.entries.at(0).est_shape.decode->n == 1536);
  CHECK(render_topn_json(t) == text);
}

TEST_CASE(
    "parse_topn then render_topn_json: every Top-N `roofline topn` wrote in the goldens, byte "
    "for byte",
    "[topn][write][load]") {
  namespace fs = std::filesystem;
  std::size_t checked = 0;
  for (const auto& f :
       fs::recursive_directory_iterator(fs::path(ROOFLINE_SOURCE_DIR) / "tests" / "golden")) {
    if (f.path().filename() != "profile_topN.json" ||
        f.path().string().find("expected") == std::string::npos)
      continue;  // inputs are hand-written or a profiler's; `expected/` holds what topn wrote
    const std::string text = slurp(f.path());
    const auto loaded = parse_topn(text, f.path().string());
    INFO(f.path().string());
    CHECK(loaded.errors.empty());
    REQUIRE(loaded.value);
    CHECK(render_topn_json(*loaded.value) == text);
    ++checked;
  }
  CHECK(checked >= 5);
}

}  // namespace unit_write_topn
