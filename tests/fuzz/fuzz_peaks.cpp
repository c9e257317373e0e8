// libFuzzer target: parse_peaks_md, check_peaks, the measured-block warnings (docs/method.md
// §5.7), the bf16/fp16 pair and source checks on arbitrary bytes (name, source, memory_gib keys).
// Must never crash, hang or throw; a parsed table always comes back (bad blocks are skipped with a
// message).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "roofline/inputs/load.hpp"
#include "roofline/inputs/peaks.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto loaded = roofline::inputs::parse_peaks_md(text, "peaks.md");
  if (!loaded.value) __builtin_trap();
  (void)roofline::inputs::check_peaks(*loaded.value);
  (void)roofline::inputs::check_peaks_warnings(*loaded.value);
  (void)roofline::inputs::check_peaks_bf16_fp16(*loaded.value);  // published measured pairs
  (void)roofline::inputs::check_peaks_sources(*loaded.value);
  (void)roofline::inputs::known_products(*loaded.value);
  return 0;
}
