// Dense GEMM [M,K] x [K,N] (SPEC §4): flops = 2MNK, bytes = MK·a + KN·w + MN·a.
#include <fmt/format.h>

#include "stages/model_internal.hpp"

namespace roofline::detail {
namespace {

struct GemmShape {
  double m = 0, n = 0, k = 0, b_batch = 1;
  std::string how;
};

// A = the first operand of rank >= 2; B = a later operand whose last two dims contain K.
std::optional<GemmShape> shape_from_operands(const TopNEntry& e, std::size_t& a_index) {
  for (std::size_t ai = 0; ai < e.shapes.size(); ++ai) {
    const auto& a = e.shapes[ai];
    if (a.size() < 2) continue;
    const double k = static_cast<double>(a.back());
    double m = 1;
    for (std::size_t i = 0; i + 1 < a.size(); ++i) m *= static_cast<double>(a[i]);
    for (std::size_t bi = ai + 1; bi < e.shapes.size(); ++bi) {
      const auto& b = e.shapes[bi];
      if (b.size() < 2) continue;
      const double b0 = static_cast<double>(b[b.size() - 2]), b1 = static_cast<double>(b.back());
      double batch = 1;
      for (std::size_t i = 0; i + 2 < b.size(); ++i) batch *= static_cast<double>(b[i]);
      GemmShape s;
      s.m = m;
      s.k = k;
      s.b_batch = batch;
      if (b0 == k) {
        s.n = b1;
        s.how = fmt::format("A = shapes[{}] [M={}, K={}], B = shapes[{}] stored [K, N={}]", ai,
                            format_g(m), format_g(k), bi, format_g(b1));
      } else if (b1 == k) {
        s.n = b0;
        s.how = fmt::format("A = shapes[{}] [M={}, K={}], B = shapes[{}] stored [N={}, K]", ai,
                            format_g(m), format_g(k), bi, format_g(b0));
      } else {
        continue;
      }
      a_index = ai;
      return s;
    }
    break;  // A found but no operand matches its K: shapes unusable
  }
  return std::nullopt;
}

}  // namespace

void model_gemm(const ModelInput& in, WorkEstimate& work) {
  const TopNEntry& e = in.entry;
  std::size_t a_index = 0;
  auto shape = shape_from_operands(e, a_index);
  auto est = e.est_shape.at(in.regime.regime);
  if (!shape && est && est->m && est->n && est->k && *est->m > 0 && *est->n > 0 && *est->k > 0) {
    shape = GemmShape{*est->m, *est->n, *est->k, 1,
                      fmt::format("est_shape.{} M={}, N={}, K={}", to_string(in.regime.regime),
                                  format_g(*est->m), format_g(*est->n), format_g(*est->k))};
  }
  if (!shape || shape->m <= 0 || shape->n <= 0 || shape->k <= 0) {
    work.unmodeled_reason =
        e.shapes.empty() ? "GEMM needs operand shapes ([M,K] and [K,N] or [N,K]) or est_shape "
                           "M/N/K; the entry has none"
                         : "GEMM shapes unusable: no two operands share the inner dimension K";
    return;
  }
  GemmShape s = *shape;
  work.notes.push_back("GEMM: " + s.how);
  if (est && est->m && *est->m > 0 && *est->m != s.m) {
    work.notes.push_back(fmt::format("M = {} from est_shape.{}.M (recorded shapes say {})",
                                     format_g(*est->m), to_string(in.regime.regime),
                                     format_g(s.m)));
    s.m = *est->m;
  }
  const double a = in.dtypes.act.bytes, w = in.dtypes.weight.bytes;
  const double a_bytes = s.m * s.k * a;
  const double b_bytes = s.b_batch * s.k * s.n * w;
  const double c_bytes = s.m * s.n * a;
  const double flops = 2.0 * s.m * s.n * s.k;  // batched B: A rows already span the batch
  work.weight_bytes = b_bytes;
  work.compute_dtype = wider_dtype(in.dtypes.act, in.dtypes.weight);
  work.notes.push_back(fmt::format("dtypes: activations {} ({} B, {}), weights {} ({} B, {})",
                                   in.dtypes.act.key, in.dtypes.act.bytes, in.dtypes.act_source,
                                   in.dtypes.weight.key, in.dtypes.weight.bytes,
                                   in.dtypes.weight_source));
  work.notes.push_back(fmt::format(
      "bytes = M·K·a {} + K·N·w {} + M·N·a {} = {}; flops = 2·M·N·K = {:.4g}", fmt_bytes(a_bytes),
      fmt_bytes(b_bytes), fmt_bytes(c_bytes), fmt_bytes(a_bytes + b_bytes + c_bytes), flops));
  work.candidates.push_back({"dense GEMM", a_bytes + b_bytes + c_bytes, flops, std::nullopt});
}

}  // namespace roofline::detail
