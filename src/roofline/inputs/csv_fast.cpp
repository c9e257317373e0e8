// The fast-path scanner compiled for three instruction sets. x86-64 only guarantees SSE2; with
// GCC on x86-64 the same body is also compiled under AVX2 and AVX-512BW target pragmas and the
// widest one the CPU (and OS) supports is picked once. One 64-byte block is then one load and
// three compares instead of twelve, and the quote parity one carry-less multiply.
#include "roofline/inputs/csv_fast.hpp"

#include <vector>

#if defined(__SSE2__)
#include <immintrin.h>
#endif

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define ROOFLINE_CSV_MULTI_ISA 1
#endif

namespace roofline::detail {

#define ROOFLINE_CSV_ISA 0
namespace base {
#include "roofline/inputs/csv_fast_core.inc"
}  // namespace base
#undef ROOFLINE_CSV_ISA

#if ROOFLINE_CSV_MULTI_ISA
#pragma GCC push_options
#pragma GCC target("avx2,bmi,popcnt,pclmul")
#define ROOFLINE_CSV_ISA 256
namespace avx2 {
#include "roofline/inputs/csv_fast_core.inc"
}  // namespace avx2
#undef ROOFLINE_CSV_ISA
#pragma GCC pop_options

#pragma GCC push_options
#pragma GCC target("avx512f,avx512bw,avx2,bmi,bmi2,popcnt,pclmul")
#define ROOFLINE_CSV_ISA 512
namespace avx512 {
#include "roofline/inputs/csv_fast_core.inc"
}  // namespace avx512
#undef ROOFLINE_CSV_ISA
#pragma GCC pop_options
#endif

std::vector<FastKernels> supported_fast_kernels() {
  std::vector<FastKernels> out;
#if ROOFLINE_CSV_MULTI_ISA
  __builtin_cpu_init();
  const bool base_ok = __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("popcnt");
  if (base_ok && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("bmi2"))
    out.push_back({&avx512::scan, &avx512::load, "avx512bw"});
  if (base_ok && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi"))
    out.push_back({&avx2::scan, &avx2::load, "avx2"});
#endif
  out.push_back({&base::scan, &base::load, "sse2"});
  return out;
}

FastKernels fast_kernels() {
  static const FastKernels best = supported_fast_kernels().front();
  return best;
}

}  // namespace roofline::detail
