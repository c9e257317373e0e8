// The device of a Chrome trace (docs/method.md §22.7): `deviceProperties[]`, the vendor from the
// top-level version keys, else from the device name (never from warpSize: RDNA parts report 32),
// `distributedInfo.world_size`,
// and the choice of the one entry the Top-N records.
#include "roofline/topn/readers/trace_device.hpp"

#include <cmath>
#include <map>

#include <fmt/format.h>

#include "roofline/topn/bytes/json_stream.hpp"
#include "roofline/topn/bytes/json_value_readers.hpp"
#include "roofline/topn/layer.hpp"

namespace roofline::topn::detail {
namespace device_json {  // named, not anonymous: unity batches share one translation unit

using json_values::failed;
using json_values::key_text;
using json_values::number;
using json_values::skip_rest;
using json_values::text;

// One deviceProperties element, its '{' already read.
bool device(JsonStream& js, DeviceProps& d) {
  for (;;) {
    const JsonToken t = js.next();
    if (t == JsonToken::end_object) return true;
    if (t != JsonToken::key) return false;
    const std::string key = key_text(js);
    std::optional<double> id;
    bool ok = true;
    if (key == "id") {
      ok = number(js, id);
      if (id && *id >= 0 && *id < 1e9 && std::floor(*id) == *id)
        d.id = static_cast<std::int64_t>(*id);
    } else if (key == "name") {
      ok = text(js, d.name);
      for (char& c : d.name)  // it lands in one-line notes: no control characters
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
    } else if (key == "computeMajor") {
      ok = number(js, d.compute_major);
    } else if (key == "computeMinor") {
      ok = number(js, d.compute_minor);
    } else if (key == "numSms") {
      ok = number(js, d.num_sms);
    } else if (key == "totalGlobalMem") {
      ok = number(js, d.total_global_mem);
    } else if (key == "warpSize") {
      ok = number(js, d.warp_size);
    } else {
      ok = !failed(js.skip_value());
    }
    if (!ok) return false;
  }
}

bool devices(JsonStream& js, std::vector<DeviceProps>& out) {
  JsonToken t = js.next();
  if (t != JsonToken::begin_array) return skip_rest(js, t);
  constexpr std::size_t k_max_devices = 4096;
  for (;;) {
    t = js.next();
    if (t == JsonToken::end_array) return true;
    if (t == JsonToken::begin_object) {
      DeviceProps d;
      if (!device(js, d)) return false;
      if (out.size() < k_max_devices) out.push_back(std::move(d));
    } else if (!skip_rest(js, t)) {
      return false;
    }
  }
}

bool distributed(JsonStream& js, TraceMeta& meta) {
  JsonToken t = js.next();
  if (t != JsonToken::begin_object) return skip_rest(js, t);
  for (;;) {
    t = js.next();
    if (t == JsonToken::end_object) return true;
    if (t != JsonToken::key) return false;
    if (key_text(js) == "world_size") {
      std::optional<double> n;
      if (!number(js, n)) return false;
      if (n && *n >= 1 && *n < 1e9 && std::floor(*n) == *n) meta.world_size = *n;
    } else if (failed(js.skip_value())) {
      return false;
    }
  }
}

bool same_device(const DeviceProps& a, const DeviceProps& b) {
  return a.name == b.name && a.compute_major == b.compute_major &&
         a.compute_minor == b.compute_minor && a.num_sms == b.num_sms &&
         a.total_global_mem == b.total_global_mem;
}

// The vendor a device name states ("NVIDIA H100 80GB HBM3", "AMD Instinct MI300X"), for traces
// without version keys (trimmed or re-exported); "" when it names neither or both.
std::string vendor_of_name(std::string_view name) {
  const auto has = [&](std::string_view w) { return name.find(w) != std::string_view::npos; };
  const bool nvidia = has("NVIDIA") || has("Tesla") || has("GeForce") || has("Quadro");
  const bool amd = has("AMD") || has("Instinct") || has("Radeon");
  return nvidia == amd ? "" : nvidia ? "NVIDIA" : "AMD";
}

std::string id_list(const std::vector<DeviceProps>& devices) {
  std::string out;
  for (const DeviceProps& d : devices)
    out += (out.empty() ? "" : ", ") + (d.id ? std::to_string(*d.id) : std::string("none"));
  return out;
}

}  // namespace device_json

bool read_trace_meta(JsonStream& js, std::string_view key, TraceMeta& meta) {
  if (key == "deviceProperties") return device_json::devices(js, meta.devices);
  if (key == "distributedInfo") return device_json::distributed(js, meta);
  if (key == "roctracer_version" || key == "hip_runtime_version" || key == "hip_driver_version")
    meta.amd_keys = true;
  if (key == "cuda_runtime_version" || key == "cupti_version" || key == "cuda_driver_version")
    meta.nvidia_keys = true;
  return !device_json::failed(js.skip_value());
}

std::string device_arch(std::string_view vendor, std::optional<double> major,
                        std::optional<double> minor) {
  if (!major || !minor || *major < 0 || *minor < 0 || *major >= 100 || *minor >= 100 ||
      std::floor(*major) != *major || std::floor(*minor) != *minor)
    return {};
  const int ma = static_cast<int>(*major), mi = static_cast<int>(*minor);
  if (vendor == "NVIDIA") return fmt::format("sm_{}{}", ma, mi);
  if (vendor == "AMD" && ma == 9 && mi == 4) return "gfx942";
  if (vendor == "AMD" && ma == 9 && mi == 5) return "gfx950";
  return {};
}

std::optional<TraceDevice> choose_trace_device(const TraceMeta& meta, std::int64_t dev) {
  if (meta.devices.empty()) return std::nullopt;
  const DeviceProps* chosen = nullptr;
  for (const DeviceProps& d : meta.devices)
    if (dev >= 0 && d.id == dev) {
      chosen = &d;
      break;
    }
  std::vector<std::string> notes;
  if (!chosen) {
    chosen = &meta.devices.front();
    bool agree = true;
    for (const DeviceProps& d : meta.devices) agree = agree && device_json::same_device(d, *chosen);
    const std::size_t n = meta.devices.size();
    const std::string where =
        dev >= 0 ? fmt::format(
                       "the kernels ran on device {}, which deviceProperties does not list (ids: "
                       "{}; HIP_VISIBLE_DEVICES / CUDA_VISIBLE_DEVICES renumber)",
                       dev, device_json::id_list(meta.devices))
                 : std::string("the GPU events name no device");
    const std::string first =
        chosen->id ? fmt::format("id {}", *chosen->id) : std::string("the first entry");
    notes.push_back(
        n == 1 ? fmt::format("{}; its only entry ({}) is taken", where, first)
        : agree
            ? fmt::format("{}; its {} entries agree, so {} is taken", where, n, first)
            : fmt::format("{}; its {} entries differ: the first ({}) is taken", where, n, first));
  }
  TraceDevice out;
  out.name = chosen->name;
  out.vendor = meta.amd_keys == meta.nvidia_keys ? "" : meta.amd_keys ? "AMD" : "NVIDIA";
  if (meta.amd_keys && meta.nvidia_keys)
    notes.push_back("the trace carries both ROCm and CUDA version keys: no vendor");
  if (!meta.amd_keys && !meta.nvidia_keys) {
    out.vendor = device_json::vendor_of_name(chosen->name);
    if (!out.vendor.empty())
      notes.push_back(fmt::format(
          "the trace carries no ROCm or CUDA version key: the vendor ({}) is read from the "
          "device name",
          out.vendor));
  }
  out.arch = device_arch(out.vendor, chosen->compute_major, chosen->compute_minor);
  if (out.arch.empty() && out.vendor == "AMD" && chosen->compute_major && chosen->compute_minor)
    notes.push_back(fmt::format(
        "compute capability {:g}.{:g} names no AMD arch here (9.4 is gfx942, 9.5 gfx950)",
        *chosen->compute_major, *chosen->compute_minor));
  out.cu_count = chosen->num_sms;
  out.memory_bytes = chosen->total_global_mem;
  out.id = chosen->id;
  for (const std::string& n : notes) out.note += (out.note.empty() ? "" : "; ") + n;
  return out;
}

void merge_trace_device(TraceProfile& into, const TraceProfile& from) {
  if (!into.world_size) into.world_size = from.world_size;
  if (!from.device) return;
  if (!into.device) {
    into.device = from.device;
    return;
  }
  const TraceDevice& a = *into.device;
  const TraceDevice& b = *from.device;
  if (a.name == b.name && a.vendor == b.vendor && a.arch == b.arch && a.cu_count == b.cu_count &&
      a.memory_bytes == b.memory_bytes)
    return;
  const std::string note = fmt::format(
      "the traces name different devices ('{}' {}, then '{}' {}): the first is taken", a.name,
      a.arch.empty() ? "no arch" : a.arch, b.name, b.arch.empty() ? "no arch" : b.arch);
  if (into.device->note.find(note) == std::string::npos)
    into.device->note += (into.device->note.empty() ? "" : "; ") + note;
}

}  // namespace roofline::topn::detail
