// libFuzzer target: parse_probes (stage B probe files, single or merged) on arbitrary bytes, then
// matching against a few real-shaped entry names. Must never crash, hang or throw.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "roofline/analyze/evidence/match.hpp"
#include "roofline/inputs/probes.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto loaded = roofline::analyze::parse_probes(text, "per_shape_probe.json");
  if (!loaded.value && loaded.errors.empty()) __builtin_trap();  // a failure must say why
  if (!loaded.value) return 0;
  std::vector<roofline::analyze::KernelNames> probes;
  for (const auto& k : loaded.value->kernels) probes.push_back({{k.target, k.label}, ""});
  const auto m = roofline::analyze::match_kernel_names(
      {{{"fused_moe_kernel"}, ""},
       {{"kernel_paged_attention_2d [clone .kd]"}, ""},
       {{"void vllm::rms_norm_kernel<c10::BFloat16, 8>(c10::BFloat16*, int)"}, "rms_norm_kernel"}},
      probes);
  for (const auto& match : m)
    for (std::size_t k : match.candidates)
      if (k >= probes.size()) __builtin_trap();
  return 0;
}
