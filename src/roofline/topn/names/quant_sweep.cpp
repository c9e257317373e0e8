// What a name says about quantization (quant_sweep.hpp, docs/method.md §23.5).
#include "roofline/topn/names/quant_sweep.hpp"

#include <cctype>

#include "roofline/inputs/kernel_classes.hpp"
#include "roofline/inputs/pattern.hpp"
#include "roofline/topn/names/names.hpp"

namespace roofline::topn::detail {
namespace {

// The format one lower-case identifier word names: fp8, fp4, int8, or "".
std::string_view word_format(std::string_view w) {
  const auto starts = [&](std::string_view p) { return w.substr(0, p.size()) == p; };
  if (starts("ue4m3") || starts("ue8m0")) return {};  // block-scale types, not the values
  if (starts("e4m3") || starts("e5m2") || w == "fp8" || w == "float8" || w == "mxfp8" || w == "f8")
    return "fp8";
  if (starts("e2m1") || w == "fp4" || w == "nvfp4" || w == "mxfp4" || w == "float4") return "fp4";
  if (w == "int8" || w == "i8" || w == "s8") return "int8";
  return {};
}

}  // namespace

QuantRole quant_role(const Classification& c) {
  switch (c.op_class) {
    case OpClass::gemm:
    case OpClass::moe:
    case OpClass::linear_attn:
    case OpClass::ssm:
      return QuantRole::matrix;
    case OpClass::attn:  // the split-KV combine reads partial outputs, not a quantized input
      return c.detail.attn == AttnVariant::decode_reduce ? QuantRole::other : QuantRole::matrix;
    case OpClass::elementwise:
      return c.detail.elementwise == ElementwiseKind::quant ? QuantRole::quant : QuantRole::other;
    default:
      return QuantRole::other;
  }
}

ClassRules shipped_class_rules() {
  ClassRules r;
  r.families = builtin_kernel_classes_rules();
  return r;
}

QuantRole quant_role_of(std::string_view kernel_name, std::string_view op,
                        const ClassRules& rules) {
  TopnEntry e;
  fill_entry_names(kernel_name, GpuEventKind::kernel, e);
  e.op = std::string(op);
  return quant_role(classify::classify(e, rules));
}

std::optional<QuantWrite> quantization_by_name(std::string_view kernel_name) {
  TopnEntry e;
  fill_entry_names(kernel_name, GpuEventKind::kernel, e);
  QuantWrite w;
  w.dtype = quant_output_dtype(e.demangled.empty() ? e.name : e.demangled);
  // A mangled name only its prefix was read from keeps its template types in the raw spelling.
  if (w.dtype.empty() && !e.demangled.empty() && e.demangled.find('<') == std::string::npos)
    w.dtype = quant_output_dtype(e.name);
  w.by = e.short_name;
  if (w.dtype.empty()) return std::nullopt;
  return w;
}

std::string quant_output_dtype(std::string_view name) {
  if (icontains(name, "dequant")) return {};
  std::string_view found;
  std::string word;
  const auto close = [&]() -> bool {
    const std::string_view f = word_format(word);
    word.clear();
    if (f.empty() || f == found) return true;
    if (!found.empty()) return false;  // two formats: the name does not say which it writes
    found = f;
    return true;
  };
  for (char c : name) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else if (!close()) {
      return {};
    }
  }
  if (!close()) return {};
  // ck_tile's and aiter's fp8_t is `_BitInt(8)` (mangled `DB8_`), bf8_t `unsigned _BitInt(8)`
  // (`DU8_`): a quantization's 8-bit template type is what it writes.
  const bool bitint8 = name.find("DB8_") != std::string_view::npos ||
                       name.find("DU8_") != std::string_view::npos ||
                       name.find("_BitInt(8)") != std::string_view::npos;
  if (bitint8 && (found.empty() || found == "fp8")) return "fp8";
  return std::string(found);
}

}  // namespace roofline::topn::detail
