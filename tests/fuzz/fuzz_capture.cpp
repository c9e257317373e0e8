// libFuzzer target: `roofline topn --capture` on arbitrary bytes. The input is a capture trace,
// optionally followed by the line `--8<--` and an execution trace. The capture is read in uneven
// chunks and in one piece — both must agree — then the execution trace is read with it (its graph
// replays joined), built and rendered, and what topn writes must parse back. Nothing may crash,
// hang or throw; a refused capture must say why in one line.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "roofline/inputs/kernel_classes.hpp"
#include "roofline/topn/profile/graph_capture.hpp"
#include "roofline/topn/topn.hpp"

namespace {

roofline::topn::ByteReader reader(std::string_view bytes, std::size_t& pos, bool uneven) {
  return [bytes, &pos, uneven, step = std::size_t{1}](char* buf, std::size_t cap) mutable {
    std::size_t n = std::min(cap, bytes.size() - pos);
    if (uneven) {
      n = std::min(n, step);
      step = step % 23 + 1;
    }
    std::memcpy(buf, bytes.data() + pos, n);
    pos += n;
    return n;
  };
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view all(reinterpret_cast<const char*>(data), size);
  constexpr std::string_view k_sep = "\n--8<--\n";
  const std::size_t cut = all.find(k_sep);
  const std::string_view capture = all.substr(0, cut);
  const std::string_view exec =
      cut == std::string_view::npos ? std::string_view() : all.substr(cut + k_sep.size());

  roofline::topn::CaptureDetails details;
  details["cap.json"] = roofline::topn::CaptureDetail{8, "DECODE"};
  roofline::topn::CaptureSet chunked, whole;
  std::vector<std::string> notes_a, notes_b;
  std::size_t pos_a = 0, pos_b = 0;
  const std::string error_a = roofline::topn::read_capture_stream(
      reader(capture, pos_a, true), "cap.json", details, chunked, notes_a);
  const std::string error_b = roofline::topn::read_capture_stream(
      reader(capture, pos_b, false), "cap.json", details, whole, notes_b);
  if (error_a != error_b || chunked.windows.size() != whole.windows.size()) __builtin_trap();
  if (!error_b.empty() && (error_b.find('\n') != std::string::npos || !whole.windows.empty()))
    __builtin_trap();  // one line, and nothing of a refused file kept
  for (const roofline::topn::CaptureWindow& w : whole.windows)
    for (const roofline::topn::CapturedLaunch& l : w.launches)
      if ((l.kernel != roofline::topn::k_no_capture_id && l.kernel >= whole.texts.size()) ||
          (l.shape != roofline::topn::k_no_capture_id && l.shape >= whole.shapes.size()))
        __builtin_trap();
  if (exec.empty()) return 0;
  std::size_t pos = 0;
  const roofline::topn::TraceRead read =
      roofline::topn::read_trace_stream(reader(exec, pos, false), "exec.json", &whole);
  if (!read.profile) return 0;
  const roofline::topn::GraphReplayStats& g = read.profile->graph;
  if (g.paired > g.launches || g.with_shapes > g.paired) __builtin_trap();
  roofline::topn::TopnOptions options;
  options.top = 5;
  const roofline::topn::TopnBuild build = roofline::topn::build_topn(
      *read.profile, options, roofline::topn::builtin_kernel_classes_rules(),
      roofline::topn::builtin_kernel_backends_rules());
  const roofline::inputs::TopnDocument& doc = build.topn;
  const std::string topn = roofline::topn::render_topn_json(doc);
  (void)roofline::topn::render_workload_json(build);
  auto loaded = roofline::topn::parse_topn(topn, "profile_topN.json");
  if (!loaded.value || loaded.value->entries.size() != doc.entries.size()) __builtin_trap();
  // One vocabulary on both sides: what was read back renders to the same bytes.
  if (roofline::topn::render_topn_json(*loaded.value) != topn) __builtin_trap();
  return 0;
}
