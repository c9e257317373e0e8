// docs/method.md §17.1: two rounds' kernels paired by what they are — roles read from analysed
// entries and Top-N entries, the levels of the pairing, the vetoes, and the reasons given.
#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <vector>

#include "roofline/cli/layer.hpp"
#include "roofline/inputs/kernel_classes.hpp"
#include "roofline/outcomes/outcomes.hpp"
#include "roofline/outcomes/pairing.hpp"
#include "roofline/outcomes/roles.hpp"
#include "unit/test_helpers.hpp"

namespace unit_role_pairing {
using namespace roofline::cli;
using roofline::test::contains;

namespace {

using Sv = std::vector<std::string>;

// An analysed entry: its display name, class, module and its signatures' operand dims.
Prediction analysed(const std::string& name, const std::string& short_name,
                    const std::string& display, const std::string& op_class,
                    const std::string& module = "", const std::string& op = "",
                    std::vector<std::vector<std::int64_t>> dims = {}) {
  Prediction p;
  p.name = name;
  p.short_name = short_name;
  p.display_name = display;
  p.op_class = op_class;
  p.module = module;
  p.op = op;
  if (!dims.empty()) p.signatures.push_back(SignatureRef{"", module, std::move(dims), 10.0});
  return p;
}

KernelRole role(const Prediction& p) {
  return role_of(p);
}

}  // namespace

TEST_CASE("matrix_shape: the weight K×N of [M×K]·[K×N], whatever the operands around it",
          "[pairing]") {
  CHECK(matrix_shape({{16, 2048}, {2048, 5120}}) == "2048×5120");
  // _C::cutlass_scaled_mm writes the output first: [t×n], [t×k], [k×n], scales.
  CHECK(matrix_shape({{16, 5120}, {16, 2048}, {2048, 5120}, {1}, {1}}) == "2048×5120");
  // F.linear's weight is [N×K].
  CHECK(matrix_shape({{16, 2048}, {5120, 2048}}) == "2048×5120");
  CHECK(matrix_shape({{16, 2048}, {16, 128}}).empty());  // moe_forward: hidden and logits
  CHECK(matrix_shape({{16, 32, 128}, {4096, 16, 4, 128}}).empty());
}

TEST_CASE("role_of: the display name's role unless it is the class's or the op's word",
          "[pairing]") {
  // The linear plan placed two projections: both are roles.
  KernelRole r = role(analysed("k", "k", "qkv_proj / o_proj · GemmUniversal", "gemm"));
  CHECK(r.roles == Sv{"o_proj", "qkv_proj"});
  // Only the class speaks: no role.
  CHECK(role(analysed("m", "m", "moe · fused_moe_kernel", "moe")).roles.empty());
  // The op's word (cutlass_scaled_mm) changes with the dtype: no role either.
  r = role(analysed("g", "g", "cutlass_scaled_mm · GemmUniversal", "gemm", "",
                    "_C::cutlass_scaled_mm", {{16, 5120}, {16, 2048}, {2048, 5120}}));
  CHECK(r.roles.empty());
  CHECK(r.shapes == Sv{"2048×5120"});
  // A module names the role; the class "unknown" is no class.
  r = role(analysed("l", "l", "lm_head · gemvx", "unknown", "Qwen3MoeForCausalLM.LogitsProcessor"));
  CHECK(r.roles == Sv{"lm_head"});
  CHECK(r.op_class.empty());
  CHECK(role_text(r) == "class unknown · lm_head");
}

TEST_CASE("role_of(TopnEntry): the name rules' class, the module's role, the shapes' weight",
          "[pairing]") {
  TopnEntry e;
  e.name = "nvjet_sm90_tst_64x8_64x16_4x1_v_bz_TNT";
  e.short_name = e.name;
  e.op = "aten::mm";
  e.module = "Qwen3MoeAttention.QKVParallelLinear";
  e.shapes = {{16, 2048}, {2048, 5120}};
  const KernelRole r = role_of(e, ClassRules{{}, builtin_kernel_classes_rules()});
  CHECK(r.op_class == "gemm");
  CHECK(r.roles == Sv{"qkv_proj"});
  CHECK(r.shapes == Sv{"2048×5120"});
  CHECK(r.display_name == "qkv_proj · nvjet_sm90_tst_64x8…_4x1_v_bz_TNT");  // kernel_tag
  CHECK_FALSE(r.analysed);
}

TEST_CASE("pair_by_role: a short name shared across classes is no pairing (issue 46)",
          "[pairing]") {
  // bf16 round: TRT-LLM's MoE (cutlass::Kernel<MoeFCGemm>, short name "Kernel"); fp8 round:
  // cuBLAS's lm_head gemvx::kernel (short name "kernel") and the Triton fp8 MoE.
  const std::vector<KernelRole> a = {role(
      analysed("void cutlass::Kernel<MoeFCGemm<bf16>>(Params)", "Kernel", "experts · MoeFCGemm",
               "moe", "Qwen3MoeSparseMoeBlock.FusedMoE", "vllm::moe_forward"))};
  const std::vector<KernelRole> b = {
      role(analysed("void internal::gemvx::kernel<int, __nv_bfloat16>(Params)", "kernel",
                    "lm_head · gemvx", "gemm", "Qwen3MoeForCausalLM.LogitsProcessor", "aten::mm",
                    {{16, 2048}, {2048, 151936}})),
      role(analysed("fused_moe_kernel", "fused_moe_kernel", "experts · fused_moe_kernel", "moe",
                    "Qwen3MoeSparseMoeBlock.FusedMoE", "vllm::moe_forward"))};
  const std::vector<RolePair> p = pair_by_role(a, {}, b, "1");
  REQUIRE(p[0].index == 1u);
  CHECK(p[0].basis == PairBasis::role);
  CHECK(pairing_label(p[0]) == "role");
  CHECK(contains(p[0].reason, "same role experts"));
  // Without the Triton MoE, the gemvx of the same short name is still no counterpart.
  const std::vector<RolePair> q = pair_by_role(a, {}, {b[0]}, "1");
  CHECK_FALSE(q[0].index.has_value());
  CHECK(contains(q[0].reason, "shares only its short name"));
}

TEST_CASE("pair_by_role: the same name serving another weight is refused; the role pairs",
          "[pairing]") {
  // cuBLAS picks one nvjet kernel for the bf16 qkv GEMM and, in the fp8 round, for the router.
  const std::string nvjet = "nvjet_sm90_tst_64x8_64x16_4x1_v_bz_TNT";
  const std::vector<KernelRole> a = {
      role(analysed(nvjet, nvjet, "qkv_proj · nvjet", "gemm", "Attn.QKVParallelLinear", "aten::mm",
                    {{16, 2048}, {2048, 5120}})),
      role(analysed("gemv2T_kernel_val", "gemv2T_kernel_val", "router · gemv2T", "gemm",
                    "Qwen3MoeSparseMoeBlock.ReplicatedLinear", "aten::mm",
                    {{16, 2048}, {2048, 128}}))};
  const std::vector<KernelRole> b = {
      role(analysed(nvjet, nvjet, "router · nvjet", "gemm",
                    "Qwen3MoeSparseMoeBlock.ReplicatedLinear", "aten::mm",
                    {{16, 2048}, {2048, 128}})),
      role(analysed("cutlass_fp8_gemm", "device_kernel", "qkv_proj · GemmUniversal", "gemm",
                    "Attn.QKVParallelLinear", "_C::cutlass_scaled_mm",
                    {{16, 5120}, {16, 2048}, {2048, 5120}, {1}, {1}}))};
  const std::vector<RolePair> p = pair_by_role(a, {}, b, "1");
  CHECK(p[0].index == 1u);  // qkv → the fp8 GEMM, not the router of its name
  CHECK(p[0].basis == PairBasis::role);
  CHECK(contains(p[0].reason, "weight 2048×5120"));
  CHECK(p[1].index == 0u);  // router → the nvjet kernel the router runs in round 1
  CHECK(p[1].basis == PairBasis::role);
}

TEST_CASE("pair_by_role: only one renamed kernel of a class on each side pairs by class",
          "[pairing]") {
  const std::vector<KernelRole> a = {
      role(analysed("flash_fwd_splitkv_kernel<bf16>", "flash_fwd_splitkv_kernel",
                    "varlen_fwd · flash_fwd_splitkv_kernel", "attn", "",
                    "_vllm_fa2_C::varlen_fwd")),
      role(analysed("quant_a", "quant_a", "quant · quant_a", "elementwise"))};
  std::vector<KernelRole> b = {
      role(analysed("flash_fwd_splitkv_kernel<e4m3>", "flash_fwd_splitkv_kernel",
                    "varlen_fwd · flash_fwd_splitkv_kernel", "attn", "",
                    "_vllm_fa2_C::varlen_fwd")),
      role(analysed("quant_b", "quant_b", "quant · quant_b", "elementwise"))};
  std::vector<RolePair> p = pair_by_role(a, {}, b, "1");
  CHECK(p[0].index == 0u);
  CHECK(p[0].basis == PairBasis::only_of_class);
  CHECK(pairing_label(p[0]) == "only_of_class");
  CHECK_FALSE(p[1].index.has_value());  // elementwise: the class alone pairs nothing
  CHECK(contains(p[1].reason, "elementwise work is of many kinds"));
  // A second renamed attention kernel in round A (below its head) makes the class ambiguous.
  const std::vector<KernelRole> rest = {
      role(analysed("other_attn", "other_attn", "attention · other_attn", "attn"))};
  p = pair_by_role(a, rest, b, "1");
  CHECK_FALSE(p[0].index.has_value());
  CHECK(contains(p[0].reason, "the class alone pairs one renamed kernel with one"));
}

TEST_CASE(
    "pair_by_role: a kernel serving two weights pairs once per weight, through its "
    "signature; one weight pairs once",
    "[pairing]") {
  const std::vector<KernelRole> a = {
      role(analysed("nvjet_qkv", "nvjet_qkv", "gemm · nvjet_qkv", "gemm", "", "aten::mm",
                    {{16, 2048}, {2048, 5120}})),
      role(analysed("nvjet_o", "nvjet_o", "gemm · nvjet_o", "gemm", "", "aten::mm",
                    {{16, 4096}, {4096, 2048}}))};
  Prediction both = analysed("scaled_mm", "device_kernel", "gemm · GemmUniversal", "gemm", "",
                             "_C::cutlass_scaled_mm", {{16, 5120}, {16, 2048}, {2048, 5120}});
  both.signatures.push_back(SignatureRef{"o", "", {{16, 2048}, {16, 4096}, {4096, 2048}}, 8.875});
  std::vector<RolePair> p = pair_by_role(a, {}, {role(both)}, "fp8");
  CHECK(p[0].index == 0u);
  CHECK(p[0].signature == 0u);
  CHECK(p[1].index == 0u);
  CHECK(p[1].signature == 1u);
  CHECK(contains(p[1].reason, "its signature 'o': the kernel serves several weights"));
  // One weight in two signatures (two batch sizes): the kernel pairs once, whole.
  Prediction one = both;
  one.signatures[1].dims = {{32, 5120}, {32, 2048}, {2048, 5120}};
  const std::vector<KernelRole> two_qkv = {
      a[0], role(analysed("nvjet_qkv2", "nvjet_qkv2", "gemm · nvjet_qkv2", "gemm", "", "aten::mm",
                          {{16, 2048}, {2048, 5120}}))};
  p = pair_by_role(two_qkv, {}, {role(one)}, "fp8");
  CHECK(p[0].index == 0u);
  CHECK_FALSE(p[0].signature.has_value());
  CHECK_FALSE(p[1].index.has_value());
  CHECK(contains(p[1].reason, "shares its weight 2048×5120 but is paired with 'gemm · nvjet_qkv'"));
}

TEST_CASE("pair_by_role: the same kernel by name, classes agreeing; across classes none",
          "[pairing]") {
  const std::vector<KernelRole> a = {role(analysed("k", "k", "attention · k", "attn"))};
  std::vector<RolePair> p =
      pair_by_role(a, {}, {role(analysed("k", "k", "attention · k", "attn"))}, "1");
  CHECK(p[0].basis == PairBasis::name);
  CHECK(pairing_label(p[0]) == "exact");
  p = pair_by_role(a, {}, {role(analysed("k", "k", "gemm · k", "gemm"))}, "1");
  CHECK_FALSE(p[0].index.has_value());
  CHECK(contains(p[0].reason, "classes differ (attn against gemm)"));
}

TEST_CASE(
    "compare rows: gone, another kernel than the role's, or by short name unchecked, "
    "are undefined in outcomes",
    "[pairing][outcomes]") {
  const std::string text = R"({"schema": "roofline-compare-v1", "baseline_round": "0",
    "round": "1", "rows": [
      {"name": "moe", "short_name": "Kernel", "speedup": 1.832, "pct_a": 30, "status":
       ["improved", "contradiction"], "match": "short_name", "name_b": "gemvx"},
      {"name": "qkv", "short_name": "nvjet", "speedup": 1.2, "pct_a": 5, "status": ["improved"],
       "match": "role", "pairing": "renamed", "name_b": "scaled_mm"},
      {"name": "q", "short_name": "q", "speedup": null, "pct_a": 2, "status": ["gone"],
       "match": "none"}]})";
  OutcomeScan scan;
  parse_compare_rows(text, "profile/round_1/roofline_compare.json", scan);
  REQUIRE(scan.outcomes.size() == 3);
  CHECK(scan.outcomes[0].name_b == "gemvx");
  CHECK(scan.outcomes[1].flags == Sv{"renamed_role"});
  CHECK(contains(scan.outcomes[2].undefined_reason, "gone in round 1"));
  // The pairing by role today: moe -> fused_moe_kernel, qkv -> scaled_mm.
  const std::map<std::string, std::string> pairing = {{"moe", "fused_moe_kernel"},
                                                      {"qkv", "scaled_mm"}};
  std::vector<Outcome> held = scan.outcomes;
  for (auto& o : held) hold_to_pairing(o, &pairing, "");
  CHECK(contains(held[0].undefined_reason, "its counterpart there is 'fused_moe_kernel'"));
  CHECK(held[0].flags == Sv{"pairing_disputed"});
  CHECK(held[1].undefined_reason.empty());
  // Unchecked (round 1's Top-N unreadable): a short-name pairing is not trusted; a role one is.
  held = scan.outcomes;
  for (auto& o : held) hold_to_pairing(o, nullptr, "round 1's profile_topN.json cannot be read");
  CHECK(contains(held[0].undefined_reason, "by short name alone"));
  CHECK(held[0].flags == Sv{"paired_by_short_name"});
  CHECK(held[1].undefined_reason.empty());
}

}  // namespace unit_role_pairing
