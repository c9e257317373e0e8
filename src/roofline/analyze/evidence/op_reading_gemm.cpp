// The op table's matrix formulas (docs/method.md §23.2): GEMM 2·M·N·K over the roles' dims, the
// batched GEMM, and a convolution as its implicit GEMM.
#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

#include "roofline/analyze/evidence/op_reading_internal.hpp"
#include "roofline/base/units.hpp"
#include "roofline/inputs/dtype.hpp"

namespace roofline::analyze::op_detail {
namespace {

// Bytes the operands of `role` hold (each at its own dtype, `fallback` when unknown).
double role_bytes(const Reader& r, ArgRole role, double fallback) {
  double b = 0;
  for (const Bound* x : r.with(role)) b += arg_elements(*x->arg) * elem_bytes(*x->arg, fallback);
  return b;
}

bool byte_container(const OpArg& a) {
  const auto d = parse_dtype(a.dtype);
  return d && d->key == DtypeKey::int8;
}

// The weight's element size: its dtype, a byte container read as fp8/int8 when K matches or as
// packed 4-bit when it shows K/2 (docs/method.md §23.5: `unsigned char` is ambiguous; the note says
// which).
std::optional<double> weight_elem_bytes(Reader& r, const OpArg& w, double k, double kw) {
  const double b = elem_bytes(w, 0.0);
  if (b <= 0) {
    r.fail(fmt::format("weight dtype '{}' unknown", w.dtype));
    return std::nullopt;
  }
  if (kw == k) {
    if (byte_container(w))
      r.out.notes.push_back(fmt::format(
          "weight dtype '{}' is a byte container: read as 1-byte values (fp8 or int8), since its "
          "K {} matches the activation's (packed 4-bit would show K/2)",
          w.dtype, format_g(kw)));
    return b;
  }
  if (byte_container(w) && kw * 2 == k) {
    r.out.notes.push_back(fmt::format(
        "weight dtype '{}' shows K/2 = {}: packed 4-bit values, two per byte (0.5 B each; block "
        "scales are separate operands)",
        w.dtype, format_g(kw)));
    return 0.5;
  }
  r.fail(fmt::format("inner dimensions disagree: activation K = {}, weight {} holds {}",
                     format_g(k), dims_text(w.dims), format_g(kw)));
  return std::nullopt;
}

// The output's bytes: the recorded output, else M·N at the activation's width (16-bit when the
// activation is 1-byte: a quantized GEMM writes bf16/fp16).
Term output_part(Reader& r, double elems, double act_b, const char* formula) {
  if (const Bound* o = r.first(ArgRole::out)) {
    r.out.out_dtype = dtype_key(o->arg->dtype);
    return part(fmt::format("{} (recorded output)", formula),
                arg_elements(*o->arg) * elem_bytes(*o->arg, act_b));
  }
  const double ob = act_b >= 2.0 ? act_b : 2.0;
  if (act_b < 2.0)
    r.out.notes.push_back("output not recorded: written 16-bit (a quantized GEMM's output)");
  return part(formula, elems * ob);
}

void finish(Reader& r, std::vector<Term> parts, Term flops) {
  std::vector<Term> kept;
  for (Term& p : parts)
    if (p.value > 0) kept.push_back(std::move(p));
  r.out.bytes_term = sum("bytes", std::move(kept));
  r.out.flops_term = std::move(flops);
  r.out.bytes = r.out.bytes_term.value;
  r.out.flops = r.out.flops_term.value;
}

}  // namespace

void read_gemm(Reader& r) {
  const Bound* a = r.first(ArgRole::in);
  const Bound* w = r.first(ArgRole::weight);
  if (!a || !w || a->arg->dims.size() < 2 || w->arg->dims.size() != 2)
    return r.fail("needs an activation of rank >= 2 and a 2-D weight");
  const auto& ad = a->arg->dims;
  // MK2 / NK2: two 4-bit values per recorded byte along K (the op's format says so).
  const bool a4 = a->spec->layout == ArgLayout::MK2, w4 = w->spec->layout == ArgLayout::NK2;
  const double k_shown = static_cast<double>(ad.back()), m = elements(ad) / k_shown;
  const double k = a4 ? 2 * k_shown : k_shown;
  const bool kn = w->spec->layout == ArgLayout::KN;
  const double kw_shown = static_cast<double>(w->arg->dims[kn ? 0u : 1u]);
  const double kw = w4 ? 2 * kw_shown : kw_shown;
  const double n = static_cast<double>(w->arg->dims[kn ? 1u : 0u]);
  const double act_b = a4 ? 0.5 : elem_bytes(*a->arg, 2.0);
  if (a4 || w4)
    r.out.notes.push_back(fmt::format(
        "packed 4-bit operands ({}{}): the dims show K/2 = {}, so K = {} and 0.5 B per value",
        a4 ? "activation" : "",
        a4 && w4 ? " and weight"
        : w4     ? "weight"
                 : "",
        format_g(a4 ? k_shown : kw_shown), format_g(k)));
  const auto wb = w4 ? (kw == k ? std::optional<double>(0.5) : std::nullopt)
                     : weight_elem_bytes(r, *w->arg, k, kw);
  if (w4 && !wb)
    r.fail(fmt::format("inner dimensions disagree: activation K = {}, packed weight {} holds {}",
                       format_g(k), dims_text(w->arg->dims), format_g(kw)));
  if (!wb || !(m > 0) || !(n > 0) || !(k > 0)) return r.fail("GEMM dims unusable");
  r.out.gemm = GemmReading{m, n, k, 1};
  r.out.act_dtype = a4 ? "fp4" : dtype_key(a->arg->dtype);
  r.out.weight_dtype = *wb == 0.5 ? "fp4" : dtype_key(w->arg->dtype);
  r.out.weight_bytes = k * n * *wb;
  r.out.notes.push_back(
      fmt::format("GEMM by the op's roles: activation {} [M={}, K={}] {}, weight {} stored [{}] {}",
                  a->spec->position, format_g(m), format_g(k), a->arg->dtype, w->spec->position,
                  kn ? "K, N" : "N, K", w->arg->dtype));
  finish(r,
         {part("M·K·a", m * k * act_b), part("K·N·w", r.out.weight_bytes),
          output_part(r, m * n, act_b, "M·N·o"), part("bias", role_bytes(r, ArgRole::bias, act_b)),
          part("scales", role_bytes(r, ArgRole::scale, 4.0))},
         term("flops", "2·M·N·K", 2.0 * m * n * k, TermUnit::flops));
}

void read_bmm(Reader& r) {
  const Bound* a = r.first(ArgRole::in);
  const Bound* w = r.first(ArgRole::weight);
  if (!a || !w || a->arg->dims.size() != 3 || w->arg->dims.size() != 3)
    return r.fail("needs two 3-D operands [Bt, M, K] and [Bt, K, N] (or [Bt, N, K])");
  const auto &ad = a->arg->dims, &wd = w->arg->dims;
  const bool kn = w->spec->layout == ArgLayout::BKN;
  const double bt = static_cast<double>(ad[0]), m = static_cast<double>(ad[1]);
  const double k = static_cast<double>(ad[2]), kw = static_cast<double>(wd[kn ? 1u : 2u]);
  const double n = static_cast<double>(wd[kn ? 2u : 1u]);
  if (wd[0] != ad[0] || kw != k || !(bt > 0 && m > 0 && n > 0 && k > 0))
    return r.fail(fmt::format("batched dims disagree: {} × {}", dims_text(ad), dims_text(wd)));
  const double act_b = elem_bytes(*a->arg, 2.0), wb = elem_bytes(*w->arg, act_b);
  r.out.gemm = GemmReading{m, n, k, bt};
  r.out.act_dtype = dtype_key(a->arg->dtype);
  r.out.weight_dtype = dtype_key(w->arg->dtype);
  r.out.weight_bytes = bt * k * n * wb;
  r.out.notes.push_back(fmt::format("batched GEMM by the op's roles: [Bt={}, M={}, K={}] × [{}]",
                                    format_g(bt), format_g(m), format_g(k),
                                    kn ? "Bt, K, N" : "Bt, N, K"));
  finish(r,
         {part("Bt·M·K·a", bt * m * k * act_b), part("Bt·K·N·w", r.out.weight_bytes),
          output_part(r, bt * m * n, act_b, "Bt·M·N·o"),
          part("bias", role_bytes(r, ArgRole::bias, act_b))},
         term("flops", "2·Bt·M·N·K", 2.0 * bt * m * n * k, TermUnit::flops));
}

namespace {

// A per-spatial-dim scalar list ("[1, 1]", or one number for every dim): the value for dim i.
double list_value(const std::optional<std::string>& text, std::size_t i, double fallback) {
  if (!text) return fallback;
  std::vector<double> v;
  std::string cur;
  for (char c : *text + ",") {
    if ((c >= '0' && c <= '9') || c == '-') {
      cur += c;
    } else if (!cur.empty()) {
      v.push_back(std::strtod(cur.c_str(), nullptr));
      cur.clear();
    }
  }
  if (v.empty()) return fallback;
  return i < v.size() ? v[i] : v.back();
}

}  // namespace

void read_conv(Reader& r) {
  const Bound* x = r.first(ArgRole::in);
  const Bound* f = r.first(ArgRole::weight);
  if (!x || !f || x->arg->dims.size() < 3 || x->arg->dims.size() > 5 ||
      f->arg->dims.size() != x->arg->dims.size())
    return r.fail("needs an input [N, C, spatial…] and a filter [K, C/g, spatial…] of one rank");
  const auto &xd = x->arg->dims, &fd = f->arg->dims;
  const double groups = r.number(ScalarName::groups).value_or(1.0);
  double out_spatial = 1, filter_spatial = 1;
  const auto stride = r.scalar(ScalarName::stride), pad = r.scalar(ScalarName::padding),
             dil = r.scalar(ScalarName::dilation);
  for (std::size_t i = 2; i < xd.size(); ++i) {
    const double in = static_cast<double>(xd[i]), k = static_cast<double>(fd[i]);
    const double s = list_value(stride, i - 2, 1), p = list_value(pad, i - 2, 0),
                 d = list_value(dil, i - 2, 1);
    out_spatial *= std::floor((in + 2 * p - d * (k - 1) - 1) / std::max(s, 1.0)) + 1;
    filter_spatial *= k;
  }
  const double n = static_cast<double>(xd[0]), c = static_cast<double>(xd[1]);
  const double kout = static_cast<double>(fd[0]), cg = static_cast<double>(fd[1]);
  if (!(out_spatial > 0) || !(groups > 0) || cg * groups != c)
    return r.fail("convolution dims unusable (output size, or C against the filter's C/g)");
  const double act_b = elem_bytes(*x->arg, 2.0);
  r.out.gemm = GemmReading{n * out_spatial, kout, cg * filter_spatial, 1};
  r.out.act_dtype = dtype_key(x->arg->dtype);
  r.out.weight_dtype = dtype_key(f->arg->dtype);
  r.out.weight_bytes = elements(fd) * elem_bytes(*f->arg, act_b);
  r.out.notes.push_back(fmt::format(
      "convolution as implicit GEMM: N={}, K={}, C/g={}, filter {} taps, output {} positions",
      format_g(n), format_g(kout), format_g(cg), format_g(filter_spatial), format_g(out_spatial)));
  finish(r,
         {part("input", elements(xd) * act_b), part("filter", r.out.weight_bytes),
          part("N·K·P·Q·o", n * kout * out_spatial * act_b),
          part("bias", role_bytes(r, ArgRole::bias, act_b))},
         term("flops", "2·N·K·(C/g)·R·S·P·Q", 2.0 * n * kout * cg * filter_spatial * out_spatial,
              TermUnit::flops));
}

}  // namespace roofline::analyze::op_detail
