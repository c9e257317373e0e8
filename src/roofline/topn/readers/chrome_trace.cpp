// PyTorch profiler Chrome trace -> ChromeEvents, in one streaming pass (chrome_events.hpp).
// Each event object is read field by field into reused scratch buffers and reduced to a
// fixed-size record as soon as it closes; the document itself is never held.
#include <atomic>
#include <cmath>
#include <cstring>

#include <fmt/format.h>

#include "roofline/topn/bytes/json_stream.hpp"
#include "roofline/topn/layer.hpp"
#include "roofline/topn/names/call_stacks.hpp"
#include "roofline/topn/readers/chrome_events.hpp"
#include "roofline/topn/readers/chrome_split.hpp"

namespace roofline::topn::detail {
namespace {

// How reading an events array ended.
enum class EventsEnd : std::uint8_t { done, handed_over, error };

bool is_error(JsonToken t) {
  return t == JsonToken::error || t == JsonToken::end;
}

// The keys the reader looks at, in events and in their args.
enum class Key : std::uint8_t {
  other,
  ph,
  cat,
  name,
  ts,
  dur,
  pid,
  tid,
  args,
  external_id,
  correlation,
  input_dims,
  input_type,
  concrete_inputs,
  grid,
  block,
  kernel,
  trace_events
};

// The last key's Key: one switch on its length, then one comparison per candidate (a chain of
// comparisons, one per wanted key, cost a tenth of the whole parse).
// `k`, of the literal's length, spells it (one fixed-size comparison).
template <std::size_t N>
bool is(std::string_view k, const char (&literal)[N]) {
  return std::memcmp(k.data(), literal, N - 1) == 0;
}

Key key_of(std::string_view k) {
  switch (k.size()) {
    case 2:
      return is(k, "ph") ? Key::ph : is(k, "ts") ? Key::ts : Key::other;
    case 3:
      return is(k, "cat")   ? Key::cat
             : is(k, "dur") ? Key::dur
             : is(k, "pid") ? Key::pid
             : is(k, "tid") ? Key::tid
                            : Key::other;
    case 4:
      return is(k, "name")   ? Key::name
             : is(k, "args") ? Key::args
             : is(k, "grid") ? Key::grid
                             : Key::other;
    case 5:
      return is(k, "block") ? Key::block : Key::other;
    case 6:
      return is(k, "kernel") ? Key::kernel : Key::other;
    case 10:
      return is(k, "Input Dims")   ? Key::input_dims
             : is(k, "Input type") ? Key::input_type
                                   : Key::other;
    case 11:
      return is(k, "External id")   ? Key::external_id
             : is(k, "correlation") ? Key::correlation
             : is(k, "traceEvents") ? Key::trace_events
                                    : Key::other;
    case 15:
      return is(k, "Concrete Inputs") ? Key::concrete_inputs : Key::other;
    default:
      return Key::other;
  }
}

Key key_of(const JsonStream& js, std::string& tmp) {
  if (!js.escaped()) return key_of(js.raw());
  tmp.clear();
  js.append_text(tmp);
  return key_of(tmp);
}

bool read_string_value(JsonStream& js, std::string& out) {
  const JsonToken t = js.next();
  if (t == JsonToken::string) {
    js.append_text(out);
    return true;
  }
  if (t == JsonToken::begin_object || t == JsonToken::begin_array)
    return !is_error(js.skip_container());
  return !is_error(t) && t != JsonToken::key;
}

// A number value (anything else is skipped and leaves `has` false).
bool read_number(JsonStream& js, double& out, bool& has) {
  const JsonToken t = js.next();
  if (t == JsonToken::number) {
    // A non-finite time (`NaN`, `Infinity`: not JSON, but some writers emit it) is no time: the
    // event is read as if it had none (a GPU event without a duration is not GPU time).
    has = js.as_double(out) && std::isfinite(out);
    return true;
  }
  if (t == JsonToken::begin_object || t == JsonToken::begin_array)
    return !is_error(js.skip_container());
  return !is_error(t);
}

bool read_int(JsonStream& js, std::int64_t& out) {
  if (js.next_small_uint(out)) return true;
  const JsonToken t = js.next();
  if (t == JsonToken::number) {
    if (!js.as_int(out)) out = -1;
    return true;
  }
  if (t == JsonToken::begin_object || t == JsonToken::begin_array)
    return !is_error(js.skip_container());
  return !is_error(t);
}

// The integers of a dims list whose '[' was just read; nested lists are skipped. False on a
// JSON error; `ok` false when an element is not a non-negative integer.
bool read_int_list(JsonStream& js, std::vector<std::int64_t>& out, bool& ok) {
  for (;;) {
    std::int64_t v = 0;
    if (js.next_small_uint(v)) {
      out.push_back(v);
      continue;
    }
    const JsonToken t = js.next();
    if (t == JsonToken::end_array) return true;
    if (is_error(t)) return false;
    if (t == JsonToken::number && js.as_int(v) && v >= 0) {
      out.push_back(v);
      continue;
    }
    ok = false;
    if ((t == JsonToken::begin_array || t == JsonToken::begin_object) &&
        is_error(js.skip_container()))
      return false;
  }
}

// `Input Dims`: one list per argument; a tensor's dims, [] for a non-tensor, or a list of dims
// lists for a tensor list (each member becomes an operand of that argument).
bool read_input_dims(JsonStream& js, EventScratch& s) {
  JsonToken t = js.next();
  if (t != JsonToken::begin_array) {
    if (t == JsonToken::begin_object) return !is_error(js.skip_container());
    return !is_error(t);
  }
  s.has_dims = true;
  for (std::size_t arg = 0;; ++arg) {
    t = js.next();
    if (t == JsonToken::end_array) return true;
    if (is_error(t)) return false;
    if (t == JsonToken::begin_object) {
      if (is_error(js.skip_container())) return false;
      continue;
    }
    if (t != JsonToken::begin_array) continue;
    Operand* op = &s.new_operand(arg);
    bool ok = true;
    for (;;) {
      std::int64_t v = 0;
      if (js.next_small_uint(v)) {
        op->dims.push_back(v);
        continue;
      }
      t = js.next();
      if (t == JsonToken::end_array) break;
      if (is_error(t)) return false;
      if (t == JsonToken::number && js.as_int(v) && v >= 0) {
        op->dims.push_back(v);
      } else if (t == JsonToken::begin_array) {  // a member of a tensor list
        const std::size_t outer = static_cast<std::size_t>(op - s.operands.data());
        Operand& member = s.new_operand(arg);
        bool member_ok = true;
        if (!read_int_list(js, member.dims, member_ok)) return false;
        if (!member_ok) member.dims.clear();
        op = &s.operands[outer];  // new_operand may have moved the vector
      } else {
        ok = false;
        if (t == JsonToken::begin_object && is_error(js.skip_container())) return false;
      }
    }
    if (!ok) op->dims.clear();
  }
}

// An array of one text per argument into `texts` (reused; `n` counts those filled): a string as
// written, a number or boolean as written where `scalars` (else ""), a container skipped as "".
bool read_text_list(JsonStream& js, std::vector<std::string>& texts, std::size_t& n, bool scalars) {
  JsonToken t = js.next();
  if (t != JsonToken::begin_array) {
    if (t == JsonToken::begin_object) return !is_error(js.skip_container());
    return !is_error(t);
  }
  for (;;) {
    t = js.next();
    if (t == JsonToken::end_array) return true;
    if (is_error(t)) return false;
    if (n == texts.size()) texts.emplace_back();
    std::string& text = texts[n++];
    text.clear();
    if (t == JsonToken::string)
      js.append_text(text);
    else if (scalars && (t == JsonToken::number || t == JsonToken::boolean))
      text.append(js.raw());
    else if ((t == JsonToken::begin_array || t == JsonToken::begin_object) &&
             is_error(js.skip_container()))
      return false;
  }
}

// `Input type`: one dtype per argument ("" for a non-tensor).
bool read_input_types(JsonStream& js, EventScratch& s) {
  return read_text_list(js, s.types, s.n_types, false);
}

// `Concrete Inputs`: one text per argument ("" for tensors); a number is kept as written.
bool read_concrete_inputs(JsonStream& js, EventScratch& s) {
  return read_text_list(js, s.concrete, s.n_concrete, true);
}

// A kernel's `grid` or `block`: three non-negative integers, else not kept.
bool read_dim3(JsonStream& js, std::int64_t (&out)[3], bool& has) {
  const JsonToken t = js.next();
  if (t != JsonToken::begin_array) {
    if (t == JsonToken::begin_object) return !is_error(js.skip_container());
    return !is_error(t);
  }
  std::size_t n = 0;
  bool ok = true;
  for (;;) {
    std::int64_t v = 0;
    if (n < 3 && js.next_small_uint(v)) {
      out[n++] = v;
      continue;
    }
    const JsonToken e = js.next();
    if (e == JsonToken::end_array) break;
    if (is_error(e)) return false;
    if (e == JsonToken::number && js.as_int(v) && v >= 0 && n < 3) {
      out[n++] = v;
      continue;
    }
    ok = false;
    if ((e == JsonToken::begin_array || e == JsonToken::begin_object) &&
        is_error(js.skip_container()))
      return false;
  }
  has = ok && n == 3;
  return true;
}

bool read_args(JsonStream& js, EventScratch& s, std::string& tmp) {
  JsonToken t = js.next();
  if (t != JsonToken::begin_object) {
    if (t == JsonToken::begin_array) return !is_error(js.skip_container());
    return !is_error(t);
  }
  for (;;) {
    t = js.next();
    if (t == JsonToken::end_object) return true;
    if (t != JsonToken::key) return false;
    bool ok = true;
    switch (key_of(js, tmp)) {
      case Key::external_id:
        ok = read_int(js, s.external_id);
        break;
      case Key::correlation:
        ok = read_int(js, s.correlation);
        break;
      case Key::input_dims:
        ok = read_input_dims(js, s);
        break;
      case Key::input_type:
        ok = read_input_types(js, s);
        break;
      case Key::concrete_inputs:
        ok = read_concrete_inputs(js, s);
        break;
      case Key::grid:
        ok = read_dim3(js, s.grid, s.has_grid);
        break;
      case Key::block:
        ok = read_dim3(js, s.block, s.has_block);
        break;
      case Key::kernel:
        s.has_kernel = true;
        ok = read_string_value(js, s.kernel);
        break;
      default:
        ok = !is_error(js.skip_value());
    }
    if (!ok) return false;
  }
}

// The value of an event's key `key`, into `s`.
bool read_event_field(JsonStream& js, Key key, EventScratch& s, std::string& tmp) {
  switch (key) {
    case Key::ph:
      return read_string_value(js, s.ph);
    case Key::cat: {
      const bool ok = read_string_value(js, s.cat);
      s.category = category_of(s.cat);
      return ok;
    }
    case Key::name:
      s.has_name = true;
      return read_string_value(js, s.name);
    case Key::ts:
      return read_number(js, s.ts, s.has_ts);
    case Key::dur:
      return read_number(js, s.dur, s.has_dur);
    case Key::pid:
      return read_int(js, s.pid);
    case Key::tid:
      return read_int(js, s.tid);
    case Key::args:
      return read_args(js, s, tmp);
    default:
      return !is_error(js.skip_value());
  }
}

bool read_event(JsonStream& js, EventScratch& s, std::string& tmp, ChromeEvents& out) {
  s.reset();
  bool frame_read = false;  // a python frame's name was looked up (once per name read)
  for (;;) {
    const JsonToken t = js.next();
    if (t == JsonToken::end_object) break;
    if (t != JsonToken::key) return false;
    const Key key = key_of(js, tmp);
    if (!read_event_field(js, key, s, tmp)) return false;
    if (key == Key::name) frame_read = false;  // a repeated name is read again
    // Only complete ("X") events of the categories above matter: skip the rest of any other
    // event without reading its fields (flows, python frames, metadata are most of a trace).
    // Of the python frames only nn.Module spans and the frames whose words say something (a
    // forward mode, a collective, the model's own file: call_stacks.hpp) are kept: skip the others
    // once the name shows.
    if (s.category == Category::ignored ||
        (key == Key::ph && !(s.ph.size() == 1 && s.ph[0] == 'X') && !s.ph.empty()))
      return !is_error(js.skip_container());
    if (s.category == Category::python && s.has_name && !frame_read) {
      frame_read = true;
      if (!out.frame_name(s.name).kept()) return !is_error(js.skip_container());
    }
  }
  finish_event(s, out);
  return true;
}

// The events array, its '[' already read, to its ']' — or to the first boundary of `stops` where
// an event starts (handed_over: the part that begins there reads on), or until `cancel` is set
// (a part no longer needed: error), or until launches resolved as read meet an order that breaks
// what they count on (error: the file is read again, launch_reads.cpp).
EventsEnd read_events(JsonStream& js, ChromeEvents& out, PartStops* stops,
                      const std::atomic<bool>* cancel) {
  EventScratch s;
  std::string tmp;
  for (;;) {
    if (stops && stops->pending() && stops->stop_at(js.next_value_offset()))
      return EventsEnd::handed_over;
    if (cancel && cancel->load(std::memory_order_relaxed)) return EventsEnd::error;
    if (out.order_broke) return EventsEnd::error;
    const JsonToken t = js.next();
    if (t == JsonToken::end_array) return EventsEnd::done;
    if (t == JsonToken::begin_object) {
      if (!read_event(js, s, tmp, out)) return EventsEnd::error;
    } else if (t == JsonToken::begin_array) {
      if (is_error(js.skip_container())) return EventsEnd::error;
    } else if (is_error(t)) {
      return EventsEnd::error;
    }
  }
}

// The traceEvents array, its '[' just read (`open`: the containers it is in, itself included):
// read here, its later parts (of a large plain file) by the parts' parsers at the same time.
EventsEnd read_event_array(JsonStream& js, ChromeEvents& out, std::string_view open,
                           const SplitSource* split, SplitParts& parts) {
  if (split) parts.start(*split, js.offset(), open, out);
  return read_events(js, out, parts.first_stops(), nullptr);
}

// What the top-level object holds from `js`'s position to its '}': traceEvents (saw_events),
// the trace's metadata, other keys skipped. handed_over: the parts' parsers read the rest.
EventsEnd read_object_rest(JsonStream& js, ChromeEvents& out, bool& saw_events,
                           const SplitSource* split, SplitParts& parts) {
  std::string tmp;
  for (;;) {
    JsonToken t = js.next();
    if (t == JsonToken::end_object) return EventsEnd::done;
    if (t != JsonToken::key) return EventsEnd::error;
    bool ok = true;
    if (key_of(js, tmp) == Key::trace_events) {
      t = js.next();
      if (t == JsonToken::begin_array) {
        saw_events = true;
        const EventsEnd end = read_event_array(js, out, "{[", split, parts);
        if (end != EventsEnd::done) return end;
      } else if (t == JsonToken::begin_object) {
        ok = !is_error(js.skip_container());
      } else {
        ok = !is_error(t);
      }
    } else {
      tmp.clear();
      js.append_text(tmp);
      ok = read_trace_meta(js, tmp, out.meta);  // deviceProperties, …; others skipped
    }
    if (!ok) return EventsEnd::error;
  }
}

// Only whitespace may follow the document.
std::string document_end(JsonStream& js) {
  if (js.next() == JsonToken::end && js.error().empty()) return {};
  return js.error().empty() ? "invalid JSON" : js.error();
}

}  // namespace

std::string parse_chrome_trace(const ByteReader& read, ChromeEvents& out,
                               const SplitSource* split) {
  JsonStream js(read);
  SplitParts parts;
  bool saw_events = false;
  JsonToken t = js.next();
  EventsEnd end = EventsEnd::done;
  if (t == JsonToken::begin_array) {  // the JSON Array Format: the events alone
    saw_events = true;
    end = read_event_array(js, out, "[", split, parts);
  } else if (t == JsonToken::begin_object) {
    end = read_object_rest(js, out, saw_events, split, parts);
  } else if (t != JsonToken::error) {
    return "not a Chrome trace: the JSON document is not an object or an array";
  } else {
    end = EventsEnd::error;
  }
  if (end == EventsEnd::handed_over) {  // the parts' parsers read the rest of the document
    std::string error = parts.finish(out);
    finish_events(out);
    return error;
  }
  finish_events(out);
  if (end == EventsEnd::error) return js.error().empty() ? "invalid JSON" : js.error();
  if (std::string error = document_end(js); !error.empty()) return error;
  if (!saw_events) return "not a Chrome trace: no traceEvents array";
  return {};
}

std::string parse_chrome_part(const ByteReader& read, std::uint64_t at, std::string_view open,
                              PartStops& stops, ChromeEvents& out,
                              const std::atomic<bool>& cancel) {
  JsonStream js(read);
  js.resume_at(at, open);
  EventsEnd end = read_events(js, out, &stops, &cancel);
  if (cancel.load()) return "cancelled";
  if (end == EventsEnd::handed_over) return {};
  if (end == EventsEnd::done && open.size() == 2) {  // then the rest of the top-level object
    SplitParts none;
    bool saw_events = true;
    end = read_object_rest(js, out, saw_events, nullptr, none);
  }
  if (end != EventsEnd::done) return js.error().empty() ? "invalid JSON" : js.error();
  return document_end(js);
}

}  // namespace roofline::topn::detail
