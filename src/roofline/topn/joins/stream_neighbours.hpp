#pragma once
// Private to src/topn: the kernels launched just before and just after each signature on its
// stream (docs/method.md §22.4, the order of a step). A layer runs the same kernels in the same
// order every layer and every step, so what stands beside a launch says where in the layer it
// ran — a GEMM after a norm reads the normalized hidden state, one after attention is its output
// projection, one after an activation is the MLP's down projection — and a neighbour that covers
// the same rows (a norm launching one block per token) counts them. Quantization kernels and
// collectives are looked through: they carry the tensor on, they do not mark a place.

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "roofline/topn/layer.hpp"
#include "roofline/topn/profile/trace_profile.hpp"
#include "roofline/topn/readers/chrome_events.hpp"

namespace roofline::topn::detail {

// One signature's neighbours (by its grid and block, and its module where the module keys it; a
// launch without geometry has none).
struct GeometryNeighbours {
  NeighbourCounts before, after;
};
// (grid, block, module: "" where the module is no key of the launch's signature)
using NeighbourPlace =
    std::tuple<std::vector<std::int64_t>, std::vector<std::int64_t>, std::string>;
// Per kernel name id (ev.names): its signatures' places -> their neighbours.
using NeighboursByGeometry = std::map<NeighbourPlace, GeometryNeighbours>;

// One sweep over each device's streams in time order. `modules` (per GPU event, labels ids,
// k_no_id none) is the module that keys each launch's signature (docs/method.md §22.10: two
// projections of one kernel at one grid, told apart by their modules, each have their own
// neighbours); empty: none does.
std::vector<NeighboursByGeometry> stream_neighbours(const ChromeEvents& ev,
                                                    const std::vector<std::uint32_t>& modules = {});

// Whether a kernel marks no place of its own in a layer: a quantization (its name spells a
// quantized output) or a collective.
bool passes_through(const std::string& kernel_name);

}  // namespace roofline::topn::detail
