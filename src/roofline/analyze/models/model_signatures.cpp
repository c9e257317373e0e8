// docs/method.md §22.8: an entry's signatures — what each is called, and the checks that decide
// whether their models can stand for the entry (a Top-N without counts, the modelled share).
#include <algorithm>
#include <cmath>
#include <functional>

#include <fmt/format.h>

#include "roofline/analyze/models/models.hpp"
#include "roofline/analyze/models/projection_plan.hpp"

namespace roofline::analyze::detail {
namespace {

// The op's own name without its namespace ("aten::mm" -> "mm", "_vllm_fa2_C::varlen_fwd" ->
// "varlen_fwd"); the module path's innermost module when there is one.
std::string op_or_module(const CaseSignature& s) {
  if (!s.module.empty()) {
    const auto dot = s.module.rfind('.');
    return dot == std::string::npos ? s.module : s.module.substr(dot + 1);
  }
  const auto colon = s.op.rfind("::");
  return colon == std::string::npos ? s.op : s.op.substr(colon + 2);
}

// Whether a projection can be the GEMM of a vLLM / SGLang parallel-linear module class: a
// row-parallel layer is an output projection (o, down), a QKV or merged-column layer an input one.
// Other modules (or none) say nothing.
bool module_allows(const std::string& module, ProjectionKind k) {
  using K = ProjectionKind;
  const auto dot = module.rfind('.');
  const std::string cls = dot == std::string::npos ? module : module.substr(dot + 1);
  if (cls == "RowParallelLinear") return k == K::o || k == K::down || k == K::shared_down;
  if (cls == "QKVParallelLinear") return k == K::qkv || k == K::q || k == K::k || k == K::v;
  if (cls == "MergedColumnParallelLinear")
    return k == K::gate_up || k == K::gate || k == K::up || k == K::shared_gate_up;
  return true;
}

// The projections of the config's linear plan with the GEMM's N and K: [M, K]·[K, N] (aten::mm)
// or [M, K]·[N, K] (a linear's weight), narrowed by the module's class where it says which side of
// the layer it is. Projections of one shape (q and o, gate and up) are named together,
// "q_proj / o_proj"; more than three name none.
std::string projection_name(const ProbeCase& c, const ModelContext& ctx) {
  if (!ctx.config || c.dims.size() < 2 || c.dims[0].size() != 2 || c.dims[1].size() != 2) return {};
  const double tp = ctx.env && ctx.env->tp > 0 ? ctx.env->tp : 1.0;
  const ProjectionPlan plan = projection_plan(*ctx.config, tp);
  const auto k = static_cast<double>(c.dims[0][1]);
  const auto& w = c.dims[1];
  std::vector<ProjectionKind> kinds;  // in the plan's layer order: q before o, gate before up
  for (const PlanVariant& v : plan.variants)
    for (const Projection& p : v.projections) {
      const bool kn =
          p.k == k && ((static_cast<double>(w[0]) == k && p.n == static_cast<double>(w[1])) ||
                       (static_cast<double>(w[1]) == k && p.n == static_cast<double>(w[0])));
      if (kn && std::find(kinds.begin(), kinds.end(), p.kind) == kinds.end())
        kinds.push_back(p.kind);
    }
  const std::string& module = c.signature ? c.signature->module : std::string();
  std::vector<ProjectionKind> narrowed;
  for (ProjectionKind kind : kinds)
    if (module_allows(module, kind)) narrowed.push_back(kind);
  if (!narrowed.empty()) kinds = std::move(narrowed);
  if (kinds.empty() || kinds.size() > 3) return {};
  std::sort(kinds.begin(), kinds.end());
  std::string joined;
  for (ProjectionKind kind : kinds)
    joined += (joined.empty() ? "" : " / ") + projection_label(kind);
  return joined;
}

}  // namespace

// A GEMM's operands as its op's roles give them: the input, then the weight
// (`_C::cutlass_scaled_mm` records its output first); the first two recorded otherwise.
std::vector<std::size_t> gemm_operands(const ProbeCase& c, const std::string& op) {
  std::vector<std::size_t> out;
  if (const OpRow* row = op.empty() ? nullptr : find_op_row(builtin_op_table(), op)) {
    for (ArgRole role : {ArgRole::in, ArgRole::weight})
      for (const OpArgSpec& a : row->args)
        if (a.role == role && a.position < c.dims.size()) out.push_back(a.position);
    if (out.size() == 2) return out;
    out.clear();
  }
  for (std::size_t i = 0; i < std::min<std::size_t>(c.dims.size(), 2); ++i) out.push_back(i);
  return out;
}

std::string signature_label(const ProbeCase& c, OpClass cls, const ModelContext& ctx) {
  const CaseSignature none;
  const CaseSignature& s = c.signature ? *c.signature : none;
  std::string name = !c.planned.empty()     ? c.planned + " (linear plan)"
                     : cls == OpClass::gemm ? projection_name(c, ctx)
                                            : std::string();
  if (name.empty()) name = op_or_module(s);
  std::string shape;
  const std::size_t shown = std::min<std::size_t>(c.dims.size(), cls == OpClass::gemm ? 2 : 3);
  if (cls == OpClass::gemm) {
    const std::vector<std::size_t> at = gemm_operands(c, s.op);
    for (std::size_t i = 0; i < at.size(); ++i) shape += (i ? "·" : "") + dims_label(c.dims[at[i]]);
  } else {
    for (std::size_t i = 0; i < shown; ++i) shape += (i ? "·" : "") + dims_label(c.dims[i]);
  }
  if (c.dims.size() > shown && cls != OpClass::gemm)  // a GEMM's third is its out
    shape += fmt::format("·… (+{})", c.dims.size() - shown);
  for (const ProbeScalar& k : s.scalars)  // a named flag (`causal`), not an unnamed `argN`
    if ((k.value == "True" || k.value == "true") && k.name.rfind("arg", 0) != 0)
      shape += " " + k.name;
  if ((c.dims.empty() || !c.planned.empty()) && !s.grid.empty())
    shape = fmt::format("{}grid {} block {}", c.planned.empty() ? "" : shape + " ",
                        dims_label(s.grid), dims_label(s.block));
  if (name.empty()) name = s.replay ? "graph replay" : "no op";
  return shape.empty() ? name : name + " " + shape;
}

namespace {

// What tells apart signatures whose labels read the same: their grid and block where those
// differ, else their dtypes, else their order; "" for a label that is already unique.
std::string tell_apart(const std::vector<SignatureWork>& rows, const std::vector<std::size_t>& same,
                       std::size_t i) {
  const auto launch = [&](std::size_t k) {
    const CaseSignature* s = rows[k].source.signature ? &*rows[k].source.signature : nullptr;
    return s && !s->grid.empty()
               ? fmt::format("grid {} block {}", dims_label(s->grid), dims_label(s->block))
               : std::string();
  };
  const auto types = [&](std::size_t k) {
    std::string t;
    for (const std::string& d : rows[k].source.dtypes) t += (t.empty() ? "" : ", ") + d;
    return t.empty() ? t : "(" + t + ")";
  };
  for (const auto& key : {std::function<std::string(std::size_t)>(launch),
                          std::function<std::string(std::size_t)>(types)}) {
    bool distinct = true;
    for (std::size_t a = 0; a < same.size() && distinct; ++a)
      for (std::size_t b = a + 1; b < same.size() && distinct; ++b)
        distinct = !key(same[a]).empty() && key(same[a]) != key(same[b]);
    if (distinct && rows[i].label.find(key(i)) == std::string::npos) return " " + key(i);
  }
  const auto at = std::find(same.begin(), same.end(), i) - same.begin();
  return fmt::format(" #{}", at + 1);
}

}  // namespace

void distinct_labels(std::vector<SignatureWork>& rows) {
  std::vector<std::string> suffix(rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    std::vector<std::size_t> same;
    for (std::size_t k = 0; k < rows.size(); ++k)
      if (rows[k].label == rows[i].label) same.push_back(k);
    if (same.size() > 1) suffix[i] = tell_apart(rows, same, i);
  }
  for (std::size_t i = 0; i < rows.size(); ++i) rows[i].label += suffix[i];
}

bool beyond_band(double a, double b) {
  const double lo = std::min(a, b), hi = std::max(a, b);
  return hi > 0 && (lo <= 0 || hi / lo > 1.15);
}

std::string dims_label(const std::vector<std::int64_t>& d) {
  std::string s = "[";
  for (std::size_t i = 0; i < d.size(); ++i) s += fmt::format("{}{}", i ? "×" : "", d[i]);
  return s + "]";
}

std::optional<std::string> signatures_disagree(const std::vector<SignatureWork>& sigs) {
  double lo_b = 0, hi_b = 0, lo_f = 0, hi_f = 0;
  bool first = true;
  for (const SignatureWork& s : sigs) {
    if (!s.modeled) continue;
    const double b = s.bytes / s.unit_launches, f = s.flops / s.unit_launches;
    lo_b = first ? b : std::min(lo_b, b);
    hi_b = first ? b : std::max(hi_b, b);
    lo_f = first ? f : std::min(lo_f, f);
    hi_f = first ? f : std::max(hi_f, f);
    first = false;
  }
  if (first || (!beyond_band(lo_b, hi_b) && !beyond_band(lo_f, hi_f))) return std::nullopt;
  return fmt::format(
      "the Top-N's call signatures carry no counts or times, and their models differ by more than "
      "the 15 % band ({:.4g} to {:.4g} B, {:.4g} to {:.4g} FLOPs a launch): no equal-weight mean "
      "stands for the entry (profile_workload.json beside the Top-N gives each signature its "
      "launches and time)",
      lo_b, hi_b, lo_f, hi_f);
}

double modelled_share(const std::vector<SignatureWork>& sigs) {
  double all = 0.0, modelled = 0.0;
  for (const SignatureWork& s : sigs) {
    const double t = s.count * s.t_launch_ms;
    all += t;
    if (s.modeled) modelled += t;
  }
  return all > 0 ? modelled / all : 0.0;
}

}  // namespace roofline::analyze::detail
