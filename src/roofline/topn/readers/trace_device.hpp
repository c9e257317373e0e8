#pragma once
// Private to src/topn: the device facts of a Chrome trace's top level (docs/method.md §22.7) — its
// `deviceProperties[]`, the version keys that name the vendor, `distributedInfo.world_size` — read
// while the trace streams, and the one device the Top-N records.

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "roofline/topn/layer.hpp"
#include "roofline/topn/profile/trace_profile.hpp"

namespace roofline::topn::detail {

class JsonStream;

// One `deviceProperties[]` element (the fields the Top-N reads).
struct DeviceProps {
  std::optional<std::int64_t> id;
  std::string name;
  std::optional<double> compute_major, compute_minor, num_sms, total_global_mem, warp_size;
};

struct TraceMeta {
  std::vector<DeviceProps> devices;
  bool amd_keys = false;             // roctracer_version, hip_runtime_version, hip_driver_version
  bool nvidia_keys = false;          // cuda_runtime_version, cupti_version, cuda_driver_version
  std::optional<double> world_size;  // distributedInfo.world_size
};

// Reads the value of the top-level key `key` (just returned by `js`) into `meta` when it is one of
// the above, else skips it. False on a JSON error (the stream says which).
bool read_trace_meta(JsonStream& js, std::string_view key, TraceMeta& meta);

// The device the Top-N records: the `deviceProperties` entry whose id is `kernels_device` (the
// device most GPU events ran on; -1 none), else (noted) the first entry, when all agree or not.
// nullopt without entries.
std::optional<TraceDevice> choose_trace_device(const TraceMeta& meta, std::int64_t kernels_device);

// Folds the device and world size of one more trace (another rank) into a merged profile: the
// first trace's device is kept, with a note when a later one names a different device.
void merge_trace_device(TraceProfile& into, const TraceProfile& from);

// The architecture a vendor's compute capability names: NVIDIA sm_<major><minor>; AMD 9.4 gfx942,
// 9.5 gfx950; "" otherwise (another AMD pair, or no vendor).
std::string device_arch(std::string_view vendor, std::optional<double> major,
                        std::optional<double> minor);

}  // namespace roofline::topn::detail
