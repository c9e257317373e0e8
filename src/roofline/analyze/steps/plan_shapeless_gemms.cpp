// Pass plan_shapeless_gemms (docs/method.md §22.4): the GEMM kernels that carry no shapes, assigned
// to the config's projection plan.
#include "roofline/analyze/steps/plan_shapeless_gemms.hpp"

#include <algorithm>
#include <cmath>
#include <memory>

#include <fmt/format.h>

#include "roofline/analyze/entry/findings.hpp"
#include "roofline/analyze/entry/head_entry.hpp"
#include "roofline/analyze/evidence/layer_place.hpp"
#include "roofline/analyze/layer.hpp"
#include "roofline/analyze/models/models.hpp"
#include "roofline/analyze/models/projection_plan.hpp"
#include "roofline/analyze/steps/classify_head.hpp"
#include "roofline/analyze/steps/pick_regimes.hpp"
#include "roofline/base/units.hpp"
#include "roofline/classify/classify.hpp"

namespace roofline::analyze {
namespace {

bool any_dims(const std::vector<ProbeCase>& cases) {
  return std::any_of(cases.begin(), cases.end(), [](const ProbeCase& c) {
    return std::any_of(c.dims.begin(), c.dims.end(), [](const auto& d) { return !d.empty(); });
  });
}

// True when nothing the run holds gives this entry an operand shape.
bool shapeless(const TopnEntry& t, Regime regime, const EntryEvidence* ev) {
  if (!t.shapes.empty() || !t.signatures.empty()) return false;
  if (const auto& est = t.est_shape.at(regime); est && est->n && est->k) return false;
  if (!ev) return true;
  if (ev->workload && any_dims(ev->workload->cases)) return false;
  return std::none_of(ev->probes.begin(), ev->probes.end(),
                      [](const ProbeKernel* p) { return any_dims(p->cases); });
}

// The step the kernels ran in, as the assignment needs it; `why` says where each figure came from.
PlanStep plan_step(Regime regime, const TopnDocument& topn, const ModelConfig& cfg,
                   const EnvReport* env, const ResolvedPeaks& peaks, std::string& why) {
  PlanStep step;
  step.prefill = regime == Regime::prefill;
  const TopnServing& s = topn.serving;
  const Workload* w = env ? &env->workload : nullptr;
  if (step.prefill) {
    if (s.prefill_tokens_per_step) {
      step.rows = *s.prefill_tokens_per_step;
      why = fmt::format("M = {} tokens a prefill step (serving.prefill_tokens_per_step)",
                        format_g(step.rows));
    } else if (w && w->isl) {
      step.rows = *w->isl;
      why = fmt::format("M = workload.isl {} (no measured prefill tokens)", format_g(step.rows));
    }
    const double req =
        s.prefill_context.requests.value_or(0.0) + s.prefill_generation.requests.value_or(0.0);
    const double steps = s.prefill_context.steps.value_or(s.n_prefill_steps.value_or(1.0));
    step.requests = req > 0 && steps > 0 ? req / steps : 1.0;
    why += fmt::format("; lm_head M = {} requests a step ({})", format_g(step.requests),
                       req > 0 ? "serving.sums.prefill" : "no request count: 1");
  } else {
    if (s.decode_batch) {
      step.rows = *s.decode_batch;
      why = fmt::format("M = {} requests a decode step (serving.decode_batch, measured)",
                        format_g(step.rows));
    } else if (w && w->conc) {
      step.rows = *w->conc;
      why = fmt::format("M = workload.conc {}", format_g(step.rows));
    }
    step.requests = step.rows;
  }
  const auto model = parse_dtype(cfg.dtype);
  step.act_bytes = model ? model->bytes : 2.0;
  step.weight_bytes = step.act_bytes;
  if (cfg.quant_weight_bytes && cfg.unquantized_modules.empty())
    step.weight_bytes = *cfg.quant_weight_bytes;
  why += fmt::format(
      "; activations {} B, weights {} B an element ({})", step.act_bytes, step.weight_bytes,
      cfg.quant_weight_bytes && cfg.unquantized_modules.empty() ? "quantization_config"
      : model                                                   ? "config dtype '" + cfg.dtype + "'"
              : std::string("bf16: no config dtype"));
  step.peak_bw_bytes_s = peaks.hbm_bw_bytes_s;
  if (topn.device && topn.device->cu_count) step.sm_count = topn.device->cu_count;
  return step;
}

// One GEMM of the Top-N without shapes, in a regime; `head` its head entry, when it has one.
struct ShapelessGemm {
  const TopnEntry* top = nullptr;
  HeadEntry* head = nullptr;
  RegimeChoice regime;
};

// Why no linear plan can assign a shapeless GEMM before any assignment is tried — no config, or
// no regime (the step's rows M depend on it, docs/method.md §6.4) — and what settles each
// (docs/method.md §16.4).
std::string unplanned_reason(const RegimeChoice& regime, bool config) {
  std::vector<std::string> lacks, options;
  if (!config) {
    lacks.emplace_back("a model config (no config.json)");
    options.emplace_back("--config FILE");
  }
  if (!regime.known) {
    lacks.push_back(fmt::format("the regime, M being its step's rows ({})", regime.why));
    if (!regime.settled_by.empty()) options.push_back(detail::regime_options(regime));
  }
  return fmt::format("the linear plan needs {}; {}", detail::option_list(lacks, " and "),
                     detail::would_settle(options, " and "));
}

std::vector<ShapelessGemm> shapeless_gemms(std::vector<HeadEntry>& head, const TopnDocument& topn,
                                           const ClassRules& rules, bool config) {
  std::vector<ShapelessGemm> out;
  for (std::size_t i = 0; i < topn.entries.size(); ++i) {
    const TopnEntry& t = topn.entries[i];
    const TopNClass c = topn_class(head, topn, i, rules);
    HeadEntry* he = c.head;
    if (c.cls.op_class != OpClass::gemm || c.cls.detail.gemm == GemmKind::conv) continue;
    RegimeChoice regime = he ? he->regime : pick_regime(t, topn.serving);
    if (!shapeless(t, regime.regime, he ? &he->evidence : nullptr)) continue;
    if (!regime.known || !config) {
      if (he) {
        he->projection = ProjectionAssignment{};
        he->projection->problem = unplanned_reason(regime, config);
      }
      if (!regime.known) continue;  // without a config: kept, for the run note below
    }
    out.push_back(ShapelessGemm{&t, he, std::move(regime)});
  }
  return out;
}

// docs/method.md §22.4: a shapeless kernel whose graph-replay signatures are told apart by grid
// and block (one gemv for o_proj at grid 256 and the router at grid 16) is one plan kernel per
// signature, when each signature's share of the launches per step is a whole number. Empty: the
// kernel stays one plan kernel. `cases` gets the workload case of each.
// A case's launches in `regime`'s steps (a mixed step is a prefill step).
double regime_launches(const ProbeCase& k, Regime regime) {
  if (!k.signature) return 0.0;
  return regime == Regime::prefill ? k.signature->prefill + k.signature->mixed
                                   : k.signature->decode;
}

// The cases of `w` that ran in `regime`: those with launches in its steps where any has (a kernel
// launched eagerly in a prefill and replayed in a decode graph splits so), else all of them.
std::vector<std::size_t> regime_cases(const ProbeKernel& w, Regime regime) {
  std::vector<std::size_t> in, all;
  for (std::size_t i = 0; i < w.cases.size(); ++i) {
    all.push_back(i);
    if (regime_launches(w.cases[i], regime) > 0) in.push_back(i);
  }
  return in.empty() ? all : in;
}

std::vector<PlanKernel> signature_kernels(const ShapelessGemm& c, const std::string& name,
                                          std::vector<std::size_t>& cases) {
  const ProbeKernel* w = c.head ? c.head->evidence.workload : nullptr;
  if (!w || !c.regime.launches_per_step) return {};
  const std::vector<std::size_t> in = regime_cases(*w, c.regime.regime);
  const bool by_steps = regime_launches(w->cases[in.front()], c.regime.regime) > 0;
  if (in.size() < 2 && in.size() == w->cases.size()) return {};
  double total = 0;
  for (std::size_t i : in) {
    const ProbeCase& k = w->cases[i];
    if (!k.dims.empty() || !k.signature || k.signature->grid.empty() || !(k.count > 0)) return {};
    total += by_steps ? regime_launches(k, c.regime.regime) : k.count;
  }
  std::vector<PlanKernel> out;
  for (std::size_t i : in) {
    const ProbeCase& k = w->cases[i];
    const double share = by_steps ? regime_launches(k, c.regime.regime) : k.count;
    // Its launches over the steps it ran in where topn counted them (a step the profile cut short
    // holds a few launches of a signature of their own), else its share of the kernel's.
    const bool own_steps =
        by_steps && k.signature->step_count && regime_launches(k, c.regime.regime) == k.count;
    const double lps = own_steps ? k.count / *k.signature->step_count
                                 : *c.regime.launches_per_step * share / total;
    const double whole = std::round(lps);
    if (whole < 1 || std::abs(lps - whole) > 0.05) return {};  // within 5 % of one launch
    out.push_back(PlanKernel{fmt::format("{} grid {}", name, detail::dims_label(k.signature->grid)),
                             whole,
                             k.gpu_us_avg ? *k.gpu_us_avg / 1000.0 : c.regime.t_ms.value_or(0.0),
                             k.signature->module.empty() ? c.top->module : k.signature->module});
  }
  cases.insert(cases.end(), in.begin(), in.end());
  return out;
}

// The plan kernels of one regime's group: one per kernel, or one per signature (above) unless
// `whole` says the member stays one. `owner` and `case_of` say which group member and workload
// case each came from (npos: the whole kernel).
std::vector<PlanKernel> plan_kernels(const std::vector<ShapelessGemm*>& group,
                                     const std::vector<bool>& whole,
                                     std::vector<std::size_t>& owner,
                                     std::vector<std::size_t>& case_of) {
  std::vector<PlanKernel> kernels;
  for (std::size_t g = 0; g < group.size(); ++g) {
    const ShapelessGemm& c = *group[g];
    const std::string name = c.top->short_name.empty() ? c.top->name : c.top->short_name;
    std::vector<std::size_t> cases;
    std::vector<PlanKernel> split =
        whole[g] ? std::vector<PlanKernel>{} : signature_kernels(c, name, cases);
    if (split.empty()) {
      split.push_back(
          PlanKernel{name, c.regime.launches_per_step, c.regime.t_ms.value_or(0.0), c.top->module});
      cases.push_back(std::string::npos);
    }
    for (std::size_t i = 0; i < split.size(); ++i) {
      kernels.push_back(std::move(split[i]));
      owner.push_back(g);
      case_of.push_back(cases[i]);
    }
  }
  return kernels;
}

// The neighbour every case of `cases` shares (the same kernel and class), else none.
const CaseNeighbour* shared_neighbour(const std::vector<const ProbeCase*>& cases, bool before) {
  const CaseNeighbour* first = nullptr;
  for (const ProbeCase* k : cases) {
    if (!k->signature) return nullptr;
    const std::optional<CaseNeighbour>& n = before ? k->signature->before : k->signature->after;
    if (!n) return nullptr;
    if (!first) first = &*n;
    if (n->kernel != first->kernel || n->cls != first->cls || n->rows != first->rows)
      return nullptr;
  }
  return first;
}

// What each plan kernel's launches say of its output (docs/method.md §22.4): the tile its name
// states and its grid — a signature's, or the kernel's when every signature shares one — and its
// place in the layer from the kernels beside it; `rows` gets the rows a neighbour covers.
// docs/method.md §22.4: on a ROCm trace a launch through the module API records its global work
// size, so grid.x may count work-items: grid.x / block.x workgroups where it divides.
std::vector<std::int64_t> workitem_grid(const std::vector<std::int64_t>& grid,
                                        const std::vector<std::int64_t>& block, bool rocm) {
  if (!rocm || grid.size() < 3 || block.empty() || block[0] < 2 || grid[0] % block[0] != 0)
    return {};
  return {grid[0] / block[0], grid[1], grid[2]};
}

std::vector<KernelGeometry> plan_geometry(const std::vector<ShapelessGemm*>& group,
                                          const std::vector<std::size_t>& owner,
                                          const std::vector<std::size_t>& case_of, bool rocm) {
  std::vector<KernelGeometry> out(owner.size());
  for (std::size_t i = 0; i < owner.size(); ++i) {
    const ShapelessGemm& c = *group[owner[i]];
    const ProbeKernel* w = c.head ? c.head->evidence.workload : nullptr;
    if (!w || w->cases.empty()) continue;
    KernelGeometry& g = out[i];
    const TopnEntry& t = *c.top;
    const bool prefix_only =
        t.demangled.find('<') == std::string::npos && t.name.rfind("_Z", 0) == 0;
    g.tile = gemm_tile(t.demangled.empty() || prefix_only ? t.name : t.demangled);
    std::vector<const ProbeCase*> cases;
    if (case_of[i] != std::string::npos) {
      cases.push_back(&w->cases[case_of[i]]);
    } else {
      for (const ProbeCase& k : w->cases) cases.push_back(&k);
    }
    const auto grid_of = [](const ProbeCase* k) {
      return k->signature ? k->signature->grid : std::vector<std::int64_t>{};
    };
    if (std::all_of(cases.begin(), cases.end(),
                    [&](const ProbeCase* k) { return grid_of(k) == grid_of(cases.front()); })) {
      g.grid = grid_of(cases.front());
      if (cases.front()->signature)
        g.grid_workitems = workitem_grid(g.grid, cases.front()->signature->block, rocm);
    }
    const CaseNeighbour* before = shared_neighbour(cases, true);
    const CaseNeighbour* after = shared_neighbour(cases, false);
    if (auto place = layer_place(before, after)) {
      g.place = std::move(place->allowed);
      g.place_why = std::move(place->why);
    }
  }
  return out;
}

// docs/method.md §22.4, rows from the trace: the rows count_step_rows read off the kernels beside
// the step's matrix kernels are the step's M — before any regime's figure (a graph replay runs at
// its captured batch, which the requests in flight do not show). `why` gets what was used.
void rows_from_trace(const StepRows& counted, Regime regime, PlanStep& step, std::string& why) {
  const std::optional<double>& m = counted.rows.at(regime);
  if (!m) return;
  const std::string& said = *counted.why.at(regime);
  if (step.rows == *m) {
    why += fmt::format("; the trace agrees: {}", said);
    return;
  }
  why = fmt::format("M = {}{}", said, why.empty() ? "" : ", in place of the step's figure: " + why);
  if (!step.prefill) step.requests = *m;
  step.rows = *m;
}

// The case `c` as projection `p` at `m` rows, `share` of its launches.
ProbeCase planned_case(const ProbeCase& c, const Projection& p, double m, double share) {
  ProbeCase out = c;
  out.dims = {{static_cast<std::int64_t>(m), static_cast<std::int64_t>(p.k)},
              {static_cast<std::int64_t>(p.k), static_cast<std::int64_t>(p.n)}};
  out.planned = projection_label(p.kind);
  out.count = c.count * share;
  if (c.timed_count) out.timed_count = *c.timed_count * share;
  return out;
}

// The parts of one signature (docs/method.md §22.4): their launches are not timed apart, so the
// signature's time is shared among them in proportion to their work — FLOPs at prefill, bytes at
// decode, the figure that bounds each — and every part shows the signature's one efficiency; the
// entry's roof time over its measured time, summed over the parts, is exact either way.
void planned_parts(const ProbeCase& c, const ProjectionAssignment& a, const PlanStep& step,
                   std::vector<ProbeCase>& out) {
  double launches = 0, work = 0;
  std::vector<double> each;
  for (std::size_t k = 0; k < a.parts.size(); ++k) {
    const Projection& p = a.parts[k];
    const double w = step.prefill
                         ? projection_flops(p, a.part_m[k])
                         : projection_bytes(p, a.part_m[k], step.act_bytes, step.weight_bytes);
    launches += p.per_step;
    work += p.per_step * w;
    each.push_back(w);
  }
  const double t_us = c.gpu_us_avg.value_or(0.0);
  for (std::size_t k = 0; k < a.parts.size(); ++k) {
    ProbeCase part = planned_case(c, a.parts[k], a.part_m[k], a.parts[k].per_step / launches);
    if (c.gpu_us_avg && work > 0) part.gpu_us_avg = t_us * launches * each[k] / work;
    out.push_back(std::move(part));
  }
}

// A kernel whose signatures the plan assigned one projection each — or, a signature serving
// several projections at one grid, one each of its parts at the launches their counts a step
// give them (docs/method.md §22.4): its workload cases carry the projections' dims (modelled each
// on its own, §22.8; a part at its signature's mean time), and the entry's stage-A projection is
// the one that carries the most time. `cases` npos: the kernel's one case.
ProjectionAssignment planned_signatures(HeadEntry& e, const std::vector<std::size_t>& cases,
                                        const std::vector<ProjectionAssignment>& by_case,
                                        const PlanStep& step) {
  const ProbeKernel& w = *e.evidence.workload;
  auto planned = std::make_shared<ProbeKernel>(w);
  planned->cases.clear();
  std::size_t heaviest = 0;
  double most = -1;
  for (std::size_t j = 0; j < w.cases.size(); ++j) {
    const ProbeCase& c = w.cases[j];
    const auto at = std::find_if(cases.begin(), cases.end(), [&](std::size_t i) {
      return i == j || (i == std::string::npos && w.cases.size() == 1);
    });
    if (at == cases.end()) {  // a signature of another regime: kept, not planned
      planned->cases.push_back(c);
      continue;
    }
    const ProjectionAssignment& a = by_case[static_cast<std::size_t>(at - cases.begin())];
    if (!a.projection) {  // a signature no projection fits: kept, unplanned (no dims, not modelled)
      planned->cases.push_back(c);
      continue;
    }
    const double weight = c.count * c.gpu_us_avg.value_or(0.0);
    if (weight > most) most = weight, heaviest = static_cast<std::size_t>(at - cases.begin());
    if (a.parts.empty()) {
      planned->cases.push_back(planned_case(c, *a.projection, a.m, 1.0));
      continue;
    }
    planned_parts(c, a, step, planned->cases);
  }
  e.planned_workload = planned;
  e.evidence.workload = planned.get();
  return by_case[heaviest];
}

std::string kinds_of(const std::vector<Projection>& ps) {
  std::string out;
  for (const Projection& p : ps)
    out += fmt::format("{}{}", out.empty() ? "" : " + ", to_string(p.kind));
  return out;
}

// The share of a split kernel's time (count · mean time of its cases in this split) that its
// assigned signatures carry; 1 for a kernel planned whole.
double planned_share(const ShapelessGemm& c, const std::vector<std::size_t>& cases,
                     const std::vector<ProjectionAssignment>& parts) {
  const ProbeKernel* w = c.head ? c.head->evidence.workload : nullptr;
  if (!w || (cases.size() == 1 && cases[0] == std::string::npos)) return 1.0;
  double all = 0, planned = 0;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const ProbeCase& k = w->cases[cases[i]];
    const double t = k.count * k.gpu_us_avg.value_or(1.0);
    all += t;
    if (parts[i].projection) planned += t;
  }
  return all > 0 ? planned / all : 0.0;
}

// Whether kernel `g` of the group, split by signature, has a projection for most of its time
// (docs/method.md §22.4: a signature left over — a step the profile cut short — stays unplanned;
// a split that leaves most of the time unplanned is undone, the kernel planned whole).
bool planned_most(const ShapelessGemm* c, const std::vector<std::size_t>& owner,
                  const std::vector<std::size_t>& case_of,
                  const std::vector<ProjectionAssignment>& assigned, std::size_t g) {
  std::vector<std::size_t> cases;
  std::vector<ProjectionAssignment> parts;
  for (std::size_t i = 0; i < owner.size(); ++i)
    if (owner[i] == g) cases.push_back(case_of[i]), parts.push_back(assigned[i]);
  return planned_share(*c, cases, parts) > 0.5;
}

// The assignment of one kernel of the group (several when it was split by signature) into its
// head entry, and its part of the run's summary.
void record_assignment(ShapelessGemm& c, const std::vector<std::size_t>& cases,
                       const std::vector<ProjectionAssignment>& parts, const std::string& plan_note,
                       const PlanStep& step, std::string& summary) {
  const bool split = !(cases.size() == 1 && cases[0] == std::string::npos);
  const bool all = planned_share(c, cases, parts) > 0.5;
  std::string names;
  for (const ProjectionAssignment& a : parts)
    names += fmt::format("{}{}", names.empty() ? "" : " + ",
                         !a.parts.empty() ? "(" + kinds_of(a.parts) + ")"
                         : a.projection   ? std::string(to_string(a.projection->kind))
                                          : std::string("unassigned"));
  const std::string name = c.top->short_name.empty() ? c.top->name : c.top->short_name;
  summary += fmt::format("{}{} → {}", summary.empty() ? "" : "; ", name, names);
  if (!c.head) return;
  HeadEntry& e = *c.head;
  e.plan_notes.push_back(plan_note);
  const bool banded = std::any_of(parts.begin(), parts.end(),
                                  [](const ProjectionAssignment& a) { return a.m_lo.has_value(); });
  if (split && all && banded) {
    e.projection = parts.front();
    e.projection->projection.reset();
    e.projection->problem =
        "one kernel at several grids whose rows only each grid bounds: its signatures are not "
        "planned one by one (a band per signature is not modelled)";
    return;
  }
  const bool several = !split && parts.front().parts.size() > 1 && e.evidence.workload &&
                       e.evidence.workload->cases.size() == 1;
  if ((split && all) || several) {
    e.projection = planned_signatures(e, cases, parts, step);
    std::string hows;
    for (const ProjectionAssignment& a : parts)
      hows += fmt::format("{}{}", hows.empty() ? "" : "; ", a.how);
    e.plan_notes.push_back(fmt::format(
        "linear plan, one projection per signature (signatures told apart by grid, block and "
        "module, each launched a whole number of times a step; one that serves several "
        "projections at one grid split by their counts a step, its time shared by their {}, so "
        "each part shows the signature's one efficiency): {}; {}",
        step.prefill ? "FLOPs" : "bytes", several ? kinds_of(parts.front().parts) : names, hows));
    return;
  }
  e.projection = parts.front();
  if (split) {
    e.projection->projection.reset();
    for (const ProjectionAssignment& a : parts)
      if (!a.problem.empty()) e.projection->problem = a.problem;
  }
  if (e.projection->projection)
    e.plan_notes.push_back(fmt::format(
        "linear plan: {} [M={}{}, K={}]×[K, N={}] ({}), {}",
        to_string(e.projection->projection->kind),
        e.projection->m_lo ? format_g(*e.projection->m_lo) + " to " : "", format_g(e.projection->m),
        format_g(e.projection->projection->k), format_g(e.projection->projection->n),
        e.projection->projection->sharding, e.projection->how));
}

std::vector<ProjectionAssignment> assign_or_say_why(const std::vector<PlanKernel>& kernels,
                                                    const std::vector<KernelGeometry>& geometry,
                                                    const ProjectionPlan& plan,
                                                    const PlanStep& step, Regime regime) {
  std::vector<ProjectionAssignment> assigned;
  if (!(step.rows > 0)) {
    // No figure gives the rows: only a grid that bounds them assigns (a band, never a guess).
    assigned = assign_by_grid_rows(kernels, plan, step, geometry);
    for (ProjectionAssignment& a : assigned)
      if (!a.projection)
        a.problem = fmt::format(
            "no rows for the {} step: the Top-N measured none, no kernel beside these GEMMs "
            "counts them and the env report gives no workload (M is never assumed; step "
            "annotations with the batch, a norm or activation beside the GEMM that launches one "
            "block per row, or {} (workload.{}) would settle it); {}",
            to_string(regime), detail::rows_option(regime),
            regime == Regime::decode ? "conc" : "isl", a.problem);
    return assigned;
  }
  assigned = assign_projections(kernels, plan, step, geometry);
  // An incomplete plan cannot vouch for a joint pairing: the missing projections may be the
  // kernels' (a variant with as many projections can then fit by chance).
  if (!plan.missing.empty())
    for (ProjectionAssignment& a : assigned)
      if (a.projection && a.how.rfind("jointly", 0) == 0) {
        a.projection.reset();
        a.problem = fmt::format(
            "the config lacks{}, so the plan is incomplete and kernels are not paired with its "
            "projections jointly",
            plan.missing);
      }
  return assigned;
}

// The assignment of one regime's kernels, written into their head entries.
void assign_regime(Regime regime, std::vector<ShapelessGemm>& all, const TopnDocument& topn,
                   const ModelConfig& cfg, const ProjectionPlan& plan, const EnvReport* env,
                   const ResolvedPeaks& peaks, const StepRows& step_rows, Findings& found) {
  std::vector<ShapelessGemm*> group;
  for (ShapelessGemm& c : all)
    if (c.regime.regime == regime) group.push_back(&c);
  if (std::none_of(group.begin(), group.end(), [](const ShapelessGemm* c) { return c->head; }))
    return;
  std::string why;
  PlanStep step = plan_step(regime, topn, cfg, env, peaks, why);
  std::vector<bool> whole(group.size(), false);
  std::vector<std::size_t> owner, case_of;
  std::vector<PlanKernel> kernels = plan_kernels(group, whole, owner, case_of);
  const bool rocm =
      topn.device && (topn.device->vendor == "AMD" || topn.device->arch.rfind("gfx", 0) == 0);
  const std::vector<KernelGeometry> geometry = plan_geometry(group, owner, case_of, rocm);
  rows_from_trace(step_rows, regime, step, why);
  std::vector<ProjectionAssignment> assigned =
      assign_or_say_why(kernels, geometry, plan, step, regime);
  // A split that leaves most of a kernel's time without a projection is undone: that kernel is
  // planned whole (one cuBLAS kernel at two grids may be one projection at two batch sizes).
  bool undo = false;
  for (std::size_t g = 0; g < group.size(); ++g)
    if (!planned_most(group[g], owner, case_of, assigned, g)) undo = whole[g] = true;
  if (undo) {
    owner.clear(), case_of.clear();
    kernels = plan_kernels(group, whole, owner, case_of);
    assigned =
        assign_or_say_why(kernels, plan_geometry(group, owner, case_of, rocm), plan, step, regime);
  }
  const std::string plan_note = fmt::format(
      "no operand shapes: modelled from the config's linear plan ({}{}; {})", plan.description,
      plan.missing.empty() ? "" : "; the config lacks" + plan.missing, why);
  std::string summary;
  for (std::size_t g = 0; g < group.size(); ++g) {
    std::vector<std::size_t> cases;
    std::vector<ProjectionAssignment> parts;
    for (std::size_t i = 0; i < kernels.size(); ++i)
      if (owner[i] == g) cases.push_back(case_of[i]), parts.push_back(assigned[i]);
    record_assignment(*group[g], cases, parts, plan_note, step, summary);
  }
  found.notes.push_back(fmt::format("linear plan ({} kernels of the {} step without shapes): {}",
                                    group.size(), to_string(regime), summary));
}

}  // namespace

Findings plan_shapeless_gemms(std::vector<HeadEntry>& head, const TopnDocument& topn,
                              const ModelConfig* config, const EnvReport* env,
                              const ResolvedPeaks& peaks, const ClassRules& rules,
                              const StepRows& step_rows) {
  Findings found;
  std::vector<ShapelessGemm> all = shapeless_gemms(head, topn, rules, config != nullptr);
  if (std::none_of(all.begin(), all.end(), [](const ShapelessGemm& c) { return c.head; }))
    return found;
  if (!config) {
    found.notes.push_back(
        "linear plan: not built (no config.json); GEMMs without shapes stay unmodelled");
    return found;
  }
  const double tp = env && env->tp > 0 ? env->tp : 1.0;
  const ProjectionPlan plan = projection_plan(*config, tp);
  for (Regime r : {Regime::decode, Regime::prefill})
    assign_regime(r, all, topn, *config, plan, env, peaks, step_rows, found);
  return found;
}

}  // namespace roofline::analyze
