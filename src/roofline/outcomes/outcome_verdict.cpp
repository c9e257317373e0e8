// Verdicts of measured outcomes against their predictions (docs/method.md §17.2), pure.
#include <cmath>

#include <fmt/format.h>

#include "roofline/outcomes/outcomes.hpp"

namespace roofline {

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

OutcomeJudgement judge_outcome(const Outcome& o, const Prediction* p, double band) {
  OutcomeJudgement j;
  j.flags = o.flags;
  // Plain doubles (0 = absent): the measured speedup and the kernel's share of GPU time.
  const std::optional<double> measured =
      o.source == OutcomeSource::compare ? o.in_situ_speedup : o.isolated_speedup;
  const double s = measured && std::isfinite(*measured) && *measured > 0 ? *measured : 0.0;
  const bool have_s = s > 0;
  double pct = o.pct_gpu_time.value_or(0.0);
  if (!(pct > 0) && p) pct = p->pct_gpu_time.value_or(0.0);

  // Amdahl: an accepted e2e delta above what the kernel's share of GPU time allows.
  if (have_s && o.gate == "accepted" && o.e2e_delta_pct && pct > 0 && pct < 100) {
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
  auto undefined = [&](std::string why) {
    j.verdict = "undefined";
    j.reason = j.reason.empty() ? std::move(why) : why + "; " + j.reason;
    return j;
  };

  if (!p) {
    j.verdict = "unpredicted";
    j.reason = j.reason.empty() ? "no entry of the baseline round matches this kernel"
                                : "no entry of the baseline round matches this kernel; " + j.reason;
    return j;
  }
  if (!o.undefined_reason.empty()) return undefined(o.undefined_reason);
  if (o.gate == "incomplete")
    return undefined("the integration did not complete (gate incomplete)");
  // An e2e gain beyond what a saturated kernel allows refutes the prediction with or without an
  // isolated speedup (an integration often measures only the e2e delta).
  auto e2e_contradiction = [&]() -> std::optional<OutcomeJudgement> {
    if (!(p->headroom_class == "saturated" && o.e2e_delta_pct && p->expected_e2e_gain_pct &&
          *o.e2e_delta_pct > *p->expected_e2e_gain_pct + k_e2e_slack_pct))
      return std::nullopt;
    j.verdict = "contradiction";
    j.flags.push_back("e2e_contradiction");
    const std::string why = fmt::format(
        "e2e {:+.3g} % is above the predicted gain {:+.3g} % + {:g} points of a saturated kernel",
        *o.e2e_delta_pct, *p->expected_e2e_gain_pct, k_e2e_slack_pct);
    j.reason = j.reason.empty() ? why : why + "; " + j.reason;
    return j;
  };
  if (!have_s) {
    if (auto c = e2e_contradiction()) return *c;
    return undefined("no measured speedup");
  }
  if (o.source != OutcomeSource::compare && p->t_ms && *p->t_ms * 1000.0 < k_isolated_floor_us) {
    j.flags.push_back("below_floor");
    return undefined(
        fmt::format("baseline launch {:.3g} µs is under the {:g} µs floor of isolated harnesses",
                    *p->t_ms * 1000.0, k_isolated_floor_us));
  }
  if (!p->has_verdict()) j.flags.push_back("no_predicted_verdict");

  if (p->has_verdict() && p->attainable_speedup && s > *p->attainable_speedup * (1.0 + band)) {
    j.verdict = "contradiction";
    const std::string why =
        fmt::format("measured {:.3f}× beyond the predicted ceiling {:.3f}× (+{:g} %)", s,
                    *p->attainable_speedup, 100.0 * band);
    j.reason = j.reason.empty() ? why : why + "; " + j.reason;
    return j;
  }
  if (auto c = e2e_contradiction()) return *c;
  j.verdict = s > 1.0 + band ? "confirmed" : s < 1.0 - band ? "regressed" : "within_noise";
  return j;
}

}  // namespace roofline
