// libFuzzer target: parse_peaks_md, check_peaks, the measured-block warnings (docs/method.md
// §5.7), the bf16/fp16 pair and source checks on arbitrary bytes (name, source, memory_gib keys).
// Must never crash, hang or throw; a parsed table always comes back (bad blocks are skipped with a
// message). Also the --product matcher on the same bytes.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "roofline/inputs/load.hpp"
#include "roofline/inputs/peaks.hpp"
#include "roofline/inputs/peaks_alias.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto loaded = roofline::inputs::parse_peaks_md(text, "peaks.md");
  if (!loaded.value) __builtin_trap();
  (void)roofline::inputs::check_peaks(*loaded.value);
  (void)roofline::inputs::check_peaks_warnings(*loaded.value);
  (void)roofline::inputs::check_peaks_bf16_fp16(*loaded.value);  // published measured pairs
  (void)roofline::inputs::check_peaks_sources(*loaded.value);
  (void)roofline::inputs::known_products(*loaded.value);
  // --product NAME (docs/method.md §22.9): the bytes as a spelling against the built-in table and
  // the parsed one, and a lower-figures section of whatever several parts it names.
  const roofline::inputs::PeaksTable* tables[] = {&roofline::inputs::builtin_peaks(),
                                                  &*loaded.value};
  for (const roofline::inputs::PeaksTable* table : tables) {
    const auto match = roofline::inputs::match_product(*table, text.substr(0, 64));
    if (!match.sections.empty()) (void)roofline::inputs::lower_figures(match.sections, "fuzz");
  }
  for (const auto& s : loaded.value->sections) (void)roofline::inputs::product_spellings(s);
  return 0;
}
