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
                             const ProjectionPlan& plan, const PlanStep& step, bool& spoke) {
  const std::optional<std::set<K>> allowed = kinds_from_module(k.module);
  std::vector<Fitting> out;
  std::set<K> seen;
  spoke = false;
  for (const PlanVariant& v : plan.variants)
    for (const Projection& p : v.projections) {
      if (!seen.insert(p.kind).second) continue;
      if (allowed && allowed->count(p.kind) == 0) continue;
      if (g.place && g.place->count(p.kind) == 0) continue;
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

void assign_by_signature(const std::vector<PlanKernel>& kernels, const ProjectionPlan& plan,
                         const PlanStep& step, const std::vector<KernelGeometry>& geometry,
                         std::vector<ProjectionAssignment>& out) {
  if (!(step.rows > 0)) return;
  for (std::size_t i = 0; i < kernels.size() && i < geometry.size(); ++i) {
    const PlanKernel& k = kernels[i];
    if (!k.launches_per_step || !(*k.launches_per_step > 0)) continue;
    bool spoke = false;
    const std::vector<Fitting> fit = fitting(k, geometry[i], plan, step, spoke);
    if (fit.empty()) continue;
    const double lps = *k.launches_per_step;
    std::vector<const Fitting*> single;
    for (const Fitting& f : fit)
      if (counts_match(lps, f.p.per_step)) single.push_back(&f);
    const bool one_figure =
        !single.empty() && std::all_of(single.begin(), single.end(), [&](const Fitting* f) {
          return f->p.n == single.front()->p.n && f->p.k == single.front()->p.k;
        });
    ProjectionAssignment& a = out[i];
    const std::string module = k.module.empty() ? "" : fmt::format("its module '{}', ", k.module);
    if (one_figure) {
      a.projection = single.front()->p;
      a.m = rows_for(*a.projection, step);
      a.how =
          fmt::format("by its launches: {}the grid ({}) and {} launches a step leave {}", module,
                      single.front()->why, format_g(lps), to_string(a.projection->kind));
      continue;
    }
    const std::vector<std::vector<Projection>> sums = count_sums(fit, plan, lps);
    if (sums.size() != 1) {
      if (sums.size() > 1)
        a.problem = fmt::format(
            "its grid fits {} projections whose launches a step sum to its {} in {} ways ({} or "
            "{}): which it serves is not decided",
            fit.size(), format_g(lps), sums.size(), kinds_text(sums[0]), kinds_text(sums[1]));
      continue;
    }
    a.parts = sums.front();
    for (const Projection& p : a.parts) a.part_m.push_back(rows_for(p, step));
    const auto most = std::max_element(
        a.parts.begin(), a.parts.end(),
        [](const Projection& x, const Projection& y) { return x.per_step < y.per_step; });
    a.projection = *most;
    a.m = rows_for(*a.projection, step);
    a.how = fmt::format(
        "by its launches: {}{} launches a step are exactly {}, each of whose outputs fits the "
        "grid ({}), and no other set of the plan's projections that fit sums to them",
        module, format_g(lps), kinds_text(a.parts), fit.front().why);
  }
}

}  // namespace roofline::analyze
