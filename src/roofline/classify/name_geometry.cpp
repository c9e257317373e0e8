// What a kernel's name says of its launch geometry (docs/method.md §22.4): GEMM tiles and the rows
// a block covers, by each library's grammar.
#include "roofline/classify/name_geometry.hpp"

#include <array>
#include <regex>
#include <vector>

#include <fmt/format.h>

#include "roofline/base/units.hpp"

namespace roofline::classify {
namespace {

double number(const std::string& digits) {
  return std::stod(digits.substr(0, 9));
}

// A tile extent: a workgroup's share of one GEMM dimension is at least 8 (a CUTLASS 3 name writes
// its cluster shape, `C<1>, C<2>, C<1>`, in the same form before the tile).
bool plausible(const NameTile& t) {
  return t.m >= 8 && t.n >= 8 && t.k >= 8;
}

// The first triple `re` matches that is a tile.
std::optional<NameTile> triple(const std::string& text, const std::regex& re, const char* form) {
  for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator();
       ++it) {
    const std::smatch& m = *it;
    NameTile t{number(m[1].str()), number(m[2].str()), number(m[3].str()), form};
    if (plausible(t)) return t;
  }
  return std::nullopt;
}

// CK's XDL GEMM kernels state their gridwise GEMM's parameters after the GemmSpecialization:
// BlockSize, then (for the A/B block-scaled gridwise GEMMs) ScaleBlockM, ScaleBlockN, ScaleBlockK,
// then MPerBlock, NPerBlock, KPerBlock.
std::optional<NameTile> ck_xdl(const std::string& name) {
  if (name.find("GridwiseGemm") == std::string::npos) return std::nullopt;
  static const std::regex mangled(R"(GemmSpecializationE\d+E((?:Li\d+E){4,}))");
  static const std::regex demangled(R"(GemmSpecialization\)\s*\d+\s*,\s*((?:\d+\s*,\s*){4,}))");
  static const std::regex one(R"(\d+)");
  std::smatch m;
  if (!std::regex_search(name, m, mangled) && !std::regex_search(name, m, demangled))
    return std::nullopt;
  std::vector<double> v;
  const std::string list = m[1].str();
  for (auto it = std::sregex_iterator(list.begin(), list.end(), one); it != std::sregex_iterator();
       ++it)
    v.push_back(number(it->str()));
  const bool scaled = name.find("ABScale") != std::string::npos;
  const std::size_t at = scaled ? 4 : 1;  // past BlockSize (and the three scale blocks)
  if (v.size() < at + 3) return std::nullopt;
  NameTile t{v[at], v[at + 1], v[at + 2],
             scaled ? "CK gridwise GEMM MPerBlock×NPerBlock×KPerBlock, after BlockSize and the "
                      "A/B scale blocks"
                    : "CK gridwise GEMM MPerBlock×NPerBlock×KPerBlock, after BlockSize"};
  return plausible(t) ? std::optional(t) : std::nullopt;
}

}  // namespace

std::string NameTile::spelled() const {
  return fmt::format("{}×{}×{} ({})", format_g(m), format_g(n), format_g(k), form);
}

std::optional<NameTile> name_tile(std::string_view kernel_name) {
  const std::string name(kernel_name.substr(0, 8192));
  if (auto t = ck_xdl(name)) return t;
  struct Form {
    std::regex re;
    const char* form;
  };
  static const std::array<Form, 10> k_forms{{
      {std::regex(R"(C<(\d+)>\s*,\s*(?:cute::)?C<(\d+)>\s*,\s*(?:cute::)?C<(\d+)>)"),
       "CUTLASS 3 tile shape"},
      {std::regex(
           R"(Shape<\s*(?:cute::)?_(\d+)\s*,\s*(?:cute::)?_(\d+)\s*,\s*(?:cute::)?_(\d+)\s*>)"),
       "CUTLASS 3 tile shape"},
      {std::regex(R"(GemmShape<\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*>)"),
       "CUTLASS threadblock shape"},
      {std::regex(R"(GemmShapeILi(\d+)ELi(\d+)ELi(\d+)E)"), "CUTLASS threadblock shape"},
      {std::regex(
           R"(TileGemmShape<\s*(?:ck_tile::)?sequence<\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*>)"),
       "CK tile TileGemmShape"},
      {std::regex(R"(TileGemmShapeIN\w*?sequenceIJLi(\d+)ELi(\d+)ELi(\d+)E)"),
       "CK tile TileGemmShape"},
      {std::regex(R"(_MT(\d+)x(\d+)x(\d+)_)"), "Tensile macro tile MT0×MT1×DepthU"},
      {std::regex(R"(nvjet_(?:sm\d+_)?[a-z]+_(\d+)x(\d+)_(\d+)x\d+_)"), "cuBLASLt nvjet tile"},
      {std::regex(R"(tilesize(\d+)x(\d+)x(\d+))"), "cuBLAS kernel tile size"},
      {std::regex(R"(gemm[a-z0-9_]*?_(\d+)x(\d+)_(?:ldg\d+_[a-z0-9_]*?stages_)?(\d+)x\d+_)"),
       "cuBLAS CUTLASS kernel tile"},
  }};
  for (const Form& f : k_forms)
    if (auto t = triple(name, f.re, f.form)) return t;
  return std::nullopt;
}

std::optional<double> rows_per_block(std::string_view kernel_name, std::string& why) {
  const std::string name(kernel_name.substr(0, 8192));
  static const std::regex ck2d_mangled(R"(Generic2dBlockShapeIN\w*?sequenceIJLi(\d+)ELi(\d+)E)");
  static const std::regex ck2d(
      R"(Generic2dBlockShape<\s*(?:ck_tile::)?sequence<\s*(\d+)\s*,\s*(\d+)\s*>)");
  std::smatch m;
  if (std::regex_search(name, m, ck2d_mangled) || std::regex_search(name, m, ck2d)) {
    const double rows = number(m[1].str());
    if (!(rows >= 1)) return std::nullopt;
    why = fmt::format(
        "a CK tile 2-D kernel whose block tile is {}×{} (Generic2dBlockShape): {} row{} a block",
        m[1].str(), m[2].str(), m[1].str(), rows == 1 ? "" : "s");
    return rows;
  }
  if (name.find("act_and_mul_kernel") != std::string::npos) {
    why = "an activation-and-multiply kernel (act_and_mul_kernel): one block a row";
    return 1.0;
  }
  return std::nullopt;
}

}  // namespace roofline::classify
