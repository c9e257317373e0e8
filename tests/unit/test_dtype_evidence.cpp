// Dtypes by role from the trace's own evidence (docs/method.md §23.5, §23.8): the quantization a
// matrix kernel's input went through (topn's input_quant, inside the same op or before it on its
// stream), the W8A8 activation rule and its W4A8 guard, the run's other linears, two readings, and
// no derived claim on a model whose weights rest on an unquantized config alone.
#include <string>
#include <vector>

#include <fmt/format.h>
#include <catch2/catch.hpp>

#include "roofline/analyze/models/models.hpp"
#include "roofline/cli/layer.hpp"
#include "roofline/topn/joins/input_quant.hpp"
#include "unit/test_helpers.hpp"
#include "unit/topn_test_io.hpp"

namespace unit_dtype_evidence {
using namespace roofline::cli;
using roofline::test::any_contains;
using roofline::test::chunked;
using roofline::test::rel;
using roofline::topn::detail::quant_output_dtype;

namespace {

const std::string k_quant =
    "void vllm::scaled_fp8_quant_kernel<c10::BFloat16, c10::Float8_e4m3fn>("
    "c10::Float8_e4m3fn*, c10::BFloat16 const*, float const*, long)";
const std::string k_align = "void vllm::moe::moe_align_block_size_kernel<int>(int const*, int*)";
const std::string k_gemm = "nvjet_sm90_tst_128x8_64x12_2x1_v_bz_TNT";
const std::string k_attn = "void flash::flash_fwd_splitkv_kernel<Flash_fwd_kernel_traits<128> >()";

struct Events {
  std::vector<std::string> list;
  void op(long ext, const std::string& name, double ts, double dur, const std::string& dims,
          const std::string& types) {
    list.push_back(fmt::format(
        R"({{"ph": "X", "cat": "cpu_op", "name": "{}", "pid": 7, "tid": 7, "ts": {}, "dur": {},)"
        R"( "args": {{"External id": {}, "Input Dims": {}, "Input type": {}}}}})",
        name, ts, dur, ext, dims, types));
  }
  // A launch on the CPU at `ts` of a kernel under op `ext` (-1: a graph replay `corr`), on
  // `stream`.
  void kernel(const std::string& name, long ext, long corr, double ts, int stream = 7,
              bool replay = false) {
    if (!replay)
      list.push_back(fmt::format(
          R"({{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 7, "tid": 7,)"
          R"( "ts": {}, "dur": 1, "args": {{"External id": {}, "correlation": {}}}}})",
          ts, ext, corr));
    const std::string ids =
        replay ? fmt::format(R"("correlation": {}, )", corr)
               : fmt::format(R"("External id": {}, "correlation": {}, )", ext, corr);
    list.push_back(fmt::format(
        R"({{"ph": "X", "cat": "kernel", "name": "{}", "pid": 0, "tid": {}, "ts": {}, "dur": 2,)"
        R"( "args": {{{}"device": 0, "stream": {}, "grid": [8, 1, 1], "block": [128, 1, 1]}}}})",
        name, stream, ts + 1000.0, ids, stream, stream));
  }
  void graph_launch(long corr, double ts) {
    list.push_back(fmt::format(
        R"({{"ph": "X", "cat": "cuda_runtime", "name": "cudaGraphLaunch", "pid": 7, "tid": 7,)"
        R"( "ts": {}, "dur": 1, "args": {{"correlation": {}}}}})",
        ts, corr));
  }
  TraceProfile read() const {
    std::string text = R"({"traceEvents": [)";
    for (std::size_t i = 0; i < list.size(); ++i) text += (i ? ",\n" : "\n") + list[i];
    text += "\n]}";
    TraceRead r = read_trace_stream(chunked(text, 113), "t.json");
    INFO(r.error);
    REQUIRE(r.profile);
    return *r.profile;
  }
};

const TraceKernel& kernel_named(const TraceProfile& p, const std::string& name) {
  for (const TraceKernel& k : p.kernels)
    if (k.name == name) return k;
  FAIL("no kernel " << name);
  return p.kernels.front();
}

}  // namespace

TEST_CASE("input quant: a quantization kernel's output format from its name", "[topn][quant]") {
  CHECK(quant_output_dtype(k_quant) == "fp8");
  CHECK(quant_output_dtype("void per_token_group_quant_8bit_kernel<__nv_bfloat16, __nv_fp8_e4m3, "
                           "false>(…)") == "fp8");
  CHECK(quant_output_dtype("_per_token_group_quant_fp8") == "fp8");
  CHECK(quant_output_dtype("_C::dynamic_scaled_fp8_quant") == "fp8");
  CHECK(quant_output_dtype("cvt_fp16_to_fp4<__nv_bfloat16, false>") == "fp4");
  CHECK(quant_output_dtype("_C::dynamic_scaled_int8_quant") == "int8");
  // nvfp4's block-scale type is not the values'.
  CHECK(quant_output_dtype(
            "quantize_with_block_size<cutlass::float_e2m1_t, cutlass::float_ue4m3_t>") == "fp4");
  CHECK(quant_output_dtype("dequantize_fp8_kernel<c10::Float8_e4m3fn, c10::BFloat16>").empty());
  CHECK(quant_output_dtype("some_quant_kernel<float>").empty());
  CHECK(quant_output_dtype("mixed_quant<c10::Float8_e4m3fn, cutlass::float_e2m1_t>").empty());
}

TEST_CASE("input quant: inside the MoE op, eager", "[topn][quant]") {
  Events ev;
  ev.op(1, "vllm::moe_forward", 100, 100, "[[16, 2048], [16, 128]]",
        R"(["c10::BFloat16", "c10::BFloat16"])");
  ev.op(2, "_C::dynamic_scaled_fp8_quant", 110, 5, "[[16, 2048], [16, 2048], [1]]",
        R"(["c10::Float8_e4m3fn", "c10::BFloat16", "float"])");
  ev.kernel(k_quant, 2, 11, 111);
  ev.kernel(k_align, 1, 12, 120);
  ev.kernel("fused_moe_kernel", 1, 13, 130);
  const TraceProfile p = ev.read();
  const TraceKernel& moe = kernel_named(p, "fused_moe_kernel");
  REQUIRE(moe.input_quant.size() == 1);
  const auto& [how, n] = *moe.input_quant.begin();
  CHECK(std::get<0>(how) == "fp8");
  CHECK(std::get<1>(how) == "_C::dynamic_scaled_fp8_quant");
  CHECK(std::get<2>(how) == "inside its own op");
  CHECK(n == 1.0);
  CHECK(kernel_named(p, k_align).input_quant.empty());  // not a matrix kernel
}

TEST_CASE("input quant: graph replays by stream order; a GEMM or attention between ends it",
          "[topn][quant]") {
  Events ev;
  ev.graph_launch(50, 10);
  ev.kernel(k_quant, -1, 50, 20, 7, true);
  ev.kernel(k_align, -1, 50, 30, 7, true);
  ev.kernel("fused_moe_kernel", -1, 50, 40, 7, true);  // reads the quantized input
  ev.kernel("fused_moe_kernel", -1, 50, 50, 7, true);  // the previous matrix kernel read it
  ev.kernel(k_quant, -1, 50, 60, 7, true);
  ev.kernel(k_attn, -1, 50, 70, 7, true);  // an fp8 query: the attention reads it
  ev.kernel(k_gemm, -1, 50, 80, 7, true);
  ev.kernel(k_quant, -1, 50, 90, 8, true);  // another stream
  ev.kernel(k_gemm, -1, 50, 100, 7, true);
  const TraceProfile p = ev.read();
  const TraceKernel& moe = kernel_named(p, "fused_moe_kernel");
  REQUIRE(moe.input_quant.size() == 1);
  const auto& [how, n] = *moe.input_quant.begin();
  CHECK(std::get<1>(how) == "scaled_fp8_quant_kernel");
  CHECK(std::get<2>(how) == "before it on its stream");
  CHECK(n == 1.0);  // one of its two launches
  CHECK(kernel_named(p, k_gemm).input_quant.empty());
  CHECK(kernel_named(p, k_attn).input_quant.size() == 1);
}

TEST_CASE("input quant: a rocprofv3 kernel trace by queue order", "[topn][quant]") {
  const std::string header =
      "\"Kind\",\"Agent_Id\",\"Queue_Id\",\"Kernel_Name\",\"Start_Timestamp\","
      "\"End_Timestamp\"\n";
  const auto row = [](int queue, const std::string& name, long start) {
    return fmt::format("\"KERNEL_DISPATCH\",2,{},\"{}\",{},{}\n", queue, name, start, start + 500);
  };
  const std::string quant =
      "void vllm::dynamic_per_token_scaled_fp8_quant_kernel<c10::BFloat16, "
      "c10::Float8_e4m3fnuz>(c10::Float8_e4m3fnuz*, float*, c10::BFloat16 const*)";
  // Rows need not be in time order: the sweep sorts each queue by start.
  const std::string text = header + row(1, "fused_moe_kernel", 3000) + row(1, quant, 1000) +
                           row(1, "moe_align_block_size_kernel", 2000) + row(2, quant, 3500) +
                           row(1, "fused_moe_kernel", 4000);
  TraceRead r = read_trace_stream(chunked(text, 61), "run_kernel_trace.csv");
  INFO(r.error);
  REQUIRE(r.profile);
  const TraceKernel& moe = kernel_named(*r.profile, "fused_moe_kernel");
  REQUIRE(moe.input_quant.size() == 1);
  const auto& [how, n] = *moe.input_quant.begin();
  CHECK(std::get<0>(how) == "fp8");
  CHECK(std::get<1>(how) == "dynamic_per_token_scaled_fp8_quant_kernel");
  CHECK(std::get<2>(how) == "before it on its queue");
  CHECK(n == 1.0);  // the queue-2 quantization is not queue 1's
}

TEST_CASE("input quant: a rocprofv3 JSON by queue order", "[topn][quant]") {
  const auto dispatch = [](int kernel, int queue, long start) {
    return fmt::format(
        R"({{"start_timestamp": {}, "end_timestamp": {}, "dispatch_info": {{"agent_id": )"
        R"({{"handle": 2}}, "queue_id": {{"handle": {}}}, "kernel_id": {}}}}})",
        start, start + 400, queue, kernel);
  };
  const std::string text =
      R"({"rocprofiler-sdk-tool": [{"kernel_symbols": [{"kernel_id": 1, "kernel_name": )"
      R"("scaled_fp8_quant_kernel<c10::BFloat16, c10::Float8_e4m3fnuz>"}, {"kernel_id": 2, )"
      R"("kernel_name": "fused_moe_kernel"}], "buffer_records": {"kernel_dispatch": [)" +
      dispatch(2, 3, 2000) + ", " + dispatch(1, 3, 1000) + ", " + dispatch(2, 3, 3000) + "]}}]}";
  TraceRead r = read_trace_stream(chunked(text, 53), "run_results.json");
  INFO(r.error);
  REQUIRE(r.profile);
  const TraceKernel& moe = kernel_named(*r.profile, "fused_moe_kernel");
  REQUIRE(moe.input_quant.size() == 1);
  CHECK(moe.input_quant.begin()->second == 1.0);  // the first launch read it, the second did not
}

TEST_CASE("input quant: the Top-N carries it and reads it back", "[topn][quant]") {
  Events ev;
  ev.graph_launch(50, 10);
  ev.kernel(k_quant, -1, 50, 20, 7, true);
  ev.kernel("fused_moe_kernel", -1, 50, 40, 7, true);
  const TopnBuild b = build_topn(ev.read(), TopnOptions{}, builtin_kernel_classes_rules(),
                                 builtin_kernel_backends_rules());
  const std::string text = render_topn_json(b.topn);
  CHECK_THAT(text, Catch::Contains(R"("input_quant": [)"));
  const auto loaded = parse_topn(text, "profile_topN.json");
  REQUIRE(loaded.value);
  bool found = false;
  for (const TopnEntry& e : loaded.value->entries)
    if (e.name == "fused_moe_kernel") {
      REQUIRE(e.input_quant.size() == 1);
      CHECK(e.input_quant[0].dtype == "fp8");
      CHECK(e.input_quant[0].launches == 1.0);
      found = true;
    }
  CHECK(found);
  CHECK(render_topn_json(*loaded.value) == text);
}

namespace {

// An MoE kernel whose op passes no weights, under Qwen3-30B-A3B's bf16 config, decode at 16 rows.
struct MoeCase : roofline::test::ModelCase {
  RunWeights run;
  MoeCase() {
    peaks = roofline::test::gfx950_peaks();
    config.hidden = 2048;
    config.experts = 128;
    config.top_k = 8;
    config.moe_intermediate = 768;
    config.moe_layers = 48;
    config.layers = 48;
    config.dtype = "bfloat16";
    entry.name = entry.short_name = "fused_moe_kernel";
    entry.op = "vllm::moe_forward";
    entry.calls = 96;
    entry.est_shape.decode = EstShape{16, std::nullopt, std::nullopt};
    regime.t_ms = 0.05;
    regime.known = true;
    regime.launches_per_step = 48;
    cls.op_class = OpClass::moe;
    cls.detail.moe.stage = MoeStage::stage1;
  }
  void quantized_input(const std::string& dtype = "fp8") {
    entry.input_quant = {{dtype, "_C::dynamic_scaled_fp8_quant", "inside its own op", 96}};
  }
  ModelContext ctx() const { return ModelContext{&env, &config, "", &peaks, nullptr, &run}; }
  roofline::analyze::detail::ResolvedDtypes dtypes() const {
    return roofline::analyze::detail::resolve_dtypes(entry, cls, ctx());
  }
};

}  // namespace

TEST_CASE("dtype evidence: an MoE op with and without a quantization inside it", "[model][quant]") {
  MoeCase c;
  const roofline::analyze::detail::ResolvedDtypes plain = c.dtypes();
  CHECK(plain.weight.key == DtypeKey::bf16);
  CHECK_FALSE(plain.weight_sound);  // the config alone
  CHECK_FALSE(plain.act_in);
  c.quantized_input();
  const roofline::analyze::detail::ResolvedDtypes w8a8 = c.dtypes();
  CHECK(w8a8.weight.key == DtypeKey::fp8);
  CHECK(w8a8.weight_sound);
  CHECK_THAT(w8a8.weight_source, Catch::Contains("W8A8") && Catch::Contains("inside its own op"));
  REQUIRE(w8a8.act_in);
  CHECK(w8a8.act_in->key == DtypeKey::fp8);
  // The byte model: fp8 experts and an fp8 input read.
  const WorkEstimate w = model_work(c.entry, c.regime, c.cls, c.ctx());
  REQUIRE(w.modeled);
  const double hit = 128.0 * (1.0 - std::pow(1.0 - 8.0 / 128.0, 16.0));
  CHECK(w.bytes == rel(hit * 2 * 768 * 2048 + 16 * 2048 * 1.0 + 128 * 1536 * 2.0));
  CHECK(w.dtype_doubt.empty());
}

TEST_CASE("dtype evidence: a W4A8 config is not switched by its fp8 activations",
          "[model][quant]") {
  MoeCase c;
  c.config.quant_method = "compressed-tensors";
  c.config.quant_weight_bytes = 0.5 + 2.0 / 128;
  c.config.quant_weight_key = DtypeKey::int4;
  c.config.quant_bits = 4;
  c.config.quant_rule = "quantization_config: int4 weights, groups of 128";
  c.quantized_input();
  const roofline::analyze::detail::ResolvedDtypes d = c.dtypes();
  CHECK(d.weight.key == DtypeKey::int4);
  CHECK(d.weight.bytes == rel(0.5 + 2.0 / 128));
  CHECK_THAT(d.weight_source, !Catch::Contains("W8A8"));
  REQUIRE(d.act_in);  // the activations are fp8 all the same
  CHECK(d.act_in->key == DtypeKey::fp8);
}

TEST_CASE("dtype evidence: the run's other linears, and an fp8 input they contradict",
          "[model][quant]") {
  MoeCase c;
  c.run.narrow = dtype_of(DtypeKey::fp8);
  c.run.narrow_source = "'device_kernel' (_C::cutlass_scaled_mm): recorded operand type";
  const roofline::analyze::detail::ResolvedDtypes linears = c.dtypes();
  CHECK(linears.weight.key == DtypeKey::fp8);
  CHECK(linears.weight_sound);
  CHECK_THAT(linears.weight_source, Catch::Contains("the run's other linears"));

  // An fp8 input where every other linear shows bf16 weights: two readings of the weights.
  MoeCase t;
  t.run.wide = dtype_of(DtypeKey::bf16);
  t.run.wide_source = "'nvjet' (aten::mm): recorded operand types 'c10::BFloat16' only";
  t.quantized_input();
  const roofline::analyze::detail::ResolvedDtypes two = t.dtypes();
  CHECK(two.weight.key == DtypeKey::fp8);
  REQUIRE(two.weight_other);
  CHECK(two.weight_other->key == DtypeKey::bf16);
  // Both readings fit the time (no peaks to refute either): the first taken, the other a reading
  // of its band (docs/method.md §10.8), which must hold in one class for a verdict.
  t.peaks = ResolvedPeaks{};
  const WorkEstimate w = model_work(t.entry, t.regime, t.cls, t.ctx());
  CHECK(w.modeled);
  CHECK_FALSE(w.withheld);
  CHECK(w.readings_decide);
  CHECK(w.weight_dtype == DtypeKey::fp8);
  REQUIRE(w.readings.size() == 1);
  CHECK(w.readings[0].key == "weights_other");
  CHECK(w.readings[0].label == "weights bf16");
  CHECK(w.readings[0].bytes > w.bytes);
  CHECK(any_contains(w.notes, {"two readings of the weights", "weights fp8", "weights bf16",
                               "a reading of its band"}));
  // With peaks, a time that only the fp8 reading fits refutes the bf16 one.
  t.peaks = roofline::test::gfx950_peaks();
  t.regime.t_ms = 0.06;  // 8 TB/s·60 µs = 480 MB: fp8 (260 MB) fits, bf16 (519 MB) does not
  const WorkEstimate f = model_work(t.entry, t.regime, t.cls, t.ctx());
  REQUIRE(f.modeled);
  CHECK(f.weight_dtype == DtypeKey::fp8);
  CHECK(any_contains(f.notes, {"two readings of the weights", "refutes the second"}));
}

TEST_CASE("dtype evidence: no routing claim on weights the config alone gives",
          "[verdict][quant]") {
  MoeCase c;
  c.regime.t_ms = 0.02;  // too short for bf16 experts: infeasible
  const WorkEstimate w = model_work(c.entry, c.regime, c.cls, c.ctx());
  REQUIRE(w.modeled);
  CHECK_FALSE(w.dtype_doubt.empty());
  const Verdict v = judge(w, OpClass::moe, 50.0, c.peaks, VerdictParams{});
  CHECK(v.suspect);
  CHECK_FALSE(v.implied_max_experts_hit);
  CHECK(any_contains(v.notes, {"no routing claim", "config dtype 'bfloat16' alone",
                               "at 1 B (fp8 weights) at most"}));
  // The same kernel with its weights in the trace's words makes the claim.
  c.run.wide = dtype_of(DtypeKey::bf16);
  c.run.wide_source = "'nvjet' (aten::mm): recorded operand types 'c10::BFloat16' only";
  const WorkEstimate sound = model_work(c.entry, c.regime, c.cls, c.ctx());
  CHECK(sound.dtype_doubt.empty());
  CHECK(judge(sound, OpClass::moe, 50.0, c.peaks, VerdictParams{}).implied_max_experts_hit);
}

TEST_CASE("weight evidence: the run's linears, lm_head and the router aside", "[quant]") {
  ModelConfig cfg;
  cfg.dtype = "bfloat16";
  cfg.vocab = 151936;
  cfg.experts = 128;
  cfg.hidden = 2048;
  TopnDocument doc;
  TopnEntry lm;
  lm.name = lm.short_name = "nvjet_sm90_tst_128x8_64x12_2x1_v_bz_TNT";
  lm.op = "aten::mm";
  lm.shapes = {{16, 2048}, {2048, 151936}};
  lm.dtypes = {"c10::BFloat16"};
  TopnEntry router = lm;
  router.shapes = {{16, 2048}, {2048, 128}};
  doc.entries = {lm, router};
  const ClassRules rules{{}, builtin_kernel_classes_rules()};
  WeightEvidence none = weight_evidence(doc, rules, &cfg, 1.0);
  CHECK_FALSE(none.weights.narrow);
  CHECK_FALSE(none.weights.wide);  // both kept unquantized: they say nothing of the others
  CHECK(none.notes.empty());

  TopnEntry scaled;
  scaled.name = scaled.short_name = "device_kernel";
  scaled.op = "_C::cutlass_scaled_mm";
  scaled.shapes = {{16, 5120}, {16, 2048}, {2048, 5120}, {1}, {1}};
  scaled.dtypes = {"c10::BFloat16", "c10::Float8_e4m3fn", "float"};
  TopnEntry dense = lm;
  dense.shapes = {{16, 4096}, {4096, 2048}};
  doc.entries = {lm, router, scaled, dense};
  const WeightEvidence both = weight_evidence(doc, rules, &cfg, 1.0);
  REQUIRE(both.weights.narrow);
  CHECK(both.weights.narrow->key == DtypeKey::fp8);
  CHECK_THAT(both.weights.narrow_source, Catch::Contains("c10::Float8_e4m3fn"));
  REQUIRE(both.weights.wide);  // the bf16 o_proj-shaped one
  CHECK(both.weights.wide->key == DtypeKey::bf16);
  CHECK(any_contains(both.notes, {"online quantization", "fp8 weights"}));
  // A quantized config says it already: no run note.
  cfg.quant_weight_bytes = 1.0;
  CHECK(weight_evidence(doc, rules, &cfg, 1.0).notes.empty());
}

}  // namespace unit_dtype_evidence
