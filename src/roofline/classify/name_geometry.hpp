#pragma once
// What a kernel's name says of its launch geometry (docs/method.md §22.4), by the grammar of the
// library that made it: a GEMM's output tile (its grid is the tiles of its output), and the rows
// one block of a row-per-block family covers (its grid is the rows).

#include <optional>
#include <string>
#include <string_view>

#include "roofline/classify/layer.hpp"

namespace roofline::classify {

// A GEMM kernel's tile: the output block one workgroup computes (m × n) and its K step. Which of
// m and n lies along the GEMM's rows is not always spelled (Tensile tiles its C's first index,
// which for a PyTorch linear is the weight's rows): the grid is held against both orientations.
struct NameTile {
  double m = 0, n = 0, k = 0;
  std::string form;  // the grammar read: "CUTLASS 3 tile shape", "CK MPerBlock×NPerBlock×KPerBlock"
  std::string spelled() const;  // "128×128×64 (CUTLASS 3 tile shape)"
};

// The tile of a GEMM kernel's name, in the grammar of its library: CUTLASS 3 (`Shape<_128,_128,
// _64>`, `cute::C<128>` triples; mangled `CILi128E`), CUTLASS 2 (`GemmShape<128, 128, 64>`, mangled
// `GemmShapeILi128ELi128ELi64EE`), cuBLAS's own kernels (`…gemm…_128x64_64x3_…`,
// `…_tilesize128x128x64_…`, `…_128x64_ldg8_…_stages_64x3_…`), cuBLASLt's nvjet
// (`nvjet_…_128x256_64x4_…`), CK (`kernel_gemm_xdl_cshuffle_v3<GridwiseGemm…<…, GemmSpecialization,
// BlockSize, [ScaleBlockM, ScaleBlockN, ScaleBlockK,] MPerBlock, NPerBlock, KPerBlock, …>>`,
// mangled or demangled), CK tile
// (`TileGemmShape<sequence<M, N, K>…>`) and Tensile / hipBLASLt (`Cijk_…_MT128x128x64_…`: MT0 ×
// MT1 × DepthU). nullopt when the name states none.
std::optional<NameTile> name_tile(std::string_view name);

// The rows one block covers in a family that launches its blocks along the rows of a [rows, width]
// operand, read from the name: CK tile's 2-D kernels (norms: `Rmsnorm2dFwd<…Generic2dBlockShape<
// sequence<M, N>…>>`: M rows a block), SGLang's `act_and_mul_kernel` (one block a row), and the
// families the kernel-family table marks `+rows` (one block a row). nullopt when the name says
// nothing of its rows; `why` names the grammar.
std::optional<double> rows_per_block(std::string_view name, std::string& why);

}  // namespace roofline::classify
