// The token rule of the kernel-family patterns (docs/method.md §7.2): anchored at token starts and
// ends, camel-case humps and letter/digit changes split tokens, `*`/`?` wildcards, and the longest
// pattern wins.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "roofline/inputs/pattern.hpp"

namespace unit_pattern {
using roofline::inputs::longest_match;
using roofline::inputs::pattern_length;
using roofline::inputs::pattern_matches;
using roofline::inputs::token_boundary;

TEST_CASE("pattern: token boundaries at separators, camel humps and digits", "[pattern]") {
  const std::string s = "swiGlu_KVCache::sm90";
  CHECK(token_boundary(s, 0));
  CHECK_FALSE(token_boundary(s, 1));  // s|w
  CHECK(token_boundary(s, 3));        // swi|Glu
  CHECK(token_boundary(s, 6));        // Glu|_
  CHECK(token_boundary(s, 9));        // KV|Cache: the last capital of a run starts the next word
  CHECK_FALSE(token_boundary(s, 8));  // K|V
  CHECK(token_boundary(s, 18));       // sm|90
  CHECK_FALSE(token_boundary(s, 19));
  CHECK(token_boundary(s, s.size()));
}

TEST_CASE("pattern: a word never matches inside another word", "[pattern]") {
  // fbgemm_gpu is not a GEMM, and the old substring rule said it was.
  CHECK_FALSE(pattern_matches("gemm", "void fbgemm_gpu::embedding_forward_split_kernel<float>"));
  CHECK(pattern_matches("gemm", "gemm_a8w8_bpreshuffle"));
  CHECK(pattern_matches("gemm", "wvSplitK_LLGemm1_kernel"));  // LL|Gemm|1
  CHECK_FALSE(pattern_matches("rope", "europe_kernel"));
  CHECK_FALSE(pattern_matches("rope", "ropeless_kernel"));
  CHECK(pattern_matches("rope", "fused_rope_kernel"));
  CHECK(pattern_matches("swiglu", "bmm_E4m3_E4m3E4m3_Fp32_swiGlu_sm100a"));  // case-insensitive
  CHECK(pattern_matches("glu", "swiGlu"));  // a camel-case part is a token
  CHECK_FALSE(pattern_matches("lu", "swiGlu"));
  CHECK(pattern_matches("aten::mm", "aten::mm"));
  CHECK_FALSE(pattern_matches("aten::mm", "aten::addmm"));
  CHECK_FALSE(pattern_matches("nccl", "myncclcopy"));
  CHECK(pattern_matches("nccl", "ncclDevKernel_AllReduce_Sum_bf16_RING_LL"));
}

TEST_CASE("pattern: wildcards, and the anchoring they relax", "[pattern]") {
  CHECK(pattern_matches("nvjet_*", "nvjet_sm90_qqtst_128x128_64x4_1x2_h_bz_coopA_TNT"));
  CHECK(pattern_matches("nvjet_*", "void nvjet_hsh_64x8_64x16_4x1_v_bz_TNN(int)"));
  CHECK_FALSE(pattern_matches("nvjet_*", "xnvjet_tst_64x8"));
  CHECK(pattern_matches("finalizeKernel*", "moe::dev::finalize::finalizeKernelVecLoad<float>"));
  // A leading star may start inside a word; text after an inner star starts on a token again.
  CHECK(pattern_matches("*fmha*", "myfmhakernel"));
  CHECK(pattern_matches("*matmul_ogs*swiglu*", "_p_matmul_ogs_NNT_bf16xbf16xmxfp4_128x1_swiglu"));
  CHECK_FALSE(pattern_matches("*matmul_ogs*swiglu*", "_matmul_ogs_NNT_bf16_noswiglu"));
  CHECK(pattern_matches("Memcpy?*", "Memcpy DtoD (Device -> Device)"));
  CHECK(pattern_matches("bmm_E4m3_*swiGlu*", "bmm_E4m3_E4m3E4m3_Fp32_t128_swiGlu"));
  CHECK_FALSE(pattern_matches("bmm_E4m3_*swiGlu*", "bmm_E4m3_E4m3E4m3_Fp32_t128"));
  CHECK(pattern_matches("*", ""));
  CHECK(pattern_matches("**", "anything"));
  CHECK_FALSE(pattern_matches("a?c", "ab"));
}

TEST_CASE("pattern: length in tokens, the longest match wins, ties the earlier row", "[pattern]") {
  CHECK(pattern_length("FmhaBatchPrefillWithPagedKVCache") == 7);
  CHECK(pattern_length("BatchPrefillWithPagedKVCache") == 6);
  CHECK(pattern_length("nvjet_*") == 1);
  CHECK(pattern_length("*") == 0);
  struct Row {
    std::string pattern;
    int id;
  };
  const std::vector<Row> rows{{"swiglu", 1},
                              {"BatchPrefillWithPagedKVCache", 2},
                              {"bmm_MxE2m1_*swiGlu*", 3},
                              {"FmhaBatchPrefillWithPagedKVCache", 4},
                              {"rope", 5},
                              {"fused", 6}};
  auto best = [&](std::string_view name) {
    const Row* r = longest_match(rows.data(), rows.data() + rows.size(), {name},
                                 [](const Row&) { return true; });
    return r ? r->id : 0;
  };
  CHECK(best("bmm_MxE2m1_MxE2m1MxE4m3_Fp32_t128x8x512_swiGlu_sm100f") == 3);
  CHECK(best("ck_tile::FmhaBatchPrefillWithPagedKVCacheKernel<int>") == 4);
  CHECK(best("flashinfer::BatchPrefillWithPagedKVCacheKernel<int>") == 2);
  CHECK(best("fused_swiglu_kernel") == 1);
  CHECK(best("fused_rope_kernel") == 5);  // a tie (one token each): the earlier row
  CHECK(best("nothing_here") == 0);
}

}  // namespace unit_pattern
