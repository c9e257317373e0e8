#pragma once
// Private to src/topn: the quantization each matrix kernel's input went through in a kernel trace
// without ops (rocprofv3 CSV or JSON; docs/method.md §23.5): the nearest quantization kernel before
// it on the same queue, with no other matrix kernel between, by stream order and names alone.

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "roofline/topn/layer.hpp"
#include "roofline/topn/profile/trace_profile.hpp"

namespace roofline::topn::detail {

// One dispatch of a kernel trace without ops: its queue (agent and queue, or stream), its start,
// and its kernel's index in the caller's name list.
struct QueuedDispatch {
  std::int64_t queue = 0;
  double start = 0.0;
  std::uint32_t name = 0;
};
// Per index of `names`, the quantizations its dispatches' inputs went through. Sorts
// `dispatches`.
std::vector<InputQuantSums> input_quant_of_dispatches(std::vector<QueuedDispatch>& dispatches,
                                                      const std::vector<std::string>& names);

// A kernel trace's dispatches as they are read, then swept once and the result given to the
// trace's kernels by name.
class DispatchLog {
 public:
  void add(std::int64_t queue, double start, const std::string& name);
  // Each kernel of `kernels` gets the quantizations its dispatches' inputs went through.
  void attach(std::vector<TraceKernel>& kernels);

 private:
  std::vector<std::string> names_;
  std::map<std::string, std::uint32_t, std::less<>> ids_;
  std::vector<QueuedDispatch> list_;
};

}  // namespace roofline::topn::detail
