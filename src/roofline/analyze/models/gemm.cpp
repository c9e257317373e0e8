// Dense GEMM [M,K] x [K,N] (docs/method.md §8): flops = 2MNK, bytes = MK·a + KN·w + MN·a; batched
// GEMM (docs/method.md §8.5), packed 4-bit weights, and the modules a quantized checkpoint leaves
// unquantized (docs/method.md §8.6).
#include <fmt/format.h>

#include "roofline/analyze/layer.hpp"
#include "roofline/analyze/models/models.hpp"
#include "roofline/inputs/pattern.hpp"

namespace roofline::analyze::detail {
namespace {

struct GemmShape {
  double m = 0, n = 0, k = 0, b_batch = 1;
  std::string how;
};

// A = the first operand of rank >= 2; B = a later operand whose last two dims contain K (or K/2
// when `packed4`: two 4-bit weights per byte).
std::optional<GemmShape> shape_from_operands(const TopnEntry& e, bool packed4) {
  for (std::size_t ai = 0; ai < e.shapes.size(); ++ai) {
    const auto& a = e.shapes[ai];
    if (a.size() < 2) continue;
    const double k = static_cast<double>(a.back());
    double m = 1;
    for (std::size_t i = 0; i + 1 < a.size(); ++i) m *= static_cast<double>(a[i]);
    for (int pass = 0; pass < (packed4 ? 2 : 1); ++pass) {
      const double kb = pass == 0 ? k : k / 2.0;  // pass 1: packed 4-bit [N, K/2] storage
      for (std::size_t bi = ai + 1; bi < e.shapes.size(); ++bi) {
        const auto& b = e.shapes[bi];
        if (b.size() < 2) continue;
        const double b0 = static_cast<double>(b[b.size() - 2]);
        const double b1 = static_cast<double>(b.back());
        double batch = 1;
        for (std::size_t i = 0; i + 2 < b.size(); ++i) batch *= static_cast<double>(b[i]);
        GemmShape s{m, 0, k, batch, ""};
        const std::string packed = pass == 1 ? " (packed 4-bit: two weights per byte)" : "";
        if (b0 == kb) {
          s.n = b1;
          s.how = fmt::format("A = shapes[{}] [M={}, K={}], B = shapes[{}] stored [K, N={}]{}", ai,
                              format_g(m), format_g(k), bi, format_g(b1), packed);
        } else if (b1 == kb) {
          s.n = b0;
          s.how = fmt::format("A = shapes[{}] [M={}, K={}], B = shapes[{}] stored [N={}, K]{}", ai,
                              format_g(m), format_g(k), bi, format_g(b0), packed);
        } else {
          continue;
        }
        return s;
      }
    }
    break;  // A found but no operand matches its K: shapes unusable
  }
  return std::nullopt;
}

// The module a GEMM belongs to, for the modules a quantized checkpoint leaves unquantized
// (docs/method.md §8.6); other = a projection no such list names (MLP, experts).
enum class GemmRole { other, attention, router, lm_head };

const char* gemm_role_name(GemmRole r) {
  switch (r) {
    case GemmRole::attention:
      return "attention";
    case GemmRole::router:
      return "router";
    case GemmRole::lm_head:
      return "lm_head";
    case GemmRole::other:
      break;
  }
  return "";
}

// Which unquantized role a GEMM plays (docs/method.md §8.6): by name, then by shape.
GemmRole gemm_role(const ModelInput& in, const GemmShape& s) {
  const TopnEntry& e = in.entry;
  for (const std::string* f : {&e.name, &e.short_name}) {
    if (icontains(*f, "lm_head")) return GemmRole::lm_head;
    if (icontains(*f, "router")) return GemmRole::router;
    for (std::string_view t : {"qkv", "q_proj", "k_proj", "v_proj", "o_proj", "out_proj"})
      if (icontains(*f, t)) return GemmRole::attention;
    if (icontains(*f, "gate") && !icontains(*f, "gate_up") && !icontains(*f, "gateup"))
      return GemmRole::router;
  }
  const ModelConfig* c = in.ctx.config;
  if (!c) return GemmRole::other;
  const double tp = in.tp;
  if (c->n_heads && c->n_kv_heads && c->head_dim) {
    const double nq = *c->n_heads / tp, nkv = std::max(1.0, *c->n_kv_heads / tp);
    if (s.n == (nq + 2.0 * nkv) * *c->head_dim) return GemmRole::attention;
    if (c->hidden && s.k == nq * *c->head_dim && s.n == *c->hidden &&
        *c->n_heads * *c->head_dim / tp != *c->hidden)
      return GemmRole::attention;
  }
  if (c->experts && c->hidden && s.n == *c->experts && s.k == *c->hidden) return GemmRole::router;
  if (c->vocab && c->hidden && s.k == *c->hidden && (s.n == *c->vocab || s.n == *c->vocab / tp))
    return GemmRole::lm_head;
  return GemmRole::other;
}

// The module of `list` (modules_to_not_convert, ignore, ignored_layers) that covers `role`.
std::string unquantized_module(const ModelConfig& c, GemmRole role) {
  for (const std::string& m : c.unquantized_modules) {
    const bool attn = icontains(m, "attn") || icontains(m, "attention") || icontains(m, "q_proj") ||
                      icontains(m, "qkv") || icontains(m, "o_proj");
    const bool router = icontains(m, "router") || m == "gate" ||
                        (m.size() > 5 && m.compare(m.size() - 5, 5, ".gate") == 0);
    if ((role == GemmRole::attention && attn) || (role == GemmRole::router && router) ||
        (role == GemmRole::lm_head && icontains(m, "lm_head")))
      return m;
  }
  return {};
}

}  // namespace

std::optional<BatchedShape> batched_shape(const TopnEntry& e) {
  if (e.shapes.size() < 2) return std::nullopt;
  const auto& a = e.shapes[0];
  const auto& b = e.shapes[1];
  if (a.size() != 3 || b.size() != 3 || a[0] != b[0] || a[0] <= 1) return std::nullopt;
  BatchedShape s;
  s.batch = static_cast<double>(a[0]);
  s.m = static_cast<double>(a[1]);
  s.k = static_cast<double>(a[2]);
  if (b[1] == a[2]) {
    s.n = static_cast<double>(b[2]);
    s.how = "[Bt, K, N]";
  } else if (b[2] == a[2]) {
    s.n = static_cast<double>(b[1]);
    s.how = "[Bt, N, K]";
  } else {
    return std::nullopt;
  }
  s.how = fmt::format("batched GEMM: A = shapes[0] [Bt={}, M={}, K={}], B = shapes[1] stored {}",
                      format_g(s.batch), format_g(s.m), format_g(s.k), s.how);
  return s;
}

namespace {

// docs/method.md §8.5: flops = 2·Bt·M·N·K, bytes = Bt·(M·K·a + K·N·w + M·N·a). A batch equal to the
// expert count is a dense all-expert MoE evaluation: class moe, bytes from this formula.
void batched_gemm(const ModelInput& in, const BatchedShape& bs, WorkEstimate& work) {
  const double a = in.dtypes.act.bytes, bt = bs.batch, w = in.dtypes.weight.bytes;
  const Term bytes = scaled_sum("bytes", "Bt", bt,
                                {part("M·K·a", bs.m * bs.k * a), part("K·N·w", bs.k * bs.n * w),
                                 part("M·N·a", bs.m * bs.n * a)});
  const Term flops = term("flops", "2·Bt·M·N·K", 2.0 * bt * bs.m * bs.n * bs.k, TermUnit::flops);
  work.weight_bytes = bt * bs.k * bs.n * w;
  work.notes.push_back(bs.how);
  const ModelConfig* cfg = in.ctx.config;
  if (cfg && cfg->experts && *cfg->experts == bt) {
    work.op_class = OpClass::moe;
    work.notes.push_back(fmt::format(
        "batch {} = the config's expert count: a dense batched GEMM over all experts "
        "(docs/method.md §8.5), classified moe; bytes and FLOPs from the batched-GEMM formula",
        format_g(bt)));
  }
  work.notes.push_back(fmt::format("dtypes: activations {} ({} B, {}), weights {} ({} B, {})",
                                   in.dtypes.act.key, a, in.dtypes.act_source, in.dtypes.weight.key,
                                   w, in.dtypes.weight_source));
  work.notes.push_back(render_all({bytes, flops}));
  add_candidate(work, "batched GEMM", bytes, flops);
}

// The GEMM's shape from its operands (packed 4-bit weights too), else est_shape; M from est_shape
// when it differs from the recorded rows. nullopt with `work.unmodeled_reason` when unusable.
std::optional<GemmShape> dense_shape(const ModelInput& in, WorkEstimate& work) {
  const TopnEntry& e = in.entry;
  auto shape = shape_from_operands(e, in.dtypes.weight.bytes < 1.0);
  auto est = e.est_shape.at(in.regime.regime);
  if (!shape && est && est->m && est->n && est->k && *est->m > 0 && *est->n > 0 && *est->k > 0) {
    shape = GemmShape{*est->m, *est->n, *est->k, 1,
                      fmt::format("{} M={}, N={}, K={}", est_label(in.regime), format_g(*est->m),
                                  format_g(*est->n), format_g(*est->k))};
  }
  if (!shape || shape->m <= 0 || shape->n <= 0 || shape->k <= 0) {
    work.unmodeled_reason =
        e.shapes.empty() ? "GEMM needs operand shapes ([M,K] and [K,N] or [N,K]) or est_shape "
                           "M/N/K; the entry has none"
                         : "GEMM shapes unusable: no two operands share the inner dimension K";
    return std::nullopt;
  }
  work.notes.push_back("GEMM: " + shape->how);
  if (est && est->m && *est->m > 0 && *est->m != shape->m) {
    work.notes.push_back(fmt::format("M = {} from {}.M (recorded shapes say {})", format_g(*est->m),
                                     est_label(in.regime), format_g(shape->m)));
    shape->m = *est->m;
  }
  return shape;
}

}  // namespace

void model_gemm(const ModelInput& in, WorkEstimate& work) {
  if (in.cls.detail.gemm == GemmKind::conv) {  // docs/method.md §23.2: never a dense GEMM
    work.unmodeled_reason = fmt::format(
        "convolution: only its launching op's arguments (input, filter, stride, padding, groups; "
        "data/op_table.tsv) give its work, and {}",
        in.entry.op.empty() ? "no launching op was recorded"
                            : fmt::format("the op table cannot read '{}'", in.entry.op));
    return;
  }
  const double a = in.dtypes.act.bytes;
  Dtype wdt = in.dtypes.weight;
  work.compute_dtype = wider_dtype(in.dtypes.act, wdt);
  if (auto bs = batched_shape(in.entry)) return batched_gemm(in, *bs, work);
  const std::optional<GemmShape> shape = dense_shape(in, work);
  if (!shape) return;
  const GemmShape& s = *shape;
  std::string weight_source = in.dtypes.weight_source;
  if (in.dtypes.weight_from_quant && in.ctx.config) {
    const GemmRole role = gemm_role(in, s);
    const std::string module =
        role == GemmRole::other ? "" : unquantized_module(*in.ctx.config, role);
    if (!module.empty()) {
      wdt = in.dtypes.model;
      weight_source = fmt::format("{} projection listed unquantized ('{}' in {}): model dtype, {}",
                                  gemm_role_name(role), module, in.ctx.config->unquantized_key,
                                  in.dtypes.model_source);
      work.weight_dtype = wdt.key;
      work.compute_dtype = wider_dtype(in.dtypes.act, wdt);
    }
  }
  const double w = wdt.bytes;
  // The output (docs/method.md §8.1): a GEMM that reads activations quantized below the model's
  // dtype writes its output in the model's dtype (fp8 in, bf16 out: vLLM's cutlass_scaled_mm,
  // aiter's and CK's block-scaled GEMMs); otherwise in the activations'.
  const bool narrowed =
      in.dtypes.act.key != in.dtypes.model.key && in.dtypes.act.bytes < in.dtypes.model.bytes;
  const Dtype out_dt = narrowed ? in.dtypes.model : in.dtypes.act;
  const double o = out_dt.bytes;
  const Term b_bytes = part("K·N·w", s.b_batch * s.k * s.n * w);
  const Term bytes = sum("bytes", {part("M·K·a", s.m * s.k * a), b_bytes,
                                   part(narrowed ? "M·N·o" : "M·N·a", s.m * s.n * o)});
  // batched B: A rows already span the batch
  const Term flops = term("flops", "2·M·N·K", 2.0 * s.m * s.n * s.k, TermUnit::flops);
  work.weight_bytes = b_bytes.value;
  work.notes.push_back(fmt::format(
      "dtypes: activations {} ({} B, {}), weights {} ({} B, {}){}", in.dtypes.act.key, a,
      in.dtypes.act_source, wdt.key, w, weight_source,
      narrowed ? fmt::format("; output o {} ({} B: a GEMM that reads activations quantized below "
                             "the model's dtype writes the model's, {})",
                             out_dt.key, o, in.dtypes.model_source)
               : ""));
  work.notes.push_back(render_all({bytes, flops}));
  add_candidate(work, "dense GEMM", bytes, flops);
}

}  // namespace roofline::analyze::detail
