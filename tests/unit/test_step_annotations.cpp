// Step annotations (docs/method.md §22.7): every spelling's parser, the names that are not steps or
// do not parse, and — on hand-written traces — overlapping spans as one step, attribution by launch
// (the CPU span holding the runtime launch), the GPU-span fallback and the per-regime sums.
#include <string>
#include <vector>

#include <fmt/format.h>

#include "roofline/cli/layer.hpp"
#include "roofline/inputs/load.hpp"
#include "roofline/topn/names/step_annotations.hpp"
#include "roofline/topn/readers/chrome_events.hpp"
#include "test_helpers.hpp"
#include "topn_test_io.hpp"

namespace unit_step_annotations {
using namespace roofline::cli;
using namespace roofline::topn::detail;
using roofline::test::chunked;
using roofline::test::rel;

namespace {

StepName step(const std::string& name) {
  const StepNameParse p = parse_step_annotation(name);
  INFO(name);
  REQUIRE(p.kind == StepNameKind::step);
  return p.step;
}

StepNameKind kind_of(const std::string& name) {
  return parse_step_annotation(name).kind;
}

}  // namespace

TEST_CASE("step names: vLLM detailed annotation with tokens and Σ terms per part",
          "[topn][steps]") {
  const StepName s = step(
      "execute_8192_context_9(sq8155sk8430sqsq7475785sqsk7671310)_generation_37("
      "sq37sk34489sqsq37sqsk34489)");
  CHECK(s.style == StepStyle::vllm);
  CHECK(s.tokens.value() == 8192);
  CHECK(s.context.requests.value() == 9);
  CHECK(s.context.sum_q.value() == 8155);
  CHECK(s.context.sum_kv.value() == 8430);
  CHECK(s.context.sum_q2.value() == 7475785);
  CHECK(s.context.sum_qkv.value() == 7671310);
  CHECK(s.generation.requests.value() == 37);
  CHECK(s.generation.sum_kv.value() == 34489);
  CHECK(s.prefill());
  CHECK(s.rows() == 8192);  // a prefill step: every token of the step
  CHECK(s.decode_requests().value() == 37);
  CHECK(s.graph_size().value() == 8192);  // vLLM captures by tokens
  CHECK(s.has_sigma());
}

TEST_CASE("step names: vLLM native and the B200 spelling with Σq²", "[topn][steps]") {
  StepName s = step("execute_context_2(6144)_generation_3(3)");
  CHECK_FALSE(s.tokens);
  CHECK(s.context.requests.value() == 2);
  CHECK(s.context.sum_q.value() == 6144);
  CHECK(s.generation.sum_q.value() == 3);
  CHECK(s.step_tokens().value() == 6147);
  CHECK(s.rows() == 6147);
  CHECK_FALSE(s.has_sigma());
  s = step("execute_context_1(888_788544)_generation_0(0)");
  CHECK(s.context.sum_q.value() == 888);
  CHECK(s.context.sum_q2.value() == 788544);
  CHECK(s.generation.requests.value() == 0);
  CHECK(s.prefill());
  CHECK(s.rows() == 888);
  s = step("execute_context_0(0)_generation_64(64)");
  CHECK_FALSE(s.prefill());
  CHECK(s.rows() == 64);
  CHECK(s.graph_size().value() == 64);
}

TEST_CASE("step names: SGLang step[...] with the c_/g_ fields", "[topn][steps]") {
  StepName s = step("step[DECODE bs=32]");
  CHECK(s.style == StepStyle::sglang);
  CHECK_FALSE(s.prefill());
  CHECK(s.generation.requests.value() == 32);
  CHECK(s.rows() == 32);
  CHECK(s.graph_size().value() == 32);  // SGLang captures by requests
  s = step("step[EXTEND bs=2 toks=14721]");
  CHECK(s.prefill());
  CHECK(s.context.requests.value() == 2);
  CHECK(s.context.sum_q.value() == 14721);
  CHECK(s.rows() == 14721);
  s = step("step[MIXED bs=2]");
  CHECK(s.prefill());
  s = step(
      "step[MIXED bs=2 c=1 g=1 c_sq=5 c_sk=8 c_sqsq=25 c_sqsk=40 g_sq=1 g_sk=12 g_sqsq=1 "
      "g_sqsk=12 future_key=7]");
  CHECK(s.context.requests.value() == 1);
  CHECK(s.context.sum_q.value() == 5);
  CHECK(s.context.sum_kv.value() == 8);
  CHECK(s.context.sum_q2.value() == 25);
  CHECK(s.context.sum_qkv.value() == 40);
  CHECK(s.generation.requests.value() == 1);
  CHECK(s.generation.sum_kv.value() == 12);
  CHECK(s.rows() == 6);  // Σq of both parts
  s = step("step[MIXED bs=5 c=2 toks=300]");
  CHECK(s.generation.requests.value() == 3);  // bs = c + g
  CHECK(s.rows() == 300);
  s = step("step[DECODE bs=4 g_sq=8]");  // MTP: more query tokens than requests
  CHECK(s.generation.sum_q.value() == 8);
  CHECK(s.rows() == 4);
}

TEST_CASE("step names: ATOM prefill[...] and decode[...] with padded batches", "[topn][steps]") {
  StepName s = step("prefill[bs=2 tok=14721 ctx=[7803, 6918]]");
  CHECK(s.style == StepStyle::atom);
  CHECK(s.prefill());
  CHECK(s.context.requests.value() == 2);
  CHECK(s.context.sum_q.value() == 14721);
  CHECK(s.context.sum_kv.value() == 14721);
  s = step("decode[bs=117/128 tok=117 d=117 sqsq=117 sqsk=93600 sk=93600]");
  CHECK_FALSE(s.prefill());
  CHECK(s.requests.value() == 117);
  CHECK(s.padded.value() == 128);
  CHECK(s.generation.requests.value() == 117);
  CHECK(s.generation.sum_q.value() == 117);
  CHECK(s.generation.sum_kv.value() == 93600);
  CHECK(s.generation.sum_qkv.value() == 93600);
  CHECK(s.rows() == 117);
  CHECK(s.graph_size().value() == 117);  // the smallest graph >= 117 is the padded one
}

TEST_CASE(
    "step names: capture and profiler-step annotations are never steps; broken ones are "
    "malformed",
    "[topn][steps]") {
  for (const char* name :
       {"capture_32_DECODE", "capture_8192_PIECEWISE", "ProfilerStep#134", "execute_model",
        "## Call CompiledFxGraph abc ##", "decode", "step", "model_forward"})
    CHECK(kind_of(name) == StepNameKind::not_step);
  for (const char* name :
       {"execute_context_1(2)", "execute_context_1_generation_3(3)", "execute_8192_context_9(",
        "execute_context_2()_generation_0(0)", "execute_context_2(sq)_generation_0(0)",
        "step[DECODE bs=32", "step[]", "step[WARMUP bs=1]", "step[DECODE bs=abc]",
        "decode[bs=117/ tok=117]", "prefill[bs=2 ctx=[a, b]]", "step[MIXED c=x]",
        "execute_context_99999999999999999(1)_generation_0(0)"})
    CHECK(kind_of(name) == StepNameKind::malformed);
  const auto mark = parse_capture_annotation("capture_8192_PIECEWISE");
  REQUIRE(mark);
  CHECK(mark->size == 8192);
  CHECK(mark->mode == "PIECEWISE");
  CHECK_FALSE(parse_capture_annotation("capture_x_DECODE"));
  CHECK_FALSE(parse_capture_annotation("ProfilerStep#3"));
}

// ---- on traces -------------------------------------------------------------------------------

namespace {

std::string ev(const std::string& cat, const std::string& name, int pid, int tid, double ts,
               double dur, const std::string& args = "{}") {
  return fmt::format(
      R"({{"ph": "X", "cat": "{}", "name": "{}", "pid": {}, "tid": {}, "ts": {}, "dur": {}, "args": {}}})",
      cat, name, pid, tid, ts, dur, args);
}

// A kernel launched from thread 7 at `launch_ts`, run on device 0 at `gpu_ts`.
std::vector<std::string> launched(const std::string& kernel, long corr, double launch_ts,
                                  double gpu_ts, double dur) {
  return {
      ev("cuda_runtime", "cudaLaunchKernel", 7, 7, launch_ts, 2,
         fmt::format(R"({{"External id": {}, "correlation": {}}})", corr + 100, corr)),
      ev("kernel", kernel, 0, 9, gpu_ts, dur,
         fmt::format(R"({{"External id": {}, "correlation": {}}})", corr + 100, corr)),
  };
}

std::string trace_of(const std::vector<std::vector<std::string>>& groups) {
  std::string out = R"({"traceEvents": [)";
  bool first = true;
  for (const auto& g : groups)
    for (const auto& e : g) {
      out += (first ? "\n  " : ",\n  ") + e;
      first = false;
    }
  return out + "\n]}";
}

TraceProfile read(const std::string& text) {
  TraceRead r = read_trace_stream(chunked(text, 333), "t.json");
  INFO(r.error);
  REQUIRE(r.profile);
  return *r.profile;
}

const TraceKernel& kernel(const TraceProfile& p, const std::string& name) {
  for (const auto& k : p.kernels)
    if (k.name == name) return k;
  FAIL("no kernel " << name);
  return p.kernels.front();
}

}  // namespace

TEST_CASE(
    "steps on a trace: a GPU event belongs to the CPU step holding its launch, not to the "
    "span its GPU time falls in",
    "[topn][steps]") {
  const TraceProfile p = read(trace_of({
      {ev("user_annotation", "execute_context_1(100)_generation_0(0)", 7, 7, 0, 50),
       ev("user_annotation", "execute_context_0(0)_generation_8(8)", 7, 7, 60, 50),
       // the GPU copy of the first step covers the decode step's kernels in GPU time
       ev("gpu_user_annotation", "execute_context_1(100)_generation_0(0)", 0, 9, 100, 1000)},
      launched("k", 1, 10, 100, 5),   // launched in the prefill step
      launched("k", 2, 70, 200, 3),   // launched in the decode step, runs late on the GPU
      launched("k", 3, 200, 300, 1),  // launched after both steps: no regime
  }));
  CHECK(p.steps.source == "user_annotation");
  CHECK(p.steps.n_prefill == 1);
  CHECK(p.steps.n_decode == 1);
  const TraceKernel& k = kernel(p, "k");
  CHECK(k.regime_calls.prefill.value() == 1);
  CHECK(k.regime_calls.decode.value() == 1);
  CHECK(k.regime_us.decode.value() == rel(3));
}

TEST_CASE(
    "steps on a trace: nested spans on one thread are one step, figures from the span "
    "with Σ terms",
    "[topn][steps]") {
  const TraceProfile p = read(trace_of({
      {ev("user_annotation",
          "execute_32_context_0(sq0sk0sqsq0sqsk0)_generation_32(sq32sk32785sqsq32sqsk32785)", 7, 7,
          0, 1000),
       ev("user_annotation", "step[DECODE bs=32]", 7, 7, 100, 800),
       ev("user_annotation", "ProfilerStep#3", 7, 7, 0, 2000)},
      launched("k", 1, 50, 5000, 5),   // inside the outer span only
      launched("k", 2, 500, 5010, 5),  // inside both
  }));
  CHECK(p.steps.n_decode == 1);
  CHECK(p.steps.n_prefill == 0);
  CHECK(p.steps.decode_batches == std::map<std::int64_t, double>{{32, 1}});
  CHECK(p.steps.decode_generation.steps == 1);
  CHECK(p.steps.decode_generation.sum_kv == 32785);
  CHECK(p.steps.decode_generation.kv_steps == 1);
  CHECK(kernel(p, "k").regime_calls.decode.value() == 2);
}

TEST_CASE("steps on a trace: GPU spans are the fallback when no CPU span holds a launch",
          "[topn][steps]") {
  const TraceProfile p = read(trace_of({
      {ev("user_annotation", "execute_context_0(0)_generation_4(4)", 7, 7, 900, 5),
       ev("gpu_user_annotation", "execute_context_0(0)_generation_4(4)", 0, 9, 100, 50)},
      launched("k", 1, 10, 110, 5),
  }));
  CHECK(p.steps.source == "gpu_user_annotation");
  CHECK(p.steps.n_decode == 1);
  CHECK(kernel(p, "k").regime_calls.decode.value() == 1);
}

TEST_CASE("steps on a trace: malformed step names are counted, with an example", "[topn][steps]") {
  const std::string text = trace_of({
      {ev("user_annotation", "step[DECODE bs=32", 7, 7, 0, 100),
       ev("user_annotation", "execute_context_1(2)", 7, 7, 200, 100),
       ev("user_annotation", "capture_32_DECODE", 7, 7, 0, 1000)},
      launched("k", 1, 50, 110, 5),
  });
  TraceRead r = read_trace_stream(chunked(text, 4096), "t.json");
  REQUIRE(r.profile);
  CHECK(r.profile->steps.unparsed == 2);
  CHECK(r.profile->steps.unparsed_example == "step[DECODE bs=32");
  CHECK_FALSE(r.profile->steps.any());
  bool noted = false;
  for (const auto& n : r.notes) noted = noted || n.find("do not parse") != std::string::npos;
  CHECK(noted);
}

TEST_CASE("steps on a trace: a signature counts the steps its launches fell in", "[topn][steps]") {
  const std::string op = ev(
      "cpu_op", "aten::mm", 7, 7, 0, 1,
      R"({"External id": 101, "Input Dims": [[8, 64], [64, 64]], "Input type": ["float", "float"]})");
  const TraceProfile p = read(trace_of({
      {ev("user_annotation", "step[EXTEND bs=2 toks=300]", 7, 7, 0, 50),
       ev("user_annotation", "step[DECODE bs=8]", 7, 7, 60, 50), op},
      launched("k", 1, 10, 100, 5),
      {ev("cuda_runtime", "cudaLaunchKernel", 7, 7, 70, 2,
          R"({"External id": 101, "correlation": 9})"),
       ev("kernel", "k", 0, 9, 200, 3, R"({"correlation": 9})")},
  }));
  // One signature (docs/method.md §22.8) in a prefill and a decode step: no single regime or rows.
  const TraceKernel& k = kernel(p, "k");
  REQUIRE(k.cases.size() == 1);
  CHECK(k.cases[0].steps.prefill == 1);
  CHECK(k.cases[0].steps.decode == 1);
  CHECK_FALSE(k.cases[0].regime);
  CHECK_FALSE(k.cases[0].rows);
  CHECK(p.steps.prefill_context.sum_q == 300);
  CHECK(p.steps.decode_generation.requests == 8);
}

TEST_CASE("serving block: the measured figures are written and read back by analyze's loader",
          "[topn][steps]") {
  const TraceProfile p = read(trace_of({
      {ev("user_annotation",
          "execute_8192_context_9(sq8155sk8430sqsq7475785sqsk7671310)_generation_37("
          "sq37sk34489sqsq37sqsk34489)",
          7, 7, 0, 50)},
      launched("k", 1, 10, 100, 5),
  }));
  const TopnDocument doc = build_topn(p, TopnOptions{}, {}, {}).topn;
  REQUIRE(doc.serving.present);
  CHECK(doc.serving.decode_from == "mixed steps' generation parts");
  const Loaded<TopnDocument> t = parse_topn(render_topn_json(doc), "profile_topN.json");
  REQUIRE(t.value);
  CHECK(t.errors.empty());
  const TopnServing& s = t.value->serving;
  CHECK(s.step_source == "user_annotation");
  CHECK(s.decode_batch.value() == 37);
  CHECK(s.decode_context.value() == rel(932.135));  // 34489 / 37, rounded to 3 decimals
  CHECK(s.decode_from == "mixed steps' generation parts");
  CHECK(s.prefill_tokens_per_step.value() == 8192);
  CHECK(s.prefill_context.steps.value() == 1);
  CHECK(s.prefill_context.sum_qkv.value() == 7671310);
  CHECK(s.prefill_generation.requests.value() == 37);
  CHECK_FALSE(s.decode_generation.steps);
  CHECK(t.value->entries.at(0).est_shape.prefill->m.value() == 8192);
}

TEST_CASE(
    "a GPU event without a name is still GPU time: it is named, and its entry survives "
    "the round trip through analyze's loader",
    "[topn][steps]") {
  const TraceProfile p = read(trace_of({{
      R"({"ph": "X", "cat": "kernel", "pid": 0, "tid": 9, "ts": 1, "dur": 5, "args": {}})",
      R"({"ph": "X", "cat": "gpu_memcpy", "name": "", "pid": 0, "tid": 9, "ts": 9, "dur": 2})",
  }}));
  REQUIRE(p.kernels.size() == 2);
  CHECK(p.kernels[0].name == "(unnamed kernel)");
  CHECK(p.kernels[1].name == "(unnamed memcpy)");
  const TopnDocument doc = build_topn(p, TopnOptions{}, {}, {}).topn;
  const Loaded<TopnDocument> t = parse_topn(render_topn_json(doc), "profile_topN.json");
  REQUIRE(t.value);
  CHECK(t.value->entries.size() == 2);
}

}  // namespace unit_step_annotations
