#pragma once
// What a library kernel's name says about its operand dtypes (docs/method.md §7.5), internal to the
// classify layer.

#include <string>

#include "roofline/classify/classify.hpp"
#include "roofline/classify/layer.hpp"

namespace roofline::classify::detail {

// The name the classification patterns read (docs/method.md §7.1): the demangled one when `topn`
// wrote one, else the raw name (which stays the join key either way).
inline const std::string& matched_name(const TopnEntry& e) {
  return e.demangled.empty() ? e.name : e.demangled;
}

// Reads the type fields of the families that spell them and notes what they say: cuBLASLt
// `nvjet_[smNN_]<letters>_…` with `qq` leading the letters (fp8 A and B: sets
// `c.operand_dtype` to "fp8"), TRT-LLM `bmm_<output>_<A><B>_…` (E4m3, E2m1, MxE4m3, MxE2m1,
// Bfloat16, ...; MxE2m1 = mxfp4 expert weights), and a GEMM's CUTLASS / PyTorch template element
// types (`float_e4m3_t`, `Float8_e4m3fn`, `float_e2m1_t`, cutlass3x `ue4m3xe2m1`: fp8 or
// block-scaled fp4 operands, with the scale block the scale type implies). Other names leave `c`
// as it is.
void read_name_dtypes(const TopnEntry& e, Classification& c);

}  // namespace roofline::classify::detail
