// libFuzzer target: `roofline topn`'s trace reader (Chrome trace JSON, gzip, kernel CSVs) on
// arbitrary bytes, in uneven chunks holding everything, and in one piece as a file is read
// (launches resolved as read, read again where the order breaks) — both must agree, to the Top-N's
// last byte — then build_topn and both renderers. Nothing may crash, hang or throw; a refused input
// must say why in one line.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>

#include "roofline/inputs/kernel_classes.hpp"
#include "roofline/topn/topn.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const char* bytes = reinterpret_cast<const char*>(data);
  std::size_t pos = 0, step = 1;
  const roofline::topn::TraceRead chunked = roofline::topn::read_trace_stream(
      [&](char* buf, std::size_t cap) {
        const std::size_t n = std::min({cap, size - pos, step});
        std::memcpy(buf, bytes + pos, n);
        pos += n;
        step = step % 17 + 1;
        return n;
      },
      "t.json");
  const roofline::topn::TraceRead whole = roofline::topn::read_trace_rereadable(
      [&]() -> roofline::topn::ByteReader {
        auto at = std::make_shared<std::size_t>(0);
        return [bytes, size, at](char* buf, std::size_t cap) {
          const std::size_t n = std::min(cap, size - *at);
          std::memcpy(buf, bytes + *at, n);
          *at += n;
          return n;
        };
      },
      "t.json");
  if (chunked.profile.has_value() != whole.profile.has_value() || chunked.error != whole.error)
    __builtin_trap();  // chunking must not change the result
  if (!whole.profile) {
    if (whole.error.empty() || whole.error.find('\n') != std::string::npos) __builtin_trap();
    return 0;
  }
  if (chunked.profile->kernels.size() != whole.profile->kernels.size()) __builtin_trap();
  roofline::topn::TopnOptions options;
  options.top = 5;
  const roofline::topn::TopnBuild build = roofline::topn::build_topn(
      *whole.profile, options, roofline::topn::builtin_kernel_classes_rules(),
      roofline::topn::builtin_kernel_backends_rules());
  const roofline::inputs::TopnDocument& doc = build.topn;
  const std::string topn = roofline::topn::render_topn_json(doc);
  const roofline::topn::TopnBuild held = roofline::topn::build_topn(
      *chunked.profile, options, roofline::topn::builtin_kernel_classes_rules(),
      roofline::topn::builtin_kernel_backends_rules());
  if (roofline::topn::render_topn_json(held.topn) != topn) __builtin_trap();
  (void)roofline::topn::render_workload_json(build);
  // What topn writes, analyze must read.
  auto loaded = roofline::topn::parse_topn(topn, "profile_topN.json");
  if (!loaded.value || loaded.value->entries.size() != doc.entries.size()) __builtin_trap();
  // One vocabulary on both sides: what was read back renders to the same bytes.
  if (roofline::topn::render_topn_json(*loaded.value) != topn) __builtin_trap();
  return 0;
}
