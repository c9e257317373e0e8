// docs/method.md §22.8: launches grouped by signature (op, dims, dtypes, key scalars, grid, block)
// with their time statistics and steps; the inheritance rule for launches without an op; each
// signature judged on its own roof and the entry from Σ count·roof over Σ count·t.
#include <string>
#include <vector>

#include <fmt/format.h>

#include "roofline/cli/layer.hpp"
#include "test_helpers.hpp"
#include "topn_test_io.hpp"

namespace unit_signatures {
using namespace roofline::cli;
using roofline::test::chunked;
using roofline::test::dt;
using roofline::test::gfx950_peaks;
using roofline::test::rel;
using roofline::test::work_of;

namespace {

std::string op(long ext, const std::string& name, const std::string& dims, const std::string& types,
               const std::string& concrete = "[]") {
  return fmt::format(
      R"({{"ph": "X", "cat": "cpu_op", "name": "{}", "pid": 7, "tid": 7, "ts": 1.0, "dur": 9.0,)"
      R"( "args": {{"External id": {}, "Input Dims": {}, "Input type": {}, "Concrete Inputs": {}}}}})",
      name, ext, dims, types, concrete);
}

// A kernel launch; ext < 0: no External id and no correlation (a launch without an op).
std::string gpu(const std::string& name, long ext, double ts, double dur, const std::string& grid,
                const std::string& block = "[128, 1, 1]") {
  const std::string ids =
      ext >= 0 ? fmt::format(R"("External id": {}, "correlation": {}, )", ext, ext + 1000) : "";
  return fmt::format(
      R"({{"ph": "X", "cat": "kernel", "name": "{}", "pid": 0, "tid": 7, "ts": {}, "dur": {},)"
      R"( "args": {{{}"device": 0, "stream": 7, "grid": {}, "block": {}}}}})",
      name, ts, dur, ids, grid, block);
}

std::string trace(const std::vector<std::string>& events) {
  std::string out = R"({"traceEvents": [)";
  for (std::size_t i = 0; i < events.size(); ++i) out += (i ? ",\n  " : "\n  ") + events[i];
  return out + "\n]}";
}

TraceProfile read_ok(const std::string& text) {
  TraceRead r = read_trace_stream(chunked(text, 97), "t.json");
  INFO(r.error);
  REQUIRE(r.profile);
  return *r.profile;
}

const TraceKernel& only_kernel(const TraceProfile& p) {
  REQUIRE(p.kernels.size() == 1);
  return p.kernels.front();
}

const std::string k_gemm = "cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_128x128_32x4_tn_align8";
const std::string k_bf16x2 = R"(["c10::BFloat16", "c10::BFloat16"])";

}  // namespace

TEST_CASE("signatures: one kernel's launches split by dims and grid, with time statistics",
          "[topn][signatures]") {
  const TraceProfile p = read_ok(trace({
      op(1, "aten::mm", "[[1024, 2048], [2048, 6144]]", k_bf16x2),
      op(2, "aten::mm", "[[1024, 2048], [2048, 2048]]", k_bf16x2),
      op(3, "aten::mm", "[[1024, 2048], [2048, 6144]]", k_bf16x2),
      op(4, "aten::mm", "[[1024, 2048], [2048, 6144]]", k_bf16x2),
      gpu(k_gemm, 1, 100, 10.0, "[64, 3, 3]"),
      gpu(k_gemm, 2, 200, 4.0, "[64, 2, 1]"),
      gpu(k_gemm, 3, 300, 12.0, "[64, 3, 3]"),
      gpu(k_gemm, 4, 400, 20.0, "[64, 3, 3]"),
  }));
  const TraceKernel& k = only_kernel(p);
  REQUIRE(k.cases.size() == 2);
  const TraceCase& big = k.cases[0];  // most launches first
  CHECK(big.count == 3.0);
  CHECK(big.op == "aten::mm");
  CHECK(big.dims == std::vector<std::vector<std::int64_t>>{{1024, 2048}, {2048, 6144}});
  CHECK(big.grid == std::vector<std::int64_t>{64, 3, 3});
  CHECK(big.block == std::vector<std::int64_t>{128, 1, 1});
  CHECK(big.total_us == rel(42.0));
  CHECK(big.min_us == rel(10.0));
  CHECK(big.max_us == rel(20.0));
  CHECK(k.cases[1].count == 1.0);
  CHECK(k.cases[1].grid == std::vector<std::int64_t>{64, 2, 1});

  const TopnBuild doc = build_topn(p, TopnOptions{}, {}, {});
  REQUIRE(doc.workload.size() == 1);
  const WorkloadCase& w = doc.workload[0].cases[0];
  CHECK(w.mean_us == rel(14.0));
  CHECK(w.median_us == rel(12.0));
  CHECK(w.min_us == rel(10.0));
  CHECK(w.max_us == rel(20.0));
  CHECK(w.total_ms == rel(0.042));
}

TEST_CASE("signatures: a flag or window scalar is a key, a growing max_seqlen_k a range",
          "[topn][signatures]") {
  const std::string fa = "_vllm_fa2_C::varlen_fwd";
  const std::string dims =
      "[[1, 16, 128], [100, 16, 16, 128], [], [], [], [], [], [], [], [], [], "
      "[], [], [], [], [], [], []]";
  const std::string types =
      R"(["c10::BFloat16", "c10::BFloat16", "", "", "", "", "", "", "", "",)"
      R"( "Scalar", "Scalar", "Scalar", "Scalar", "Scalar", "Scalar", "Scalar", "Scalar"])";
  const auto concrete = [](int k, const char* causal, int window) {
    return fmt::format(
        R"(["", "", "", "", "", "", "", "", "", "", "1", "{}", "0.", "0.088", "False", "{}", "{}", "-1"])",
        k, causal, window);
  };
  const std::string kern = "flash_fwd_splitkv_kernel";
  const TraceProfile p = read_ok(trace({
      op(1, fa, dims, types, concrete(100, "True", -1)),
      op(2, fa, dims, types, concrete(101, "True", -1)),
      op(3, fa, dims, types, concrete(105, "True", 127)),
      op(4, fa, dims, types, concrete(106, "False", -1)),
      gpu(kern, 1, 100, 5.0, "[1, 1, 16]"),
      gpu(kern, 2, 200, 5.0, "[1, 1, 16]"),
      gpu(kern, 3, 300, 5.0, "[1, 1, 16]"),
      gpu(kern, 4, 400, 5.0, "[1, 1, 16]"),
  }));
  const TraceKernel& k = only_kernel(p);
  REQUIRE(k.cases.size() == 3);  // causal windowless, causal windowed, not causal
  const TraceCase& c = k.cases[0];
  CHECK(c.count == 2.0);
  REQUIRE(c.scalar_ranges.size() >= 2);
  const auto range = [&](std::size_t arg) {
    for (const ScalarRange& r : c.scalar_ranges)
      if (r.arg == arg) return r;
    FAIL("no range for arg " << arg);
    return ScalarRange{};
  };
  CHECK(range(11).name == "max_seqlen_k");
  CHECK(range(11).min == 100.0);
  CHECK(range(11).max == 101.0);
  CHECK(range(11).mean() == rel(100.5));
  bool causal = false;
  for (const auto& [arg, text] : c.key_scalars) causal = causal || (arg == 15 && text == "True");
  CHECK(causal);
  CHECK(op_scalar_is_key("_vllm_fa2_C::varlen_fwd", 16, "127"));
  CHECK_FALSE(op_scalar_is_key("triton_poi_fused_add_0", 3, "4096"));  // Inductor xnumel
  CHECK(op_scalar_is_key("aten::gelu", 1, "tanh"));
}

TEST_CASE("signatures: a launch without an op inherits the one shaped signature of its geometry",
          "[topn][signatures]") {
  const TraceProfile p = read_ok(trace({
      op(1, "aten::mm", "[[64, 2048], [2048, 6144]]", k_bf16x2),
      op(2, "aten::mm", "[[64, 2048], [2048, 2048]]", k_bf16x2),
      gpu(k_gemm, 1, 100, 10.0, "[8, 3, 1]"), gpu(k_gemm, 2, 200, 4.0, "[8, 1, 1]"),
      gpu(k_gemm, -1, 10, 9.0, "[8, 3, 1]"),    // before the span: inherits the qkv signature
      gpu(k_gemm, -1, 20, 30.0, "[99, 1, 1]"),  // no signature of this geometry: apart
  }));
  const TraceKernel& k = only_kernel(p);
  REQUIRE(k.cases.size() == 3);
  const TraceCase& qkv = k.cases[0];
  CHECK(qkv.count == 2.0);
  CHECK(qkv.inherited == 1.0);
  CHECK(qkv.dims[1] == std::vector<std::int64_t>{2048, 6144});
  const auto apart = std::find_if(k.cases.begin(), k.cases.end(),
                                  [](const TraceCase& c) { return c.dims.empty(); });
  REQUIRE(apart != k.cases.end());
  CHECK(apart->count == 1.0);
  CHECK(apart->grid == std::vector<std::int64_t>{99, 1, 1});
  CHECK(apart->steps.prefill + apart->steps.decode + apart->steps.mixed == 0.0);
}

TEST_CASE("signatures: two shaped signatures of one geometry leave an op-less launch apart",
          "[topn][signatures]") {
  const TraceProfile p = read_ok(trace({
      op(1, "aten::mm", "[[64, 2048], [2048, 6144]]", k_bf16x2),
      op(2, "aten::mm", "[[32, 2048], [2048, 6144]]", k_bf16x2),
      gpu(k_gemm, 1, 100, 10.0, "[8, 3, 1]"),
      gpu(k_gemm, 2, 200, 4.0, "[8, 3, 1]"),
      gpu(k_gemm, -1, 10, 9.0, "[8, 3, 1]"),
  }));
  const TraceKernel& k = only_kernel(p);
  REQUIRE(k.cases.size() == 3);
  for (const TraceCase& c : k.cases) CHECK(c.inherited == 0.0);
  CHECK(std::count_if(k.cases.begin(), k.cases.end(),
                      [](const TraceCase& c) { return c.dims.empty(); }) == 1);
}

namespace {

SignatureWork signature(const char* label, double count, double bytes, double flops, double t_ms) {
  SignatureWork s;
  s.label = label;
  s.count = count;
  s.t_launch_ms = t_ms;
  s.timed = true;
  s.modeled = true;
  s.t_unit_ms = t_ms;
  s.bytes = bytes;
  s.flops = flops;
  s.compute_dtype = dt("bf16", 2.0);
  s.model = "model";
  return s;
}

}  // namespace

TEST_CASE(
    "signatures: a compute-bound and a memory-bound shape under one name, judged by roof time",
    "[verdict][signatures]") {
  // gfx950: 8 TB/s, bf16 2.5 PFLOP/s. qkv at 1024 rows: roof max(12.5, 400) = 400 µs, taking
  // 800 µs (compute, 50 %); o at 16 rows: roof max(125, 0.8) = 125 µs, taking 250 µs (memory,
  // 50 %). Σ roof 10·400 + 30·125 = 7750 µs over Σ t 10·800 + 30·250 = 15500 µs: 50 %.
  const SignatureWork qkv = signature("qkv_proj", 10, 1.0e8, 1.0e12, 0.8);
  const SignatureWork o = signature("o_proj", 30, 1.0e9, 2.0e9, 0.25);
  const double bytes = (10 * 1.0e8 + 30 * 1.0e9) / 40, flops = (10 * 1.0e12 + 30 * 2.0e9) / 40;
  WorkEstimate w = work_of(bytes, flops, (10 * 0.8 + 30 * 0.25) / 40);
  w.signatures = {qkv, o};
  w.signatures_judged = true;
  w.modelled_share = 1.0;
  const Verdict v = judge(w, OpClass::gemm, 40.0, gfx950_peaks(), VerdictParams{});
  REQUIRE(v.roofline_pct_raw);
  CHECK(*v.roofline_pct_raw == rel(0.5));
  CHECK(v.roof == Roof::compute);  // 4000 of the 7750 µs of roof time
  REQUIRE(v.signatures.size() == 2);
  CHECK(v.signatures[0].roof == Roof::compute);
  CHECK(*v.signatures[0].roofline_pct == rel(0.5));
  CHECK(*v.signatures[0].roof_launch_ms == rel(0.4));
  CHECK(v.signatures[1].roof == Roof::hbm);
  CHECK(*v.signatures[1].roofline_pct == rel(0.5));
  // The averaged bytes and FLOPs would have read 26 % of the compute roof: a kernel that does
  // not exist.
  CHECK(*v.compute_util == Approx(0.2596).epsilon(1e-3));
  REQUIRE(v.most_to_win);
  CHECK(roofline::test::any_contains(v.notes, {"judged from its 2 modelled signature(s)"}));
}

TEST_CASE("signatures: a signature outside the sanity band leaves the entry without a verdict",
          "[verdict][signatures]") {
  const SignatureWork ok = signature("qkv_proj", 10, 1.0e8, 1.0e12, 0.8);
  const SignatureWork refuted = signature("o_proj", 30, 1.0e10, 2.0e9, 0.25);  // 500 % of BW
  WorkEstimate w = work_of(7.525e9, 2.515e11, 0.3875);
  w.signatures = {ok, refuted};
  w.signatures_judged = true;
  const Verdict v = judge(w, OpClass::gemm, 40.0, gfx950_peaks(), VerdictParams{});
  CHECK(v.suspect);
  CHECK(v.headroom == Headroom::unknown);
  CHECK(v.signatures[1].suspect);
  CHECK(roofline::test::any_contains(v.notes, {"o_proj is outside the sanity band"}));
}

}  // namespace unit_signatures
