// match.hpp: the one kernel-name matcher — canonical names and the four-level rule, over the
// spellings real inputs use (rocprofv3, PyTorch traces, Nsight Compute, probe targets).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "roofline/analyze/evidence/match.hpp"
#include "roofline/cli/layer.hpp"

namespace unit_match {
using namespace roofline::cli;

namespace {

std::vector<KernelNames> named(std::initializer_list<const char*> names) {
  std::vector<KernelNames> out;
  for (const char* n : names) out.push_back(KernelNames{{n}, ""});
  return out;
}

}  // namespace

TEST_CASE("canonical_kernel_name: decorations, argument list, void, spacing, mangling", "[match]") {
  CHECK(canonical_kernel_name("kernel_paged_attention_2d [clone .kd]") ==
        "kernel_paged_attention_2d");
  CHECK(canonical_kernel_name("  fused_moe_kernel.kd ") == "fused_moe_kernel");
  CHECK(canonical_kernel_name("void vllm::paged_attention_v2_kernel<__hip_bfloat16, "
                              "__hip_bfloat16, 128, 16, 128, (vllm::Fp8KVCacheDataType)0, false, "
                              "512>(float*, float*, int const*, int)") ==
        "paged_attention_v2_kernel<__hip_bfloat16,__hip_bfloat16,128,16,128,0,0,512>");
  // The last balanced (...) only is the argument list; template arguments stay.
  CHECK(canonical_kernel_name("void ck::kernel<ck::Tuple<int, float>>(void (*)(int), "
                              "ck::Arg) [clone .kd]") == "kernel<tuple<int,float>>");
  CHECK(canonical_kernel_name("void vllm::rms_norm_kernel<c10::BFloat16,8>(unsigned int)") ==
        canonical_kernel_name("vllm::rms_norm_kernel<c10::BFloat16, 8>"));
  CHECK(canonical_kernel_name("void f<unsigned int>(int)") == "f<unsignedint>");
  CHECK(canonical_kernel_name("_ZN5aiter11fmoe_kernelEPKvPvi.kd") == "fmoe_kernel");
  CHECK(canonical_kernel_name("_Znot_really_mangled") == "znot_really_mangled");
  CHECK(canonical_kernel_name("Cijk_Alik_Bljk_BBS_BH_MT128x128x64_MI16x16x1_SN_1LDSB1_GRVWA8") ==
        "cijk_alik_bljk_bbs_bh_mt128x128x64_mi16x16x1_sn_1ldsb1_grvwa8");
  CHECK(canonical_kernel_name("(unnamed)") == "(unnamed)");
  CHECK(canonical_kernel_name("torch.ops.vllm.fused_moe") == "fused_moe");
  CHECK(canonical_kernel_name("_w8a8_block_fp8_matmul") == "w8a8_block_fp8_matmul");
  CHECK(canonical_kernel_name("") == "");
}

// The same kernels as the H200 fixtures spell them: the PyTorch trace (first) and Nsight Compute
// (second) of one decode step (shared/fixtures, docs/method.md §11.4).
TEST_CASE("canonical_kernel_name: a PyTorch trace and Nsight Compute name one kernel alike",
          "[match]") {
  const std::pair<const char*, const char*> pairs[] = {
      {"void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<c10::BFloat16, "
       "float, true>(int, float, c10::BFloat16 const*, c10::BFloat16 const*, c10::BFloat16 "
       "const*, float*, float*, c10::BFloat16*)",
       "void at::<unnamed>::vectorized_layer_norm_kernel<c10::BFloat16, float, 1>(int, T2, const "
       "T1 *, const T1 *, const T1 *, T2 *, T2 *, T1 *)"},
      {"void (anonymous namespace)::softmax_warp_forward<float, float, float, 7, false, "
       "false>(float*, float const*, int, int, int, bool const*, int, bool)",
       "void <unnamed>::softmax_warp_forward<float, float, float, 7, 0, 0>(T2 *, const T1 *, int, "
       "int, int, const bool *, int, bool)"},
      {"void at::native::vectorized_elementwise_kernel<8, at::native::CUDAFunctor_add<c10::"
       "BFloat16>, std::array<char*, 3ul> >(int, at::native::CUDAFunctor_add<c10::BFloat16>, "
       "std::array<char*, 3ul>)",
       "void at::vectorized_elementwise_kernel<8, at::CUDAFunctor_add<c10::BFloat16>, "
       "std::array<char *, 3>>(int, T2, T3)"},
      {"void at::native::bitonicSortKVInPlace<2, -1, 16, 16, float, long, "
       "at::native::GTOp<float, true>, unsigned int>(at::cuda::detail::TensorInfo<float, "
       "unsigned int>, unsigned int, unsigned int, unsigned int, "
       "at::cuda::detail::TensorInfo<long, unsigned int>, unsigned int, "
       "at::native::GTOp<float, true>)",
       "void at::bitonicSortKVInPlace<2, (int)-1, 16, 16, float, long, at::GTOp<float, 1>, "
       "unsigned int>(detail::TensorInfo<T5, T8>, T8, T8, T8, detail::TensorInfo<T6, T8>, T8, "
       "T7)"},
      {"void at::native::elementwise_kernel<128, 4, "
       "at::native::gpu_kernel_impl_nocast<at::native::direct_copy_kernel_cuda(at::"
       "TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#12}::operator()() "
       "const::{lambda(c10::BFloat16)#1}>(at::TensorIteratorBase&, "
       "at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() "
       "const::{lambda()#12}::operator()() const::{lambda(c10::BFloat16)#1} "
       "const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl_nocast<...>)",
       "void at::elementwise_kernel<128, 4, void "
       "at::gpu_kernel_impl_nocast<at::direct_copy_kernel_cuda(at::TensorIteratorBase &)::"
       "[lambda() (instance 3)]::operator ()() const::[lambda() (instance 12)]::operator ()() "
       "const::[lambda(c10::BFloat16) (instance 1)]>(at::TensorIteratorBase &, const T1 "
       "&)::[lambda(int) (instance 1)]>(int, T3)"},
      {"void cublasLt::splitKreduce_kernel<32, 16, int, float, __nv_bfloat16, float, "
       "__nv_bfloat16, false, float, __nv_bfloat16, __nv_bfloat16, true, false, false, "
       "false>(cublasLt::cublasSplitKParams<float>, float const*)",
       "void cublasLt::splitKreduce_kernel<32, 16, int, float, __nv_bfloat16, float, "
       "__nv_bfloat16, 0, float, __nv_bfloat16, __nv_bfloat16, 1, 0, 0, 0>(cublasLt::"
       "cublasSplitKParams<T6>, const T4 *)"},
  };
  for (const auto& [trace, ncu] : pairs) {
    INFO(trace);
    CHECK(canonical_kernel_name(trace) == canonical_kernel_name(ncu));
  }
  // Different instantiations stay different kernels.
  CHECK(canonical_kernel_name(pairs[2].first) !=
        canonical_kernel_name("void at::vectorized_elementwise_kernel<8, "
                              "at::FillFunctor<c10::BFloat16>, std::array<char *, 1>>(int, T2, "
                              "T3)"));
}

// Three PyTorch elementwise kernels of the H200 fixtures share `elementwise_kernel<128, 4, ...>`
// and differ only in the function their lambda is local to (direct_copy_kernel_cuda, silu_kernel)
// or in the functor type of the function template that holds it (BinaryFunctor<..., MulFunctor>).
// Dropping those scopes as if they were namespaces made all three one kernel, so each trace entry
// took the three ncu kernels' mean. And `operator()(` beside `operator ()(` (Nsight Compute's
// space) must not keep one side's `operator`.
TEST_CASE("canonical_kernel_name: a lambda is named by the function it is local to", "[match]") {
  const char* trace_copy =
      "void at::native::elementwise_kernel<128, 4, "
      "at::native::gpu_kernel_impl_nocast<at::native::direct_copy_kernel_cuda(at::"
      "TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#12}::operator()() "
      "const::{lambda(c10::BFloat16)#1}>(at::TensorIteratorBase&, "
      "at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() "
      "const::{lambda()#12}::operator()() const::{lambda(c10::BFloat16)#1} "
      "const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl_nocast<...>)";
  const char* trace_silu =
      "void at::native::elementwise_kernel<128, 4, "
      "at::native::gpu_kernel_impl_nocast<at::native::(anonymous namespace)::silu_kernel(at::"
      "TensorIteratorBase&)::{lambda()#1}::operator()() const::{lambda()#6}::operator()() "
      "const::{lambda(c10::BFloat16)#1}>(at::TensorIteratorBase&, at::native::(anonymous "
      "namespace)::silu_kernel(at::TensorIteratorBase&)::{lambda()#1}::operator()() "
      "const::{lambda()#6}::operator()() const::{lambda(c10::BFloat16)#1} "
      "const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl_nocast<...>)";
  const char* trace_mul =
      "void at::native::elementwise_kernel<128, 4, "
      "at::native::gpu_kernel_impl_nocast<at::native::BinaryFunctor<c10::BFloat16, "
      "c10::BFloat16, c10::BFloat16, at::native::binary_internal::MulFunctor<float> > "
      ">(at::TensorIteratorBase&, at::native::BinaryFunctor<c10::BFloat16, c10::BFloat16, "
      "c10::BFloat16, at::native::binary_internal::MulFunctor<float> > "
      "const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl_nocast<...>)";
  const char* ncu_copy =
      "void at::elementwise_kernel<128, 4, void "
      "at::gpu_kernel_impl_nocast<at::direct_copy_kernel_cuda(at::TensorIteratorBase &)::"
      "[lambda() (instance 3)]::operator ()() const::[lambda() (instance 12)]::operator ()() "
      "const::[lambda(c10::BFloat16) (instance 1)]>(at::TensorIteratorBase &, const T1 "
      "&)::[lambda(int) (instance 1)]>(int, T3)";
  const char* ncu_silu =
      "void at::elementwise_kernel<128, 4, void "
      "at::gpu_kernel_impl_nocast<at::<unnamed>::silu_kernel(at::TensorIteratorBase &)::[lambda() "
      "(instance 1)]::operator ()() const::[lambda() (instance 6)]::operator ()() "
      "const::[lambda(c10::BFloat16) (instance 1)]>(at::TensorIteratorBase &, const T1 "
      "&)::[lambda(int) (instance 1)]>(int, T3)";
  const char* ncu_mul =
      "void at::elementwise_kernel<128, 4, void at::gpu_kernel_impl_nocast<at::BinaryFunctor<"
      "c10::BFloat16, c10::BFloat16, c10::BFloat16, binary_internal::MulFunctor<float>>>(at::"
      "TensorIteratorBase &, const T1 &)::[lambda(int) (instance 1)]>(int, T3)";
  CHECK(canonical_kernel_name(trace_copy) ==
        "elementwise_kernel<128,4,gpu_kernel_impl_nocast<direct_copy_kernel_cuda()::lambda#3::"
        "operator()::lambda#12::operator()::lambda#1>()::lambda#1>");
  CHECK(canonical_kernel_name(trace_copy) == canonical_kernel_name(ncu_copy));
  CHECK(canonical_kernel_name(trace_silu) == canonical_kernel_name(ncu_silu));
  CHECK(canonical_kernel_name(trace_mul) == canonical_kernel_name(ncu_mul));
  CHECK(canonical_kernel_name(trace_copy) != canonical_kernel_name(trace_silu));
  CHECK(canonical_kernel_name(trace_copy) != canonical_kernel_name(trace_mul));
  CHECK(canonical_kernel_name(trace_silu) != canonical_kernel_name(trace_mul));
  // Matched as the analyzer matches them: each trace entry to its own ncu kernel only.
  const auto m = match_kernel_names(named({trace_copy, trace_silu, trace_mul}),
                                    named({ncu_mul, ncu_copy, ncu_silu,
                                           "void at::elementwise_kernel<128, 4, "
                                           "Op>(int, T3)"}));
  CHECK(m[0].kind == MatchKind::normalized);
  CHECK(m[0].candidates == std::vector<std::size_t>{1});
  CHECK(m[1].candidates == std::vector<std::size_t>{2});
  CHECK(m[2].candidates == std::vector<std::size_t>{0});

  const char* trace_sum =
      "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<c10::BFloat16, "
      "at::native::func_wrapper_t<c10::BFloat16, at::native::sum_functor<c10::BFloat16, float, "
      "c10::BFloat16>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, "
      "c10::BFloat16, 4, 8> >(at::native::ReduceOp<c10::BFloat16, float>)";
  const char* ncu_sum =
      "void at::reduce_kernel<512, 1, at::ReduceOp<c10::BFloat16, "
      "at::func_wrapper_t<c10::BFloat16, at::sum_functor<c10::BFloat16, float, "
      "c10::BFloat16>::operator ()(at::TensorIterator &)::[lambda(float, float) (instance 1)]>, "
      "unsigned int, c10::BFloat16, 4, 8>>(T3)";
  CHECK(canonical_kernel_name(trace_sum) ==
        "reduce_kernel<512,1,reduceop<bfloat16,func_wrapper_t<bfloat16,operator()::lambda#1>,"
        "unsignedint,bfloat16,4,8>>");
  CHECK(canonical_kernel_name(ncu_sum) == canonical_kernel_name(trace_sum));
}

TEST_CASE("match_kernel_names: exact first, then normalized, then substring on word boundaries",
          "[match]") {
  const auto kernels = named({
      "fused_moe_kernel",                                                        // 0
      "fused_moe_kernel [clone .kd]",                                            // 1
      "kernel_paged_attention_2d [clone .kd]",                                   // 2
      "void vllm::paged_attention_v2_kernel<__hip_bfloat16, 128>(float*, int)",  // 3
      "_ZN5aiter11fmoe_kernelEPKvPvi",                                           // 4
      "fused_moe_kernel_gptq_awq",                                               // 5
      "Cijk_Alik_Bljk_BBS_BH_MT128x128x64",                                      // 6
      "add",                                                                     // 7
  });
  const auto m = match_kernel_names(
      named({
          "fused_moe_kernel",                                                   // exact only
          "kernel_paged_attention_2d",                                          // normalized
          "paged_attention_v2_kernel",                                          // substring: in it
          "aiter::fmoe_kernel(void const*, void*, int)",                        // demangled
          "void Cijk_Alik_Bljk_BBS_BH_MT128x128x64(float*) [clone .kd] extra",  // contains it
          "gptq",                                                               // too short
          "rms_norm_kernel",                                                    // nothing
          "add_kernel",
      }),
      kernels);
  REQUIRE(m.size() == 8);
  CHECK(m[0].kind == MatchKind::exact);
  CHECK(m[0].candidates == std::vector<std::size_t>{0});  // not 1 nor 5: exact wins
  CHECK(m[1].kind == MatchKind::normalized);
  CHECK(m[1].candidates == std::vector<std::size_t>{2});
  CHECK(m[2].kind == MatchKind::substring);
  CHECK(m[2].candidates == std::vector<std::size_t>{3});
  CHECK(m[3].kind == MatchKind::normalized);
  CHECK(m[3].candidates == std::vector<std::size_t>{4});
  CHECK(m[4].kind == MatchKind::substring);
  CHECK(m[4].candidates == std::vector<std::size_t>{6});
  CHECK(m[5].kind == MatchKind::none);  // "gptq" is shorter than the substring minimum
  CHECK(m[6].kind == MatchKind::none);
  CHECK(m[6].candidates.empty());
  CHECK(m[7].kind == MatchKind::none);  // "add" is too short to be matched inside "add_kernel"
  CHECK(std::string(to_string(MatchKind::substring)) == "substring");
  CHECK(std::string(to_string(MatchKind::short_name)) == "short_name");
}

TEST_CASE(
    "match_kernel_names: a kernel matched well by one query is not offered to another's "
    "substring",
    "[match]") {
  const auto kernels = named({"fused_moe_kernel [clone .kd]", "moe_align_block_size_kernel"});
  const auto m = match_kernel_names(named({"fused_moe_kernel", "fused_moe"}), kernels);
  CHECK(m[0].kind == MatchKind::normalized);
  CHECK(m[1].kind == MatchKind::none);  // would be a substring of kernel 0, which is claimed
  // Without the claim the identifier boundary still decides: "moe" is inside a word there.
  const auto solo = match_kernel_names(named({"fused_moe"}), named({"fused_moe<int>"}));
  CHECK(solo[0].kind == MatchKind::substring);
}

TEST_CASE("match_kernel_names: a short name counts only when unique on both sides", "[match]") {
  // The Top-N's short names against full counter names that neither contain nor equal them.
  const std::vector<KernelNames> queries{{{"act_and_mul (silu, bf16)"}, "act_and_mul_kernel<silu>"},
                                         {{"elementwise A"}, "elementwise_kernel"},
                                         {{"elementwise B"}, "elementwise_kernel"},
                                         {{"lonely"}, "gatherTopK"}};
  const auto kernels =
      named({"void vllm::act_and_mul_kernel<c10::BFloat16, &vllm::silu_kernel<c10::BFloat16>, "
             "true>(c10::BFloat16*, c10::BFloat16 const*, int)",
             "void at::elementwise_kernel<128, 4, Op1>(int, T3)",
             "void at::elementwise_kernel<128, 4, Op2>(int, T3)",
             "void sbtopk::gatherTopK<float, unsigned int, 2, 0>(int)",
             "void sbtopk::gatherTopK<float, unsigned int, 2, 0>(int) [clone .kd]"});
  const auto m = match_kernel_names(queries, kernels);
  CHECK(m[0].kind == MatchKind::short_name);
  CHECK(m[0].candidates == std::vector<std::size_t>{0});
  CHECK(m[1].kind == MatchKind::none);  // two queries and two kernels share the short name
  CHECK(m[2].kind == MatchKind::none);
  // One kernel under two spellings is still one kernel: both rows are its dispatches.
  CHECK(m[3].kind == MatchKind::short_name);
  CHECK(m[3].candidates == std::vector<std::size_t>{3, 4});
}

TEST_CASE("match_kernel_names: empty sides and empty names match nothing", "[match]") {
  CHECK(match_kernel_names({}, named({"a_kernel"})).empty());
  const auto m = match_kernel_names(named({""}), named({"", "some_kernel"}));
  REQUIRE(m.size() == 1);
  CHECK(m[0].kind == MatchKind::none);
  CHECK(canonical_short_name("void at::elementwise_kernel<128, 4, Op>(int)") ==
        "elementwise_kernel");
}

}  // namespace unit_match
