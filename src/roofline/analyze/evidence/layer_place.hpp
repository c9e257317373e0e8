#pragma once
// The order of a step (docs/method.md §22.4): where in a layer a shapeless GEMM ran, read from the
// kernels beside it on its stream, and the rows a neighbour covers. Every layer runs its kernels
// in the same order, so a GEMM right after a norm reads the normalized hidden state (an input
// projection: qkv, gate_up, the router, a mixer's in_proj — or, after a gated norm, a mixer's
// out_proj), one right after attention is its output projection, one right after an activation-
// and-multiply is the MLP's down projection; one right before an activation-and-multiply is the
// gate_up that feeds it, one right before a residual add + norm writes into the residual stream.

#include <optional>
#include <set>
#include <string>

#include "roofline/analyze/entry/projection.hpp"
#include "roofline/analyze/layer.hpp"
#include "roofline/inputs/probes.hpp"

namespace roofline::analyze {

// The projections a kernel's place allows; `why` names the neighbours that said so.
struct LayerPlace {
  std::set<ProjectionKind> allowed;
  std::string why;
};
// nullopt when neither neighbour marks a place (another GEMM, an elementwise kernel of no known
// role, a MoE kernel, none recorded).
std::optional<LayerPlace> layer_place(const CaseNeighbour* before, const CaseNeighbour* after);

// The rows a neighbour covers that are the GEMM's own: a norm before it (its output is the GEMM's
// input) or an activation-and-multiply after it (its input is the GEMM's output), each launching
// its blocks along the rows — one row a block, exact; r rows a block (CK tile's 4-row norms), the
// range [grid·r − r + 1, grid·r]. `why` says which.
struct NeighbourRows {
  double lo = 0, hi = 0;
};
std::optional<NeighbourRows> neighbour_rows(const CaseNeighbour* before, const CaseNeighbour* after,
                                            std::string& why);

}  // namespace roofline::analyze
