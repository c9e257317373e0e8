// Step 8, deepen (docs/method.md §11): the §8 models over captured probe shapes (stage B), and
// measured counter bytes/FLOPs in place of the model's (stage C).
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "roofline/analyze/layer.hpp"
#include "roofline/analyze/models/dispatch.hpp"
#include "roofline/analyze/models/models.hpp"

namespace roofline::analyze {

using detail::fmt_bytes;

namespace {

// Under this share of an entry's time modelled, its signatures do not stand for it (§22.8).
constexpr double k_min_modelled_share = 0.5;

// A collective case without dims as its entry: the collective and module the call stack named
// (docs/method.md §22.10); its rows come from the step.
TopnEntry as_named_collective(TopnEntry ce, const ProbeCase& c) {
  if (!c.signature) return ce;
  ce.collective = c.signature->collective;
  if (!c.signature->module.empty()) ce.module = c.signature->module;
  return ce;
}

// The Top-N entry as the probe saw one case: real operand dims and dtypes, and the rows in flight
// the case carries (leading dim of the first matrix operand; GEMM reads M from its own shapes).
TopnEntry entry_for_case(const TopnEntry& e, const ProbeCase& c, const Classification& cls,
                         const RegimeChoice& regime, std::string& rows_note) {
  TopnEntry ce = e;
  ce.signatures.clear();
  ce.dtypes_are_set = false;
  ce.shapes = c.dims;
  if (!c.dtypes.empty()) ce.dtypes = c.dtypes;
  ce.est_shape.at(regime.regime).reset();
  if (cls.op_class == OpClass::gemm) return ce;
  if (cls.op_class == OpClass::comm && c.dims.empty()) return as_named_collective(ce, c);
  if (cls.op_class == OpClass::linear_attn || cls.op_class == OpClass::ssm) {
    // Sequences in flight: the first operand that is not the recurrent state (the largest rank >= 3
    // operand), its leading dimension after leading 1s (q is [1, N, H, K] in packed varlen form).
    std::optional<std::size_t> state;
    double largest = 0;
    for (std::size_t i = 0; i < c.dims.size(); ++i) {
      double n = 1;
      for (auto v : c.dims[i]) n *= static_cast<double>(v);
      if (c.dims[i].size() >= 3 && n > largest) {
        largest = n;
        state = i;
      }
    }
    for (std::size_t i = 0; i < c.dims.size(); ++i) {
      if (state && i == *state && c.dims.size() > 1) continue;
      for (auto v : c.dims[i]) {
        if (v == 1) continue;
        if (v > 0) {
          ce.est_shape.at(regime.regime) =
              EstShape{static_cast<double>(v), std::nullopt, std::nullopt};
          rows_note = fmt::format(
              "N = {} sequences from dims[{}] (leading 1s skipped, the state "
              "operand passed over)",
              v, i);
          return ce;
        }
        break;
      }
    }
  }
  for (std::size_t i = 0; i < c.dims.size(); ++i) {
    const auto& d = c.dims[i];
    const bool rank_ok = cls.op_class == OpClass::moe ? d.size() == 2 : d.size() >= 2;
    if (rank_ok && d[0] > 0) {
      ce.est_shape.at(regime.regime) =
          EstShape{static_cast<double>(d[0]), std::nullopt, std::nullopt};
      rows_note = fmt::format(
          "M = {} from dims[{}][0]{} (the case's rows in flight{})", d[0], i,
          i < c.arg_labels.size() && !c.arg_labels[i].empty()
              ? fmt::format(" ({})", c.arg_labels[i])
              : "",
          regime.known ? fmt::format(", read as est_shape.{}.M", to_string(regime.regime)) : "");
      return ce;
    }
  }
  rows_note = "no operand of the case gives rows in flight: rows from the workload";
  return ce;
}

// Counter bytes / FLOPs per unit: the per-dispatch measurement times the unit's dispatches.
std::string describe_dims(const std::vector<std::vector<std::int64_t>>& dims) {
  std::string s;
  for (const auto& d : dims) {
    s += s.empty() ? "[" : ", [";
    for (std::size_t i = 0; i < d.size(); ++i) s += fmt::format("{}{}", i ? "," : "", d[i]);
    s += "]";
  }
  return s;
}

struct Part {
  double weight;
  WorkEstimate work;
  std::size_t case_index;
};

// One case modelled on its own at its own time (docs/method.md §22.8): its row, and its work when
// it has a model that its time does not refute.
struct CaseModel {
  SignatureWork row;
  std::optional<WorkEstimate> work;
  std::string rejected;   // why not modelled, for the entry's notes
  bool withheld = false;  // two readings beyond the band (docs/method.md §23.7)
};

// docs/method.md §10.8: a band is judged for an entry as a whole; among several signatures a
// case whose readings nothing picks stays unmodelled (§23.7).
void withhold_case(WorkEstimate& w) {
  w.modeled = false;
  w.withheld = true;
  w.unmodeled_reason = fmt::format(
      "two readings differ by more than the 15 % band and nothing in the trace says which holds "
      "({} or {}): no verdict for this signature (docs/method.md §23.7)",
      w.candidates.empty() ? std::string("the first") : w.candidates.front().label,
      w.readings.front().label);
}

// A collective the call stack names needs no operand shapes: its message is the step's rows of
// the hidden state (docs/method.md §8.14, §22.10).
bool stack_named_collective(const Classification& cls, const ProbeCase& c) {
  return cls.op_class == OpClass::comm && c.signature && !c.signature->collective.empty();
}

CaseModel model_one_case(const TopnEntry& e, const RegimeChoice& regime, const Classification& cls,
                         const ModelContext& ctx, const ProbeCase& c, std::size_t i,
                         CaseSource source, std::size_t cases_count) {
  CaseModel m;
  m.row.label = detail::signature_label(c, cls.op_class, ctx);
  m.row.source = c;
  m.row.count = c.count;
  m.row.timed = c.gpu_us_avg.has_value();
  m.row.t_launch_ms = c.gpu_us_avg ? *c.gpu_us_avg / 1000.0 : regime.t_ms.value_or(0.0);
  const bool named_collective = stack_named_collective(cls, c);
  if (c.dims.empty() && !named_collective) {
    m.row.unmodeled_reason =
        "no operand shapes (a graph replay without a capture): its grid and "
        "block tell it apart, not its K";
    return m;
  }
  std::string rows_note;
  RegimeChoice rc = regime;
  if (!rc.known && c.regime) {  // the profiler attributed the case to a step of one regime
    rc.regime = *c.regime, rc.known = true;
    rc.why = "the case's steps";
  }
  TopnEntry ce = entry_for_case(e, c, cls, rc, rows_note);
  if (c.gpu_us_avg) {
    rc.t_ms = *c.gpu_us_avg / 1000.0;
    rc.t_source = source == CaseSource::workload ? "profile_workload.json baseline_latency_ms"
                                                 : "probe case gpu_us_avg";
  }
  // docs/method.md §23: the case read through the op table first, its operands by their roles;
  // the class model where the table lacks the op or cannot read the case.
  std::string table_note;
  auto from_table = detail::model_from_op_table(detail::case_call(detail::case_op(e, c), c), rc,
                                                cls, ctx, table_note);
  WorkEstimate w = from_table ? std::move(*from_table) : model_candidates(ce, rc, cls, ctx);
  if (!table_note.empty()) w.notes.insert(w.notes.begin(), table_note);
  if (w.modeled && w.readings_decide && cases_count > 1) withhold_case(w);
  if (!w.modeled) {
    m.row.unmodeled_reason = w.unmodeled_reason;
    m.rejected = fmt::format("case {} {}: {}", i, describe_dims(c.dims), w.unmodeled_reason);
    m.withheld = w.withheld;
    return m;
  }
  if (!rows_note.empty()) w.notes.insert(w.notes.begin(), rows_note);
  WorkEstimate own = w;
  choose_candidate(own, ctx.peaks ? *ctx.peaks : ResolvedPeaks{});
  m.row.modeled = true;
  m.row.unit_launches = own.unit_launches > 0 ? own.unit_launches : 1.0;
  m.row.t_unit_ms = own.t_unit_ms;
  m.row.bytes = own.bytes;
  m.row.flops = own.flops;
  m.row.compute_dtype = own.compute_dtype;
  m.row.has_compute_peak_class = own.has_compute_peak_class;
  m.row.model = own.candidates.empty() ? "" : own.candidates[own.chosen].label;
  m.row.refuted = !own.any_feasible;  // judged anyway: its verdict says infeasible (L3)
  m.work = std::move(w);
  return m;
}

// Candidates common to every part, count-weighted; else each part's own choice, count-weighted.
std::vector<Candidate> combine_candidates(const std::vector<Part>& parts, double total,
                                          const std::vector<Candidate>& first,
                                          const ResolvedPeaks& peaks) {
  std::vector<Candidate> combined;
  for (const Candidate& c : first) {
    double bytes = 0.0, flops = 0.0;
    bool everywhere = true;
    for (const auto& p : parts) {
      const Candidate* match = nullptr;
      for (const Candidate& pc : p.work.candidates)
        if (pc.kind == c.kind) match = &pc;
      if (!match) {
        everywhere = false;
        break;
      }
      bytes += p.weight * match->bytes;
      flops += p.weight * match->flops;
    }
    if (everywhere)
      combined.push_back(Candidate{c.label, bytes / total, flops / total, {}, c.in_choice, c.kind});
  }
  if (!combined.empty()) return combined;
  double bytes = 0.0, flops = 0.0;
  for (const auto& p : parts) {
    WorkEstimate chosen = p.work;
    choose_candidate(chosen, peaks);
    bytes += p.weight * chosen.bytes;
    flops += p.weight * chosen.flops;
  }
  return {Candidate{"count-weighted chosen bytes",
                    bytes / total,
                    flops / total,
                    {},
                    true,
                    CandidateKind::count_weighted}};
}

// The entry's figures: the heaviest part is the template (unit, dtypes, MoE facts, notes), the
// numbers are the launch-weighted means over the parts.
WorkEstimate combine_parts(const std::vector<Part>& parts, const ModelContext& ctx,
                           std::size_t& heaviest, double& total) {
  heaviest = 0;
  total = 0.0;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    total += parts[i].weight;
    if (parts[i].weight > parts[heaviest].weight) heaviest = i;
  }
  WorkEstimate out = parts[heaviest].work;
  auto mean = [&](auto get) {
    double s = 0.0;
    for (const auto& p : parts) s += p.weight * get(p.work);
    return s / total;
  };
  out.t_unit_ms = mean([](const WorkEstimate& w) { return w.t_unit_ms; });
  out.weight_bytes = mean([](const WorkEstimate& w) { return w.weight_bytes; });
  out.kv_bytes = mean([](const WorkEstimate& w) { return w.kv_bytes; });
  out.candidates =
      combine_candidates(parts, total, out.candidates, ctx.peaks ? *ctx.peaks : ResolvedPeaks{});
  if (parts.size() > 1) out.readings.clear();  // docs/method.md §10.8: one case's readings
  if (out.moe) {
    out.moe->pairs = mean([](const WorkEstimate& w) { return w.moe ? w.moe->pairs : 0.0; });
    out.moe->experts_hit =
        mean([](const WorkEstimate& w) { return w.moe ? w.moe->experts_hit : 0.0; });
    out.moe->activation_bytes =
        mean([](const WorkEstimate& w) { return w.moe ? w.moe->activation_bytes : 0.0; });
  }
  return out;
}

std::string cases_note(CaseSource source, std::size_t parts, std::size_t cases, double total,
                       const std::string& heaviest_dims, double heaviest_weight,
                       std::size_t timed) {
  if (source == CaseSource::signatures)
    return fmt::format(
        "{} of {} call signatures of the Top-N modelled, equal weights (the Top-N gives no "
        "per-signature counts; docs/method.md §8.2); rows in flight from each signature",
        parts, cases);
  return fmt::format(
      "{}: {} of {} {} modelled, each on its own; the entry's figures are their means "
      "count-weighted over {} calls (heaviest case {}, {} calls); {} of them carry a per-case "
      "latency{}",
      source == CaseSource::probes ? "stage B" : "profile_workload.json", parts, cases,
      source == CaseSource::probes ? "probe cases" : "workload cases", format_g(total),
      heaviest_dims, format_g(heaviest_weight), timed,
      timed < cases ? " (the others use the profile's per-launch time)" : "");
}

// Why the signatures cannot stand for the entry, if they cannot: a Top-N without counts whose
// signatures disagree, or too little of the entry's time modelled.
std::optional<std::string> not_representative(const std::vector<SignatureWork>& rows,
                                              CaseSource source, double share) {
  if (source == CaseSource::signatures) return detail::signatures_disagree(rows);
  if (share < k_min_modelled_share)
    return fmt::format(
        "the modelled signatures carry {} of the entry's time (under {}): the entry is not "
        "judged from them",
        format_pct(share), format_pct(k_min_modelled_share));
  return std::nullopt;
}

// docs/method.md §3: one MoE kernel launched twice a layer, once per stage, whose two signatures
// differ by grid alone (the same op and dims, as many launches each): each signature is one stage,
// the one that ran first stage 1. Otherwise every case keeps the entry's classification.
std::vector<Classification> stages_by_order(const std::vector<const ProbeCase*>& cases,
                                            const Classification& cls, std::string& note) {
  std::vector<Classification> out(cases.size(), cls);
  if (cls.op_class != OpClass::moe || cls.detail.moe.stage != MoeStage::unnamed ||
      cases.size() != 2)
    return out;
  const ProbeCase &a = *cases[0], &b = *cases[1];
  if (!a.signature || !b.signature || !a.signature->order || !b.signature->order ||
      a.count != b.count || a.dims != b.dims || a.dims.empty() ||
      a.signature->grid == b.signature->grid || a.signature->op != b.signature->op)
    return out;
  const bool a_first = *a.signature->order < *b.signature->order;
  for (std::size_t i = 0; i < 2; ++i)
    out[i].detail.moe.stage = (i == 0) == a_first ? MoeStage::stage1 : MoeStage::stage2;
  note = fmt::format(
      "MoE stages from the signatures' order: one kernel launched twice a layer, its two "
      "signatures differ by grid alone ({} launches each): grid {} ran first (stage 1: gate and "
      "up), grid {} second (stage 2: down) (docs/method.md §3)",
      format_g(a.count), detail::dims_label(a_first ? a.signature->grid : b.signature->grid),
      detail::dims_label(a_first ? b.signature->grid : a.signature->grid));
  return out;
}

const char* source_word(CaseSource source) {
  return source == CaseSource::signatures ? "signature"
         : source == CaseSource::probes   ? "probe"
                                          : "workload";
}

}  // namespace

WorkEstimate model_work_cases(const TopnEntry& e, const RegimeChoice& regime,
                              const Classification& cls, const ModelContext& ctx,
                              const std::vector<const ProbeCase*>& cases, CaseSource source) {
  std::vector<Part> parts;
  std::vector<SignatureWork> rows;
  std::vector<std::string> rejected;
  std::size_t timed = 0;
  bool withheld = false;
  std::string stages_note;
  const std::vector<Classification> classes = stages_by_order(cases, cls, stages_note);
  for (std::size_t i = 0; i < cases.size(); ++i) {
    CaseModel m = model_one_case(e, regime, classes[i], ctx, *cases[i], i, source, cases.size());
    if (cases[i]->gpu_us_avg) ++timed;
    if (!m.rejected.empty()) rejected.push_back(std::move(m.rejected));
    withheld = withheld || m.withheld;
    if (m.work) parts.push_back(Part{cases[i]->count, std::move(*m.work), i});
    rows.push_back(std::move(m.row));
  }
  detail::distinct_labels(rows);
  const double share = detail::modelled_share(rows);
  std::optional<std::string> why_not =
      parts.empty() ? std::nullopt : not_representative(rows, source, share);
  if (parts.empty() || why_not) {
    WorkEstimate none;
    none.unmodeled_reason =
        why_not ? *why_not
                : fmt::format("no {} case could be modelled ({})", source_word(source),
                              rejected.empty() ? "no cases" : rejected.front());
    none.signatures = std::move(rows);
    none.modelled_share = share;
    none.withheld = parts.empty() && withheld;
    return none;
  }
  std::size_t heaviest = 0;
  double total = 0.0;
  WorkEstimate out = combine_parts(parts, ctx, heaviest, total);
  std::vector<std::string> notes{cases_note(source, parts.size(), cases.size(), total,
                                            describe_dims(cases[parts[heaviest].case_index]->dims),
                                            parts[heaviest].weight, timed)};
  if (!stages_note.empty()) notes.push_back(stages_note);
  for (const auto& r : rejected) notes.push_back(fmt::format("{} {}", source_word(source), r));
  for (auto& n : out.notes) notes.push_back(parts.size() > 1 ? "heaviest case: " + n : n);
  out.notes = std::move(notes);
  choose_candidate(out, ctx.peaks ? *ctx.peaks : ResolvedPeaks{});
  // The Top-N's shapes alone carry no counts or times: their equal-weight mean (within the band)
  // stands for the entry, and they are not signatures of §22.8.
  if (source == CaseSource::signatures) return out;
  out.signatures = std::move(rows);
  out.modelled_share = share;
  out.signatures_judged = true;
  return out;
}

}  // namespace roofline::analyze
