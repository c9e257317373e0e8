// Launch geometry (docs/method.md §22.4): a GEMM kernel's tile from its name, and a projection's
// output held against its grid.
#include "roofline/analyze/evidence/launch_geometry.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "roofline/base/units.hpp"
#include "roofline/classify/name_geometry.hpp"

namespace roofline::analyze {

std::optional<GemmTile> gemm_tile(std::string_view kernel_name) {
  const std::optional<NameTile> t = name_tile(kernel_name);
  if (!t) return std::nullopt;
  return GemmTile{t->m, t->n, t->k, t->spelled()};
}

std::optional<bool> grid_fits(const GemmTile& tile, const std::vector<std::int64_t>& grid, double n,
                              double rows, std::optional<double> sm_count, std::string& why) {
  if (grid.size() < 2 || grid[0] < 1 || grid[1] < 1 || !(n > 0)) return std::nullopt;
  const double x = static_cast<double>(grid[0]), y = static_cast<double>(grid[1]);
  const double z = grid.size() > 2 && grid[2] > 0 ? static_cast<double>(grid[2]) : 1.0;
  const double blocks = x * y;
  // A grid of a multiple of the SMs may be persistent (docs/method.md §22.4): it says nothing of a
  // projection whose tiles it is not, and is that projection's tile count where it is one.
  const bool persistent = sm_count && *sm_count > 0 && std::fmod(blocks * z, *sm_count) == 0.0;
  const double m = rows > 0 ? rows : 1.0;
  // A swizzle pads at most one row or column of the x·y layout; a one-row grid is exact.
  const double padding = x > 1 && y > 1 ? std::min(x, y) : 1.0;
  double wanted[2] = {0, 0};
  for (int o = 0; o < 2; ++o) {
    const double tm = o == 0 ? tile.m : tile.n, tn = o == 0 ? tile.n : tile.m;
    wanted[o] = std::ceil(m / tm) * std::ceil(n / tn);
    if (blocks >= wanted[o] && blocks < wanted[o] + padding) {
      why = fmt::format(
          "grid {}×{} = {} blocks = ceil(M {} / {})·ceil(N {} / {}) tiles of the {} tile{}",
          format_g(x), format_g(y), format_g(blocks), format_g(m), format_g(tm), format_g(n),
          format_g(tn), tile.spelled,
          persistent ? fmt::format(" (also a multiple of the {} SMs: the tiles, not a persistent "
                                   "grid)",
                                   format_g(*sm_count))
                     : "");
      return true;
    }
  }
  if (persistent) {
    why = fmt::format(
        "grid {}×{}×{}: {} blocks, a multiple of the {} SMs and not the tiles of N {} at M {}: "
        "persistent, no extent",
        format_g(x), format_g(y), format_g(z), format_g(blocks * z), format_g(*sm_count),
        format_g(n), format_g(m));
    return std::nullopt;
  }
  why = fmt::format(
      "grid {}×{} = {} blocks, where N {} at M {} needs {} (or, A and B swapped, {}) "
      "tiles of the {} tile",
      format_g(x), format_g(y), format_g(blocks), format_g(n), format_g(m), format_g(wanted[0]),
      format_g(wanted[1]), tile.spelled);
  return false;
}

std::optional<RowRange> grid_rows(const GemmTile& tile, const std::vector<std::int64_t>& grid,
                                  double n, std::optional<double> sm_count, std::string& why) {
  if (!(tile.m > 0) || !(tile.n > 0)) return std::nullopt;
  if (grid.size() < 2 || grid[0] < 1 || grid[1] < 1 || !(n > 0)) return std::nullopt;
  const double x = static_cast<double>(grid[0]), y = static_cast<double>(grid[1]);
  const double z = grid.size() > 2 && grid[2] > 0 ? static_cast<double>(grid[2]) : 1.0;
  const double blocks = x * y;
  if (sm_count && *sm_count > 0 && std::fmod(blocks * z, *sm_count) == 0.0) {
    why = fmt::format(
        "grid {}×{}×{}: {} blocks, a multiple of the {} SMs: it may be persistent, so it bounds "
        "no rows",
        format_g(x), format_g(y), format_g(z), format_g(blocks * z), format_g(*sm_count));
    return std::nullopt;
  }
  const double padding = x > 1 && y > 1 ? std::min(x, y) : 1.0;
  std::optional<RowRange> out;
  std::string tiles;
  for (int o = 0; o < 2; ++o) {
    const double tm = o == 0 ? tile.m : tile.n, tn = o == 0 ? tile.n : tile.m;
    const double across = std::ceil(n / tn);
    // g row tiles fit when blocks ∈ [g·across, g·across + padding).
    const double g_lo = std::max(1.0, std::floor((blocks - padding) / across) + 1.0);
    const double g_hi = std::floor(blocks / across);
    if (g_lo > g_hi) continue;
    const RowRange r{(g_lo - 1.0) * tm + 1.0, g_hi * tm};
    tiles += fmt::format("{}{} to {} row tiles of {} over ceil(N {} / {}) = {}",
                         tiles.empty() ? "" : "; A and B swapped, ", format_g(g_lo), format_g(g_hi),
                         format_g(tm), format_g(n), format_g(tn), format_g(across));
    out = out ? RowRange{std::min(out->lo, r.lo), std::max(out->hi, r.hi)} : r;
  }
  if (!out) {
    why = fmt::format("grid {}×{} = {} blocks: no M gives N {} that many tiles of the {} tile",
                      format_g(x), format_g(y), format_g(blocks), format_g(n), tile.spelled);
    return std::nullopt;
  }
  why = fmt::format("grid {}×{} = {} blocks of the {} tile: {}, so M is {} to {}", format_g(x),
                    format_g(y), format_g(blocks), tile.spelled, tiles, format_g(out->lo),
                    format_g(out->hi));
  return out;
}

}  // namespace roofline::analyze
