// Launch geometry (docs/method.md §22.4): a GEMM kernel's tile from its name, and a projection's
// output held against its grid.
#include "roofline/analyze/evidence/launch_geometry.hpp"

#include <algorithm>
#include <cmath>
#include <regex>

#include <fmt/format.h>

#include "roofline/base/units.hpp"

namespace roofline::analyze {
namespace {

// The first triple `re` matches whose every extent is a tile's (at least 8): a CUTLASS 3 name
// writes its cluster shape (`C<1>, C<2>, C<1>`) in the same form, before the tile.
std::optional<GemmTile> match(const std::string& text, const std::regex& re, const char* form) {
  for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator();
       ++it) {
    const std::smatch& m = *it;
    GemmTile t;
    t.m = std::stod(m[1].str().substr(0, 9));
    t.n = std::stod(m[2].str().substr(0, 9));
    t.k = std::stod(m[3].str().substr(0, 9));
    if (!(t.m >= 8 && t.n >= 8 && t.k >= 8)) continue;
    t.spelled = fmt::format("{}×{}×{} ({})", format_g(t.m), format_g(t.n), format_g(t.k), form);
    return t;
  }
  return std::nullopt;
}

}  // namespace

std::optional<GemmTile> gemm_tile(std::string_view kernel_name) {
  const std::string name(kernel_name.substr(0, 4096));
  static const std::regex cute3(R"(C<(\d+)>\s*,\s*(?:cute::)?C<(\d+)>\s*,\s*(?:cute::)?C<(\d+)>)");
  static const std::regex shape3(
      R"(Shape<\s*(?:cute::)?_(\d+)\s*,\s*(?:cute::)?_(\d+)\s*,\s*(?:cute::)?_(\d+)\s*>)");
  static const std::regex gemm_shape(R"(GemmShape<\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*>)");
  static const std::regex mangled(R"(GemmShapeILi(\d+)ELi(\d+)ELi(\d+)E)");
  static const std::regex cublas(R"(gemm[a-z0-9_]*?_(\d+)x(\d+)_(\d+)x\d+_)");
  for (const auto& [re, form] :
       {std::pair{&cute3, "CUTLASS 3 tile shape"}, std::pair{&shape3, "CUTLASS 3 tile shape"},
        std::pair{&gemm_shape, "CUTLASS threadblock shape"},
        std::pair{&mangled, "CUTLASS threadblock shape"},
        std::pair{&cublas, "cuBLAS CUTLASS kernel tile"}})
    if (auto t = match(name, *re, form)) return t;
  return std::nullopt;
}

std::optional<bool> grid_fits(const GemmTile& tile, const std::vector<std::int64_t>& grid, double n,
                              double rows, std::optional<double> sm_count, std::string& why) {
  if (grid.size() < 2 || grid[0] < 1 || grid[1] < 1 || !(n > 0)) return std::nullopt;
  const double x = static_cast<double>(grid[0]), y = static_cast<double>(grid[1]);
  const double z = grid.size() > 2 && grid[2] > 0 ? static_cast<double>(grid[2]) : 1.0;
  const double blocks = x * y;
  if (sm_count && *sm_count > 0 && std::fmod(blocks * z, *sm_count) == 0.0) {
    why = fmt::format("grid {}×{}×{}: {} blocks, a multiple of the {} SMs: persistent, no extent",
                      format_g(x), format_g(y), format_g(z), format_g(blocks * z),
                      format_g(*sm_count));
    return std::nullopt;
  }
  const double m = rows > 0 ? rows : 1.0;
  // A swizzle pads at most one row or column of the x·y layout; a one-row grid is exact.
  const double padding = x > 1 && y > 1 ? std::min(x, y) : 1.0;
  double wanted[2] = {0, 0};
  for (int o = 0; o < 2; ++o) {
    const double tm = o == 0 ? tile.m : tile.n, tn = o == 0 ? tile.n : tile.m;
    wanted[o] = std::ceil(m / tm) * std::ceil(n / tn);
    if (blocks >= wanted[o] && blocks < wanted[o] + padding) {
      why = fmt::format(
          "grid {}×{} = {} blocks = ceil(M {} / {})·ceil(N {} / {}) tiles of the {} tile",
          format_g(x), format_g(y), format_g(blocks), format_g(m), format_g(tm), format_g(n),
          format_g(tn), tile.spelled);
      return true;
    }
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
  std::string probe;
  if (!grid_fits(tile, grid, n, 1.0, sm_count, probe).has_value()) {
    why = probe;
    return std::nullopt;
  }
  const double x = static_cast<double>(grid[0]), y = static_cast<double>(grid[1]);
  const double blocks = x * y;
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
