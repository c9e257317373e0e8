// demangle_kernel_name / demangle_prefix (docs/method.md §22.7): the six mangled kernel names of
// the serving fixtures (tests/fixtures/serving/: `zcat … | grep '"name": "_Z'`), the prefix reader
// alone, and inputs no demangler should spend unbounded time or memory on.
#include <string>

#include "roofline/cli/layer.hpp"
#include "roofline/topn/topn.hpp"
#include "test_helpers.hpp"

namespace unit_demangle {
using namespace roofline::cli;

namespace {

// sglang_qwen3_8b_decode_mi300x: aiter's fused add + RMSNorm (+ quant), three instances.
const std::string k_aiter_256_16_t =
    "_ZN5aiter24add_rmsnorm_quant_kernelIDF16bDF16bLi256ELi16ELb1ELb0ELb1ELi1EEEvPT0_PT_PfS4_S4_S4_"
    "diiiiiiib";
const std::string k_aiter_256_16_f =
    "_ZN5aiter24add_rmsnorm_quant_kernelIDF16bDF16bLi256ELi16ELb0ELb0ELb1ELi1EEEvPT0_PT_PfS4_S4_S4_"
    "diiiiiiib";
const std::string k_aiter_64_8 =
    "_ZN5aiter24add_rmsnorm_quant_kernelIDF16bDF16bLi64ELi8ELb0ELb0ELb1ELi1EEEvPT0_PT_PfS4_S4_S4_"
    "diiiiiiib";
// sglang: sgl-kernel's SiLU-and-mul; `Tn` (a template parameter declaration) is newer than every
// demangler on Debian 12.
const std::string k_sgl_act =
    "_ZN7sgl_hip10activation18act_and_mul_kernelI14__hip_bfloat16TnPFT_RKS3_EXadL_Z4siluIS2_ES3_S5_"
    "EEEEvPS3_PS4_i";
// vllm_gptoss_mixed_step_mi300x: ck_tile RMSNorm, without (E0) and with (E1) the fused add.
std::string ck_tile_rmsnorm(char fused_add) {
  return std::string(
             "_ZN7ck_tile6kentryILi1ENS_12Rmsnorm2dFwdINS_27Rmsnorm2dFwdPipelineOnePassINS_"
             "27Rmsnorm2dFwdPipelineProblemIDF16bDF16bfDF16bDF16bDF16bffNS_"
             "19Generic2dBlockShapeINS_"
             "8sequenceIJLi1ELi3072EEEENS5_IJLi1ELi128EEEENS5_IJLi1ELi8EEEEEENS_"
             "18Rmsnorm2dFwdTraitsILb1ELb0ELb0ELb0ELNS_21Rmsnorm2dFusedAddEnumE") +
         fused_add +
         "ELNS_23Rmsnorm2dFusedQuantEnumE0ELNS_22Rmsnorm2dSensitiveEnumE0EEEEENS_"
         "33Rmsnorm2dFwdPipelineDefaultPolicyEEENS_17Default2DEpilogueINS_"
         "24Default2DEpilogueProblemIfDF16bLb0ELb1ELb0EEEvEEEEJNSM_5KargsEEEEvDpT1_";
}

std::string aiter_text(const std::string& args) {
  return "void aiter::add_rmsnorm_quant_kernel<std::bfloat16_t, std::bfloat16_t, " + args +
         ">(std::bfloat16_t*, std::bfloat16_t*, float*, std::bfloat16_t*, std::bfloat16_t*, "
         "std::bfloat16_t*, double, int, int, int, int, int, int, int, bool)";
}

}  // namespace

TEST_CASE("demangle: the aiter kernels of the SGLang fixture, bfloat16 (DF16b) included",
          "[topn][demangle]") {
  for (const auto& [name, args] : {std::pair{k_aiter_256_16_t, "256, 16, true, false, true, 1"},
                                   std::pair{k_aiter_256_16_f, "256, 16, false, false, true, 1"},
                                   std::pair{k_aiter_64_8, "64, 8, false, false, true, 1"}}) {
    const auto d = demangle_kernel_name(name);
    REQUIRE(d);
    CHECK_FALSE(d->from_prefix);
    CHECK(d->text == aiter_text(args));
    CHECK(d->why.empty());
    CHECK(kernel_short_name(d->text) == "add_rmsnorm_quant_kernel");
  }
}

TEST_CASE("demangle: the ck_tile RMSNorm kernels of the vLLM fixture, told apart by their traits",
          "[topn][demangle]") {
  const auto plain = demangle_kernel_name(ck_tile_rmsnorm('0'));
  const auto fused = demangle_kernel_name(ck_tile_rmsnorm('1'));
  REQUIRE(plain);
  REQUIRE(fused);
  CHECK_FALSE(plain->from_prefix);
  CHECK(plain->text.rfind("void ck_tile::kentry<1, ck_tile::Rmsnorm2dFwd<ck_tile::"
                          "Rmsnorm2dFwdPipelineOnePass<ck_tile::Rmsnorm2dFwdPipelineProblem<std::"
                          "bfloat16_t, std::bfloat16_t, float, ",
                          0) == 0);
  CHECK(plain->text.find("ck_tile::sequence<1, 3072>") != std::string::npos);
  CHECK(plain->text.find("(ck_tile::Rmsnorm2dFusedAddEnum)0") != std::string::npos);
  CHECK(fused->text.find("(ck_tile::Rmsnorm2dFusedAddEnum)1") != std::string::npos);
  CHECK(plain->text.back() == ')');  // the argument list (Kargs) is there
  // the kernel is kentry's first type argument
  CHECK(kernel_short_name(plain->text) == "Rmsnorm2dFwd");
  CHECK(demangle_prefix(ck_tile_rmsnorm('0')) == "ck_tile::kentry");
}

TEST_CASE("demangle: a name no demangler reads keeps the qualified name of its prefix",
          "[topn][demangle]") {
  const auto d = demangle_kernel_name(k_sgl_act);
  REQUIRE(d);
  CHECK(d->from_prefix);
  CHECK(d->text == "sgl_hip::activation::act_and_mul_kernel");
  CHECK(d->why == "libiberty's demangler does not read it");
  CHECK(kernel_short_name(d->text) == "act_and_mul_kernel");
}

TEST_CASE("demangle_prefix: namespaces and the function name, template arguments skipped",
          "[topn][demangle]") {
  CHECK(demangle_prefix(k_aiter_64_8) == "aiter::add_rmsnorm_quant_kernel");
  CHECK(demangle_prefix(k_sgl_act) == "sgl_hip::activation::act_and_mul_kernel");
  CHECK(demangle_prefix("_Z3fooi") == "foo");
  CHECK(demangle_prefix("_ZL3fooi") == "foo");
  CHECK(demangle_prefix("_ZN12_GLOBAL__N_13fooEv") == "(anonymous namespace)::foo");
  CHECK(demangle_prefix("_ZNSt6vectorIiE9push_backEv") == "std::vector::push_back");
  // a member of a class template: the class's arguments (a literal, an enum literal) skipped
  CHECK(demangle_prefix("_ZN2ns3FooILi3ELb1EE3barEv") == "ns::Foo::bar");
  CHECK(demangle_prefix("_ZN2ns3FooILNS_1EE2EE3barEv") == "ns::Foo::bar");
  CHECK(demangle_prefix("_ZNK2ns3Foo3getEv") == "ns::Foo::get");  // a const member
  // not a mangled name, or nothing readable: ""
  CHECK(demangle_prefix("Cijk_Alik_Bljk_BBS_BH_MT64x16x256").empty());
  CHECK(demangle_prefix("_Z").empty());
  CHECK(demangle_prefix("_Zfoo").empty());
  CHECK(demangle_prefix("_Z9foo").empty());  // the length runs past the end
  CHECK(demangle_prefix("_ZSt").empty());
  // template arguments that do not end (a cut name): what was read before them
  CHECK(demangle_prefix("_ZN2ns3FooIS") == "ns::Foo");
  CHECK(demangle_prefix("_ZN2ns3FooILi3") == "ns::Foo");
}

TEST_CASE("demangle: names that are not mangled are left alone", "[topn][demangle]") {
  for (const char* name :
       {"Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT256x32x64_MI16x16x1_SN_LDSB1",
        "_matmul_ogs_NNT_bf16xbf16xmxfp4_128x128x128x1_swiglu", "void foo<int>(int)", "", "_", "_Z",
        "_Zebra", "Memcpy DtoD (Device -> Device)"})
    CHECK_FALSE(demangle_kernel_name(name));
  // a `.kd` suffix (a kernel descriptor symbol) is not part of the name
  const auto kd = demangle_kernel_name("_Z3fooi.kd");
  REQUIRE(kd);
  CHECK(kd->text == "foo(int)");
}

TEST_CASE("demangle: a substitution bomb is abandoned, not expanded", "[topn][demangle]") {
  // f<A<int,int>, A<S0,S0>, A<S1,S1>, …>: each argument doubles the one before; 60 of them
  // expand to 2^60 characters (c++filt runs for minutes), in 663 bytes.
  std::string name = "_Z1fI1AIiiE";
  const std::string digits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
  for (std::size_t k = 0; k < 60; ++k) {  // S<k in base 36>_ names the argument before
    const std::string id =
        k < 36 ? std::string(1, digits[k]) : std::string(1, digits[k / 36]) + digits[k % 36];
    name += "S_IS" + id + "_S" + id + "_E";
  }
  name += "Evv";
  const auto d = demangle_kernel_name(name);
  REQUIRE(d);
  CHECK(d->from_prefix);
  CHECK(d->text == "f");
  CHECK(d->why == "libiberty's reading of it is longer than 256 KiB");
  // too long for the demangler at all: the prefix alone
  const auto longer = demangle_kernel_name("_ZN2ns3fooEv" + std::string(20000, 'i'));
  REQUIRE(longer);
  CHECK(longer->from_prefix);
  CHECK(longer->text == "ns::foo");
  CHECK(longer->why == "too long for the demangler");
}

}  // namespace unit_demangle
