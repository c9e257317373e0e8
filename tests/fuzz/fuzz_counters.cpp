// libFuzzer target: the stage C counter CSV ingest on arbitrary bytes — through the streaming
// reader in small uneven chunks (so every chunk boundary is exercised) and in one piece — then
// measure/match. Both paths must agree; nothing may crash, hang or throw.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "roofline/counters.hpp"
#include "roofline/match.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const char* bytes = reinterpret_cast<const char*>(data);
  roofline::CounterOptions opts;
  opts.buffer_bytes = 256;  // small: more refills and row growth per input, and fast under ASan
  auto whole = roofline::parse_counters_text(std::string_view(bytes, size), "c.csv", opts);
  std::size_t pos = 0, step = 1;
  auto chunked = roofline::parse_counters(
      [&](char* buf, std::size_t cap) {
        std::size_t n = std::min({cap, size - pos, step});
        std::memcpy(buf, bytes + pos, n);
        pos += n;
        step = step % 13 + 1;
        return n;
      },
      "c.csv", opts);
  if (whole.kernels.size() != chunked.kernels.size() || whole.rows_used != chunked.rows_used ||
      whole.bad_rows != chunked.bad_rows)
    __builtin_trap();  // chunking must not change the result
  for (const auto& k : whole.kernels) (void)roofline::measure(k, opts);
  auto merged = roofline::merge_kernels({whole});
  std::vector<roofline::KernelNames> names;
  for (const auto& k : merged) names.push_back({{k.name}, ""});
  (void)roofline::match_kernel_names(
      {{{"fused_moe_kernel"}, ""}, {{"kernel_paged_attention_2d"}, "kernel_paged_attention_2d"}},
      names);
  return 0;
}
