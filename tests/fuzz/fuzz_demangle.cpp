// libFuzzer target: the demangler input (docs/method.md §22.7). Each line of the input is a kernel
// name: demangle_kernel_name, kernel_short_name on the raw and the demangled text, and the
// uniqueness pass over them all. Nothing may crash or hang; bounded output; a prefix reading says
// why.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "roofline/topn/topn.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<roofline::inputs::TopnEntry> entries;
  for (std::size_t at = 0; at <= text.size() && entries.size() < 64;) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    const std::string_view name = text.substr(at, end - at);
    at = end + 1;
    roofline::inputs::TopnEntry e;
    e.name = std::string(name);
    if (auto d = roofline::topn::demangle_kernel_name(name)) {
      if (d->text.empty() || d->text.size() > 256 * 1024) __builtin_trap();
      if (d->from_prefix == d->why.empty()) __builtin_trap();  // a prefix reading says why
      if (name.substr(0, 2) != "_Z") __builtin_trap();
      e.demangled = d->text;
    }
    const std::string raw_short = roofline::topn::kernel_short_name(name);
    if (raw_short.size() > name.size()) __builtin_trap();  // a short name is never longer
    e.short_name = roofline::topn::kernel_short_name(e.demangled.empty() ? name : e.demangled);
    (void)roofline::topn::kernel_short_name(name, roofline::topn::GpuEventKind::memcpy);
    entries.push_back(std::move(e));
  }
  roofline::topn::make_short_names_unique(entries);
  for (std::size_t i = 0; i < entries.size(); ++i)
    for (std::size_t j = i + 1; j < entries.size(); ++j)
      if (entries[i].short_name == entries[j].short_name) __builtin_trap();
  return 0;
}
