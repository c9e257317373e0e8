// The call stack of a launch (docs/method.md §22.10): the grammar of python_function frame names,
// and, end to end through read_trace_stream, what a with-stack trace's frames give its launches —
// the module of a launch with no op, the collective a frame names, the forward mode as the step's
// regime (steps of unknown rows), and signatures told apart by module where shapes are absent.
#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "roofline/classify/name_geometry.hpp"
#include "roofline/cli/layer.hpp"
#include "roofline/topn/names/call_stacks.hpp"
#include "test_helpers.hpp"
#include "topn_test_io.hpp"

namespace unit_call_stacks {
using namespace roofline::cli;
using roofline::test::chunked;
using roofline::topn::detail::frame_words;
using roofline::topn::detail::FrameRole;

namespace {

std::string frame(const std::string& name, double ts, double dur, int tid = 7) {
  return fmt::format(
      R"({{"ph": "X", "cat": "python_function", "name": "{}", "pid": 1, "tid": {}, "ts": {}, "dur": {}, "args": {{"Python id": 1}}}})",
      name, tid, ts, dur);
}

std::string launch(long corr, double ts) {
  return fmt::format(
      R"({{"ph": "X", "cat": "cuda_runtime", "name": "hipLaunchKernel", "pid": 1, "tid": 7, "ts": {}, "dur": 1.0, "args": {{"correlation": {}}}}})",
      ts, corr);
}

std::string kernel(const std::string& name, long corr, double ts, long grid) {
  return fmt::format(
      R"({{"ph": "X", "cat": "kernel", "name": "{}", "pid": 5, "tid": 9, "ts": {}, "dur": 10.0, "args": {{"device": 5, "stream": 9, "correlation": {}, "grid": [{}, 1, 1], "block": [256, 1, 1]}}}})",
      name, ts, corr, grid);
}

std::string trace(const std::vector<std::string>& events) {
  std::string out = R"({"schemaVersion": 1, "traceEvents": [)";
  for (std::size_t i = 0; i < events.size(); ++i) out += (i ? ",\n  " : "\n  ") + events[i];
  return out + "\n]}";
}

const TraceKernel& kernel_named(const TraceProfile& p, const std::string& name) {
  for (const TraceKernel& k : p.kernels)
    if (k.name == name) return k;
  FAIL("no kernel " << name);
  return p.kernels.front();
}

}  // namespace

TEST_CASE("frame names read by their grammar, never by line numbers") {
  using W = roofline::topn::detail::FrameWords;
  const auto role = [](const char* n) { return frame_words(n).role; };
  CHECK(role("/sgl/srt/model_executor/model_runner.py(1968): forward_extend") ==
        FrameRole::prefill);
  CHECK(role("model_runner.py(12): forward_split_prefill") == FrameRole::prefill);
  CHECK(role("/x/model_runner.py(2001): forward_decode") == FrameRole::decode);
  CHECK(role("/x/cuda_graph_runner.py(804): replay") == FrameRole::decode);
  // torch's own graph replay says nothing of the mode; neither does a piecewise runner.
  CHECK(role("torch/cuda/graphs.py(139): replay") == FrameRole::none);
  CHECK(role("/x/piecewise_cuda_graph_runner.py(80): replay") == FrameRole::none);
  // A scheduler's preparation is not a forward, though it names the mode.
  CHECK(role("/x/schedule_batch.py(1500): prepare_for_decode") == FrameRole::none);
  CHECK(role("tokenization_utils_base.py(3800): decode") == FrameRole::none);
  const W ar = frame_words("/x/communication_op.py(11): tensor_model_parallel_all_reduce");
  CHECK(ar.role == FrameRole::collective);
  CHECK(ar.says == "all_reduce");
  CHECK(frame_words("torch/distributed/distributed_c10d.py(3892): all_gather_into_tensor").says ==
        "all_gather");
  CHECK(frame_words("/x/parallel_state.py(9): reduce_scatter_tensor").says == "reduce_scatter");
  CHECK(frame_words("/x/ep.py(9): dispatch_all_to_all").says == "all_to_all");
  const W site = frame_words("/sgl/srt/models/deepseek_v2.py(1277): forward_normal_prepare");
  CHECK(site.role == FrameRole::model_call);
  CHECK(site.says == "deepseek_v2.py: forward_normal_prepare");
  CHECK(frame_words("transformers/models/llama/modeling_llama.py(300): forward").says ==
        "modeling_llama.py: forward");
  // Not frames of the `file(line): function` grammar.
  CHECK(role("<built-in method empty of type object at 0x7f3e41a3d540>") == FrameRole::none);
  CHECK(role("nn.Module: DeepseekV2MLP_0") == FrameRole::none);
  CHECK(role("/x/layers/linear.py(415): forward") == FrameRole::none);
  CHECK(role("/x/models/llama.py(abc): forward") == FrameRole::none);
}

TEST_CASE("a with-stack trace: module, collective and the forward mode of launches with no op") {
  const std::string gemm = "gemm_kernel";
  const std::string rccl = "rcclGenericKernel";
  std::vector<std::string> ev;
  // Two prefill forwards on thread 7, each: an attention projection and an MLP projection at the
  // same grid (no op, no shapes), then an all-reduce.
  for (int step = 0; step < 2; ++step) {
    const double t0 = 1000.0 * step;
    ev.push_back(frame("/e/model_runner.py(10): forward_extend", t0 + 1, 500));
    ev.push_back(frame("/e/models/m.py(20): forward", t0 + 2, 400));
    ev.push_back(frame("nn.Module: MyAttention_0", t0 + 3, 50));
    ev.push_back(frame("nn.Module: RowParallelLinear_0", t0 + 4, 20));
    ev.push_back(launch(100 + 10 * step, t0 + 5));
    ev.push_back(kernel(gemm, 100 + 10 * step, t0 + 600, 56));
    ev.push_back(frame("nn.Module: MyMLP_0", t0 + 60, 50));
    ev.push_back(frame("nn.Module: RowParallelLinear_1", t0 + 61, 20));
    ev.push_back(launch(101 + 10 * step, t0 + 62));
    ev.push_back(kernel(gemm, 101 + 10 * step, t0 + 620, 56));
    ev.push_back(frame("/e/comm.py(11): tensor_model_parallel_all_reduce", t0 + 120, 30));
    ev.push_back(launch(102 + 10 * step, t0 + 121));
    ev.push_back(kernel(rccl, 102 + 10 * step, t0 + 640, 112));
  }
  // One decode graph replay launched under SGLang's runner.
  ev.push_back(frame("/e/cuda_graph_runner.py(804): replay", 5000, 100));
  ev.push_back(
      R"({"ph": "X", "cat": "cuda_runtime", "name": "hipGraphLaunch", "pid": 1, "tid": 7, "ts": 5001, "dur": 1.0, "args": {"correlation": 900}})");
  ev.push_back(
      R"({"ph": "X", "cat": "kernel", "name": "gemm_kernel", "pid": 5, "tid": 9, "ts": 5100, "dur": 10.0, "args": {"device": 5, "stream": 9, "correlation": 900}})");
  TraceRead r = read_trace_stream(chunked(trace(ev), 997), "t.json");
  INFO(r.error);
  REQUIRE(r.profile);
  const TraceProfile& p = *r.profile;
  CHECK(p.steps.source == "python_function");
  CHECK(p.steps.n_prefill == 2);
  CHECK(p.steps.n_decode == 1);
  CHECK(p.steps.prefill_unrowed == 2);
  CHECK(p.steps.prefill_rows_sum == 0);
  const TraceKernel& g = kernel_named(p, gemm);
  REQUIRE(g.regime_calls.prefill);
  CHECK(*g.regime_calls.prefill == 4);
  CHECK(g.regime_calls.decode.value_or(0) == 1);
  // The two projections at one grid are two signatures, told apart by their modules.
  std::vector<std::string> modules;
  for (const TraceCase& c : g.cases)
    if (!c.replay) {
      CHECK(c.count == 2);
      CHECK(c.steps.prefill == 2);
      CHECK_FALSE(c.rows.has_value());  // a forward frame counts no rows
      CHECK(c.call_site == "m.py: forward");
      modules.push_back(c.module);
    }
  std::sort(modules.begin(), modules.end());
  CHECK(modules ==
        std::vector<std::string>{"MyAttention.RowParallelLinear", "MyMLP.RowParallelLinear"});
  const TraceKernel& c = kernel_named(p, rccl);
  REQUIRE(c.cases.size() == 1);
  CHECK(c.cases[0].collective == "all_reduce");
  CHECK(c.cases[0].steps.prefill == 2);
}

TEST_CASE("name geometry: GEMM tiles by each library's grammar") {
  using roofline::classify::name_tile;
  const auto tile = [](const std::string& n) {
    auto t = name_tile(n);
    REQUIRE(t);
    return std::vector<double>{t->m, t->n, t->k};
  };
  // CK XDL block-scaled GEMM (mangled, as aiter's a8w8 blockscale kernels appear in ROCm traces).
  CHECK(
      tile("_ZN2ck27kernel_gemm_xdl_cshuffle_v3INS_42GridwiseGemmMultiD_ABScale_xdl_cshuffle_"
           "v3INS_13tensor_layout4gemm8RowMajorENS3_11ColumnMajorENS_5TupleIJEEES4_DB8_S8_ffS7_"
           "tNS_16tensor_operation12element_wise11PassThroughESB_SB_LNS9_6device18GemmSpecializ"
           "ationE0ELi256ELi1ELi128ELi128ELi16ELi128ELi256ELi16ELi16ELi16ELi16ELi1ELi2ENS_8Seq") ==
      std::vector<double>{16, 128, 256});
  // CK XDL without scales, demangled.
  CHECK(tile("void ck::kernel_gemm_xdl_cshuffle_v3<ck::GridwiseGemm_xdl_cshuffle_v3<ck::tensor_"
             "layout::gemm::RowMajor, ck::tensor_layout::gemm::ColumnMajor, (ck::tensor_operation"
             "::device::GemmSpecialization)7, 256, 224, 256, 64, 8, 8, 16, 16>, true>") ==
        std::vector<double>{224, 256, 64});
  CHECK(tile("Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT256x192x64_MI16x16x1_SN_LDSB1") ==
        std::vector<double>{256, 192, 64});
  CHECK(tile("nvjet_hsh_128x256_64x4_2x1_v_bz_coopB_NNN") == std::vector<double>{128, 256, 64});
  CHECK(tile("nvjet_sm100_qqtst_256x128_128x4_2x1_2cta_v_bz_TNT") ==
        std::vector<double>{256, 128, 128});
  CHECK(tile("sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x64x64_warpgroupsize1x1x1_"
             "execute_segment_k_off_kernel__5x_cublas") == std::vector<double>{128, 64, 64});
  CHECK(tile("ampere_bf16_s16816gemm_bf16_128x64_ldg8_f2f_stages_64x4_tn") ==
        std::vector<double>{128, 64, 64});
  CHECK(tile("cutlass_80_wmma_tensorop_bf16_s161616gemm_bf16_32x32_128x2_tn_align8") ==
        std::vector<double>{32, 32, 128});
  CHECK(tile("ck_tile::GemmKernel<ck_tile::GemmPipelineProblem<ck_tile::TileGemmShape<ck_tile::"
             "sequence<256, 128, 64>, ck_tile::sequence<2, 2, 1>>>>") ==
        std::vector<double>{256, 128, 64});
  CHECK(tile("cutlass::device_kernel<cutlass::gemm::kernel::GemmUniversal<cute::tuple<int, int, "
             "int, int>, cutlass::gemm::collective::CollectiveMma<cute::tuple<cute::C<1>, "
             "cute::C<2>, cute::C<1>>, cute::tuple<cute::C<128>, cute::C<64>, cute::C<128>>>>>") ==
        std::vector<double>{128, 64, 128});
  CHECK_FALSE(name_tile("void at::native::vectorized_elementwise_kernel<4>"));
  CHECK_FALSE(name_tile("aiter::fmoe_bf16_blockscaleFp8_g1u1_novs_silu_1tg_ps_32x256"));
}

TEST_CASE("name geometry: rows a block covers") {
  using roofline::classify::rows_per_block;
  std::string why;
  CHECK(rows_per_block("_ZN7ck_tile6kentryILi1ENS_12Rmsnorm2dFwdINS_27Rmsnorm2dFwdPipelineOnePassI"
                       "NS_27Rmsnorm2dFwdPipelineProblemIDF16bDF16bfDF16bDF16bDF16bffNS_19Generic2d"
                       "BlockShapeINS_8sequenceIJLi4ELi1536EEEENS5_IJLi4ELi1EEEE",
                       why) == 4.0);
  CHECK(why.find("4×1536") != std::string::npos);
  CHECK(rows_per_block("ck_tile::Rmsnorm2dFwd<ck_tile::Generic2dBlockShape<ck_tile::sequence<1, "
                       "8192>, ck_tile::sequence<1, 4>>>",
                       why) == 1.0);
  CHECK(rows_per_block("_ZN7sgl_hip10activation18act_and_mul_kernelI14__hip_bfloat16", why) == 1.0);
  CHECK_FALSE(rows_per_block("void at::native::vectorized_elementwise_kernel<4>", why));
}

}  // namespace unit_call_stacks
