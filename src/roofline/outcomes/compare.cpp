// The comparison of two rounds (docs/method.md §17.1), pure: predictions and Top-Ns in, rows out.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include <fmt/format.h>

#include "roofline/analyze/analysis.hpp"
#include "roofline/analyze/steps/display_names.hpp"
#include "roofline/analyze/steps/pick_regimes.hpp"
#include "roofline/inputs/kernel_classes.hpp"
#include "roofline/outcomes/compare.hpp"
#include "roofline/outcomes/layer.hpp"
#include "roofline/outcomes/pairing.hpp"
#include "roofline/outcomes/roles.hpp"
#include "roofline/outcomes/rounds.hpp"

namespace roofline::outcomes {

namespace {

constexpr double k_default_head_pct = 5.0;

std::optional<StepTime> step_time(const CompareInput& in, std::vector<std::string>& notes) {
  const std::string a = in.baseline_round, b = in.round;
  if (!in.topn_a) {
    notes.push_back(fmt::format(
        "no e2e figure: round {}'s Top-N could not be read, so its GPU time per step is unknown",
        a));
    return std::nullopt;
  }
  const StepCount sa = round_step_count(*in.topn_a, in.config),
                  sb = round_step_count(*in.topn_b, in.config);
  std::string why;
  if (!sa.steps) why = fmt::format("round {}: {}", a, sa.reason);
  if (!sb.steps) why += fmt::format("{}round {}: {}", why.empty() ? "" : "; ", b, sb.reason);
  if (!in.topn_a->total_gpu_time_ms || !in.topn_b->total_gpu_time_ms)
    why += fmt::format("{}total_gpu_time_ms missing in round {}", why.empty() ? "" : "; ",
                       !in.topn_a->total_gpu_time_ms ? a : b);
  if (!why.empty()) {
    notes.push_back("no e2e figure (GPU time per step): " + why);
    return std::nullopt;
  }
  StepTime s;
  s.steps_a = *sa.steps;
  s.steps_b = *sb.steps;
  s.source_a = sa.source;
  s.source_b = sb.source;
  s.gpu_ms_per_step_a = *in.topn_a->total_gpu_time_ms / s.steps_a;
  s.gpu_ms_per_step_b = *in.topn_b->total_gpu_time_ms / s.steps_b;
  if (!(s.gpu_ms_per_step_a > 0) || !(s.gpu_ms_per_step_b > 0)) {
    notes.push_back("no e2e figure (GPU time per step): a round's total GPU time is zero");
    return std::nullopt;
  }
  s.speedup = s.gpu_ms_per_step_a / s.gpu_ms_per_step_b;
  s.change_pct = 100.0 * (s.gpu_ms_per_step_b / s.gpu_ms_per_step_a - 1.0);
  s.status = s.speedup > 1.0 + k_noise_e2e   ? "improved"
             : s.speedup < 1.0 - k_noise_e2e ? "regressed"
                                             : "within_noise";
  return s;
}

// What each round's kernels are: round A's head (its predictions) and the rest of its Top-N;
// every kernel of round B's Top-N, as its analysis states it where it holds the kernel.
struct RoundRoles {
  std::vector<KernelRole> a, a_rest, b;
};

// A Top-N's record of each kernel name (the first of a name).
std::map<std::string, const TopnEntry*> by_name(const TopnDocument* topn) {
  std::map<std::string, const TopnEntry*> out;
  if (topn)
    for (const auto& e : topn->entries) out.emplace(e.name, &e);
  return out;
}

RoundRoles round_roles(const CompareInput& in) {
  const ClassRules rules{{}, builtin_kernel_classes_rules()};
  RoundRoles r;
  const auto topn_a = by_name(in.topn_a);
  for (const auto& p : in.a->entries) {
    const auto it = topn_a.find(p.name);
    r.a.push_back(role_of(p, it != topn_a.end() ? it->second : nullptr));
  }
  std::set<std::string> head;
  for (const auto& p : in.a->entries) head.insert(p.name);
  if (in.topn_a)
    for (const auto& e : in.topn_a->entries)
      if (!head.count(e.name)) r.a_rest.push_back(role_of(e, rules));
  std::map<std::string, const Prediction*> analysed;
  if (in.b)
    for (const auto& p : in.b->entries) analysed.emplace(p.name, &p);
  for (const auto& e : in.topn_b->entries) {
    const auto it = analysed.find(e.name);
    r.b.push_back(it != analysed.end() ? role_of(*it->second, &e) : role_of(e, rules));
  }
  return r;
}

// A row of round A's prediction `p`, before round B's measurement.
CompareRow prediction_row(const Prediction& p, const KernelRole& role, const RolePair& pair) {
  CompareRow r;
  r.name = p.name;
  r.short_name = p.short_name;
  r.display_name = !p.display_name.empty() ? p.display_name : kernel_tag(p.short_name, "", p.name);
  r.role_a = role_text(role);
  r.match = pairing_label(pair);
  r.pairing = pair.reason;
  r.pct_a = p.pct_gpu_time;
  r.attainable_speedup_a = p.attainable_speedup;
  r.expected_e2e_gain_pct_a = p.expected_e2e_gain_pct;
  r.roofline_pct_a = p.roofline_pct;
  r.headroom_class_a = p.headroom_class;
  if (p.t_ms) r.t_a_ms = p.unit_launches() * *p.t_ms;
  return r;
}

// Round B's per-launch time of the row's kernel in `regime`: the signature it was paired through
// (one weight of a kernel serving several), else the entry's (per_launch_ms).
std::optional<double> paired_launch_ms(CompareRow& r, const TopnEntry& e, const KernelRole& role_b,
                                       const RolePair& pair, const std::string& regime) {
  if (pair.signature && *pair.signature < role_b.signatures.size()) {
    const SignatureRole& sig = role_b.signatures[*pair.signature];
    r.signature_b = sig.label;
    if (sig.mean_us && *sig.mean_us > 0) return *sig.mean_us / 1000.0;
  }
  return per_launch_ms(e, regime);
}

// Round B's measurement `e` of the row's kernel (its role `role_b`): its time, the speedup and
// its statuses, the gain realized, and a note on a missing time.
void measure_row(CompareRow& r, const Prediction& p, const TopnEntry& e, const KernelRole& role_b,
                 const RolePair& pair, const CompareInput& in) {
  r.name_b = e.name;
  r.display_name_b = role_b.display_name;
  r.role_b = role_text(role_b);
  r.pct_b = e.pct_gpu_time;
  const std::string regime = p.regime.empty() ? "decode" : p.regime;
  if (const auto t = paired_launch_ms(r, e, role_b, pair, regime))
    r.t_b_ms = p.unit_launches() * *t;
  if (r.t_a_ms && r.t_b_ms && *r.t_a_ms > 0) r.speedup = *r.t_a_ms / *r.t_b_ms;
  r.status = speedup_statuses(r.speedup, p, in.noise_isolated);
  if (r.speedup) {
    if (r.pct_a) r.realized_gain_pct = *r.pct_a * (1.0 - 1.0 / *r.speedup);
    if (p.attainable_speedup && *p.attainable_speedup > 1.0)
      r.realized_fraction = (*r.speedup - 1.0) / (*p.attainable_speedup - 1.0);
  } else {
    r.note = !r.t_a_ms ? fmt::format("round {} recorded no per-launch time", in.baseline_round)
                       : fmt::format("round {}'s Top-N gives no {} time for it", in.round, regime);
  }
}

// The entries of round B's head (pct ≥ bar) that are no row of A, biggest first, then by name.
std::vector<std::size_t> unmatched_head(const TopnDocument& b, const std::vector<bool>& in_rows,
                                        double bar) {
  std::vector<std::size_t> fresh;
  for (std::size_t j = 0; j < b.entries.size(); ++j)
    if (!in_rows[j] && b.entries[j].pct_gpu_time >= bar) fresh.push_back(j);
  std::stable_sort(fresh.begin(), fresh.end(), [&](std::size_t x, std::size_t y) {
    if (b.entries[x].pct_gpu_time != b.entries[y].pct_gpu_time)
      return b.entries[x].pct_gpu_time > b.entries[y].pct_gpu_time;
    return b.entries[x].name < b.entries[y].name;
  });
  return fresh;
}

// Where round A's Top-N holds a kernel of this name below its head: its pct there.
std::optional<double> below_head_in_a(const CompareInput& in, const std::string& name) {
  if (!in.topn_a) return std::nullopt;
  for (const auto& e : in.topn_a->entries)
    if (e.name == name) return e.pct_gpu_time;
  return std::nullopt;
}

// The row of a kernel of round B's head that no kernel of round A's head is.
CompareRow new_kernel_row(const TopnEntry& e, const KernelRole& role, const TopnDocument& b,
                          double bar, const CompareInput& in) {
  CompareRow r;
  r.name = e.name;
  r.short_name = e.short_name;
  r.display_name = role.display_name;
  r.name_b = e.name;
  r.display_name_b = role.display_name;
  r.role_b = role_text(role);
  r.pct_b = e.pct_gpu_time;
  const RegimeChoice regime = pick_regime(e, b.serving);
  r.t_b_ms = regime.t_ms;
  r.status = {"new"};
  const std::optional<double> pct_a = below_head_in_a(in, e.name);
  r.pairing =
      pct_a ? fmt::format("round {} ran it below its head ({:g}%): no prediction to pair",
                          in.baseline_round, *pct_a)
            : fmt::format("no kernel of round {}'s head is it ({})", in.baseline_round, r.role_b);
  r.note = fmt::format("in round {}'s head ({:g}% ≥ {:g}%); t_b_ms is one launch ({})", in.round,
                       e.pct_gpu_time, bar, regime.t_source);
  return r;
}

}  // namespace

bool Comparison::any_status(std::string_view status) const {
  for (const auto& r : rows)
    if (std::find(r.status.begin(), r.status.end(), status) != r.status.end()) return true;
  return false;
}

std::vector<std::string> speedup_statuses(std::optional<double> speedup, const Prediction& a,
                                          double band) {
  if (!speedup || !(*speedup > 0) || !std::isfinite(*speedup)) return {"undefined"};
  const double s = *speedup;
  std::vector<std::string> out;
  out.push_back(s > 1.0 + band ? "improved" : s < 1.0 - band ? "regressed" : "within_noise");
  if (a.has_verdict() && a.attainable_speedup && s > *a.attainable_speedup * (1.0 + band))
    out.push_back("contradiction");
  return out;
}

std::optional<double> per_launch_ms(const TopnEntry& entry, std::string_view regime) {
  if (regime == "prefill" || regime == "decode") {  // "unknown": no per-regime latency applies
    const Regime r = regime == "prefill" ? Regime::prefill : Regime::decode;
    if (const auto& t = entry.base_latency_ms.at(r); t && *t > 0) return t;
  }
  if (entry.avg_us && *entry.avg_us > 0) return *entry.avg_us / 1000.0;
  return std::nullopt;
}

std::map<std::string, std::string> pair_rounds(const CompareInput& in) {
  const RoundRoles roles = round_roles(in);
  const std::vector<RolePair> pairs = pair_by_role(roles.a, roles.a_rest, roles.b, in.round);
  std::map<std::string, std::string> out;
  for (std::size_t i = 0; i < pairs.size(); ++i)
    out.emplace(in.a->entries[i].name,
                pairs[i].index ? in.topn_b->entries[*pairs[i].index].name : std::string());
  return out;
}

Comparison compare_rounds(const CompareInput& in) {
  Comparison c;
  c.baseline_round = in.baseline_round;
  c.round = in.round;
  c.predictions_from = in.a->from;
  c.noise_isolated = in.noise_isolated;
  const RoundPredictions& a = *in.a;
  const TopnDocument& b = *in.topn_b;

  const RoundRoles roles = round_roles(in);
  const std::vector<RolePair> pairs = pair_by_role(roles.a, roles.a_rest, roles.b, in.round);
  std::vector<bool> in_rows(b.entries.size(), false);
  for (std::size_t i = 0; i < a.entries.size(); ++i) {
    const Prediction& p = a.entries[i];
    CompareRow r = prediction_row(p, roles.a[i], pairs[i]);
    if (const auto j = pairs[i].index) {
      in_rows[*j] = true;
      measure_row(r, p, b.entries[*j], roles.b[*j], pairs[i], in);
    } else {
      r.status = {"gone"};
    }
    c.rows.push_back(std::move(r));
  }

  // Round B's head kernels that are no row of A: new (or renamed beyond recognition).
  const double bar = a.head_threshold_pct.value_or(k_default_head_pct);
  for (std::size_t j : unmatched_head(b, in_rows, bar))
    c.rows.push_back(new_kernel_row(b.entries[j], roles.b[j], b, bar, in));
  c.step_time = step_time(in, c.notes);
  return c;
}

}  // namespace roofline::outcomes
