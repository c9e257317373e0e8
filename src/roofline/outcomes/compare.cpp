// The comparison of two rounds (docs/method.md §17.1), pure: predictions and Top-Ns in, rows out.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "roofline/analyze/analysis.hpp"
#include "roofline/analyze/steps/display_names.hpp"
#include "roofline/analyze/steps/pick_regimes.hpp"
#include "roofline/outcomes/compare.hpp"
#include "roofline/outcomes/layer.hpp"
#include "roofline/outcomes/pairing.hpp"
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

// For each prediction of round A, the entry of round B's Top-N it is, if any.
std::vector<KernelPair> match_rounds(const RoundPredictions& a, const TopnDocument& b) {
  std::vector<KernelRef> refs_a, refs_b;
  for (const auto& p : a.entries) refs_a.push_back({p.name, p.short_name});
  for (const auto& e : b.entries) refs_b.push_back({e.name, e.short_name});
  return pair_kernels(refs_a, refs_b);
}

// A row of round A's prediction `p`, before round B's measurement.
CompareRow prediction_row(const Prediction& p, MatchKind match) {
  CompareRow r;
  r.name = p.name;
  r.short_name = p.short_name;
  r.display_name = !p.display_name.empty() ? p.display_name : kernel_tag(p.short_name, "", p.name);
  r.match = match;
  r.pct_a = p.pct_gpu_time;
  r.attainable_speedup_a = p.attainable_speedup;
  r.expected_e2e_gain_pct_a = p.expected_e2e_gain_pct;
  r.roofline_pct_a = p.roofline_pct;
  r.headroom_class_a = p.headroom_class;
  if (p.t_ms) r.t_a_ms = p.unit_launches() * *p.t_ms;
  return r;
}

// A row whose kernel round B's Top-N does not hold.
void mark_vanished(CompareRow& r, const std::string& round) {
  r.status = {"vanished"};
  r.note = fmt::format(
      "absent from round {}'s Top-N (no exact, normalized or unique short-name match): "
      "fused away or renamed",
      round);
}

// Round B's measurement `e` of the row's kernel: its time, the speedup and its statuses, the gain
// realized, and a note on how the names matched (unless exactly) and on a missing time.
void measure_row(CompareRow& r, const Prediction& p, const TopnEntry& e, const CompareInput& in) {
  r.name_b = e.name;
  r.pct_b = e.pct_gpu_time;
  const std::string regime = p.regime.empty() ? "decode" : p.regime;
  if (const auto t = per_launch_ms(e, regime)) r.t_b_ms = p.unit_launches() * *t;
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
  if (r.match != MatchKind::exact)
    r.note = fmt::format("matched by {} name in round {}: '{}'{}",
                         r.match == MatchKind::short_name ? "short" : to_string(r.match), in.round,
                         e.name, r.note.empty() ? "" : "; " + r.note);
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

// The row of a kernel new in round B's head (or renamed beyond recognition).
CompareRow new_kernel_row(const TopnEntry& e, const TopnDocument& b, double bar,
                          const CompareInput& in) {
  CompareRow r;
  r.name = e.name;
  r.short_name = e.short_name;
  r.display_name = kernel_tag(e.short_name, e.demangled, e.name);
  r.name_b = e.name;
  r.match = MatchKind::none;
  r.pct_b = e.pct_gpu_time;
  const RegimeChoice regime = pick_regime(e, b.serving);
  r.t_b_ms = regime.t_ms;
  r.status = {"new"};
  r.note = fmt::format(
      "in round {}'s head ({:g}% ≥ {:g}%) but no kernel of round {}'s head; t_b_ms is one "
      "launch ({})",
      in.round, e.pct_gpu_time, bar, in.baseline_round, regime.t_source);
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

Comparison compare_rounds(const CompareInput& in) {
  Comparison c;
  c.baseline_round = in.baseline_round;
  c.round = in.round;
  c.predictions_from = in.a->from;
  c.noise_isolated = in.noise_isolated;
  const RoundPredictions& a = *in.a;
  const TopnDocument& b = *in.topn_b;

  const std::vector<KernelPair> matches = match_rounds(a, b);
  std::vector<bool> in_rows(b.entries.size(), false);
  for (std::size_t i = 0; i < a.entries.size(); ++i) {
    const Prediction& p = a.entries[i];
    CompareRow r = prediction_row(p, matches[i].kind);
    if (const auto j = matches[i].index) {
      in_rows[*j] = true;
      measure_row(r, p, b.entries[*j], in);
    } else {
      mark_vanished(r, in.round);
    }
    c.rows.push_back(std::move(r));
  }

  // Round B's head kernels that are no row of A: new (or renamed beyond recognition).
  const double bar = a.head_threshold_pct.value_or(k_default_head_pct);
  for (std::size_t j : unmatched_head(b, in_rows, bar))
    c.rows.push_back(new_kernel_row(b.entries[j], b, bar, in));
  c.step_time = step_time(in, c.notes);
  return c;
}

}  // namespace roofline::outcomes
