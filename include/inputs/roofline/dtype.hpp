#pragma once
// Dtype spellings -> canonical keys and element sizes (docs/method.md §5, §8).

#include <optional>
#include <string>
#include <string_view>

namespace roofline {

struct Dtype {
  std::string key;     // canonical: bf16 fp16 fp32 fp64 fp8 int8 fp4 tf32 int4 int32 int64 bool
  double bytes = 0.0;  // bytes per element (fp4/int4: 0.5)
  bool has_peak_key = false;  // true for the keys a peaks table may carry
};

// Maps any accepted spelling (`torch.bfloat16`, `c10::BFloat16`, `float8_e4m3fnuz`, `half`,
// `mxfp4`, ...) to its canonical dtype; nullopt when the spelling is not a dtype we know.
std::optional<Dtype> parse_dtype(std::string_view spelling);

// The canonical key alone, or "" when unknown.
std::string canonical_dtype_key(std::string_view spelling);

// The wider of two dtypes by element size; on a tie, `a` (docs/method.md §10.2: compute dtype, a8w4
// -> fp8).
const Dtype& wider_dtype(const Dtype& a, const Dtype& b);

}  // namespace roofline
