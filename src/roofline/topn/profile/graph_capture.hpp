#pragma once
// Graph-capture traces (docs/method.md §22.7): the launches each CUDA/HIP graph was captured with,
// so that a graph replay in an execution trace — GPU events whose correlation's runtime event is a
// `*GraphLaunch`, without op or shapes — gets its launches' ops, shapes and dtypes back.
//
// A capture window is the span between `*StreamBeginCapture` and the matching `*StreamEndCapture`
// on one CPU thread; inside it every launch runtime event carries a correlation and an External
// id (the op with Input Dims / Input type) and, on ROCm, `args.kernel`. No kernel events are
// emitted for captured launches, and no id links a capture file to an execution file: the join
// (capture_join.cpp) goes by the captured size, the kernel-name sequence and the capture order.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "roofline/topn/layer.hpp"
#include "roofline/topn/profile/trace_profile.hpp"

namespace roofline::topn {

inline constexpr std::uint32_t k_no_capture_id = 0xFFFFFFFFu;

// What a captured launch's op gives the replayed launch it pairs with.
struct CaptureShape {
  std::vector<std::vector<std::int64_t>> dims;  // the op's non-empty operand dims
  std::vector<std::string> dtypes;              // aligned with dims
  std::vector<std::string> tensor_types;        // distinct tensor input types, sorted
};

struct CapturedLaunch {
  GpuEventKind kind = GpuEventKind::kernel;  // memcpy / memset nodes are skipped by the match
  std::uint32_t kernel = k_no_capture_id;    // CaptureSet::texts id; none: the event names none
  std::uint32_t shape = k_no_capture_id;     // CaptureSet::shapes index; none: no op shapes
  std::uint32_t op = k_no_capture_id;        // texts id of the launching op's name
  std::uint32_t module = k_no_capture_id;    // texts id of its module path (docs/method.md §22.7)
};

struct CaptureWindow {
  std::size_t file = 0;                  // CaptureSet::files index
  std::optional<std::int64_t> size;      // capture_<size>_<mode>, else execution_details.json
  std::string mode;                      // "DECODE", "PIECEWISE", "FULL", ... ("" unknown)
  std::vector<CapturedLaunch> launches;  // in capture (CPU launch) order
  bool named = true;                     // every kernel launch names its kernel
};

struct CaptureSet {
  std::vector<std::string> files;  // display names
  std::vector<std::string> texts;  // kernel, op and module names
  std::vector<CaptureShape> shapes;
  std::vector<CaptureWindow> windows;  // file by file, each in capture order
  // Interning tables (texts and serialized shapes -> index).
  std::map<std::string, std::uint32_t, std::less<>> text_ids;
  std::map<std::string, std::uint32_t, std::less<>> shape_ids;
  std::uint32_t intern_text(std::string_view text);
  std::uint32_t intern_shape(const CaptureShape& shape);
};

// `execution_details.json` (TraceLens's tooling, never required): file name -> size and mode.
struct CaptureDetail {
  std::int64_t batch_size = 0;
  std::string mode;
};
using CaptureDetails = std::map<std::string, CaptureDetail>;

}  // namespace roofline::topn
