// libFuzzer target: the stage C counter CSV ingest on arbitrary bytes — through the streaming
// reader in small uneven chunks (so every chunk boundary is exercised) and in one piece — then
// measure/match. Both paths must agree; nothing may crash, hang or throw. The bytes are read as
// they are (any layout, whatever header they start with) and, so that the Nsight Compute row
// paths (units, thousands separators, the raw page's units row) see mutated rows even when the
// mutation broke the header, also as the body of an ncu details page and of an ncu raw page;
// every counter's values summed or only the ones measure() reads, by the first byte.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "roofline/analyze/evidence/match.hpp"
#include "roofline/inputs/counters.hpp"

namespace {

constexpr std::string_view k_details_header =
    "==PROF== Connected to process 1 (/usr/bin/python3)\n"
    "\"ID\",\"Process ID\",\"Kernel Name\",\"Section Name\",\"Metric Name\",\"Metric Unit\","
    "\"Metric Value\"\n";
constexpr std::string_view k_raw_header =
    "\"ID\",\"Process ID\",\"Kernel Name\",\"dram__bytes_read.sum\",\"dram__bytes_write.sum\","
    "\"gpu__time_duration.sum\",\"sm__ops_path_tensor_src_bf16_dst_fp32.sum\","
    "\"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum\"\n"
    "\"\",\"\",\"\",\"Mbyte\",\"Kbyte\",\"usecond\",\"\",\"Minst\"\n";

void check(std::string_view text, const roofline::analyze::CounterOptions& opts) {
  auto whole = roofline::analyze::parse_counters_text(text, "c.csv", opts);
  std::size_t pos = 0, step = 1;
  auto chunked = roofline::analyze::parse_counters(
      [&](char* buf, std::size_t cap) {
        std::size_t n = std::min({cap, text.size() - pos, step});
        std::memcpy(buf, text.data() + pos, n);
        pos += n;
        step = step % 13 + 1;
        return n;
      },
      "c.csv", opts);
  if (whole.kernels.size() != chunked.kernels.size() || whole.rows_used != chunked.rows_used ||
      whole.bad_rows != chunked.bad_rows || whole.errors != chunked.errors ||
      whole.notes != chunked.notes)
    __builtin_trap();  // chunking must not change the result
  if (whole.rows_used + whole.bad_rows > whole.lines) __builtin_trap();
  for (std::size_t i = 0; i < whole.kernels.size(); ++i) {
    const auto& a = whole.kernels[i];
    const auto& b = chunked.kernels[i];
    if (a.name != b.name || a.dispatches != b.dispatches || a.counters.size() != b.counters.size())
      __builtin_trap();
    for (const auto& [name, c] : a.counters)
      if (!c.summed && c.sum != 0.0) __builtin_trap();  // a sum nobody read stays empty
    (void)roofline::analyze::measure(a, opts);
  }
  auto merged = roofline::analyze::merge_kernels({whole});
  std::vector<roofline::analyze::KernelNames> names;
  for (const auto& k : merged) names.push_back({{k.name}, ""});
  (void)roofline::analyze::match_kernel_names(
      {{{"fused_moe_kernel"}, ""}, {{"kernel_paged_attention_2d"}, "kernel_paged_attention_2d"}},
      names);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  roofline::analyze::CounterOptions opts;
  opts.buffer_bytes = 256;  // small: more refills and row growth per input, and fast under ASan
  opts.all_counter_values = size > 0 && (data[0] & 1) != 0;
  check(bytes, opts);
  for (std::string_view header : {k_details_header, k_raw_header}) {
    std::string text(header);
    text.append(bytes);
    check(text, opts);
  }
  return 0;
}
