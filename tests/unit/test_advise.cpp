// Stage 7a (docs/method.md §14): route table, low-confidence fallback, shippability gate, levers.
#include <catch2/catch.hpp>

#include "roofline/analyze/evidence/owner.hpp"
#include "roofline/cli/layer.hpp"
#include "unit/test_helpers.hpp"

namespace unit_advise {
using namespace roofline::cli;
using roofline::test::contains;
using roofline::test::gfx950_peaks;

namespace {

HeadEntry judged(Headroom h, Bound b, OpClass cls = OpClass::gemm) {
  HeadEntry e;
  e.name = e.short_name = "kernel";
  e.pct_gpu_time = 10.0;
  e.topn_index = 0;
  e.cls.op_class = cls;
  e.work.modeled = true;
  e.work.t_unit_ms = 0.1;
  e.work.bytes = 1.0e8;
  e.work.candidates.push_back({"model", 1.0e8, 1.0e9, true});
  e.verdict.headroom = h;
  e.verdict.bound = b;
  e.grade.confidence = Confidence::medium;
  e.editable = true;
  return e;
}

// The MoE of docs/method.md §20 plus its neighbours in the Top-N.
TopnDocument example_topn() {
  TopnDocument t;
  auto add = [&](const char* name, const char* short_name, double pct) {
    TopnEntry e;
    e.index = t.entries.size();
    e.name = name;
    e.short_name = short_name;
    e.pct_gpu_time = pct;
    t.entries.push_back(e);
  };
  add("fused_moe_kernel", "fused_moe_kernel", 26.45);
  add("void vllm::act_and_mul_kernel<c10::BFloat16, &vllm::silu_kernel<c10::BFloat16>, "
      "true>(c10::BFloat16*)",
      "act_and_mul_kernel", 1.05);
  add("moe_align_block_size_kernel", "moe_align_block_size_kernel", 0.87);
  return t;
}

HeadEntry saturated_moe(bool all_experts_chosen) {
  HeadEntry e = judged(Headroom::saturated, Bound::memory, OpClass::moe);
  e.name = e.short_name = "fused_moe_kernel";
  MoeFacts m;
  m.experts = 256;
  m.experts_hit = 221.5;
  m.weight_elems_per_expert = 3.0 * 512 * 2048;
  m.weight_bytes_per_elem = 1.0;
  m.stage = MoeStage::both;
  e.work.moe = m;
  e.work.unit_launches = 2;
  e.work.weight_dtype = DtypeKey::fp8;
  e.work.candidates = {{"experts_hit", 6.97e8, 3.2e9, true, true, CandidateKind::experts_hit},
                       {"all experts", 8.06e8, 3.2e9, all_experts_chosen, all_experts_chosen,
                        CandidateKind::all_experts}};
  e.work.chosen = all_experts_chosen ? 1 : 0;
  e.work.bytes = e.work.candidates[e.work.chosen].bytes;
  e.work.weight_bytes = 6.967e8;
  return e;
}

}  // namespace

TEST_CASE("advise: SPEC §8 route table", "[advise]") {
  const TopnDocument topn;
  const ResolvedPeaks peaks = gfx950_peaks();
  CHECK(advise(judged(Headroom::underperforming, Bound::memory), topn, peaks).route ==
        "kernel tuning, top priority");
  CHECK(advise(judged(Headroom::underperforming, Bound::compute), topn, peaks).route ==
        "kernel tuning, top priority");
  const std::string lat =
      advise(judged(Headroom::underperforming, Bound::latency), topn, peaks).route;
  for (const char* lever : {"kernel work", "occupancy", "dependency chain", "fusion", "split-K"})
    CHECK(contains(lat, lever));
  const std::string sat_mem = advise(judged(Headroom::saturated, Bound::memory), topn, peaks).route;
  CHECK(contains(sat_mem, "byte-reduction / algorithmic track"));
  CHECK(contains(sat_mem, "never dropped"));
  const std::string sat_lat =
      advise(judged(Headroom::saturated, Bound::latency), topn, peaks).route;
  CHECK(contains(sat_lat, "fewer bytes (e.g. fp8 KV) or fusion"));
  CHECK(contains(sat_lat, "more tuning will not help"));
}

TEST_CASE("advise: unknown headroom or low confidence falls back to pct order", "[advise]") {
  const TopnDocument topn;
  const ResolvedPeaks peaks = gfx950_peaks();
  HeadEntry unknown = judged(Headroom::unknown, Bound::unknown);
  CHECK(advise(unknown, topn, peaks).route.rfind("fall back to pct_gpu_time order", 0) == 0);

  HeadEntry low = judged(Headroom::underperforming, Bound::memory);
  low.grade.confidence = Confidence::low;
  const std::string route = advise(low, topn, peaks).route;
  CHECK(route.rfind("fall back to pct_gpu_time order", 0) == 0);
  CHECK(contains(route, "confidence low"));
  CHECK(contains(route, "kernel tuning, top priority"));  // the indicated route is still named
}

TEST_CASE("advise: editable:false allows host-side levers only", "[advise]") {
  const TopnDocument topn;
  const ResolvedPeaks peaks = gfx950_peaks();
  HeadEntry locked = judged(Headroom::underperforming, Bound::memory);
  locked.name = "Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT64x16x256";
  locked.editable = false;
  const std::string route = advise(locked, topn, peaks).route;
  CHECK(contains(route, "kernel tuning, top priority"));
  CHECK(contains(route, "host-side"));
  for (const char* lever : {"dispatch choice", "tuning DB", "backend swap"})
    CHECK(contains(route, lever));
  CHECK_FALSE(contains(advise(judged(Headroom::underperforming, Bound::memory), topn, peaks).route,
                       "host-side"));
  HeadEntry unknown_editability = judged(Headroom::underperforming, Bound::memory);
  unknown_editability.editable.reset();
  CHECK_FALSE(contains(advise(unknown_editability, topn, peaks).route, "host-side"));
}

TEST_CASE("advise: byte-reduction levers only when saturated", "[advise]") {
  const TopnDocument topn = example_topn();
  const ResolvedPeaks peaks = gfx950_peaks();
  Advice sat = advise(saturated_moe(false), topn, peaks);
  REQUIRE_FALSE(sat.levers.empty());
  // Fuse an adjacent op that is in the Top-N, by name.
  bool names_neighbour = false;
  for (const auto& l : sat.levers) names_neighbour |= contains(l, "act_and_mul_kernel");
  CHECK(names_neighbour);
  // fp8 weights on a part with an fp4 peak: mxfp4, flagged lossy.
  bool fp4 = false;
  for (const auto& l : sat.levers) fp4 |= contains(l, "mxfp4") && contains(l, "accuracy gate");
  CHECK(fp4);
  // Never propose changing the workload or speculative decoding.
  for (const auto& l : sat.levers) {
    CHECK_FALSE(contains(l, "speculative"));
    CHECK_FALSE(contains(l, "concurrency"));
  }

  HeadEntry under = saturated_moe(false);
  under.verdict.headroom = Headroom::underperforming;
  CHECK(advise(under, topn, peaks).levers.empty());
  HeadEntry moderate = saturated_moe(false);
  moderate.verdict.headroom = Headroom::moderate;
  CHECK(advise(moderate, topn, peaks).levers.empty());
}

TEST_CASE("advise: the all-expert gap is a lever when the all-expert model fits", "[advise]") {
  const TopnDocument topn = example_topn();
  Advice a = advise(saturated_moe(true), topn, gfx950_peaks());
  bool unrouted = false;
  for (const auto& l : a.levers) unrouted |= contains(l, "unrouted experts") && contains(l, "256");
  CHECK(unrouted);
  Advice b = advise(saturated_moe(false), topn, gfx950_peaks());
  for (const auto& l : b.levers) CHECK_FALSE(contains(l, "unrouted experts"));
}

TEST_CASE("advise: saturated bf16 attention gets the fp8 KV lever", "[advise]") {
  HeadEntry attn = judged(Headroom::saturated, Bound::memory, OpClass::attn);
  attn.name = attn.short_name = "kernel_paged_attention_2d";
  attn.work.kv_bytes = 2.01e8;
  attn.work.kv_dtype = DtypeKey::bf16;
  Advice a = advise(attn, TopnDocument{}, gfx950_peaks());
  bool kv = false;
  for (const auto& l : a.levers) kv |= contains(l, "fp8 KV");
  CHECK(kv);
  attn.work.kv_dtype = DtypeKey::fp8;
  for (const auto& l : advise(attn, TopnDocument{}, gfx950_peaks()).levers)
    CHECK_FALSE(contains(l, "fp8 KV"));
}

// A GEMM whose trace recorded what ran beside it: a zero-fill before it, a fused add+norm after.
struct Beside {
  ProbeKernel workload;
  HeadEntry entry;
};
Beside gemm_beside(bool editable) {
  Beside b;
  ProbeCase c;
  c.count = 24;
  CaseSignature sig;
  CaseNeighbour fill;
  fill.kernel = "FillFunctor";
  fill.name = "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>>()";
  fill.cls = "elementwise:fill";
  fill.launches = 24;
  CaseNeighbour norm;
  norm.kernel = "fused_add_rms_norm_kernel";
  norm.name = "void vllm::fused_add_rms_norm_kernel<c10::BFloat16, 8>(c10::BFloat16*)";
  norm.cls = "elementwise:add_norm+rows";
  norm.launches = 20;
  sig.before = fill;
  sig.after = norm;
  c.signature = sig;
  b.workload.cases.push_back(c);
  b.entry = judged(Headroom::saturated, Bound::memory);
  b.entry.name = "nvjet_sm90_tst_192x8_64x8_2x1_v_bz_TNT";
  b.entry.short_name = "nvjet_sm90_tst_192x8_64x8_2x1_v_bz_TNT";
  b.entry.editable = editable;
  b.entry.backend = editable ? "cutlass" : "cublaslt";
  b.entry.work.weight_bytes = 0.5e8;
  return b;
}

TEST_CASE("advise: a fill is no fusion partner; the partner keeps its full name", "[advise]") {
  Beside b = gemm_beside(true);
  b.entry.evidence.workload = &b.workload;
  const Advice a = advise(b.entry, TopnDocument{}, gfx950_peaks());
  REQUIRE(a.partners.size() == 1);
  CHECK(a.partners[0].kernel ==
        "void vllm::fused_add_rms_norm_kernel<c10::BFloat16, 8>(c10::BFloat16*)");
  CHECK(a.partners[0].display == "fused_add_rms_norm_kernel");
  CHECK(a.partners[0].side == "after");
  for (const auto& l : a.levers) CHECK_FALSE(contains(l, "FillFunctor"));
  bool fuse = false;
  for (const auto& l : a.levers) fuse |= contains(l, "fuse 'fused_add_rms_norm_kernel'");
  CHECK(fuse);
}

TEST_CASE("advise: a closed kernel is never told to absorb another", "[advise]") {
  Beside b = gemm_beside(false);
  b.entry.evidence.workload = &b.workload;
  const Advice a = advise(b.entry, TopnDocument{}, gfx950_peaks());
  CHECK(contains(a.route, "host-side"));
  bool replaced = false;
  for (const auto& l : a.levers) {
    CHECK_FALSE(contains(l, "into this kernel"));
    // A norm is no BLAS epilogue op: an open fused kernel, with the same bound on the gain.
    replaced |= contains(l, "replace this closed kernel and 'fused_add_rms_norm_kernel'") &&
                contains(l, "one open fused kernel") && contains(l, "end to end") &&
                !contains(l, "CUBLASLT_EPILOGUE");
  }
  CHECK(replaced);
  // A pointwise op after it: cuBLASLt's own epilogue is named.
  b.workload.cases[0].signature->after->cls = "elementwise";
  b.workload.cases[0].signature->after->kernel = "elementwise_kernel";
  bool epilogue = false;
  for (const auto& l : advise(b.entry, TopnDocument{}, gfx950_peaks()).levers)
    epilogue |= contains(l, "CUBLASLT_EPILOGUE");
  CHECK(epilogue);
}

TEST_CASE("owner: the launch names whose copy of an open kernel ran", "[advise][owner]") {
  HeadEntry e;
  e.editable = true;
  e.backend = "vllm|aiter";
  // A framework op says whose Python launched it, not whose copy ran (vLLM's aiter backend runs
  // aiter's): both are said, none chosen.
  for (const char* op : {"vllm::unified_attention_with_output", "sglang_profiler::forward_3"}) {
    e.op = op;
    CHECK(contains(place_owner(e), "which copy ran is not known"));
    CHECK(e.owner.empty());
  }
  CHECK(contains(owner_phrase(e), "vLLM or aiter"));
  // The op wraps aiter's registered function.
  e.op = "sglang_profiler::attention_paged_attention_ragged_100";
  CHECK(contains(place_owner(e), "owner: aiter"));
  CHECK(e.owner == "aiter");
  CHECK(owner_phrase(e) == "aiter");
  // A compiled op's namespace.
  e.owner.clear();
  e.op = "_rocm_C::paged_attention";
  place_owner(e);
  CHECK(e.owner == "vllm");
  // The call stack: a Triton kernel under SGLang's Python is SGLang's.
  HeadEntry t;
  t.editable = true;
  t.backend = "triton";
  ProbeKernel w;
  ProbeCase c;
  c.count = 10;
  CaseSignature sig;
  sig.library = "sglang";
  c.signature = sig;
  w.cases.push_back(c);
  t.evidence.workload = &w;
  CHECK(contains(place_owner(t), "the call stack: 10 of its 10 launches ran under sglang"));
  CHECK(owner_phrase(t) == "SGLang's Triton kernels");
  // A closed kernel stays closed, and PyTorch's kernels PyTorch's, whoever launched them.
  HeadEntry closed;
  closed.editable = false;
  closed.backend = "hipblaslt";
  closed.op = "aiter::gemm_a8w8";
  CHECK(place_owner(closed).empty());
  CHECK(closed.owner.empty());
  HeadEntry torch_native;
  torch_native.editable = true;
  torch_native.backend = "pytorch";
  torch_native.op = "_C::rms_norm";
  CHECK(place_owner(torch_native).empty());
  HeadEntry native = judged(Headroom::underperforming, Bound::memory);
  native.backend = "pytorch";
  CHECK(contains(advise(native, TopnDocument{}, gfx950_peaks()).route, "PyTorch's own source"));
  CHECK_FALSE(contains(advise(native, TopnDocument{}, gfx950_peaks()).route, "not editable"));
}

}  // namespace unit_advise
