// Shapeless GEMM kernels assigned to the linear plan's projections (docs/method.md, kernels
// without shapes): by launches per step, then by module path, else jointly.
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

bool count_matches(double launches, double per_step) {
  return launches > 0 && per_step > 0 &&
         std::fabs(launches - per_step) <= 0.05 * std::max(launches, per_step);
}

double rows_of(const Projection& p, const PlanStep& step) {
  return p.rows_are_requests ? step.requests : step.rows;
}

// The figure projections are ordered by: bytes at decode, FLOPs at prefill.
double order_key(const Projection& p, const PlanStep& step) {
  const double m = rows_of(p, step);
  return step.prefill ? projection_flops(p, m)
                      : projection_bytes(p, m, step.act_bytes, step.weight_bytes);
}

std::string describe(const Projection& p, const PlanStep& step) {
  const double m = rows_of(p, step);
  return fmt::format(
      "{} [M={}, K={}]×[K, N={}] ({}; {}, {:.4g} FLOP)", to_string(p.kind), format_g(m),
      format_g(p.k), format_g(p.n), p.sharding,
      format_bytes(projection_bytes(p, m, step.act_bytes, step.weight_bytes), Digits::exact),
      projection_flops(p, m));
}

std::string list(const std::vector<Projection>& ps, const PlanStep& step) {
  std::string out;
  for (const Projection& p : ps) out += (out.empty() ? "" : "; ") + describe(p, step);
  return out;
}

// The projections of `v` launched `per_step` times a step, but those already `taken`.
std::vector<Projection> at_count(const PlanVariant& v, double per_step,
                                 const std::set<ProjectionKind>& taken = {}) {
  std::vector<Projection> out;
  for (const Projection& p : v.projections)
    if (count_matches(per_step, p.per_step) && taken.count(p.kind) == 0) out.push_back(p);
  return out;
}

// Module path -> projection (SERVING-style class names of vLLM and SGLang); nullopt when the
// path does not say.
std::optional<ProjectionKind> kind_from_module(const std::string& module) {
  auto has = [&](std::string_view t) { return module.find(t) != std::string::npos; };
  const bool shared = has("Shared") || has("shared");
  if (has("QKVParallelLinear")) return ProjectionKind::qkv;
  if (has("ParallelLMHead") || has("LMHead") || has("lm_head")) return ProjectionKind::lm_head;
  if (has("MergedColumnParallelLinear"))
    return shared ? ProjectionKind::shared_gate_up : ProjectionKind::gate_up;
  if (has("RowParallelLinear")) {
    if (has("Attention") || has("Attn")) return ProjectionKind::o;
    if (has("MLP") || has("FFN") || has("FeedForward") || has("Expert"))
      return shared ? ProjectionKind::shared_down : ProjectionKind::down;
  }
  if (has("ReplicatedLinear") && (has("Gate") || has("Router") || has("MoE") || has("Moe")))
    return ProjectionKind::router;
  return std::nullopt;
}

struct Group {
  double per_step = 0;
  std::vector<std::size_t> kernels;  // indices into the kernel list
  std::set<ProjectionKind> taken;    // projections the launch geometry already gave
};

// By module path: every kernel of the group names a distinct projection of one variant.
bool assign_by_module(const Group& g, const std::vector<PlanKernel>& kernels,
                      const ProjectionPlan& plan, const PlanStep& step,
                      std::vector<ProjectionAssignment>& out) {
  for (const PlanVariant& v : plan.variants) {
    const std::vector<Projection> ps = at_count(v, g.per_step, g.taken);
    std::vector<const Projection*> chosen;
    std::set<ProjectionKind> used;
    for (std::size_t i : g.kernels) {
      const auto kind = kind_from_module(kernels[i].module);
      const Projection* hit = nullptr;
      for (const Projection& p : ps)
        if (kind && p.kind == *kind) hit = &p;
      if (!hit || !used.insert(hit->kind).second) break;
      chosen.push_back(hit);
    }
    if (chosen.size() != g.kernels.size()) continue;
    for (std::size_t j = 0; j < chosen.size(); ++j) {
      ProjectionAssignment& a = out[g.kernels[j]];
      a.projection = *chosen[j];
      a.m = rows_of(*chosen[j], step);
      a.how = fmt::format("by module path ('{}' is {}, {})", kernels[g.kernels[j]].module,
                          to_string(chosen[j]->kind), v.name);
    }
    return true;
  }
  return false;
}

// Jointly, within one variant: kernels by time against projections by bytes or FLOPs. Returns ""
// or why the pairing fails (a time tie, an infeasible pair).
std::string pair_jointly(const Group& g, const std::vector<PlanKernel>& kernels,
                         std::vector<Projection> ps, const PlanStep& step,
                         std::vector<std::pair<std::size_t, Projection>>& pairs) {
  std::vector<std::size_t> ks = g.kernels;
  std::stable_sort(ks.begin(), ks.end(),
                   [&](std::size_t a, std::size_t b) { return kernels[a].t_ms > kernels[b].t_ms; });
  std::stable_sort(ps.begin(), ps.end(), [&](const Projection& a, const Projection& b) {
    return order_key(a, step) > order_key(b, step);
  });
  for (std::size_t j = 0; j + 1 < ks.size(); ++j) {
    const double t1 = kernels[ks[j]].t_ms, t2 = kernels[ks[j + 1]].t_ms;
    if (std::fabs(t1 - t2) <= 0.05 * std::max(t1, t2) &&
        order_key(ps[j], step) != order_key(ps[j + 1], step))
      return fmt::format(
          "'{}' and '{}' take the same time within 5 % ({} and {} µs): which is "
          "{} and which {} is not decided",
          kernels[ks[j]].name, kernels[ks[j + 1]].name, format_g(t1 * 1000.0),
          format_g(t2 * 1000.0), to_string(ps[j].kind), to_string(ps[j + 1].kind));
  }
  for (std::size_t j = 0; j < ks.size(); ++j) {
    const double m = rows_of(ps[j], step);
    const double bytes = projection_bytes(ps[j], m, step.act_bytes, step.weight_bytes);
    const double budget = step.peak_bw_bytes_s.value_or(0.0) * kernels[ks[j]].t_ms / 1000.0;
    if (step.peak_bw_bytes_s && bytes > budget)
      return fmt::format("'{}' as {} is infeasible: {} in {} µs needs more than peak_bw × t = {}",
                         kernels[ks[j]].name, to_string(ps[j].kind),
                         format_bytes(bytes, Digits::exact), format_g(kernels[ks[j]].t_ms * 1000.0),
                         format_bytes(budget, Digits::exact));
    pairs.emplace_back(ks[j], ps[j]);
  }
  return {};
}

// Jointly: the variants whose projection count at this launch count equals the kernel count.
void assign_jointly(const Group& g, const std::vector<PlanKernel>& kernels,
                    const ProjectionPlan& plan, const PlanStep& step,
                    std::vector<ProjectionAssignment>& out) {
  std::vector<std::pair<std::string, std::vector<std::pair<std::size_t, Projection>>>> fits;
  std::vector<std::string> failures;
  std::set<std::string> seen;  // variants with the same projections at this count are one
  for (const PlanVariant& v : plan.variants) {
    const std::vector<Projection> ps = at_count(v, g.per_step, g.taken);
    if (ps.size() != g.kernels.size()) continue;
    std::string key;
    for (const Projection& p : ps) key += std::string(to_string(p.kind)) + ",";
    if (!seen.insert(key).second) continue;
    std::vector<std::pair<std::size_t, Projection>> pairs;
    const std::string why = pair_jointly(g, kernels, ps, step, pairs);
    if (why.empty())
      fits.emplace_back(v.name, std::move(pairs));
    else
      failures.push_back(fmt::format("{}: {}", v.name, why));
  }
  const std::string count =
      fmt::format("{} kernel(s) launched {} times a step", g.kernels.size(), format_g(g.per_step));
  if (fits.size() == 1) {
    for (const auto& [i, p] : fits.front().second) {
      ProjectionAssignment& a = out[i];
      a.projection = p;
      a.m = rows_of(p, step);
      a.how = fmt::format("jointly ({}; {}): by per-launch time against the projections by {}",
                          count, fits.front().first, step.prefill ? "FLOPs" : "bytes");
    }
    return;
  }
  std::string why =
      fits.size() > 1
          ? fmt::format("{}: {} plan variants fit and the times do not decide", count, fits.size())
      : failures.empty() ? fmt::format("{}: no plan variant has {} projections at that count",
                                       count, g.kernels.size())
                         : fmt::format("{}: {}", count, failures.front());
  for (std::size_t i : g.kernels) out[i].problem = why;
}

// What kernel `i`'s grid says of projection `p` (nullopt: nothing), with the arithmetic.
std::optional<bool> fits(const std::vector<KernelGeometry>& geometry, std::size_t i,
                         const Projection& p, const PlanStep& step, std::string& why) {
  if (i >= geometry.size() || !geometry[i].tile) return std::nullopt;
  return grid_fits(*geometry[i].tile, geometry[i].grid, p.n, rows_of(p, step), step.sm_count, why);
}

// The candidates of kernel `i` its grid and place leave (docs/method.md §22.4), and whether either
// said anything; `why` the arithmetic and the neighbours.
std::vector<const Projection*> left_by_launch(const Group& g, const ProjectionAssignment& a,
                                              const std::vector<KernelGeometry>& geometry,
                                              std::size_t i, const PlanStep& step,
                                              const ProjectionPlan* plan, std::size_t group_size,
                                              bool& spoke, std::string& why) {
  const KernelGeometry* kg = i < geometry.size() ? &geometry[i] : nullptr;
  const bool placed = kg && kg->place;
  std::vector<const Projection*> out;
  std::vector<bool> said;  // per kept candidate: the grid spoke of it
  bool grid_spoke = false, any_fit = false;
  std::string grid_why;
  for (const Projection& p : a.candidates) {
    if (g.taken.count(p.kind) || (placed && kg->place->count(p.kind) == 0)) continue;
    std::string w;
    const std::optional<bool> f = fits(geometry, i, p, step, w);
    grid_spoke = grid_spoke || f.has_value();
    if (f && !*f) continue;
    if (f) grid_why = w, any_fit = true;
    out.push_back(&p);
    said.push_back(f.has_value());
  }
  // A grid that is one candidate's tile count is not persistent: the candidates it said nothing
  // of (a multiple of the SMs that is not their tiles) do not fit it either.
  if (any_fit) {
    std::vector<const Projection*> kept;
    for (std::size_t j = 0; j < out.size(); ++j)
      if (said[j]) kept.push_back(out[j]);
    out = std::move(kept);
  }
  spoke = grid_spoke || placed;
  if (placed) why = "its place in the layer: " + kg->place_why;
  // Where several are left, only a variant with one projection per kernel of the group can hold
  // them all (the joint rule's premise): its projections stand, when that leaves any.
  if (out.size() > 1 && plan) {
    std::set<ProjectionKind> whole;
    for (const PlanVariant& v : plan->variants)
      if (const auto ps = at_count(v, g.per_step); ps.size() == group_size)
        for (const Projection& p : ps) whole.insert(p.kind);
    std::vector<const Projection*> kept;
    for (const Projection* p : out)
      if (whole.count(p->kind)) kept.push_back(p);
    if (!kept.empty() && kept.size() < out.size()) {
      out = std::move(kept);
      why += fmt::format("{}of the plan variants with {} projections launched {} times a step",
                         why.empty() ? "" : "; ", group_size, format_g(g.per_step));
    }
  }
  if (!grid_why.empty()) why = grid_why + (why.empty() ? "" : "; " + why);
  return out;
}

// docs/method.md §22.4: the launch first — a kernel whose grid (over its tile) and place in the
// layer leave exactly one of its candidates is that projection; the group keeps the rest for the
// other rules.
void assign_by_geometry(Group& g, const std::vector<KernelGeometry>& geometry, const PlanStep& step,
                        const ProjectionPlan& plan, std::vector<ProjectionAssignment>& out) {
  const std::size_t group_size = g.kernels.size();
  std::vector<std::size_t> rest;
  for (std::size_t i : g.kernels) {
    ProjectionAssignment& a = out[i];
    bool spoke = false;
    std::string why;
    const std::vector<const Projection*> left =
        left_by_launch(g, a, geometry, i, step, &plan, group_size, spoke, why);
    if (!spoke || left.size() != 1) {
      rest.push_back(i);
      continue;
    }
    a.projection = *left.front();
    a.m = rows_of(*a.projection, step);
    a.how =
        fmt::format("by its launches: {}; of the candidates launched {} times a step only {} fits",
                    why, format_g(g.per_step), to_string(a.projection->kind));
    g.taken.insert(a.projection->kind);
  }
  g.kernels = std::move(rest);
}

// A pairing the grids or the places contradict is no assignment: its kernels say why.
void check_geometry(const Group& g, const std::vector<KernelGeometry>& geometry,
                    const PlanStep& step, std::vector<ProjectionAssignment>& out) {
  for (std::size_t i : g.kernels) {
    if (!out[i].projection) continue;
    std::string why;
    const ProjectionKind kind = out[i].projection->kind;
    if (i < geometry.size() && geometry[i].place && geometry[i].place->count(kind) == 0)
      why = "its place in the layer: " + geometry[i].place_why;
    else if (std::string w; !fits(geometry, i, *out[i].projection, step, w).value_or(true))
      why = "the launch geometry: " + w;
    if (why.empty()) continue;
    const std::string problem = fmt::format("the assignment ({}) is contradicted by {} of {}",
                                            out[i].how, why, to_string(kind));
    for (std::size_t j : g.kernels) {
      out[j].projection.reset();
      out[j].problem = problem;
    }
    return;
  }
}

// Each kernel's candidates (the projections launched as often as it is) and the groups of
// kernels that share a launch count; a kernel with none says why.
std::vector<Group> form_groups(const std::vector<PlanKernel>& kernels, const ProjectionPlan& plan,
                               std::vector<ProjectionAssignment>& out) {
  std::vector<Group> groups;
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    ProjectionAssignment& a = out[i];
    if (a.projection || !a.problem.empty())
      continue;  // decided by its grid (projection_signatures)
    const auto& lps = kernels[i].launches_per_step;
    if (plan.variants.empty()) {
      a.problem = "no linear plan: the config lacks " + plan.missing;
      continue;
    }
    if (!lps || !(*lps > 0)) {
      a.problem = "launches per step unknown: no projection count to match";
      continue;
    }
    std::set<ProjectionKind> kinds;
    double per_step = 0;
    for (const PlanVariant& v : plan.variants)
      for (const Projection& p : v.projections)
        if (count_matches(*lps, p.per_step) && kinds.insert(p.kind).second) {
          a.candidates.push_back(p);
          per_step = p.per_step;
        }
    if (a.candidates.empty()) {
      a.problem = fmt::format(
          "{} launches a step match no projection count of the plan ({}): it may serve several "
          "projections, or layers the plan does not cover",
          format_g(*lps), plan.description);
      continue;
    }
    auto g = std::find_if(groups.begin(), groups.end(),
                          [&](const Group& x) { return x.per_step == per_step; });
    if (g == groups.end()) g = groups.insert(groups.end(), Group{per_step, {}, {}});
    g->kernels.push_back(i);
  }
  return groups;
}

}  // namespace

std::vector<ProjectionAssignment> assign_projections(const std::vector<PlanKernel>& kernels,
                                                     const ProjectionPlan& plan,
                                                     const PlanStep& step,
                                                     const std::vector<KernelGeometry>& geometry) {
  std::vector<ProjectionAssignment> out(kernels.size());
  assign_by_signature(kernels, plan, step, geometry, out);
  std::vector<Group> groups = form_groups(kernels, plan, out);
  for (Group& g : groups) {
    // What the grids already placed is taken for the kernels launched as often (docs/method.md
    // §22.4: the others of the group share what is left).
    for (std::size_t i = 0; i < out.size(); ++i)
      if (out[i].projection && out[i].parts.empty() && kernels[i].launches_per_step &&
          count_matches(*kernels[i].launches_per_step, g.per_step))
        g.taken.insert(out[i].projection->kind);
    assign_by_geometry(g, geometry, step, plan, out);
    if (g.kernels.empty()) continue;
    const bool modules = std::all_of(g.kernels.begin(), g.kernels.end(),
                                     [&](std::size_t i) { return !kernels[i].module.empty(); });
    std::vector<Projection> left;
    for (const Projection& p : out[g.kernels[0]].candidates)
      if (g.taken.count(p.kind) == 0) left.push_back(p);
    if (g.kernels.size() == 1 && left.size() == 1) {
      ProjectionAssignment& a = out[g.kernels[0]];
      std::vector<std::pair<std::size_t, Projection>> pairs;
      a.problem = pair_jointly(g, kernels, left, step, pairs);
      if (!a.problem.empty()) continue;
      a.projection = left.front();
      a.m = rows_of(*a.projection, step);
      a.how = fmt::format("by launches per step: the only projection launched {} times a step{}",
                          format_g(g.per_step), g.taken.empty() ? "" : " the grids left");
    } else if (!(modules && assign_by_module(g, kernels, plan, step, out))) {
      assign_jointly(g, kernels, plan, step, out);
    }
    check_geometry(g, geometry, step, out);
  }
  for (ProjectionAssignment& a : out)
    if (!a.problem.empty() && !a.candidates.empty())
      a.problem += "; candidates: " + list(a.candidates, step);
  return out;
}

namespace {

// The candidates of one kernel whose place allows them and whose output fits its grid at some
// rows, each with the rows that fit; `why` the grid's arithmetic for the last one that fits.
std::vector<std::pair<Projection, RowRange>> grid_candidates(const ProjectionAssignment& a,
                                                             const KernelGeometry& g,
                                                             const PlanStep& step,
                                                             std::string& why) {
  std::vector<std::pair<Projection, RowRange>> fit;
  for (const Projection& p : a.candidates) {
    if (g.place && g.place->count(p.kind) == 0) continue;
    std::string w;
    if (auto r = grid_rows(*g.tile, g.grid, p.n, step.sm_count, w)) {
      fit.emplace_back(p, *r);
      why = w;
    } else if (fit.empty()) {
      why = w;
    }
  }
  return fit;
}

// The rows' top cut at what the measured time allows (docs/method.md §9): the bytes grow with M
// (M·K + M·N activations over the K·N weights). False when even the bottom does not fit.
bool cut_rows_by_time(const Projection& p, const PlanKernel& k, const PlanStep& step, RowRange& r,
                      std::string& why) {
  if (!step.peak_bw_bytes_s || !(k.t_ms > 0)) return true;
  const double budget = *step.peak_bw_bytes_s * k.t_ms * 1e-3;
  const double at0 = projection_bytes(p, 0, step.act_bytes, step.weight_bytes);
  const double per_row = projection_bytes(p, 1, step.act_bytes, step.weight_bytes) - at0;
  const double most = std::floor((budget - at0) / per_row);
  if (most < r.lo) return false;
  if (most >= r.hi) return true;
  why += fmt::format("; the measured {} ms allows at most {} at the datasheet bandwidth: M ≤ {}",
                     format_g(k.t_ms), format_bytes(budget, Digits::exact), format_g(most));
  r.hi = most;
  return true;
}

}  // namespace

std::vector<ProjectionAssignment> assign_by_grid_rows(const std::vector<PlanKernel>& kernels,
                                                      const ProjectionPlan& plan,
                                                      const PlanStep& step,
                                                      const std::vector<KernelGeometry>& geometry) {
  std::vector<ProjectionAssignment> out(kernels.size());
  form_groups(kernels, plan, out);  // candidates by launches per step, or why none
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    ProjectionAssignment& a = out[i];
    if (a.candidates.empty()) continue;
    if (i >= geometry.size() || !geometry[i].tile || geometry[i].grid.empty()) {
      a.problem =
          "its name states no tile or its launches no single grid, so the grid does not "
          "bound its rows either";
      continue;
    }
    std::string why;
    const auto fit = grid_candidates(a, geometry[i], step, why);
    if (fit.size() != 1) {
      a.problem = fit.empty() ? fmt::format("the grid does not bound its rows ({})", why)
                              : fmt::format(
                                    "{} of its candidates fit its grid at some rows, so "
                                    "the grid does not say which it is",
                                    fit.size());
      continue;
    }
    auto [p, rows] = fit.front();
    if (!cut_rows_by_time(p, kernels[i], step, rows, why)) {
      a.problem = fmt::format(
          "{} would move more bytes than its measured time allows at every "
          "row count its grid admits ({})",
          to_string(p.kind), why);
      continue;
    }
    a.projection = p;
    a.m = rows.hi;
    if (rows.lo < rows.hi) a.m_lo = rows.lo;
    a.rows_why = why;
    a.how = fmt::format(
        "by launches per step and the grid, no rows measured: of the projections launched {} "
        "times a step only {} fits its grid ({}); M taken at the top, {}{}",
        format_g(*kernels[i].launches_per_step), to_string(p.kind), why, format_g(rows.hi),
        a.m_lo ? fmt::format(", a band down to {}", format_g(rows.lo)) : "");
  }
  return out;
}

}  // namespace roofline::analyze
