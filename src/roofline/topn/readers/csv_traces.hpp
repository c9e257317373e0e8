#pragma once
// Private to src/topn: the kernel CSV readers (rocprofv3 kernel trace / stats, Nsight Systems
// cuda_gpu_kern_sum).

#include <string>
#include <vector>

#include "roofline/topn/bytes/byte_reader.hpp"
#include "roofline/topn/layer.hpp"
#include "roofline/topn/profile/trace_profile.hpp"

namespace roofline::topn::detail {

// Streams a kernel CSV into `out` (per kernel name: calls and total µs). Returns "" or one line
// saying what is wrong with the file; skipped rows are counted in `notes`.
std::string parse_kernel_csv(const ByteReader& read, TraceProfile& out,
                             std::vector<std::string>& notes);

}  // namespace roofline::topn::detail
