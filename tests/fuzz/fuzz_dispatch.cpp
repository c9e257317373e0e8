// The one libFuzzer binary of a -DROOFLINE_FUZZ=ON build: each target's entry point is compiled as
// roofline_fuzz_<name> (tests/fuzz/CMakeLists.txt), and the binary runs the one its own name
// says — fuzz_<name> is a link to it — so fourteen targets cost one link.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#define ROOFLINE_FUZZ_TARGET(name) \
  extern "C" int roofline_fuzz_##name(const std::uint8_t* data, std::size_t size);
#include "fuzz_targets.inc"
#undef ROOFLINE_FUZZ_TARGET

namespace {

using Entry = int (*)(const std::uint8_t*, std::size_t);
struct Target {
  std::string_view name;
  Entry run;
};

#define ROOFLINE_FUZZ_TARGET(name) Target{#name, roofline_fuzz_##name},
constexpr Target k_targets[] = {
#include "fuzz_targets.inc"
};
#undef ROOFLINE_FUZZ_TARGET

Entry g_run = nullptr;

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  std::string_view self = *argc > 0 ? (*argv)[0] : "";
  if (const auto slash = self.rfind('/'); slash != std::string_view::npos)
    self.remove_prefix(slash + 1);
  if (self.starts_with("fuzz_")) self.remove_prefix(5);
  for (const Target& t : k_targets)
    if (t.name == self) g_run = t.run;
  if (g_run) return 0;
  std::fprintf(stderr, "roofline_fuzz: run me as fuzz_<target> (a link); targets:");
  for (const Target& t : k_targets)
    std::fprintf(stderr, " %.*s", static_cast<int>(t.name.size()), t.name.data());
  std::fprintf(stderr, "\n");
  std::exit(2);
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return g_run(data, size);
}
