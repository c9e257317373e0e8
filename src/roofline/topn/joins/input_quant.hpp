#pragma once
// Private to src/topn: the quantization each matrix kernel's input went through (docs/method.md
// §23.5). A matrix kernel (GEMM, expert GEMM, attention, linear attention or state-space) whose
// op passes no weights can still show its operand format by what ran just before it: the nearest
// quantization kernel before it on the same device and stream, with no other matrix kernel
// between (the quantized tensor's first reader). Eager launches say whether that quantization ran
// inside the kernel's own launching op (`_C::dynamic_scaled_fp8_quant` inside
// `vllm::moe_forward`); graph replays, which carry no ops, have only the stream order and the
// quantization kernel's template (`scaled_fp8_quant_kernel<c10::BFloat16, c10::Float8_e4m3fn>`).

#include <vector>

#include "roofline/topn/joins/capture_join.hpp"
#include "roofline/topn/joins/event_lookup.hpp"
#include "roofline/topn/layer.hpp"
#include "roofline/topn/names/quant_sweep.hpp"
#include "roofline/topn/readers/chrome_events.hpp"

namespace roofline::topn::detail {

// Per kernel name id (ev.names), the quantizations its launches' inputs went through.
std::vector<InputQuantSums> input_quant_by_name(const ChromeEvents& ev, const EventLookup& lookup,
                                                const ReplayJoin& join);

}  // namespace roofline::topn::detail
