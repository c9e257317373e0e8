#include "roofline/dtype.hpp"

#include "roofline/units.hpp"

#include <algorithm>
#include <array>
#include <cctype>

namespace roofline {
namespace {

bool contains(std::string_view hay, std::string_view needle) {
  return hay.find(needle) != std::string_view::npos;
}

Dtype make(const char* key, double bytes, bool peak) {
  return Dtype{key, bytes, peak};
}

}  // namespace

std::optional<Dtype> parse_dtype(std::string_view spelling) {
  std::string s = lower_ascii(trim_view(spelling));
  for (std::string_view prefix : {"torch.", "c10::", "at::", "numpy.", "np.", "jnp.", "tl."}) {
    if (s.rfind(prefix, 0) == 0) {
      s.erase(0, prefix.size());
      break;
    }
  }
  if (s.empty()) return std::nullopt;

  // Narrow float formats first: their spellings contain "float".
  if (contains(s, "float8") || contains(s, "fp8") || contains(s, "e4m3") || contains(s, "e5m2") ||
      s == "f8")
    return make("fp8", 1.0, true);
  if (contains(s, "float4") || contains(s, "fp4") || contains(s, "e2m1") || s == "f4")
    return make("fp4", 0.5, true);
  if (s == "bfloat16" || s == "bf16") return make("bf16", 2.0, true);
  if (s == "float16" || s == "half" || s == "fp16" || s == "f16") return make("fp16", 2.0, true);
  if (s == "tf32" || s == "tensorfloat32" || s == "tensorfloat-32") return make("tf32", 4.0, true);
  if (s == "float32" || s == "float" || s == "fp32" || s == "f32" || s == "single")
    return make("fp32", 4.0, true);
  if (s == "float64" || s == "double" || s == "fp64" || s == "f64") return make("fp64", 8.0, true);
  if (s == "int8" || s == "i8" || s == "qint8" || s == "uint8" || s == "u8" || s == "quint8" ||
      s == "char" || s == "byte" || s == "signed char" || s == "unsigned char")
    return make("int8", 1.0, true);
  if (s == "int4" || s == "uint4" || s == "qint4" || s == "quint4x2" || s == "i4")
    return make("int4", 0.5, false);
  if (s == "int32" || s == "int" || s == "i32" || s == "uint32" || s == "qint32")
    return make("int32", 4.0, false);
  if (s == "int64" || s == "long" || s == "i64" || s == "uint64") return make("int64", 8.0, false);
  if (s == "int16" || s == "short" || s == "i16" || s == "uint16") return make("int16", 2.0, false);
  if (s == "bool") return make("bool", 1.0, false);
  return std::nullopt;
}

std::string canonical_dtype_key(std::string_view spelling) {
  auto d = parse_dtype(spelling);
  return d ? d->key : std::string();
}

const Dtype& wider_dtype(const Dtype& a, const Dtype& b) {
  return b.bytes > a.bytes ? b : a;
}

}  // namespace roofline
