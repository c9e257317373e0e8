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
#include <vector>

#include "roofline/topn/chrome_events.hpp"
#include "roofline/topn/layer.hpp"
#include "roofline/topn/topn.hpp"

namespace roofline::topn::detail {

// One signature's neighbours (by its grid and block; a launch without geometry has none).
struct GeometryNeighbours {
  NeighbourCounts before, after;
};
// Per kernel name id (ev.names): (grid, block) -> its neighbours.
using NeighboursByGeometry =
    std::map<std::pair<std::vector<std::int64_t>, std::vector<std::int64_t>>, GeometryNeighbours>;

// One sweep over each device's streams in time order.
std::vector<NeighboursByGeometry> stream_neighbours(const ChromeEvents& ev);

// Whether a kernel marks no place of its own in a layer: a quantization (its name spells a
// quantized output) or a collective.
bool passes_through(const std::string& kernel_name);

}  // namespace roofline::topn::detail
