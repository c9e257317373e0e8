// The device of a rocprofv3 JSON (docs/method.md §22.7): each process's `agents[]` — the GPU's
// gfx target (`name`), `product_name`, `vendor_name` and `cu_count` — and the agent its kernel
// dispatches ran on, so that a rocprofv3 trace names its device as a Chrome trace's
// deviceProperties does.
#include <algorithm>

#include <fmt/format.h>

#include "roofline/topn/bytes/json_stream.hpp"
#include "roofline/topn/layer.hpp"
#include "roofline/topn/readers/rocprof_json.hpp"

namespace roofline::topn::detail {
namespace rocprof_agents {  // named, not anonymous: unity batches share one translation unit

bool bad(JsonToken t) {
  return t == JsonToken::error || t == JsonToken::end;
}

// A number into `out`, a string into `text`, or `{"handle": n}` into `out`; anything else skipped.
bool value(JsonStream& js, std::optional<std::int64_t>* out, std::optional<double>* number,
           std::string* text) {
  const JsonToken t = js.next();
  std::int64_t i = 0;
  double d = 0;
  if (t == JsonToken::number) {
    if (out && js.as_int(i)) *out = i;
    if (number && js.as_double(d)) *number = d;
    return true;
  }
  if (t == JsonToken::string) {
    if (text) text->clear(), js.append_text(*text);
    return true;
  }
  if (t == JsonToken::begin_object && out) {
    for (JsonToken k = js.next(); k != JsonToken::end_object; k = js.next()) {
      if (k != JsonToken::key) return false;
      std::string key;
      js.append_text(key);
      if (!(key == "handle" ? value(js, out, nullptr, nullptr) : !bad(js.skip_value())))
        return false;
    }
    return true;
  }
  if (t == JsonToken::begin_object || t == JsonToken::begin_array) return !bad(js.skip_container());
  return !bad(t) && t != JsonToken::key;
}

bool agent(JsonStream& js, RocprofAgent& a) {
  for (JsonToken t = js.next(); t != JsonToken::end_object; t = js.next()) {
    if (t != JsonToken::key) return false;
    std::string key;
    js.append_text(key);
    const bool ok = key == "id"             ? value(js, &a.handle, nullptr, nullptr)
                    : key == "type"         ? value(js, &a.type, nullptr, nullptr)
                    : key == "name"         ? value(js, nullptr, nullptr, &a.name)
                    : key == "product_name" ? value(js, nullptr, nullptr, &a.product)
                    : key == "vendor_name"  ? value(js, nullptr, nullptr, &a.vendor)
                    : key == "cu_count"     ? value(js, nullptr, &a.cu_count, nullptr)
                                            : !bad(js.skip_value());
    if (!ok) return false;
  }
  return true;
}

}  // namespace rocprof_agents

bool read_rocprof_agents(JsonStream& js, std::vector<RocprofAgent>& out) {
  JsonToken t = js.next();
  if (t != JsonToken::begin_array)
    return t == JsonToken::begin_object ? !rocprof_agents::bad(js.skip_container())
                                        : !rocprof_agents::bad(t) && t != JsonToken::key;
  constexpr std::size_t k_max_agents = 4096;
  for (t = js.next(); t != JsonToken::end_array; t = js.next()) {
    if (t == JsonToken::begin_object) {
      RocprofAgent a;
      if (!rocprof_agents::agent(js, a)) return false;
      if (out.size() < k_max_agents) out.push_back(std::move(a));
    } else if (t == JsonToken::begin_array) {
      if (rocprof_agents::bad(js.skip_container())) return false;
    } else if (rocprof_agents::bad(t) || t == JsonToken::key) {
      return false;
    }
  }
  return true;
}

void add_gpu_dispatches(const std::vector<RocprofAgent>& agents,
                        const std::unordered_map<std::int64_t, double>& by_agent,
                        std::vector<std::pair<TraceDevice, double>>& gpus) {
  for (const RocprofAgent& a : agents) {
    if (a.type != 2 || !a.handle || a.name.rfind("gfx", 0) != 0) continue;  // GPUs only
    const auto n = by_agent.find(*a.handle);
    if (n == by_agent.end()) continue;
    TraceDevice d;
    d.name = a.product;
    d.vendor = a.vendor == "AMD" || a.vendor.empty() ? "AMD" : a.vendor;
    d.arch = a.name;
    d.cu_count = a.cu_count;
    d.source = "rocprofv3 agents";
    auto same = std::find_if(gpus.begin(), gpus.end(), [&](const auto& g) { return g.first == d; });
    if (same == gpus.end())
      gpus.emplace_back(std::move(d), n->second);
    else
      same->second += n->second;
  }
}

std::optional<TraceDevice> busiest_gpu(const std::vector<std::pair<TraceDevice, double>>& gpus) {
  if (gpus.empty()) return std::nullopt;
  const auto* best = &gpus.front();
  for (const auto& g : gpus)
    if (g.second > best->second) best = &g;
  TraceDevice d = best->first;
  if (gpus.size() > 1)
    d.note = fmt::format("the GPU agent most kernel dispatches ran on ({:.0f}), of {} GPU parts",
                         best->second, gpus.size());
  return d;
}

}  // namespace roofline::topn::detail
