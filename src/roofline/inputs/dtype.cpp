#include "roofline/inputs/dtype.hpp"

#include "roofline/base/units.hpp"

#include <algorithm>
#include <array>
#include <cctype>

namespace roofline {
namespace {

struct KeyInfo {
  std::string spelling;
  double bytes;
  bool peak;  // a peaks table may carry it
};

// One row per DtypeKey::Id, in its order.
const std::array<KeyInfo, DtypeKey::tf32 + 1>& key_table() {
  static const std::array<KeyInfo, DtypeKey::tf32 + 1> table{{
      {"", 0.0, false},
      {"bf16", 2.0, true},
      {"bool", 1.0, false},
      {"fp16", 2.0, true},
      {"fp32", 4.0, true},
      {"fp4", 0.5, true},
      {"fp64", 8.0, true},
      {"fp8", 1.0, true},
      {"int16", 2.0, false},
      {"int32", 4.0, false},
      {"int4", 0.5, false},
      {"int64", 8.0, false},
      {"int8", 1.0, true},
      {"tf32", 4.0, true},
  }};
  return table;
}

bool contains(std::string_view hay, std::string_view needle) {
  return hay.find(needle) != std::string_view::npos;
}

// The key an accepted spelling (lower case, prefix removed) names; none when unknown.
DtypeKey key_for(const std::string& s) {
  using K = DtypeKey;
  // Narrow float formats first: their spellings contain "float".
  if (contains(s, "float8") || contains(s, "fp8") || contains(s, "e4m3") || contains(s, "e5m2") ||
      s == "f8")
    return K::fp8;
  if (contains(s, "float4") || contains(s, "fp4") || contains(s, "e2m1") || s == "f4")
    return K::fp4;
  if (s == "bfloat16" || s == "bf16") return K::bf16;
  if (s == "float16" || s == "half" || s == "fp16" || s == "f16") return K::fp16;
  if (s == "tf32" || s == "tensorfloat32" || s == "tensorfloat-32") return K::tf32;
  if (s == "float32" || s == "float" || s == "fp32" || s == "f32" || s == "single") return K::fp32;
  if (s == "float64" || s == "double" || s == "fp64" || s == "f64") return K::fp64;
  if (s == "int8" || s == "i8" || s == "qint8" || s == "uint8" || s == "u8" || s == "quint8" ||
      s == "char" || s == "byte" || s == "signed char" || s == "unsigned char")
    return K::int8;
  if (s == "int4" || s == "uint4" || s == "qint4" || s == "quint4x2" || s == "i4") return K::int4;
  if (s == "int32" || s == "int" || s == "i32" || s == "uint32" || s == "qint32") return K::int32;
  if (s == "int64" || s == "long" || s == "i64" || s == "uint64") return K::int64;
  if (s == "int16" || s == "short" || s == "i16" || s == "uint16") return K::int16;
  if (s == "bool") return K::bool_;
  return K::none;
}

}  // namespace

const std::string& DtypeKey::str() const {
  return key_table()[id_].spelling;
}

std::optional<DtypeKey> dtype_key_from(std::string_view canonical) {
  const auto& table = key_table();
  for (std::size_t i = 1; i < table.size(); ++i)
    if (table[i].spelling == canonical) return DtypeKey(static_cast<DtypeKey::Id>(i));
  return std::nullopt;
}

Dtype dtype_of(DtypeKey key) {
  const KeyInfo& k = key_table()[key.id()];
  return Dtype{key, k.bytes, k.peak};
}

std::optional<Dtype> parse_dtype(std::string_view spelling) {
  std::string s = lower_ascii(trim_view(spelling));
  for (std::string_view prefix : {"torch.", "c10::", "at::", "numpy.", "np.", "jnp.", "tl."}) {
    if (s.rfind(prefix, 0) == 0) {
      s.erase(0, prefix.size());
      break;
    }
  }
  if (s.empty()) return std::nullopt;
  const DtypeKey key = key_for(s);
  if (key.empty()) return std::nullopt;
  return dtype_of(key);
}

DtypeKey canonical_dtype_key(std::string_view spelling) {
  auto d = parse_dtype(spelling);
  return d ? d->key : DtypeKey();
}

const Dtype& wider_dtype(const Dtype& a, const Dtype& b) {
  return b.bytes > a.bytes ? b : a;
}

}  // namespace roofline
