#pragma once
// Dtype spellings -> canonical keys and element sizes (docs/method.md §5, §8).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <fmt/format.h>

namespace roofline {

// The canonical dtype keys, a closed set: what peaks.md's `flops` rows, the Top-N's dtypes and the
// config's dtypes are read into (parse_dtype, dtype_key_from), and what the artifact spells back
// (str()). The values are declared in the alphabetical order of their spellings, so a map keyed by
// DtypeKey iterates in the order one keyed by the spelling did (the artifact's `flops` object).
class DtypeKey {
 public:
  enum Id : std::uint8_t {
    none,  // no dtype ("")
    bf16,
    bool_,  // "bool"
    fp16,
    fp32,
    fp4,
    fp64,
    fp8,
    int16,
    int32,
    int4,
    int64,
    int8,
    tf32,
  };
  constexpr DtypeKey() = default;
  constexpr DtypeKey(Id id) : id_(id) {}  // NOLINT: DtypeKey::bf16 reads as a key
  constexpr Id id() const { return id_; }
  constexpr bool empty() const { return id_ == none; }
  // The artifact spelling: "bf16", "fp8", "bool"; "" for none.
  const std::string& str() const;
  // Where a key is written as text (notes, the artifact's strings and object keys). Comparing a key
  // with text does not compile: compare keys.
  operator const std::string&() const { return str(); }  // NOLINT
  friend constexpr bool operator==(DtypeKey a, DtypeKey b) { return a.id_ == b.id_; }
  friend constexpr bool operator<(DtypeKey a, DtypeKey b) { return a.id_ < b.id_; }

 private:
  Id id_ = none;
};

// The key whose canonical spelling is exactly `canonical` ("bf16", "fp8"); nullopt otherwise.
std::optional<DtypeKey> dtype_key_from(std::string_view canonical);

struct Dtype {
  DtypeKey key;        // canonical: bf16 fp16 fp32 fp64 fp8 int8 fp4 tf32 int4 int32 int64 bool
  double bytes = 0.0;  // bytes per element (fp4/int4: 0.5)
  bool has_peak_key = false;  // true for the keys a peaks table may carry
};

// The key's plain dtype: its element size and whether a peaks table may carry it.
Dtype dtype_of(DtypeKey key);

// Maps any accepted spelling (`torch.bfloat16`, `c10::BFloat16`, `float8_e4m3fnuz`, `half`,
// `mxfp4`, ...) to its canonical dtype; nullopt when the spelling is not a dtype we know.
std::optional<Dtype> parse_dtype(std::string_view spelling);

// The canonical key alone, or none when unknown.
DtypeKey canonical_dtype_key(std::string_view spelling);

// The wider of two dtypes by element size; on a tie, `a` (docs/method.md §10.2: compute dtype, a8w4
// -> fp8).
const Dtype& wider_dtype(const Dtype& a, const Dtype& b);

}  // namespace roofline

// fmt::format("{}", key) writes the spelling (width and alignment as for a string).
template <>
struct fmt::formatter<roofline::DtypeKey> : fmt::formatter<std::string_view> {
  template <class Context>
  auto format(roofline::DtypeKey k, Context& ctx) const {
    return fmt::formatter<std::string_view>::format(k.str(), ctx);
  }
};
