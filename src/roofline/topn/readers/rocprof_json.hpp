#pragma once
// Private to src/topn: the rocprofv3 JSON reader (`rocprofv3 --kernel-trace --output-format
// json`).

#include <string>
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

}  // namespace roofline::topn::detail
