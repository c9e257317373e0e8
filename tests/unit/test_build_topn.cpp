// build_topn (pure): ranking, rounding, short names, call signatures, classification and the
// kernel-family fields, per-regime fields, workload cases. Profiles built by hand.
#include <string>
#include <vector>

#include "roofline/cli/layer.hpp"
#include "roofline/inputs/kernel_classes.hpp"
#include "roofline/topn/topn.hpp"
#include "test_helpers.hpp"

namespace unit_build_topn {
using namespace roofline::cli;
using roofline::test::rel;

namespace {

// One signature of a kernel: its dims and dtypes, launches and GPU time.
TraceCase trace_case(std::vector<std::vector<std::int64_t>> dims, std::vector<std::string> dtypes,
                     double count, double us) {
  TraceCase c;
  c.dims = std::move(dims);
  c.dtypes = std::move(dtypes);
  c.count = count;
  c.total_us = us;
  return c;
}

using Dims = std::vector<std::vector<std::int64_t>>;

TraceKernel kernel(const std::string& name, double calls, double us,
                   GpuEventKind kind = GpuEventKind::kernel) {
  TraceKernel k;
  k.name = name;
  k.kind = kind;
  k.calls = calls;
  k.total_us = us;
  return k;
}

TopnBuild build_both(const TraceProfile& p, std::size_t top = 25) {
  TopnOptions o;
  o.top = top;
  return build_topn(p, o, builtin_kernel_classes_rules(), builtin_kernel_backends_rules());
}

TopnDocument build(const TraceProfile& p, std::size_t top = 25) {
  return build_both(p, top).topn;
}

const TopnEntry& entry(const TopnDocument& d, const std::string& name) {
  for (const auto& e : d.entries)
    if (e.name == name) return e;
  FAIL("no entry " << name);
  return d.entries.front();
}

}  // namespace

TEST_CASE("round_to: Python's round(x, n), half to even on the exact binary value",
          "[topn][build]") {
  CHECK(round_to(2.675, 2) == 2.67);  // 2.675 is 2.67499999... in binary
  CHECK(round_to(0.125, 2) == 0.12);  // an exact tie goes to even
  CHECK(round_to(0.375, 2) == 0.38);
  CHECK(round_to(26.4549, 2) == 26.45);
  CHECK(round_to(53.78949, 3) == 53.789);
  CHECK(round_to(8851.59549, 4) == 8851.5955);
  CHECK(round_to(2730.5, 0) == 2730.0);
  CHECK(round_to(2731.5, 0) == 2732.0);
  CHECK(round_to(-1.005, 2) == -1.0);  // -1.00499999...
}

TEST_CASE("kernel_short_name: the first identifier without return type, namespaces, templates",
          "[topn][build]") {
  CHECK(kernel_short_name(
            "void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<c10::BFloat16, "
            "float, true>(int, float, c10::BFloat16 const*, float*)") ==
        "vectorized_layer_norm_kernel");
  CHECK(kernel_short_name("void at::native::elementwise_kernel<128, 4, "
                          "at::native::gpu_kernel_impl_nocast<at::native::direct_copy_kernel_cuda("
                          "at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#"
                          "7}::operator()() const::{lambda(float)#1}>(at::TensorIteratorBase&, "
                          "float const&)::{lambda(int)#1}>(int, float)") == "elementwise_kernel");
  CHECK(
      kernel_short_name("void (anonymous namespace)::softmax_warp_forward<float, float, float, 7, "
                        "false, false>(float*, float const*, int, int, int, bool const*, int, "
                        "bool)") == "softmax_warp_forward");
  CHECK(kernel_short_name("nvjet_sm90_tst_56x64_64x14_4x1_v_bz_TNN") ==
        "nvjet_sm90_tst_56x64_64x14_4x1_v_bz_TNN");
  CHECK(kernel_short_name("fused_moe_kernel") == "fused_moe_kernel");
  CHECK(kernel_short_name("__global__ void flash::flash_fwd_kernel<Traits, true>(Params)") ==
        "flash_fwd_kernel");
  CHECK(kernel_short_name("Cijk_Alik_Bljk_BBS_BH_MT64x16x256 [clone .kd]") ==
        "Cijk_Alik_Bljk_BBS_MT64x16x256");
  CHECK(kernel_short_name("kernel_paged_attention_2d.kd") == "kernel_paged_attention_2d");
  const std::string cudnn =  // never cut (it was at 60 characters)
      "cudnn_generated_fort_native_sdpa_sm80_flash_fprop_wmma_f16_knob_35_16x128x128_1x4x1_"
      "cga1x1x1_kernel0_0";
  CHECK(kernel_short_name(cudnn) == cudnn);
  CHECK(kernel_short_name("Memcpy DtoD (Device -> Device)", GpuEventKind::memcpy) == "Memcpy DtoD");
  CHECK(kernel_short_name("Memset (Device)", GpuEventKind::memset) == "Memset");
}

TEST_CASE("kernel_short_name: Tensile GEMMs keep layout, types and macro tile", "[topn][build]") {
  // the five GEMMs of the SGLang decode fixture all started
  // Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_User
  const std::string tail = "_MI16x16x1_SN_LDSB1_AFC1_AFEM1_AFEM1_ASEM1_CLR1_CADS0_DTLA0_ISA942";
  for (const char* tile : {"MT256x32x64", "MT32x32x256", "MT64x32x256", "MT16x32x512"})
    CHECK(kernel_short_name("Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_" + std::string(tile) +
                            tail) == "Cijk_Alik_Bljk_BBS_" + std::string(tile));
  CHECK(kernel_short_name("Cijk_Ailk_Bljk_SB_MT64x64x8_SN_1LDSB0_APM1") ==
        "Cijk_Ailk_Bljk_SB_MT64x64x8");
  CHECK(kernel_short_name("Cijk_Ailk_Bljk_HHS_BH_GSU4") == "Cijk_Ailk_Bljk_HHS");  // no tile
  CHECK(kernel_short_name("Cijk_Ailk_Bljk") == "Cijk_Ailk_Bljk");
  CHECK(kernel_short_name("Cijk_Ailk_Bljk_HHS_BH_MTx_MT1x") == "Cijk_Ailk_Bljk_HHS");
}

TEST_CASE("kernel_short_name: return types, enable_if and operators in template arguments",
          "[topn][build]") {
  CHECK(kernel_short_name("std::enable_if<(((8)>(0)))&&(((4)>(0))), void>::type "
                          "vllm::paged_attention_v2_kernel<8, 4>(float*, int)") ==
        "paged_attention_v2_kernel");
  CHECK(kernel_short_name("std::enable_if<!(false), void>::type internal::gemvx_kernel<int, 128>("
                          "int)") == "gemvx_kernel");
  // comparison and member access not wrapped in parentheses
  CHECK(kernel_short_name("std::enable_if<(8)>=(4), void>::type ns::rms_kernel<8>(float*)") ==
        "rms_kernel");
  CHECK(kernel_short_name("std::enable_if<std::is_same<decltype(p->x), int>::value, void>::type "
                          "ns::copy_kernel<int>(int*)") == "copy_kernel");
  // the demangled aiter and ck_tile names of the serving fixtures, and a prefix reading
  CHECK(kernel_short_name("void aiter::add_rmsnorm_quant_kernel<std::bfloat16_t, std::bfloat16_t, "
                          "64, 8, false, false, true, 1>(std::bfloat16_t*, double, bool)") ==
        "add_rmsnorm_quant_kernel");
  CHECK(kernel_short_name("void ck_tile::kentry<1, ck_tile::Rmsnorm2dFwd<ck_tile::Pipeline<float>, "
                          "ck_tile::Policy>, ck_tile::Rmsnorm2dFwd<ck_tile::Pipeline<float> >::"
                          "Kargs>(ck_tile::Rmsnorm2dFwd<ck_tile::Pipeline<float> >::Kargs)") ==
        "Rmsnorm2dFwd");
  CHECK(kernel_short_name("void ck_tile::kentry<1, true>(int)") == "kentry");  // no type argument
  // ck_tile's arch tag first (kentry<Arch, MinBlocks, Kernel>): the kernel, never `gfx9_t`.
  CHECK(kernel_short_name("void ck_tile::kentry<ck_tile::gfx9_t, 1, ck_tile::FmhaFwdKernel<"
                          "ck_tile::BlockFmhaPipelineQRKSVSAsync<int>, int> >(int)") ==
        "FmhaFwdKernel");
  CHECK(kernel_short_name("sgl_hip::activation::act_and_mul_kernel") == "act_and_mul_kernel");
}

TEST_CASE("make_short_names_unique: later entries of a shared short name get #2, #3",
          "[topn][build]") {
  std::vector<TopnEntry> entries(5);
  const char* shorts[] = {"elementwise_kernel", "gemm", "elementwise_kernel",
                          "elementwise_kernel#2", "elementwise_kernel"};
  for (std::size_t i = 0; i < entries.size(); ++i) entries[i].short_name = shorts[i];
  make_short_names_unique(entries);
  CHECK(entries[0].short_name == "elementwise_kernel");
  CHECK(entries[1].short_name == "gemm");
  // "#2" is taken by a real short name: the next free number
  CHECK(entries[2].short_name == "elementwise_kernel#3");
  CHECK(entries[3].short_name == "elementwise_kernel#2");
  CHECK(entries[4].short_name == "elementwise_kernel#4");
}

TEST_CASE("build_topn: demangled names, and short names from them, unique in the Top-N",
          "[topn][build]") {
  TraceProfile p;
  p.kernels = {
      kernel("_ZN5aiter24add_rmsnorm_quant_kernelIDF16bDF16bLi64ELi8ELb0ELb0ELb1ELi1EEEvPT0"
             "_PT_PfS4_S4_S4_diiiiiiib",
             72, 300.0),
      kernel("_ZN5aiter24add_rmsnorm_quant_kernelIDF16bDF16bLi256ELi16ELb1ELb0ELb1ELi1EEEvP"
             "T0_PT_PfS4_S4_S4_diiiiiiib",
             72, 400.0),
      kernel("_ZN7sgl_hip10activation18act_and_mul_kernelI14__hip_bfloat16TnPFT_RKS3_EXadL_"
             "Z4siluIS2_ES3_S5_EEEEvPS3_PS4_i",
             36, 200.0),
      kernel("nvjet_sm90_tst_56x64_64x14_4x1_v_bz_TNN", 1, 1.0)};
  const TopnDocument d = build(p);
  REQUIRE(d.entries.size() == 4);
  CHECK(d.entries[0].short_name == "add_rmsnorm_quant_kernel");
  CHECK(d.entries[0].demangled.find("aiter::add_rmsnorm_quant_kernel<std::bfloat16_t, "
                                    "std::bfloat16_t, 256, 16,") != std::string::npos);
  CHECK(d.entries[0].demangle_note.empty());
  CHECK(d.entries[1].short_name == "add_rmsnorm_quant_kernel#2");
  CHECK(d.entries[1].name.rfind("_ZN5aiter", 0) == 0);  // the raw name stays the key
  CHECK(d.entries[2].short_name == "act_and_mul_kernel");
  CHECK(d.entries[2].demangled == "sgl_hip::activation::act_and_mul_kernel");
  CHECK(d.entries[2].demangle_note.find("_ZN prefix") != std::string::npos);
  CHECK(d.entries[3].demangled.empty());
  CHECK(d.entries[3].short_name == "nvjet_sm90_tst_56x64_64x14_4x1_v_bz_TNN");
  // classified as before: the mangled name still holds the family's words
  CHECK(d.entries[0].classification == "reduction_norm");
}

TEST_CASE("build_topn: ranked by GPU time (ties by name), rounded, cut at --top", "[topn][build]") {
  TraceProfile p;
  p.source = "torch-trace";
  p.kernels = {kernel("b_tie", 3, 100.0), kernel("a_tie", 7, 100.0),
               kernel("big", 1000, 8851595.49), kernel("small", 1, 0.3)};
  const TopnDocument d = build(p, 3);
  CHECK(d.source == "torch-trace");
  CHECK(d.num_kernel_launches == 1011);
  CHECK(d.num_distinct_kernels == 4);
  CHECK(d.total_gpu_time_ms == 8851.7958);
  CHECK(d.num_kernel_launches.value() == 1011);
  REQUIRE(d.entries.size() == 3);
  CHECK(d.entries[0].name == "big");
  CHECK(d.entries[1].name == "a_tie");  // same time: by name
  CHECK(d.entries[2].name == "b_tie");
  CHECK(d.entries[0].rank == 1);
  CHECK(d.entries[2].rank == 3);
  CHECK(d.entries[2].index == 2);
  CHECK(d.entries[0].total_ms == 8851.5955);
  CHECK(d.entries[0].avg_us == 8851.595);
  CHECK(d.entries[0].pct_gpu_time == 100.0);
  CHECK(d.entries[1].pct_gpu_time == 0.0);  // 100 µs of 8.85 s
  CHECK(d.entries[1].avg_us == 14.286);
  CHECK(d.entries[1].total_ms == 0.1);
  CHECK_FALSE(d.serving.present);
}

TEST_CASE("build_topn: up to five call signatures, the most called, listed by JSON text",
          "[topn][build]") {
  TraceKernel k = kernel("nvjet_sm90_tst_64x8", 0, 0);
  // Seven signatures with 1..7 calls (M = 10 * calls); the two least called drop out.
  for (int n = 1; n <= 7; ++n) {
    const std::int64_t m = 10 * n;
    k.cases.push_back(trace_case(Dims{{m, 2048}, {2048, 512}}, {"c10::BFloat16", "c10::BFloat16"},
                                 static_cast<double>(n), 2.0 * n));
    k.calls += n;
    k.total_us += 2.0 * n;
  }
  // The same signature again with another dtype: one signature, counted together.
  k.cases.push_back(trace_case(Dims{{10, 2048}, {2048, 512}}, {"float", "float"}, 5.0, 5.0));
  k.calls += 5;
  k.total_us += 5;
  k.dtypes = {"c10::BFloat16", "float"};
  TraceProfile p;
  p.kernels = {k};
  const TopnBuild b = build_both(p);
  const TopnEntry& e = b.topn.entries.at(0);
  // Signatures by calls: M=10 (1+5), 70, 60, 50, 40 kept; 30 and 20 dropped.
  REQUIRE(e.signatures.size() == 5);
  CHECK(e.shapes == e.signatures.front());
  CHECK(e.dtypes_are_set);
  std::vector<std::int64_t> ms;
  for (const auto& s : e.signatures) ms.push_back(s[0][0]);
  CHECK(ms == std::vector<std::int64_t>{10, 40, 50, 60, 70});  // "[[10, ..." < "[[40, ..." ...
  CHECK(e.dtypes == std::vector<std::string>{"c10::BFloat16", "float"});
  // The workload keeps every case, most calls first.
  REQUIRE(b.workload.size() == 1);
  const WorkloadKernel& w = b.workload[0];
  REQUIRE(w.cases.size() == 8);
  CHECK(w.cases[0].count == 7);
  CHECK(w.cases[0].baseline_latency_ms == rel(0.002));
  CHECK(w.calls_without_shapes == 0);
}

TEST_CASE("build_topn: classification, backend, editable and hint from the family tables",
          "[topn][build]") {
  TraceProfile p;
  p.kernels = {
      kernel("nvjet_sm90_tst_192x8_64x8_2x1_v_bz_TNT", 1, 9),
      kernel("cudnn_generated_fort_native_sdpa_sm80_flash_fprop_wmma_f16_knob_35_16x128x128", 1, 8),
      kernel("void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<float>(int)", 1,
             7),
      kernel("Memcpy DtoD (Device -> Device)", 1, 6, GpuEventKind::memcpy),
      kernel("fused_moe_kernel", 1, 5),
      kernel("Cijk_Alik_Bljk_BBS_BH_MT64x16x256", 1, 4),
      kernel("void vllm::act_and_mul_kernel<c10::BFloat16>(int)", 1, 3),
      kernel("ncclDevKernel_AllReduce_Sum_bf16_RING_LL", 1, 2),
      kernel("my_mystery_kernel", 1, 1),
  };
  const TopnDocument d = build(p);
  auto check = [&](const std::string& name, const std::string& cls, const std::string& backend,
                   std::optional<bool> editable) {
    INFO(name);
    const TopnEntry& e = entry(d, name);
    CHECK(e.classification == cls);
    CHECK(e.backend_guess == backend);
    CHECK(e.editable == editable);
    CHECK_FALSE(e.opt_hint.empty());
  };
  check("nvjet_sm90_tst_192x8_64x8_2x1_v_bz_TNT", "library_gemm", "cublaslt", false);
  check("cudnn_generated_fort_native_sdpa_sm80_flash_fprop_wmma_f16_knob_35_16x128x128",
        "library_attn", "cudnn", false);
  check("void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<float>(int)",
        "reduction_norm", "pytorch", true);
  check("Memcpy DtoD (Device -> Device)", "memory", "runtime", false);
  check("fused_moe_kernel", "triton", "triton", true);
  check("Cijk_Alik_Bljk_BBS_BH_MT64x16x256", "library_gemm", "hipblaslt", false);
  check("void vllm::act_and_mul_kernel<c10::BFloat16>(int)", "elementwise_overhead", "vllm", true);
  check("ncclDevKernel_AllReduce_Sum_bf16_RING_LL", "other", "nccl", false);
  check("my_mystery_kernel", "other", "unknown", std::nullopt);
}

TEST_CASE("build_topn: the serving families' backends by the token rule, longest match",
          "[topn][build]") {
  TraceProfile p;
  const std::vector<std::pair<std::string, std::string>> want{
      {"ck_tile::kentry<1, ck_tile::FmhaBatchPrefillWithPagedKVCacheKernel<int>>",
       "composable_kernel"},
      {"ck_tile::FmhaBatchPrefillKernel<ck_tile::BlockFmhaBatchPrefillPipeline<int>>",
       "composable_kernel"},
      {"flashinfer::BatchPrefillWithPagedKVCacheKernel<int>", "flashinfer"},
      {"nvjet_sm90_qqtst_128x128_64x4_1x2_h_bz_coopA_TNT", "cublaslt"},
      {"nvjet_sm100_tst_256x128_64x4_2x1_v_bz_TNN", "cublaslt"},
      {"bmm_Bfloat16_MxE2m1MxE4m3_Fp32_t128x8x512u2_s3_swiGlu_sm100f", "tensorrt-llm"},
      {"bmm_E4m3_E4m3E4m3_Fp32_t128x16x128_s4_sm100a", "tensorrt-llm"},
      {"void moe::dev::routing::routingRenormalize::routingIndicesClusterKernel<int>(int)",
       "tensorrt-llm"},
      {"multimem_all_reduce_kernel<c10::BFloat16>", "pytorch"},
      {"ncclDevKernel_AllGather_RING_LL(int)", "nccl"},
      {"_matmul_ogs_NNT_bf16xbf16xmxfp4_128x128x128x1_swiglu", "triton_kernels"},
      {"void fbgemm_gpu::embedding_forward_split_kernel<float>(int)", "unknown"},
      {"void cutlass::Kernel2<cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_64x64_64x4_tn_align8>("
       "int)",
       "cublas"},
      {"void tensorrt_llm::kernels::cutlass_kernels::fused_moe::run_global<int>(int)", "cutlass"},
      {"void paged_attention_ll4mi_QKV_mfma16_kernel<int>(int)", "vllm|aiter"},
      {"void rcclGenericKernel<2, false>(ncclDevKernelArgsStorage<4096ul>)", "rccl"},
  };
  double us = 100;
  for (const auto& [name, backend] : want) p.kernels.push_back(kernel(name, 1, us--));
  const TopnDocument d = build(p);
  for (const auto& [name, backend] : want) {
    INFO(name);
    CHECK(entry(d, name).backend_guess == backend);
  }
  CHECK(entry(d, want[0].first).classification == "library_attn");
  CHECK(entry(d, want[3].first).classification == "library_gemm");
  // Editability by the library that launches the kernel: cuBLAS's own CUTLASS kernels are closed,
  // a CUTLASS MoE the framework compiles and vLLM's custom ops are open.
  CHECK(entry(d, want[12].first).editable == false);
  CHECK(entry(d, want[13].first).editable == true);
  CHECK(entry(d, want[14].first).editable == true);
}

TEST_CASE("build_topn: step annotations give the per-regime fields and the serving block",
          "[topn][build]") {
  TraceKernel moe = kernel("fused_moe_kernel", 170, 0);
  moe.regime_calls.prefill = 80;
  moe.regime_calls.decode = 80;  // 10 calls ran outside any step
  moe.regime_us.prefill = 80 * 419.6;
  moe.regime_us.decode = 80 * 49.471;
  moe.total_us = 80 * 419.6 + 80 * 49.471 + 10 * 50.0;
  TraceKernel dec = kernel("decode_only", 5, 5);
  dec.regime_calls.decode = 5;
  dec.regime_us.decode = 5;
  TraceKernel none = kernel("outside", 2, 1);
  TraceProfile p;
  p.kernels = {moe, dec, none};
  p.steps.n_prefill = 1;
  p.steps.n_decode = 4;
  p.steps.prefill_rows_sum = 2731;
  p.steps.decode_batches = {{64, 3}, {32, 1}};
  const TopnDocument d = build(p);
  REQUIRE(d.serving.present);
  CHECK(d.serving.n_prefill_steps == 1);
  CHECK(d.serving.n_decode_steps == 4);
  CHECK(d.serving.decode_batch_captured.value() == 64);
  CHECK(d.serving.decode_batch_steady.value() == 64);
  CHECK(d.serving.steady.value() == false);  // 3 of 4 decode steps < 90%
  const TopnEntry& m = entry(d, "fused_moe_kernel");
  REQUIRE_FALSE(m.phase.empty());
  CHECK(m.phase == "both");
  CHECK(m.served_regimes == std::vector<std::string>{"prefill", "decode"});
  CHECK(m.phase_calls_measured.prefill.value() == 80);
  CHECK(m.calls_per_step.prefill.value() == 80);
  CHECK(m.calls_per_step.decode.value() == 20);
  CHECK(m.base_latency_ms.prefill.value() == 0.4196);
  CHECK(m.base_latency_ms.decode.value() == 0.049471);
  CHECK(m.est_shape.prefill.value().m == 2731);
  CHECK(m.est_shape.decode.value().m == 56);  // (3 * 64 + 32) / 4
  CHECK_FALSE(m.est_shape.decode.value().n);
  const TopnEntry& dd = entry(d, "decode_only");
  CHECK(dd.phase == "decode");
  CHECK_FALSE(dd.calls_per_step.prefill);
  CHECK(entry(d, "outside").phase.empty());
}

}  // namespace unit_build_topn
