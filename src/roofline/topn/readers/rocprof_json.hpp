#pragma once
// Private to src/topn: the rocprofv3 JSON reader (`rocprofv3 --kernel-trace --output-format
// json`).

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "roofline/topn/bytes/byte_reader.hpp"
#include "roofline/topn/layer.hpp"
#include "roofline/topn/profile/trace_profile.hpp"

namespace roofline::topn::detail {

// Streams a rocprofv3 JSON document into `out`: `rocprofiler-sdk-tool[].buffer_records.
// kernel_dispatch[]` (start_timestamp, end_timestamp in ns, dispatch_info.kernel_id) summed per
// kernel name, the names from each tool entry's `kernel_symbols` (a list of objects with kernel_id,
// or a map keyed by it). Returns "" or one line saying what is wrong; skipped records are counted
// in `notes`. Memory grows with the number of distinct kernels, not of dispatches.
std::string parse_rocprof_json(const ByteReader& read, TraceProfile& out,
                               std::vector<std::string>& notes);

class JsonStream;

// One element of a process's `agents[]` (rocprof_agents.cpp): its handle, type (2: a GPU) and
// what names the part — `name` the gfx target, `product_name`, `vendor_name`, `cu_count`.
struct RocprofAgent {
  std::optional<std::int64_t> handle, type;
  std::string name, product, vendor;
  std::optional<double> cu_count;
};

// Reads `agents` (its value next in `js`) into `out`; false on a JSON error.
bool read_rocprof_agents(JsonStream& js, std::vector<RocprofAgent>& out);

// The GPUs the dispatches ran on, with their dispatches: one process's agents and its dispatches
// by agent handle added to `gpus`.
void add_gpu_dispatches(const std::vector<RocprofAgent>& agents,
                        const std::unordered_map<std::int64_t, double>& by_agent,
                        std::vector<std::pair<TraceDevice, double>>& gpus);

// The device the Top-N records (docs/method.md §22.7): the GPU most dispatches ran on, its note
// saying so where several ran some.
std::optional<TraceDevice> busiest_gpu(const std::vector<std::pair<TraceDevice, double>>& gpus);

}  // namespace roofline::topn::detail
