#pragma once
// Private to src/topn: the quantization each matrix kernel's input went through (docs/method.md
// §23.5). A matrix kernel (GEMM, expert GEMM, attention, linear attention or state-space) whose
// op passes no weights can still show its operand format by what ran just before it: the nearest
// quantization kernel before it on the same device and stream, with no other matrix kernel
// between (the quantized tensor's first reader). Eager launches say whether that quantization ran
// inside the kernel's own launching op (`_C::dynamic_scaled_fp8_quant` inside
// `vllm::moe_forward`); graph replays, which carry no ops, have only the stream order and the
// quantization kernel's template (`scaled_fp8_quant_kernel<c10::BFloat16, c10::Float8_e4m3fn>`).

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "roofline/topn/capture_join.hpp"
#include "roofline/topn/chrome_events.hpp"
#include "roofline/topn/event_lookup.hpp"
#include "roofline/topn/layer.hpp"

namespace roofline::topn::detail {

// The output format a quantization kernel's name spells: a template type (`c10::Float8_e4m3fn`,
// `__nv_fp8_e4m3`, `float_e2m1_t`), else a word of its own identifier
// (`_per_token_group_quant_fp8`, `cvt_fp16_to_fp4`: `fp8`, `fp4`, `int8`). "" when it names none or
// more than one format, or when it dequantizes.
std::string quant_output_dtype(std::string_view kernel_name);

// Per kernel name id (ev.names), the quantizations its launches' inputs went through.
std::vector<InputQuantSums> input_quant_by_name(const ChromeEvents& ev, const EventLookup& lookup,
                                                const ReplayJoin& join);

// One dispatch of a kernel trace without ops (rocprofv3): its queue (agent and queue, or stream),
// its start, and its kernel's index in the caller's name list.
struct QueuedDispatch {
  std::int64_t queue = 0;
  double start = 0.0;
  std::uint32_t name = 0;
};
// The same sweep by stream order alone: per index of `names`, the quantizations its dispatches'
// inputs went through. Sorts `dispatches`.
std::vector<InputQuantSums> input_quant_of_dispatches(std::vector<QueuedDispatch>& dispatches,
                                                      const std::vector<std::string>& names);

// A kernel trace's dispatches as they are read (rocprofv3 CSV or JSON), then swept once and the
// result given to the trace's kernels by name.
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
