// rocprofv3 JSON (`rocprofv3 --kernel-trace --output-format json`) -> TraceProfile, in one
// streaming pass over the pull tokenizer: the document is
//   {"rocprofiler-sdk-tool": [ {                      one element per profiled process
//      "kernel_symbols": [{"kernel_id": 7, "kernel_name": "_Z…", "demangled_kernel_name": …,
//                          "formatted_kernel_name": …, "truncated_kernel_name": …}, …]
//                        (or a map {"7": {…}, …}),
//      "buffer_records": {"kernel_dispatch": [{"start_timestamp": ns, "end_timestamp": ns,
//                          "dispatch_info": {"kernel_id": 7, …}, …}, …], "memory_copy": […]},
//      …}]}
// Dispatches are summed per (process, kernel_id) as they stream; the names are joined at the end
// of each process's object, whichever of the two lists came first.
#include "roofline/topn/readers/rocprof_json.hpp"

#include <cmath>
#include <map>
#include <unordered_map>

#include <fmt/format.h>

#include "roofline/topn/bytes/json_stream.hpp"
#include "roofline/topn/bytes/json_value_readers.hpp"
#include "roofline/topn/layer.hpp"
#include "roofline/topn/readers/dispatch_quant.hpp"

namespace roofline::topn::detail {
namespace rocprof {  // named, not anonymous: unity batches share one translation unit

using json_values::failed;
using json_values::integer;
using json_values::key_text;
using json_values::skip_rest;
using json_values::text;

struct Sum {
  double calls = 0.0, ns = 0.0;
};

// One dispatch in its queue's order (docs/method.md §23.5): its queue, start and kernel id.
struct Queued {
  std::int64_t queue = 0, start = 0, kernel = 0;
};

struct Process {
  std::unordered_map<std::int64_t, std::string> names;
  std::unordered_map<std::int64_t, Sum> sums;
  std::vector<Queued> order;
  std::vector<RocprofAgent> agents;
  std::unordered_map<std::int64_t, double> by_agent;  // dispatches by agent handle
};

struct Counts {
  double dispatches = 0.0, bad_times = 0.0, no_kernel_id = 0.0, unnamed = 0.0, memory_copies = 0.0;
  std::size_t processes = 0;
  bool saw_dispatch_list = false;
  std::vector<std::pair<TraceDevice, double>> gpus;  // the GPUs dispatches ran on
};

// One kernel symbol object, its '{' read; `id` may come from a map key.
bool symbol(JsonStream& js, std::optional<std::int64_t> id, Process& p) {
  std::string names[4];  // kernel_name, demangled, formatted, truncated: the first given wins
  for (;;) {
    const JsonToken t = js.next();
    if (t == JsonToken::end_object) break;
    if (t != JsonToken::key) return false;
    const std::string key = key_text(js);
    bool ok = true;
    if (key == "kernel_id")
      ok = integer(js, id);
    else if (key == "kernel_name")
      ok = text(js, names[0]);
    else if (key == "demangled_kernel_name")
      ok = text(js, names[1]);
    else if (key == "formatted_kernel_name")
      ok = text(js, names[2]);
    else if (key == "truncated_kernel_name")
      ok = text(js, names[3]);
    else
      ok = !failed(js.skip_value());
    if (!ok) return false;
  }
  if (!id) return true;
  for (const std::string& n : names)
    if (!n.empty()) {
      p.names[*id] = n;
      break;
    }
  return true;
}

// `kernel_symbols`: a list of symbol objects, or a map from kernel id to one.
bool symbols(JsonStream& js, Process& p) {
  JsonToken t = js.next();
  if (t == JsonToken::begin_array) {
    for (;;) {
      t = js.next();
      if (t == JsonToken::end_array) return true;
      if (t == JsonToken::begin_object) {
        if (!symbol(js, std::nullopt, p)) return false;
      } else if (!skip_rest(js, t)) {
        return false;
      }
    }
  }
  if (t != JsonToken::begin_object) return skip_rest(js, t);
  for (;;) {
    t = js.next();
    if (t == JsonToken::end_object) return true;
    if (t != JsonToken::key) return false;
    std::optional<std::int64_t> id;
    std::int64_t v = 0;
    if (js.as_int(v)) id = v;  // the key's text is the id
    t = js.next();
    if (t == JsonToken::begin_object) {
      if (!symbol(js, id, p)) return false;
    } else if (!skip_rest(js, t)) {
      return false;
    }
  }
}

// A handle (`{"handle": 3}`) or a bare integer into `out`.
bool handle(JsonStream& js, std::optional<std::int64_t>& out) {
  JsonToken t = js.next();
  std::int64_t v = 0;
  if (t == JsonToken::number) {
    if (js.as_int(v)) out = v;
    return true;
  }
  if (t != JsonToken::begin_object) return skip_rest(js, t);
  for (;;) {
    t = js.next();
    if (t == JsonToken::end_object) return true;
    if (t != JsonToken::key) return false;
    if (!(key_text(js) == "handle" ? integer(js, out) : !failed(js.skip_value()))) return false;
  }
}

// `dispatch_info`: its kernel_id, and the agent and queue it ran on.
bool dispatch_info(JsonStream& js, std::optional<std::int64_t>& id,
                   std::optional<std::int64_t>& agent, std::optional<std::int64_t>& queue) {
  JsonToken t = js.next();
  if (t != JsonToken::begin_object) return skip_rest(js, t);
  for (;;) {
    t = js.next();
    if (t == JsonToken::end_object) return true;
    if (t != JsonToken::key) return false;
    const std::string key = key_text(js);
    const bool ok = key == "kernel_id"  ? integer(js, id)
                    : key == "agent_id" ? handle(js, agent)
                    : key == "queue_id" ? handle(js, queue)
                                        : !failed(js.skip_value());
    if (!ok) return false;
  }
}

// One kernel_dispatch record, its '{' read.
bool dispatch(JsonStream& js, Process& p, Counts& c) {
  std::optional<std::int64_t> start, end, id, agent, queue;
  for (;;) {
    const JsonToken t = js.next();
    if (t == JsonToken::end_object) break;
    if (t != JsonToken::key) return false;
    const std::string key = key_text(js);
    bool ok = true;
    if (key == "start_timestamp")
      ok = integer(js, start);
    else if (key == "end_timestamp")
      ok = integer(js, end);
    else if (key == "dispatch_info")
      ok = dispatch_info(js, id, agent, queue);
    else if (key == "kernel_id")  // a flat record
      ok = integer(js, id);
    else
      ok = !failed(js.skip_value());
    if (!ok) return false;
  }
  c.dispatches += 1.0;
  if (!id) {
    c.no_kernel_id += 1.0;
    return true;
  }
  if (!start || !end || *end < *start || *start < 0) {
    c.bad_times += 1.0;
    return true;
  }
  Sum& s = p.sums[*id];
  s.calls += 1.0;
  s.ns += static_cast<double>(*end - *start);
  p.order.push_back({(agent.value_or(0) << 32) ^ queue.value_or(0), *start, *id});
  if (agent) p.by_agent[*agent] += 1.0;
  return true;
}

// The elements of a list whose '[' was read; `each` reads one object element, its '{' read,
// anything else is skipped.
template <class Each>
bool objects_after_open(JsonStream& js, Each each) {
  for (;;) {
    const JsonToken t = js.next();
    if (t == JsonToken::end_array) return true;
    if (t == JsonToken::begin_object) {
      if (!each()) return false;
    } else if (!skip_rest(js, t)) {
      return false;
    }
  }
}

// A list whose '[' is next (any other value is skipped).
template <class Each>
bool list_of_objects(JsonStream& js, Each each) {
  const JsonToken t = js.next();
  if (t != JsonToken::begin_array) return skip_rest(js, t);
  return objects_after_open(js, each);
}

bool buffer_records(JsonStream& js, Process& p, Counts& c) {
  JsonToken t = js.next();
  if (t != JsonToken::begin_object) return skip_rest(js, t);
  for (;;) {
    t = js.next();
    if (t == JsonToken::end_object) return true;
    if (t != JsonToken::key) return false;
    const std::string key = key_text(js);
    bool ok = true;
    if (key == "kernel_dispatch") {
      c.saw_dispatch_list = true;
      ok = list_of_objects(js, [&] { return dispatch(js, p, c); });
    } else if (key == "memory_copy") {
      ok = list_of_objects(js, [&] {
        c.memory_copies += 1.0;
        return !failed(js.skip_container());
      });
    } else {
      ok = !failed(js.skip_value());
    }
    if (!ok) return false;
  }
}

// The name a process gives a kernel id.
std::string kernel_name(const Process& p, std::int64_t id) {
  auto name = p.names.find(id);
  return name != p.names.end() ? name->second
                               : fmt::format("kernel_id {} (no kernel_symbols entry)", id);
}

// One process's object, its '{' read; its sums are added by name into `by_name`, its dispatches
// (queues told apart by process) to `log`.
bool process(JsonStream& js, Counts& c, std::map<std::string, Sum>& by_name, DispatchLog& log) {
  Process p;
  for (;;) {
    const JsonToken t = js.next();
    if (t == JsonToken::end_object) break;
    if (t != JsonToken::key) return false;
    const std::string key = key_text(js);
    bool ok = true;
    if (key == "kernel_symbols")
      ok = symbols(js, p);
    else if (key == "buffer_records")
      ok = buffer_records(js, p, c);
    else if (key == "agents")
      ok = read_rocprof_agents(js, p.agents);
    else
      ok = !failed(js.skip_value());
    if (!ok) return false;
  }
  ++c.processes;
  add_gpu_dispatches(p.agents, p.by_agent, c.gpus);
  for (const auto& [id, sum] : p.sums) {
    if (p.names.count(id) == 0) c.unnamed += sum.calls;
    Sum& into = by_name[kernel_name(p, id)];
    into.calls += sum.calls;
    into.ns += sum.ns;
  }
  const auto process_bits = static_cast<std::int64_t>(c.processes) << 48;
  for (const Queued& q : p.order)
    log.add(process_bits ^ q.queue, static_cast<double>(q.start), kernel_name(p, q.kernel));
  return true;
}

// What the reading counted, as notes.
void summary_notes(const Counts& c, std::size_t kernels, std::vector<std::string>& notes) {
  notes.push_back(
      fmt::format("rocprofv3 JSON: {:.0f} kernel dispatches of {} kernels, {} process{}",
                  c.dispatches - c.bad_times - c.no_kernel_id, kernels, c.processes,
                  c.processes == 1 ? "" : "es"));
  if (c.bad_times + c.no_kernel_id > 0)
    notes.push_back(fmt::format(
        "{:.0f} kernel dispatch record(s) skipped: {:.0f} without kernel_id, {:.0f} without "
        "valid start/end timestamps",
        c.bad_times + c.no_kernel_id, c.no_kernel_id, c.bad_times));
  if (c.unnamed > 0)
    notes.push_back(
        fmt::format("{:.0f} dispatch(es) name a kernel_id that kernel_symbols does not "
                    "list: kept as 'kernel_id <n> (no kernel_symbols entry)'",
                    c.unnamed));
  if (c.memory_copies > 0)
    notes.push_back(
        fmt::format("{:.0f} memory_copy record(s) are not counted: kernels only", c.memory_copies));
}

}  // namespace rocprof

std::string parse_rocprof_json(const ByteReader& read, TraceProfile& out,
                               std::vector<std::string>& notes) {
  using rocprof::failed;
  JsonStream js(read);
  rocprof::Counts c;
  std::map<std::string, rocprof::Sum> by_name;
  DispatchLog log;
  bool saw_tool = false, ok = true;
  JsonToken t = js.next();
  if (t != JsonToken::begin_object) ok = false;
  while (ok) {
    t = js.next();
    if (t == JsonToken::end_object) break;
    if (t != JsonToken::key) {
      ok = false;
      break;
    }
    if (rocprof::key_text(js) != "rocprofiler-sdk-tool") {
      ok = !failed(js.skip_value());
      continue;
    }
    t = js.next();
    if (t != JsonToken::begin_array) {
      if (failed(t) || !rocprof::skip_rest(js, t))
        ok = false;
      else
        return "rocprofv3 JSON: rocprofiler-sdk-tool is not a list of process records";
      break;
    }
    saw_tool = true;
    ok = rocprof::objects_after_open(js, [&] { return rocprof::process(js, c, by_name, log); });
  }
  if (ok) ok = js.next() == JsonToken::end;  // only whitespace may follow
  if (!ok || !js.error().empty())
    return "rocprofv3 JSON: " + (js.error().empty() ? std::string("invalid JSON") : js.error());
  if (!saw_tool) return "rocprofv3 JSON without a rocprofiler-sdk-tool list";
  if (!c.saw_dispatch_list)
    return "rocprofv3 JSON without kernel_dispatch records: run rocprofv3 with --kernel-trace";
  if (by_name.empty())
    return fmt::format(
        "rocprofv3 JSON: none of its {:.0f} kernel dispatches is usable (no kernel_id, or no "
        "start/end timestamps)",
        c.dispatches);
  out.source = "rocprofv3";
  out.device = busiest_gpu(c.gpus);
  for (const auto& [name, sum] : by_name) {
    TraceKernel k;
    k.name = name;
    k.calls = sum.calls;
    k.total_us = sum.ns / 1000.0;
    out.kernels.push_back(std::move(k));
  }
  log.attach(out.kernels);
  rocprof::summary_notes(c, by_name.size(), notes);
  return {};
}

}  // namespace roofline::topn::detail
