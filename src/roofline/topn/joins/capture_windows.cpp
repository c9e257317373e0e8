// Graph-capture traces -> CaptureSet (docs/method.md §22.7): each trace streamed like an execution
// trace, then reduced to its capture windows — the launches between *StreamBeginCapture and
// *StreamEndCapture on one thread, each with its kernel name (args.kernel) and the op its
// External id leads to (shapes, dtypes, name, module) — sized by the capture_<size>_<mode>
// annotation around them, else by execution_details.json.
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "roofline/topn/bytes/byte_source.hpp"
#include "roofline/topn/joins/capture_join.hpp"
#include "roofline/topn/joins/capture_windows.hpp"
#include "roofline/topn/joins/event_lookup.hpp"
#include "roofline/topn/joins/op_attribution.hpp"
#include "roofline/topn/layer.hpp"
#include "roofline/topn/profile/graph_capture.hpp"

namespace roofline::topn {
namespace detail {
namespace {

namespace fs = std::filesystem;

// The innermost capture_<size>_<mode> span of `thread` holding `ts`.
const CaptureMark* mark_at(const std::vector<CaptureMark>& marks, std::int32_t thread, double ts) {
  const CaptureMark* best = nullptr;
  for (const CaptureMark& m : marks)
    if (m.thread == thread && m.begin_us <= ts && ts < m.end_us &&
        (!best || m.end_us - m.begin_us < best->end_us - best->begin_us))
      best = &m;
  return best;
}

CapturedLaunch captured_launch(const RuntimeRec& r, const EventLookup& lookup,
                               const OpModules& modules, CaptureSet& into) {
  const ChromeEvents& ev = lookup.events();
  CapturedLaunch c;
  c.kind = r.kind == RuntimeKind::memcpy   ? GpuEventKind::memcpy
           : r.kind == RuntimeKind::memset ? GpuEventKind::memset
                                           : GpuEventKind::kernel;
  if (r.kernel != k_no_id) c.kernel = into.intern_text(ev.labels.at(r.kernel));
  const OpRec* op = lookup.op(r.external_id);
  if (!op) return c;
  if (op->shape != k_no_id) {
    const OpShape& s = ev.shapes[op->shape];
    c.shape = into.intern_shape(CaptureShape{s.dims, s.dtypes, s.tensor_types});
  }
  if (op->name != k_no_id) c.op = into.intern_text(ev.labels.at(op->name));
  const std::string module = modules.path_of(*op);
  if (!module.empty()) c.module = into.intern_text(module);
  return c;
}

// A window opened by `begin`, sized by the capture_<size>_<mode> span around it, else by
// execution_details.json.
CaptureWindow new_window(const ChromeEvents& ev, const RuntimeRec& begin, std::size_t file,
                         const CaptureDetail* detail) {
  CaptureWindow w;
  w.file = file;
  if (const CaptureMark* m = mark_at(ev.capture_marks, begin.thread, begin.ts_us)) {
    w.size = m->size;
    w.mode = m->mode;
  } else if (detail) {
    w.size = detail->batch_size;
    w.mode = detail->mode;
  }
  return w;
}

}  // namespace

std::size_t add_capture_windows(ChromeEvents& ev, std::size_t file, const CaptureDetail* detail,
                                CaptureSet& into, std::vector<std::string>& notes) {
  std::vector<RuntimeRec> order(ev.runtime.begin(), ev.runtime.end());
  std::stable_sort(order.begin(), order.end(), [](const RuntimeRec& a, const RuntimeRec& b) {
    return std::tie(a.thread, a.ts_us) < std::tie(b.thread, b.ts_us);
  });
  const EventLookup lookup(ev);  // sorts ev.runtime by correlation (hence the copy above)
  const OpModules modules(ev);
  std::optional<CaptureWindow> open;
  std::int32_t open_thread = -1;
  std::size_t added = 0, dropped = 0;
  const auto close = [&](bool complete) {
    if (!open) return;
    if (complete) {
      into.windows.push_back(std::move(*open));
      ++added;
    } else {
      ++dropped;
    }
    open.reset();
  };
  for (const RuntimeRec& rec : order) {
    const RuntimeRec* r = &rec;
    if (open && r->thread != open_thread) close(false);
    switch (r->kind) {
      case RuntimeKind::begin_capture:
        close(false);
        open = new_window(ev, *r, file, detail);
        open_thread = r->thread;
        break;
      case RuntimeKind::end_capture:
        close(true);
        break;
      case RuntimeKind::launch:
      case RuntimeKind::memcpy:
      case RuntimeKind::memset:
        if (open) {
          open->launches.push_back(captured_launch(*r, lookup, modules, into));
          const CapturedLaunch& c = open->launches.back();
          if (c.kind == GpuEventKind::kernel && c.kernel == k_no_capture_id) open->named = false;
        }
        break;
      case RuntimeKind::graph_launch:
      case RuntimeKind::other:
        break;
    }
  }
  close(false);
  if (dropped > 0)
    notes.push_back(fmt::format(
        "{}: {} capture window(s) without a matching *StreamEndCapture on their thread; ignored",
        into.files[file], dropped));
  return added;
}

}  // namespace detail

std::uint32_t CaptureSet::intern_text(std::string_view text) {
  if (auto it = text_ids.find(text); it != text_ids.end()) return it->second;
  const auto id = static_cast<std::uint32_t>(texts.size());
  texts.emplace_back(text);
  text_ids.emplace(std::string(text), id);
  return id;
}

std::uint32_t CaptureSet::intern_shape(const CaptureShape& shape) {
  std::string key;
  for (const auto& d : shape.dims) {
    for (std::int64_t v : d) key += std::to_string(v) + ',';
    key += ';';
  }
  for (const auto& t : shape.dtypes) key += t + '\x1e';
  key += '\x1f';
  for (const auto& t : shape.tensor_types) key += t + '\x1e';
  if (auto it = shape_ids.find(key); it != shape_ids.end()) return it->second;
  const auto id = static_cast<std::uint32_t>(shapes.size());
  shapes.push_back(shape);
  shape_ids.emplace(std::move(key), id);
  return id;
}

CaptureDetails parse_capture_details(std::string_view text, std::string& error) {
  CaptureDetails out;
  const auto doc = nlohmann::json::parse(text, nullptr, false);
  if (doc.is_discarded() || !doc.is_array()) {
    error = doc.is_discarded() ? "invalid JSON"
                               : "expected a list of {\"file\", \"batch_size\", \"mode\"}";
    return {};
  }
  for (const auto& e : doc) {
    const auto file = e.is_object() ? e.find("file") : doc.end();
    const auto size = e.is_object() ? e.find("batch_size") : doc.end();
    if (!e.is_object() || file == e.end() || !file->is_string() || size == e.end() ||
        !size->is_number_integer() || size->get<std::int64_t>() < 0) {
      error = "an entry without a string \"file\" and a non-negative integer \"batch_size\"";
      return {};
    }
    CaptureDetail d;
    d.batch_size = size->get<std::int64_t>();
    if (auto mode = e.find("mode"); mode != e.end() && mode->is_string())
      d.mode = mode->get<std::string>();
    out[std::filesystem::path(file->get<std::string>()).filename().string()] = d;
  }
  return out;
}

std::string read_capture_stream(const ByteReader& read, const std::string& display,
                                const CaptureDetails& details, CaptureSet& into,
                                std::vector<std::string>& notes) {
  detail::ChromeEvents ev;
  ev.keep_runtime = true;  // its windows are read from the runtime calls
  if (std::string error = detail::parse_trace_events(read, ev); !error.empty()) return error;
  const std::size_t file = into.files.size();
  into.files.push_back(display);
  const auto d = details.find(std::filesystem::path(display).filename().string());
  const std::size_t n =
      detail::add_capture_windows(ev, file, d == details.end() ? nullptr : &d->second, into, notes);
  if (n == 0) {
    into.files.pop_back();
    return "holds no capture window (no *StreamBeginCapture ... *StreamEndCapture pair on one "
           "thread): not a graph-capture trace";
  }
  std::vector<std::int64_t> sizes;
  std::size_t unsized = 0;
  for (std::size_t i = into.windows.size() - n; i < into.windows.size(); ++i) {
    if (into.windows[i].size)
      sizes.push_back(*into.windows[i].size);
    else
      ++unsized;
  }
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  notes.push_back(
      fmt::format("{}: {} capture window(s){}{}", display, n,
                  sizes.empty() ? "" : fmt::format(", sizes {}", fmt::join(sizes, ", ")),
                  unsized ? fmt::format(", {} without a captured size", unsized) : ""));
  return {};
}

}  // namespace roofline::topn
