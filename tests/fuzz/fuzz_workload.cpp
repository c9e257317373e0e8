// libFuzzer target: parse_workload (the profiler's profile_workload.json, docs/method.md §2.3) on
// arbitrary bytes. Must never crash, hang or throw; a file it cannot use says why, and every case
// it keeps is one the per-case model can take (operand dims present, count and latency positive)
// or a signature without dims that `topn` wrote (shown, not modelled).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "roofline/inputs/probes.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto loaded = roofline::inputs::parse_workload(text, "profile_workload.json");
  if (!loaded.value && loaded.errors.empty()) __builtin_trap();  // a failure must say why
  if (!loaded.value) return 0;
  for (const auto& k : loaded.value->kernels) {
    if (k.target.empty()) __builtin_trap();  // a kernel without a name cannot be matched
    for (const auto& c : k.cases) {
      // A case without dims is a signature `topn` wrote (docs/method.md §22.8): shown, never
      // modelled; its geometry is three numbers or none.
      if (c.dims.empty() && !c.signature) __builtin_trap();
      if (c.signature && (c.signature->grid.size() % 3 || c.signature->block.size() % 3 ||
                          c.signature->grid.size() > 3 || c.signature->block.size() > 3))
        __builtin_trap();
      if (!(c.count > 0) || !std::isfinite(c.count)) __builtin_trap();
      if (c.gpu_us_avg && !(*c.gpu_us_avg > 0 && std::isfinite(*c.gpu_us_avg))) __builtin_trap();
    }
  }
  return 0;
}
