// Verdicts of measured outcomes against their predictions (docs/method.md §17.2), pure.
#include <cmath>

#include <fmt/format.h>

#include "roofline/outcomes/layer.hpp"
#include "roofline/outcomes/outcomes.hpp"

namespace roofline::outcomes {

const char* to_string(OutcomeSource s) {
  switch (s) {
    case OutcomeSource::director:
      return "director";
    case OutcomeSource::opbench:
      return "opbench";
    case OutcomeSource::integrate:
      return "integrate";
    case OutcomeSource::compare:
      return "compare";
  }
  return "opbench";
}

std::optional<OutcomeSource> parse_outcome_source(std::string_view s) {
  for (OutcomeSource v : {OutcomeSource::director, OutcomeSource::opbench, OutcomeSource::integrate,
                          OutcomeSource::compare})
    if (s == to_string(v)) return v;
  return std::nullopt;
}

int source_precedence(std::string_view s) {
  const auto v = parse_outcome_source(s);
  return v ? static_cast<int>(*v) : 99;
}

double amdahl_ceiling_pct(double pct, double speedup) {
  const double saved = pct / 100.0 * (1.0 - 1.0 / speedup);
  return 100.0 * (1.0 / (1.0 - saved) - 1.0) + k_e2e_slack_pct;
}

namespace {

// The measured speedup (compare: in situ, else isolated); 0 when absent, not finite or not
// positive.
double measured_speedup(const Outcome& o) {
  const std::optional<double> measured =
      o.source == OutcomeSource::compare ? o.in_situ_speedup : o.isolated_speedup;
  return measured && std::isfinite(*measured) && *measured > 0 ? *measured : 0.0;
}

// The kernel's share of GPU time: the outcome's, else the prediction's; 0 when neither has one.
double gpu_share_pct(const Outcome& o, const Prediction* p) {
  double pct = o.pct_gpu_time.value_or(0.0);
  if (!(pct > 0) && p) pct = p->pct_gpu_time.value_or(0.0);
  return pct;
}

// Amdahl: flags an accepted e2e delta above what the kernel's share `pct` of GPU time allows at
// the speedup `s` (0: none).
void check_amdahl(const Outcome& o, double s, double pct, OutcomeJudgement& j) {
  if (!(s > 0 && o.gate == "accepted" && o.e2e_delta_pct && pct > 0 && pct < 100)) return;
  const double ceiling = amdahl_ceiling_pct(pct, s);
  const double e2e = *o.e2e_delta_pct;
  if (e2e > ceiling) {
    j.flags.push_back("amdahl_exceeded");
    j.reason = fmt::format(
        "accepted e2e {:+.3g} % is above the Amdahl ceiling {:.3g} % of {:.3g}× on {:g} % of "
        "GPU time: pct_gpu_time under-counts this kernel (e.g. graph-captured launches)",
        e2e, ceiling, s, pct);
  }
}

// `j` with `verdict`, and `why` before the reason it already gives.
OutcomeJudgement with_verdict(OutcomeJudgement j, const char* verdict, const std::string& why) {
  j.verdict = verdict;
  j.reason = j.reason.empty() ? why : why + "; " + j.reason;
  return j;
}

// An e2e gain beyond what a saturated kernel allows refutes the prediction with or without an
// isolated speedup (an integration often measures only the e2e delta): `j` as a contradiction,
// else nullopt.
std::optional<OutcomeJudgement> e2e_contradiction(const Outcome& o, const Prediction& p,
                                                  OutcomeJudgement j) {
  if (!(p.headroom_class == "saturated" && o.e2e_delta_pct && p.expected_e2e_gain_pct &&
        *o.e2e_delta_pct > *p.expected_e2e_gain_pct + k_e2e_slack_pct))
    return std::nullopt;
  j.flags.push_back("e2e_contradiction");
  return with_verdict(
      std::move(j), "contradiction",
      fmt::format(
          "e2e {:+.3g} % is above the predicted gain {:+.3g} % + {:g} points of a saturated kernel",
          *o.e2e_delta_pct, *p.expected_e2e_gain_pct, k_e2e_slack_pct));
}

// The verdict of the measured speedup `s` (> 0) against the prediction `p`: undefined under the
// isolated harnesses' floor, a contradiction beyond the predicted ceiling or by the e2e delta,
// else by the noise band.
OutcomeJudgement judge_speedup(const Outcome& o, const Prediction& p, double s, double band,
                               OutcomeJudgement j) {
  if (o.source != OutcomeSource::compare && p.t_ms && *p.t_ms * 1000.0 < k_isolated_floor_us) {
    j.flags.push_back("below_floor");
    return with_verdict(
        std::move(j), "undefined",
        fmt::format("baseline launch {:.3g} µs is under the {:g} µs floor of isolated harnesses",
                    *p.t_ms * 1000.0, k_isolated_floor_us));
  }
  if (!p.has_verdict()) j.flags.push_back("no_predicted_verdict");
  if (p.has_verdict() && p.attainable_speedup && s > *p.attainable_speedup * (1.0 + band))
    return with_verdict(
        std::move(j), "contradiction",
        fmt::format("measured {:.3f}× beyond the predicted ceiling {:.3f}× (+{:g} %)", s,
                    *p.attainable_speedup, 100.0 * band));
  if (auto c = e2e_contradiction(o, p, j)) return *c;
  // Only a predicted verdict can be confirmed: faster without one is an improvement, no more.
  const char* faster = p.has_verdict() ? "confirmed" : "improved";
  j.verdict = s > 1.0 + band ? faster : s < 1.0 - band ? "regressed" : "within_noise";
  return j;
}

}  // namespace

OutcomeJudgement judge_outcome(const Outcome& o, const Prediction* p, double band) {
  OutcomeJudgement j;
  j.flags = o.flags;
  const double s = measured_speedup(o);
  check_amdahl(o, s, gpu_share_pct(o, p), j);
  if (!p)
    return with_verdict(std::move(j), "unpredicted",
                        "no entry of the baseline round matches this kernel");
  if (!o.undefined_reason.empty())
    return with_verdict(std::move(j), "undefined", o.undefined_reason);
  if (o.gate == "incomplete")
    return with_verdict(std::move(j), "undefined",
                        "the integration did not complete (gate incomplete)");
  if (!(s > 0)) {
    if (auto c = e2e_contradiction(o, *p, j)) return *c;
    return with_verdict(std::move(j), "undefined", "no measured speedup");
  }
  return judge_speedup(o, *p, s, band, std::move(j));
}

BandMisses count_band_misses(const std::vector<LedgerRecord>& records, double noise) {
  BandMisses m;
  for (const LedgerRecord& r : records) {
    const std::optional<double> s = r.speedup();
    const std::optional<double> hi = r.predicted.band_high();
    if (!r.predicted_present || !r.predicted.has_verdict() || !s || !(*s > 0) || !hi ||
        r.verdict == "undefined")
      continue;
    ++m.measured;
    if (*s > *hi * (1.0 + noise)) ++m.missed;
    if (r.verdict == "contradiction") ++m.contradictions;
  }
  return m;
}

}  // namespace roofline::outcomes
