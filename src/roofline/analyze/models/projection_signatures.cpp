// docs/method.md §22.4, one kernel serving several projections: a shapeless GEMM's signatures
// placed on the plan's projections by their grids over the kernel's tile, their module paths and
// their launches per step — one projection, or several whose counts sum to the signature's.
#include <algorithm>
#include <cmath>
#include <set>

#include <fmt/format.h>

#include "roofline/analyze/evidence/launch_geometry.hpp"
#include "roofline/analyze/layer.hpp"
#include "roofline/analyze/models/projection_plan.hpp"
#include "roofline/base/units.hpp"

namespace roofline::analyze {
namespace {

using K = ProjectionKind;

bool counts_match(double launches, double per_step) {
  return launches > 0 && per_step > 0 &&
         std::fabs(launches - per_step) <= 0.05 * std::max(launches, per_step);
}

double rows_for(const Projection& p, const PlanStep& step) {
  return p.rows_are_requests ? step.requests : step.rows;
}

// Whether `p` fits the kernel's grid: the grid as recorded, else read as work-items (ROCm);
// nullopt when neither says anything. `why` the arithmetic of the reading that fits.
std::optional<bool> fits_grid(const KernelGeometry& g, const Projection& p, const PlanStep& step,
                              std::string& why) {
  if (!g.tile || g.grid.empty()) return std::nullopt;
  const double m = rows_for(p, step);
  if (!(m > 0)) return std::nullopt;
  std::optional<bool> f = grid_fits(*g.tile, g.grid, p.n, m, step.sm_count, why);
  if (f.value_or(false) || g.grid_workitems.empty()) return f;
  std::string w;
  const std::optional<bool> alt = grid_fits(*g.tile, g.grid_workitems, p.n, m, step.sm_count, w);
  if (alt.value_or(false)) {
    why = fmt::format("the grid read as work-items ({} ÷ the workgroup): {}", g.grid[0], w);
    return alt;
  }
  return f.has_value() ? f : alt;
}

struct Fitting {
  Projection p;
  std::string why;
};

// The plan's projections (each kind once) that kernel `i`'s module and place allow and its grid
// fits; empty when the grid says nothing of any (then `spoke` is false).
std::vector<Fitting> fitting(const PlanKernel& k, const KernelGeometry& g,
                             const ProjectionPlan& plan, const PlanStep& step, bool& spoke,
                             bool use_place = true) {
  const std::optional<std::set<K>> allowed = kinds_from_module(k.module);
  std::vector<Fitting> out;
  std::set<K> seen;
  spoke = false;
  for (const PlanVariant& v : plan.variants)
    for (const Projection& p : v.projections) {
      if (!seen.insert(p.kind).second) continue;
      if (allowed && allowed->count(p.kind) == 0) continue;
      if (use_place && g.place && g.place->count(p.kind) == 0) continue;
      std::string why;
      const std::optional<bool> f = fits_grid(g, p, step, why);
      spoke = spoke || f.has_value();
      if (f.value_or(false)) out.push_back({p, why});
    }
  return out;
}

// The sets of fitting projections of one variant (two or more) whose counts a step sum to
// `launches`: an exact search over at most a dozen projections.
std::vector<std::vector<Projection>> count_sums(const std::vector<Fitting>& fit,
                                                const ProjectionPlan& plan, double launches) {
  std::vector<std::vector<Projection>> out;
  std::set<std::set<K>> seen;
  for (const PlanVariant& v : plan.variants) {
    std::vector<Projection> in;
    for (const Projection& p : v.projections)
      if (std::any_of(fit.begin(), fit.end(), [&](const Fitting& f) { return f.p.kind == p.kind; }))
        in.push_back(p);
    if (in.size() < 2 || in.size() > 16) continue;
    for (std::uint32_t mask = 1; mask < (1u << in.size()); ++mask) {
      if (__builtin_popcount(mask) < 2) continue;
      double sum = 0;
      std::vector<Projection> set;
      std::set<K> kinds;
      for (std::size_t j = 0; j < in.size(); ++j)
        if (mask & (1u << j)) sum += in[j].per_step, set.push_back(in[j]), kinds.insert(in[j].kind);
      if (counts_match(launches, sum) && seen.insert(kinds).second) out.push_back(std::move(set));
    }
  }
  return out;
}

std::string kinds_text(const std::vector<Projection>& ps) {
  std::string out;
  for (const Projection& p : ps)
    out +=
        fmt::format("{}{} ×{}", out.empty() ? "" : " + ", to_string(p.kind), format_g(p.per_step));
  return out;
}

}  // namespace

std::optional<std::set<ProjectionKind>> kinds_from_module(const std::string& module) {
  if (module.empty()) return std::nullopt;
  const auto has = [&](std::string_view t) { return module.find(t) != std::string::npos; };
  const bool row = has("RowParallelLinear"), merged = has("MergedColumnParallelLinear");
  const bool qkv = has("QKVParallelLinear"), replicated = has("ReplicatedLinear");
  const bool column = has("ColumnParallelLinear") && !merged;
  if (has("LMHead") || has("LogitsProcessor") || has("lm_head")) return std::set<K>{K::lm_head};
  if (has("Attention") || has("Attn") || has("MLA")) {
    if (row) return std::set<K>{K::o};
    if (qkv) return std::set<K>{K::qkv};
    if (merged) return std::set<K>{K::qkv_a, K::qkv};
    if (column) return std::set<K>{K::q, K::k, K::v, K::q_b, K::kv_b, K::qkv};
    if (replicated) return std::set<K>{K::q_a, K::kv_a, K::qkv_a};
    return std::nullopt;
  }
  const bool shared = has("Shared") || has("shared");
  if (has("MLP") || has("FFN") || has("FeedForward") || has("Expert")) {
    if (merged)
      return shared ? std::set<K>{K::shared_gate_up} : std::set<K>{K::gate_up, K::shared_gate_up};
    if (row) return shared ? std::set<K>{K::shared_down} : std::set<K>{K::down, K::shared_down};
    if (column) return std::set<K>{K::gate, K::up, K::shared_gate_up};
    return std::nullopt;
  }
  if ((has("MoE") || has("Moe") || has("Router") || has("Gate")) && replicated)
    return std::set<K>{K::router};
  if (has("Mamba") || has("Mixer")) {
    if (row) return std::set<K>{K::ssm_out};
    if (merged || column) return std::set<K>{K::ssm_in, K::ssm_x, K::ssm_dt};
  }
  if (has("DeltaNet") || has("LinearAttention")) {
    if (row) return std::set<K>{K::la_out};
    if (merged || column) return std::set<K>{K::la_qkvz, K::la_ba};
  }
  return std::nullopt;
}

namespace {

// Pass one: a signature whose grid (and module, and place) leaves projections of one figure
// launched as often as it is, is that projection. True when it decided.
bool assign_single(const PlanKernel& k, const std::vector<Fitting>& fit, const PlanStep& step,
                   ProjectionAssignment& a) {
  const double lps = *k.launches_per_step;
  std::vector<const Fitting*> single;
  for (const Fitting& f : fit)
    if (counts_match(lps, f.p.per_step)) single.push_back(&f);
  if (single.empty() || !std::all_of(single.begin(), single.end(), [&](const Fitting* f) {
        return f->p.n == single.front()->p.n && f->p.k == single.front()->p.k;
      }))
    return false;
  a.projection = single.front()->p;
  a.m = rows_for(*a.projection, step);
  a.how = fmt::format("by its launches: {}the grid ({}) and {} launches a step leave {}",
                      k.module.empty() ? "" : fmt::format("its module '{}', ", k.module),
                      single.front()->why, format_g(lps), to_string(a.projection->kind));
  return true;
}

// The plan's variants that hold every kind pass one placed (fused qkv placed rules out a split q):
// the sets of pass two are sought in them only.
ProjectionPlan consistent_variants(const ProjectionPlan& plan,
                                   const std::vector<ProjectionAssignment>& out) {
  ProjectionPlan kept = plan;
  kept.variants.clear();
  for (const PlanVariant& v : plan.variants) {
    const bool holds = std::all_of(out.begin(), out.end(), [&](const ProjectionAssignment& a) {
      return !a.projection ||
             std::any_of(v.projections.begin(), v.projections.end(),
                         [&](const Projection& p) { return p.kind == a.projection->kind; });
    });
    if (holds) kept.variants.push_back(v);
  }
  return kept.variants.empty() ? plan : kept;
}

// Pass two: a signature launched as often as a set of fitting projections together is that set.
void assign_set(const PlanKernel& k, const KernelGeometry& g, const std::vector<Fitting>& fit,
                const ProjectionPlan& plan, const PlanStep& step, ProjectionAssignment& a) {
  const double lps = *k.launches_per_step;
  std::vector<std::vector<Projection>> sums = count_sums(fit, plan, lps);
  // A signature that serves several projections stands beside several neighbours; its place
  // (its most common neighbour's) speaks for one of them only: the sets are sought without it.
  if (sums.empty() && g.place) {
    bool spoke = false;
    sums = count_sums(fitting(k, g, plan, step, spoke, false), plan, lps);
  }
  if (sums.size() != 1) {
    if (sums.size() > 1)
      a.problem = fmt::format(
          "its grid fits projections whose launches a step sum to its {} in {} ways ({} or {}): "
          "which it serves is not decided",
          format_g(lps), sums.size(), kinds_text(sums[0]), kinds_text(sums[1]));
    return;
  }
  a.parts = sums.front();
  for (const Projection& p : a.parts) a.part_m.push_back(rows_for(p, step));
  a.projection = *std::max_element(
      a.parts.begin(), a.parts.end(),
      [](const Projection& x, const Projection& y) { return x.per_step < y.per_step; });
  a.m = rows_for(*a.projection, step);
  a.how = fmt::format(
      "by its launches: {}{} launches a step are exactly {}, each of whose outputs fits the grid "
      "({}), and no other set of the plan's projections that fit sums to them",
      k.module.empty() ? "" : fmt::format("its module '{}', ", k.module), format_g(lps),
      kinds_text(a.parts), fit.front().why);
}

}  // namespace

void assign_by_signature(const std::vector<PlanKernel>& kernels, const ProjectionPlan& plan,
                         const PlanStep& step, const std::vector<KernelGeometry>& geometry,
                         std::vector<ProjectionAssignment>& out) {
  if (!(step.rows > 0)) return;
  const auto usable = [&](std::size_t i) {
    return i < geometry.size() && kernels[i].launches_per_step && *kernels[i].launches_per_step > 0;
  };
  std::vector<std::vector<Fitting>> fits(kernels.size());
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    if (!usable(i)) continue;
    bool spoke = false;
    fits[i] = fitting(kernels[i], geometry[i], plan, step, spoke);
    if (!fits[i].empty()) assign_single(kernels[i], fits[i], step, out[i]);
  }
  const ProjectionPlan variants = consistent_variants(plan, out);
  for (std::size_t i = 0; i < kernels.size(); ++i)
    if (usable(i) && !out[i].projection && !fits[i].empty())
      assign_set(kernels[i], geometry[i], fits[i], variants, step, out[i]);
}

}  // namespace roofline::analyze
