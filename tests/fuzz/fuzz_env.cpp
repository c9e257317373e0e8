// libFuzzer target: parse_env_report on arbitrary bytes. Must never crash, hang or throw.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "roofline/inputs/load.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto loaded = roofline::parse_env_report(text, "env_report.json");
  if (!loaded.value && loaded.errors.empty()) __builtin_trap();  // a failure must say why
  return 0;
}
