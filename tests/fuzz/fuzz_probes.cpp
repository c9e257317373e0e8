// libFuzzer target: parse_probes (stage B probe files, single or merged) on arbitrary bytes, then
// matching against a few real-shaped entry names. Must never crash, hang or throw.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "roofline/probes.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto loaded = roofline::parse_probes(text, "per_shape_probe.json");
  if (!loaded.value && loaded.errors.empty()) __builtin_trap();  // a failure must say why
  if (!loaded.value) return 0;
  for (const char* name : {"fused_moe_kernel", "kernel_paged_attention_2d [clone .kd]",
                           "void vllm::rms_norm_kernel<c10::BFloat16, 8>(c10::BFloat16*, int)"}) {
    roofline::TopNEntry e;
    e.name = name;
    auto m = roofline::match_probes(e, *loaded.value);
    for (const auto* k : m.kernels)
      if (k == nullptr) __builtin_trap();
  }
  return 0;
}
