// read_trace_stream on PyTorch profiler Chrome traces (hand-written, in memory): GPU events
// summed by name, the launching op's shapes joined by External id or correlation, step
// annotations, gzip, and broken inputs.
#include <string>
#include <vector>

#include <fmt/format.h>

#include "roofline/cli/layer.hpp"
#include "roofline/topn/readers/chrome_events.hpp"
#include "test_helpers.hpp"
#include "topn_test_io.hpp"

namespace unit_chrome_trace {
using namespace roofline::cli;
using roofline::test::chunked;
using roofline::test::gzip;
using roofline::test::rel;

namespace {

std::string op(long ext, const std::string& dims, const std::string& types,
               const std::string& name = "aten::mm") {
  return fmt::format(
      R"({{"ph": "X", "cat": "cpu_op", "name": "{}", "pid": 7, "tid": 7, "ts": 1.0, "dur": 9.0,)"
      R"( "args": {{"External id": {}, "Sequence number": 3, "Input Dims": {}, "Input type": {}}}}})",
      name, ext, dims, types);
}

std::string gpu(const std::string& name, long ext, double ts, double dur,
                const std::string& cat = "kernel", int device = 0) {
  return fmt::format(
      R"({{"ph": "X", "cat": "{}", "name": "{}", "pid": {}, "tid": 7, "ts": {}, "dur": {},)"
      R"( "args": {{"External id": {}, "device": 0, "stream": 7, "correlation": {}, "grid": [1, 1, 1]}}}})",
      cat, name, device, ts, dur, ext, ext + 1000);
}

std::string annotation(const std::string& name, double ts, double dur, int device = 0) {
  return fmt::format(
      R"({{"ph": "X", "cat": "gpu_user_annotation", "name": "{}", "pid": {}, "tid": 7, "ts": {}, "dur": {}}})",
      name, device, ts, dur);
}

std::string trace(const std::vector<std::string>& events) {
  std::string out =
      R"({"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "NVIDIA H200"}], "traceEvents": [)";
  for (std::size_t i = 0; i < events.size(); ++i) out += (i ? ",\n  " : "\n  ") + events[i];
  out += R"(
  , {"ph": "s", "id": 20, "pid": 7, "tid": 7, "ts": 1.0, "cat": "ac2g", "name": "ac2g"}
], "traceName": "x.json", "displayTimeUnit": "ms"})";
  return out;
}

TraceProfile read_ok(const std::string& text, std::size_t chunk = 4096) {
  TraceRead r = read_trace_stream(chunked(text, chunk), "t.json");
  INFO(r.error);
  REQUIRE(r.profile);
  CHECK(r.error.empty());
  return *r.profile;
}

const TraceKernel& kernel(const TraceProfile& p, const std::string& name) {
  for (const auto& k : p.kernels)
    if (k.name == name) return k;
  FAIL("no kernel " << name);
  return p.kernels.front();
}

const std::string k_mm = R"(nvjet_sm90_tst_56x64_64x14_4x1_v_bz_TNN)";
const std::string k_norm =
    R"(void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<c10::BFloat16, float, true>(int, float, c10::BFloat16 const*))";

std::string basic_trace() {
  return trace({
      op(1, "[[64, 2048], [2048, 5120]]", R"(["c10::BFloat16", "c10::BFloat16"])"),
      op(2, "[[64, 2048], [], [2048], []]",
         R"(["c10::BFloat16", "ScalarList", "c10::BFloat16", ""])", "aten::_fused_rms_norm"),
      op(3, "[[128, 2048], [2048, 5120]]", R"(["c10::BFloat16", "c10::BFloat16"])"),
      op(4, "[[268435456], [268435456], []]", R"(["float", "float", "Scalar"])", "aten::copy_"),
      op(5, "[[], [], []]", R"(["c10::BFloat16", "float", "Scalar"])", "aten::add"),
      gpu(k_mm, 1, 100, 10.0),
      gpu(k_norm, 2, 120, 4.0),
      gpu(k_mm, 3, 140, 20.0),
      gpu(k_mm, 1, 160, 12.5),
      gpu("Memcpy DtoD (Device -> Device)", 4, 200, 500.5, "gpu_memcpy"),
      gpu("Memset (Device)", 4, 800, 0.75, "gpu_memset"),
      gpu("unrolled_elementwise_kernel", 5, 900, 1.25),
  });
}

}  // namespace

TEST_CASE("Chrome trace: GPU time summed per exact name, memcpy and memset included",
          "[topn][chrome]") {
  const TraceProfile p = read_ok(basic_trace());
  CHECK(p.source == "torch-trace");
  REQUIRE(p.kernels.size() == 5);
  CHECK(std::is_sorted(p.kernels.begin(), p.kernels.end(),
                       [](const auto& a, const auto& b) { return a.name < b.name; }));
  const TraceKernel& mm = kernel(p, k_mm);
  CHECK(mm.calls == 3);
  CHECK(mm.total_us == rel(42.5));
  CHECK(mm.kind == GpuEventKind::kernel);
  const TraceKernel& copy = kernel(p, "Memcpy DtoD (Device -> Device)");
  CHECK(copy.kind == GpuEventKind::memcpy);
  CHECK(copy.total_us == rel(500.5));
  CHECK(kernel(p, "Memset (Device)").kind == GpuEventKind::memset);
  CHECK(p.steps.n_prefill + p.steps.n_decode == 0);
}

TEST_CASE("Chrome trace: a user annotation that records its arguments launches like an op",
          "[topn][chrome]") {
  // Inductor wraps each generated kernel's launch in a record function of the kernel's name with
  // the kernel's buffers as its arguments; builds that file it as a user annotation still give
  // the kernel its shapes. A step annotation (no arguments) stays a step marker only.
  std::string rf = op(5, "[[4, 4], [4, 4], [4, 4], []]", R"(["float", "float", "float", "Scalar"])",
                      "triton_poi_fused_add_cos_sin_0");
  rf.replace(rf.find("\"cpu_op\""), 8, "\"user_annotation\"");
  const TraceProfile p = read_ok(trace({rf, gpu("triton_poi_fused_add_cos_sin_0", 5, 20.0, 2.0)}));
  const TraceKernel& k = kernel(p, "triton_poi_fused_add_cos_sin_0");
  REQUIRE(k.cases.size() == 1);
  CHECK(k.cases[0].dims == std::vector<std::vector<std::int64_t>>{{4, 4}, {4, 4}, {4, 4}});
}

TEST_CASE("Chrome trace: each launch joined to its op's non-empty operand dims and types",
          "[topn][chrome]") {
  const TraceProfile p = read_ok(basic_trace());
  const TraceKernel& mm = kernel(p, k_mm);
  REQUIRE(mm.cases.size() == 2);  // two distinct signatures
  double counted = 0;
  for (const TraceCase& c : mm.cases) {
    counted += c.count;
    CHECK(c.dtypes == std::vector<std::string>{"c10::BFloat16", "c10::BFloat16"});
    CHECK_FALSE(c.regime);
    if (c.dims.front().front() == 64) {
      CHECK(c.count == 2);
      CHECK(c.total_us == rel(22.5));
      CHECK(c.dims == std::vector<std::vector<std::int64_t>>{{64, 2048}, {2048, 5120}});
    } else {
      CHECK(c.dims == std::vector<std::vector<std::int64_t>>{{128, 2048}, {2048, 5120}});
    }
  }
  CHECK(counted == 3);
  // Scalar, ScalarList and "" are not tensors; empty dims are not operands.
  const TraceKernel& norm = kernel(p, k_norm);
  REQUIRE(norm.cases.size() == 1);
  CHECK(norm.cases[0].dims == std::vector<std::vector<std::int64_t>>{{64, 2048}, {2048}});
  CHECK(norm.dtypes == std::vector<std::string>{"c10::BFloat16"});
  // A 0-d tensor's type still counts among the dtypes, but gives no operand: its launch is a
  // signature without dims (docs/method.md §22.8), which no model reads.
  const TraceKernel& add = kernel(p, "unrolled_elementwise_kernel");
  REQUIRE(add.cases.size() == 1);
  CHECK(add.cases[0].dims.empty());
  CHECK(add.dtypes == std::vector<std::string>{"c10::BFloat16", "float"});
  // One op launched both the copy and the memset.
  CHECK(kernel(p, "Memset (Device)").cases.at(0).dims ==
        std::vector<std::vector<std::int64_t>>{{268435456}, {268435456}});
}

TEST_CASE("Chrome trace: the join does not depend on event order, chunking or compression",
          "[topn][chrome]") {
  const TraceProfile a = read_ok(basic_trace());
  // Kernels first, ops last.
  const TraceProfile b = read_ok(trace({
      gpu(k_mm, 3, 140, 20.0),
      gpu(k_mm, 1, 100, 10.0),
      gpu(k_mm, 1, 160, 12.5),
      op(3, "[[128, 2048], [2048, 5120]]", R"(["c10::BFloat16", "c10::BFloat16"])"),
      op(1, "[[64, 2048], [2048, 5120]]", R"(["c10::BFloat16", "c10::BFloat16"])"),
  }));
  const TraceKernel& mm = kernel(b, k_mm);
  REQUIRE(mm.cases.size() == 2);
  CHECK(mm.cases[0].count + mm.cases[1].count == 3);
  const std::string text = basic_trace();
  const std::string gz = gzip(text);
  for (std::size_t chunk : {1u, 13u, 100000u}) {
    for (const std::string* input : {&text, &gz}) {
      const TraceProfile c = read_ok(*input, chunk);
      REQUIRE(c.kernels.size() == a.kernels.size());
      for (std::size_t i = 0; i < a.kernels.size(); ++i) {
        CHECK(c.kernels[i].name == a.kernels[i].name);
        CHECK(c.kernels[i].calls == a.kernels[i].calls);
        CHECK(c.kernels[i].total_us == a.kernels[i].total_us);
        CHECK(c.kernels[i].cases.size() == a.kernels[i].cases.size());
      }
    }
  }
}

TEST_CASE("Chrome trace: a kernel without External id is joined through its launch's correlation",
          "[topn][chrome]") {
  const std::string kernel_event =
      R"({"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "ts": 10, "dur": 2, "args": {"correlation": 55}})";
  const std::string launch =
      R"({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 7, "ts": 9, "dur": 1, "args": {"External id": 9, "correlation": 55}})";
  const TraceProfile p = read_ok(trace({kernel_event, launch, op(9, "[[8, 16]]", R"(["float"])")}));
  REQUIRE(p.kernels.size() == 1);
  REQUIRE(p.kernels[0].cases.size() == 1);
  CHECK(p.kernels[0].cases[0].dims == std::vector<std::vector<std::int64_t>>{{8, 16}});
  CHECK(p.kernels[0].dtypes == std::vector<std::string>{"float"});
}

TEST_CASE("Chrome trace: a tensor list contributes one operand per member", "[topn][chrome]") {
  const TraceProfile p = read_ok(trace({
      op(1, "[[[2, 3], [4, 5]], [], [7]]", R"(["TensorList", "Scalar", "long int"])", "aten::cat"),
      gpu("CatArrayBatchedCopy", 1, 10, 1),
  }));
  REQUIRE(p.kernels.at(0).cases.size() == 1);
  const TraceCase& c = p.kernels[0].cases[0];
  CHECK(c.dims == std::vector<std::vector<std::int64_t>>{{2, 3}, {4, 5}, {7}});
  CHECK(c.dtypes == std::vector<std::string>{"TensorList", "TensorList", "long int"});
  CHECK(p.kernels[0].dtypes == std::vector<std::string>{"long int"});
}

TEST_CASE("Chrome trace: step annotations split launches into prefill and decode",
          "[topn][chrome]") {
  const TraceProfile p = read_ok(trace({
      annotation("execute_context_2(4096)_generation_0(0)", 1000, 100),
      annotation("execute_context_1(1024)_generation_30(30)", 2000, 100),
      annotation("execute_context_0(0)_generation_64(64)", 3000, 50),
      annotation("execute_context_0(0)_generation_64(64)", 4000, 50),
      annotation("execute_context_0(0)_generation_32(32)", 5000, 50),
      annotation("model_forward", 0, 100000),  // not a step
      op(1, "[[64, 2048], [2048, 5120]]", R"(["c10::BFloat16", "c10::BFloat16"])"),
      gpu(k_mm, 1, 1010, 30),              // prefill
      gpu(k_mm, 1, 2010, 30),              // prefill
      gpu(k_mm, 1, 3010, 5),               // decode
      gpu(k_mm, 1, 4049.5, 5),             // decode (inside 4000..4050)
      gpu(k_mm, 1, 5010, 5),               // decode
      gpu(k_mm, 1, 4050, 5),               // between steps: no regime
      gpu(k_mm, 1, 3010, 5, "kernel", 1),  // another device: no step there
  }));
  CHECK(p.steps.n_prefill == 2);
  CHECK(p.steps.n_decode == 3);
  CHECK(p.steps.prefill_rows_sum == 4096 + 1024 + 30);
  CHECK(p.steps.decode_batches == std::map<std::int64_t, double>{{32, 1}, {64, 2}});
  const TraceKernel& mm = kernel(p, k_mm);
  CHECK(mm.calls == 7);
  CHECK(mm.regime_calls.prefill.value() == 2);
  CHECK(mm.regime_calls.decode.value() == 3);
  CHECK(mm.regime_us.prefill.value() == rel(60));
  CHECK(mm.regime_us.decode.value() == rel(15));
  // One signature (docs/method.md §22.8): its launches counted by the kind of step they fell in
  // (the second step carries decode requests beside its prompt: mixed); two fell in none.
  REQUIRE(mm.cases.size() == 1);
  const TraceCase& c = mm.cases[0];
  CHECK(c.count == 7);
  CHECK(c.steps.prefill == 1);
  CHECK(c.steps.mixed == 1);
  CHECK(c.steps.decode == 3);
  CHECK_FALSE(c.regime);  // launches in both regimes
}

TEST_CASE("Chrome trace: a step with zero tokens or no launch is not a step", "[topn][chrome]") {
  // vLLM writes execute_context_0(0)_generation_0(0) around scheduler ticks that launch nothing
  // (docs/method.md §22.7); an annotation holding no GPU activity is no step either.
  const TraceProfile p = read_ok(trace({
      annotation("execute_context_1(1024)_generation_0(0)", 1000, 100),
      annotation("execute_context_0(0)_generation_0(0)", 2000, 100),
      annotation("execute_context_0(0)_generation_1(1)", 3000, 50),
      annotation("execute_context_0(0)_generation_1(1)", 4000, 50),
      op(1, "[[64, 2048], [2048, 5120]]", R"(["c10::BFloat16", "c10::BFloat16"])"),
      gpu(k_mm, 1, 1010, 30),  // prefill
      gpu(k_mm, 1, 2010, 30),  // inside the zero-token annotation: in no step
      gpu(k_mm, 1, 3010, 5),   // decode; the step at 4000 launches nothing
  }));
  CHECK(p.steps.n_prefill == 1);
  CHECK(p.steps.n_decode == 1);
  CHECK(p.steps.empty == 2);
  const TraceKernel& mm = kernel(p, k_mm);
  CHECK(mm.regime_calls.prefill.value() == 1);
  CHECK(mm.regime_calls.decode.value() == 1);
}

TEST_CASE("parse_step_name: vLLM step annotations and what is not one", "[topn][chrome]") {
  auto s = detail::parse_step_name("execute_context_3(384)_generation_61(61)");
  REQUIRE(s);
  CHECK(s->prefill);
  CHECK(s->rows == 445);
  CHECK(s->batch == 61);
  s = detail::parse_step_name("execute_model_context_0(0)_generation_128(128)");
  REQUIRE(s);
  CHECK_FALSE(s->prefill);
  CHECK(s->batch == 128);
  CHECK_FALSE(detail::parse_step_name("context_1(2)_generation_3(3)"));  // not execute_
  CHECK_FALSE(detail::parse_step_name("execute_context_1_generation_3(3)"));
  CHECK_FALSE(detail::parse_step_name("execute_context_1(2)"));
}

TEST_CASE("Chrome trace: the JSON Array Format (a bare event list) is read too", "[topn][chrome]") {
  std::string events = "[";  // (built step by step: GCC 12's -Wrestrict misfires on "[" + s)
  events += gpu("k", 1, 1, 2.5);
  events += ", ";
  events += gpu("k", 1, 5, 0.5);
  events += "]";
  const TraceProfile p = read_ok(events);
  REQUIRE(p.kernels.size() == 1);
  CHECK(p.kernels[0].calls == 2);
  CHECK(p.kernels[0].total_us == rel(3.0));
}

TEST_CASE("Chrome trace: escaped names are decoded; older category spellings are read",
          "[topn][chrome]") {
  const TraceProfile p = read_ok(trace({
      R"j({"ph": "X", "cat": "Kernel", "name": "void f\u003cint\u003e(int)", "pid": 0, "ts": 1, "dur": 2})j",
      R"j({"ph": "X", "cat": "Memcpy", "name": "Memcpy HtoD (Pageable -> Device)", "pid": 0, "ts": 5, "dur": 3})j",
      R"({"ph": "i", "cat": "kernel", "name": "instant", "pid": 0, "ts": 5})",
  }));
  REQUIRE(p.kernels.size() == 2);
  CHECK(p.kernels[0].name == "Memcpy HtoD (Pageable -> Device)");
  CHECK(p.kernels[0].kind == GpuEventKind::memcpy);
  CHECK(p.kernels[1].name == "void f<int>(int)");
}

TEST_CASE("Chrome trace: broken inputs are one line naming the file and the problem",
          "[topn][chrome]") {
  const std::string good = basic_trace();
  const std::string gz = gzip(good);
  struct Case {
    std::string input, want;
  };
  const std::vector<Case> cases = {
      {gz.substr(0, gz.size() / 2), "truncated gzip stream"},
      {gz.substr(0, gz.size() - 4), "truncated gzip stream"},  // the trailer cut off
      {gz.substr(0, 10) + std::string(200, 'x'), "corrupt gzip data"},
      {good.substr(0, good.size() / 2), "truncated"},
      {gzip(good.substr(0, good.size() / 2)), "truncated"},  // intact gzip of cut JSON
      {R"({"schemaVersion": 1})", "no traceEvents"},
      {R"({"traceEvents": []})", "no GPU activity"},
      {trace({op(1, "[[1]]", R"(["float"])")}), "no GPU activity"},
      {"a,b,c\n1,2,3\n", "not a kernel trace this tool reads"},
      {"", "empty file"},
      {"  \n ", "only whitespace"},
      {R"({"traceEvents": [{"ph": "X", "name": "k" "cat": "kernel"}]})", "expected ','"},
  };
  for (const Case& c : cases) {
    INFO(c.want);
    TraceRead r = read_trace_stream(chunked(c.input, 1000), "run/trace.json.gz");
    CHECK_FALSE(r.profile);
    CHECK(r.error.rfind("run/trace.json.gz: ", 0) == 0);
    CHECK(r.error.find(c.want) != std::string::npos);
    CHECK(r.error.find('\n') == std::string::npos);
  }
}

TEST_CASE("Chrome trace: a trace without record_shapes says so in a note", "[topn][chrome]") {
  TraceRead r = read_trace_stream(chunked(trace({gpu("k", 1, 1, 2)}), 4096), "t.json");
  REQUIRE(r.profile);
  CHECK(roofline::test::any_contains(r.notes, {"record_shapes"}));
}

TEST_CASE("Chrome trace: gzip with output far larger than a read, and concatenated members",
          "[topn][chrome]") {
  std::vector<std::string> events;
  for (int i = 0; i < 20000; ++i)  // ~4 MB of JSON, compressing ~50x: many full output buffers
    events.push_back(gpu(i % 2 ? k_mm : "k2", i, 100.0 * i, 1.5));
  const std::string text = trace(events);
  const std::string gz = gzip(text);
  const std::string two_members = gzip(text.substr(0, 1000)) + gzip(text.substr(1000));
  for (const std::string* input : {&gz, &two_members}) {
    for (std::size_t chunk : {997u, 1u << 20}) {
      const TraceProfile p = read_ok(*input, chunk);
      REQUIRE(p.kernels.size() == 2);
      CHECK(p.kernels[0].calls + p.kernels[1].calls == 20000);
      CHECK(kernel(p, k_mm).total_us == rel(15000.0));
    }
  }
  TraceRead r = read_trace_stream(chunked(gz.substr(0, gz.size() - 1), 4096), "t.json.gz");
  CHECK_FALSE(r.profile);
  CHECK(r.error.find("truncated gzip stream") != std::string::npos);
}

TEST_CASE("Chrome trace: a gzip checksum error is reported the same whatever the chunking",
          "[topn][chrome]") {
  std::string gz = gzip(basic_trace());
  gz[gz.size() - 8] = static_cast<char>(gz[gz.size() - 8] ^ 0x5a);  // the CRC-32 trailer
  std::string first;
  for (std::size_t chunk : {1u, 7u, 1u << 20}) {
    TraceRead r = read_trace_stream(chunked(gz, chunk), "t.json.gz");
    CHECK_FALSE(r.profile);
    CHECK(r.error.find("corrupt gzip data") != std::string::npos);
    // zlib names the checksum; ISA-L one message for every fault inside the data
    CHECK((r.error.find("incorrect data check") != std::string::npos ||
           r.error.find("does not decode") != std::string::npos));
    if (first.empty()) first = r.error;
    CHECK(r.error == first);
  }
}

// A fuzz finding (tests/fuzz/regressions/capture/nan_kernel_duration.bin): a kernel whose `dur`
// is NaN made the Top-N's total GPU time NaN, rendered as null, and the Top-N no longer read back
// to the same bytes. A non-finite time is no time: that launch is not GPU time, the rest sum.
TEST_CASE("Chrome trace: a non-finite kernel duration is not GPU time", "[topn][chrome][hostile]") {
  std::string text = trace({gpu(k_mm, 1, 100, 10.0), gpu(k_mm, 2, 120, 5.0)});
  const std::string five = R"("dur": 5,)";
  const auto at = text.find(five);
  REQUIRE(at != std::string::npos);
  for (const char* bad : {R"("dur": NaN,)", R"("dur": Infinity,)", R"("dur": -Infinity,)"}) {
    std::string t = text;
    t.replace(at, five.size(), bad);
    const TraceProfile p = read_ok(t);
    const TraceKernel& mm = kernel(p, k_mm);
    CHECK(mm.calls == 1);
    CHECK(mm.total_us == rel(10.0));
  }
}

}  // namespace unit_chrome_trace
