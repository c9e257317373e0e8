#pragma once
// Launch geometry (docs/method.md §22.4): the output tile a GEMM kernel's name states, and whether
// a projection's output fits the grid it launched with. A grid covers the output in tiles —
// ceil(M / tile_m) · ceil(N / tile_n) blocks, laid out over x and y in whatever order and
// swizzle the library chose (the z axis splits K or runs a batch) — so the block count, not one
// axis, is what the grid says; a persistent kernel launches the SM count and says nothing.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "roofline/analyze/layer.hpp"

namespace roofline::analyze {

// The threadblock (workgroup) tile a kernel name states, in its library's grammar
// (classify/name_geometry.hpp: CUTLASS 2 and 3, cuBLAS, nvjet, CK, CK tile, Tensile).
struct GemmTile {
  double m = 0, n = 0, k = 0;
  std::string spelled;  // as the name writes it, for notes
};
std::optional<GemmTile> gemm_tile(std::string_view kernel_name);

// Whether a projection of `n` columns at `rows` rows fits `grid` over `tile`: the grid's x·y
// blocks are the output's tiles (either orientation of the tile: a library may swap A and B),
// up to one row or column of padding a swizzle adds. nullopt when the grid says nothing of it (no
// tile, no grid, or a grid of a multiple of `sm_count` blocks that is not its tiles: persistent);
// else whether it fits, with the arithmetic in `why`. A grid that is some candidate's tile count
// is no persistent grid (the caller then reads the others' nullopt as no fit).
std::optional<bool> grid_fits(const GemmTile& tile, const std::vector<std::int64_t>& grid, double n,
                              double rows, std::optional<double> sm_count, std::string& why);

// The inverse of grid_fits (docs/method.md §22.4, rows from the grid): the rows M for which a
// projection of `n` columns fits `grid` over `tile` — either orientation, the same padding — as
// the hull [lo, hi] of every M that fits. nullopt when the grid says nothing (as grid_fits) or no
// M fits; `why` gets the arithmetic.
struct RowRange {
  double lo = 0, hi = 0;
};
std::optional<RowRange> grid_rows(const GemmTile& tile, const std::vector<std::int64_t>& grid,
                                  double n, std::optional<double> sm_count, std::string& why);

}  // namespace roofline::analyze
