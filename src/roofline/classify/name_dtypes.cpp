// docs/method.md §7.5: the operand dtypes that cuBLASLt nvjet and TRT-LLM bmm kernel names spell.
#include "roofline/classify/name_dtypes.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <vector>

#include <fmt/format.h>

#include "roofline/classify/layer.hpp"
#include "roofline/inputs/pattern.hpp"

namespace roofline::classify::detail {
namespace {

bool is_lower(char c) {
  return c >= 'a' && c <= 'z';
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

// Positions where `word` starts a token of `text` (exact case: the families spell it so).
template <class F>
void each_token_start(std::string_view text, std::string_view word, F f) {
  for (std::size_t at = text.find(word); at != std::string_view::npos; at = text.find(word, at + 1))
    if (token_boundary(text, at)) f(at + word.size());
}

// nvjet_[smNN_]<type letters>_…: the letters, or "" when the name has no such field.
std::string_view nvjet_letters(std::string_view text) {
  std::string_view out;
  each_token_start(text, "nvjet_", [&](std::size_t at) {
    if (!out.empty()) return;
    if (text.substr(at, 2) == "sm") {
      std::size_t j = at + 2;
      while (j < text.size() && is_digit(text[j])) ++j;
      if (j > at + 2 && j < text.size() && text[j] == '_') at = j + 1;
    }
    std::size_t end = at;
    while (end < text.size() && is_lower(text[end])) ++end;
    if (end < text.size() && text[end] == '_') out = text.substr(at, end - at);
  });
  return out;
}

struct TrtType {
  std::string_view spelling, meaning;
};
// The longer spellings first: MxE4m3 before E4m3.
constexpr std::array<TrtType, 9> k_trt_types{{{"MxE4m3", "mxfp8"},
                                              {"MxE2m1", "mxfp4"},
                                              {"MxInt4", "int4, mx scales"},
                                              {"Bfloat16", "bf16"},
                                              {"E4m3", "fp8 e4m3"},
                                              {"E5m2", "fp8 e5m2"},
                                              {"E2m1", "nvfp4"},
                                              {"Fp16", "fp16"},
                                              {"Fp32", "fp32"}}};

const TrtType* trt_type_at(std::string_view field, std::size_t at) {
  for (const TrtType& t : k_trt_types)
    if (field.substr(at, t.spelling.size()) == t.spelling) return &t;
  return nullptr;
}

// bmm_<output>_<A><B>_…: the note on the types, or "" when the fields are not TRT-LLM types.
std::string bmm_types(std::string_view text) {
  std::string out;
  each_token_start(text, "bmm_", [&](std::size_t at) {
    if (!out.empty()) return;
    const std::size_t mid = text.find('_', at);
    if (mid == std::string_view::npos) return;
    const std::string_view output = text.substr(at, mid - at);
    const std::size_t end = std::min(text.find('_', mid + 1), text.size());
    const std::string_view operands = text.substr(mid + 1, end - mid - 1);
    const TrtType* o = trt_type_at(output, 0);
    if (!o || o->spelling.size() != output.size()) return;
    const TrtType* a = trt_type_at(operands, 0);
    const TrtType* b = a ? trt_type_at(operands, a->spelling.size()) : nullptr;
    if (!b || a->spelling.size() + b->spelling.size() != operands.size()) return;
    out = fmt::format("name types (TRT-LLM bmm): output {} ({}), operands {} ({}) and {} ({})",
                      o->spelling, o->meaning, a->spelling, a->meaning, b->spelling, b->meaning);
    if (a->spelling == "MxE2m1" || b->spelling == "MxE2m1")
      out += "; MxE2m1 = mxfp4 expert weights";
  });
  return out;
}

// How many times a name spells an fp8 value type: `e4m3` not preceded by `u` (`ue4m3` is nvfp4's
// scale type), and `e5m2`.
int fp8_values(std::string_view text) {
  int n = 0;
  for (std::size_t at = text.find("e4m3"); at != std::string_view::npos;
       at = text.find("e4m3", at + 1))
    n += at == 0 || (text[at - 1] != 'u' && text[at - 1] != 'U') ? 1 : 0;
  for (std::size_t at = text.find("e5m2"); at != std::string_view::npos;
       at = text.find("e5m2", at + 1))
    ++n;
  return n;
}

int count_of(std::string_view text, std::string_view word) {
  int n = 0;
  for (std::size_t at = text.find(word); at != std::string_view::npos; at = text.find(word, at + 1))
    ++n;
  return n;
}

// The one 16-bit float element type a name spells (`cutlass::bfloat16_t`, `__nv_bfloat16`,
// `c10::BFloat16`, a `bf16` word; `half_t`, `__half`, `c10::Half`, `fp16`, `f16`): "bf16" or
// "fp16"; "" when it spells neither or both.
std::string sixteen_bit_type(std::string_view text) {
  bool bf16 = false, fp16 = false;
  std::string word;
  const auto close = [&] {
    // A mangled name's length prefixes run into the identifier (`10bfloat16_t`).
    word.erase(0, std::min(word.find_first_not_of("0123456789"), word.size()));
    if (word == "bfloat16" || word == "bf16") bf16 = true;
    if (word == "half" || word == "fp16" || word == "f16") fp16 = true;
    word.clear();
  };
  for (char ch : text) {
    if (std::isalnum(static_cast<unsigned char>(ch)))
      word += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    else
      close();
  }
  close();
  return bf16 == fp16 ? "" : bf16 ? "bf16" : "fp16";
}

// A GEMM kernel's template element types (docs/method.md §7.5): the weight operand's, and the
// activation's where the name spells it too — a type named twice is both operands' (A and B), fp4
// with fp8 is fp4 weights and fp8 activations, a type named once is the weights' alone.
void template_dtypes(std::string_view text, Classification& c) {
  const int fp4 = count_of(text, "e2m1"), fp8 = fp8_values(text);
  if (fp4 == 0 && fp8 == 0) {
    c.template_16bit = sixteen_bit_type(text);
    return;
  }
  c.operand_dtype = fp4 > 0 ? "fp4" : "fp8";
  c.activation_dtype = fp4 >= 2               ? "fp4"
                       : fp4 == 1 && fp8 > 0  ? "fp8"
                       : fp4 == 0 && fp8 >= 2 ? "fp8"
                                              : "";
  // CUTLASS's block-scaled element wrappers name their scale too: nv_float4_t<float_e2m1_t> is
  // NVFP4 (one ue4m3 per 16 values), mx_float4_t / mx_float8_t are MX (one ue8m0 per 32).
  if (fp4 > 0 && (text.find("ue4m3") != std::string_view::npos ||
                  text.find("nv_float4_t") != std::string_view::npos))
    c.weight_scale_bytes = 1.0 / 16.0;
  else if (fp4 > 0 && (text.find("ue8m0") != std::string_view::npos ||
                       text.find("mx_float4_t") != std::string_view::npos))
    c.weight_scale_bytes = 1.0 / 32.0;
  // fp4 activations are block-scaled alike (both operands of the block-scaled MMA).
  if (c.activation_dtype == "fp4") c.activation_scale_bytes = c.weight_scale_bytes;
  c.notes.push_back(fmt::format(
      "name types (kernel template): {} weights, {}{}", c.operand_dtype,
      c.activation_dtype.empty() ? "activations unsaid" : c.activation_dtype + " activations",
      c.weight_scale_bytes > 0 ? fmt::format(", one {} block scale per {} values",
                                             c.weight_scale_bytes == 1.0 / 16.0 ? "ue4m3" : "ue8m0",
                                             c.weight_scale_bytes == 1.0 / 16.0 ? 16 : 32)
                               : std::string()));
}

// CK's XDL GEMMs (docs/method.md §7.5): ck::f8_t is `_BitInt(8)` (mangled `DB8_`) and ck::bf8_t
// `unsigned _BitInt(8)` (`DU8_`), 8-bit float values either way; a gridwise GEMM with A/B scales
// (`…ABScale…`) quantizes both operands in blocks whose sizes follow the GemmSpecialization
// (BlockSize, ScaleBlockM, ScaleBlockN, ScaleBlockK): one float per ScaleBlockN × ScaleBlockK
// weight values. False when the name is no CK GEMM or spells no 8-bit type.
bool ck_gemm_types(std::string_view text, Classification& c) {
  if (text.find("GridwiseGemm") == std::string_view::npos) return false;
  const bool fp8 = text.find("DB8_") != std::string_view::npos ||
                   text.find("DU8_") != std::string_view::npos ||
                   text.find("_BitInt(8)") != std::string_view::npos;
  if (!fp8) return false;
  const bool scaled = text.find("ABScale") != std::string_view::npos;
  c.operand_dtype = "fp8";
  if (scaled) c.activation_dtype = "fp8";
  std::string blocks;
  if (scaled) {
    // The four numbers after the specialization: BlockSize, ScaleBlockM, ScaleBlockN, ScaleBlockK.
    std::vector<double> v;
    const std::size_t at = text.find("GemmSpecialization");
    for (std::size_t i = at; i < text.size() && v.size() < 5; ++i) {
      if (!is_digit(text[i]) || (i > 0 && is_digit(text[i - 1]))) continue;
      std::size_t j = i;
      double n = 0;
      while (j < text.size() && is_digit(text[j]) && j - i < 9) n = n * 10 + (text[j++] - '0');
      v.push_back(n);
    }
    // v[0] is the specialization itself (mangled `E0E`, demangled `)0`).
    if (v.size() == 5 && v[3] > 0 && v[4] > 0) {
      c.weight_scale_bytes = 4.0 / (v[3] * v[4]);
      if (v[2] > 0) c.activation_scale_bytes = 4.0 / (v[2] * v[4]);
      blocks =
          fmt::format(", one float scale per {}×{} weight values and per {}×{} activation values",
                      v[3], v[4], v[2], v[4]);
    }
  }
  c.notes.push_back(fmt::format("name types (CK GEMM template): 8-bit float (ck::f8_t) {}{}",
                                scaled ? "A and B operands, block-scaled (ABScale)" : "weights",
                                blocks));
  return true;
}

}  // namespace

void read_name_dtypes(const TopnEntry& e, Classification& c) {
  for (const std::string* field : {&matched_name(e), &e.short_name}) {
    if (const std::string_view letters = nvjet_letters(*field); letters.substr(0, 2) == "qq") {
      c.operand_dtype = c.activation_dtype = "fp8";
      c.notes.push_back(fmt::format(
          "name types (cuBLASLt nvjet): type letters '{}', 'qq' = fp8 A and B operands", letters));
      return;
    }
    if (std::string note = bmm_types(*field); !note.empty()) {
      c.notes.push_back(std::move(note));
      return;
    }
  }
  // An expert GEMM's template spells its element types as a dense one's does (`MoeFCGemm<…
  // float_e4m3_t…>`).
  if (c.op_class != OpClass::gemm && c.op_class != OpClass::moe) return;
  // A mangled name only its prefix could be read from keeps its types in the raw spelling.
  const std::string& read = matched_name(e);
  const bool prefix_only = read.find('<') == std::string::npos && e.name.rfind("_Z", 0) == 0;
  if (ck_gemm_types(prefix_only ? e.name : read, c)) return;
  template_dtypes(prefix_only ? e.name : read, c);
}

}  // namespace roofline::classify::detail
