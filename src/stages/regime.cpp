// Step 6, pick_regime (docs/method.md §6): the e2e-critical regime, its per-launch time and
// launches per step.
#include <fmt/format.h>

#include "roofline/stages.hpp"

namespace roofline {
namespace {

std::optional<Regime> single_regime(const TopNEntry& e) {
  bool p = false, d = false;
  for (const std::string& r : e.served_regimes) {
    if (r == "prefill")
      p = true;
    else if (r == "decode")
      d = true;
  }
  if (p != d) return p ? Regime::prefill : Regime::decode;
  if (e.served_regimes.empty()) {
    if (e.phase == "prefill") return Regime::prefill;
    if (e.phase == "decode") return Regime::decode;
  }
  return std::nullopt;
}

std::string fmt_num(double v) {
  return fmt::format("{:.6g}", v);
}

// Rows in flight the entry's shapes show (docs/method.md §6.4): the first operand's leading
// dimension, leading 1s skipped, over the signature with the most rows. A flat (1-D) operand has no
// rows — its one dimension is an element count (a 1 GiB memcpy is not 268 M rows in flight) — so
// the first operand of two or more dimensions decides.
std::optional<double> shape_rows(const TopNEntry& e) {
  auto rows_of = [](const std::vector<std::vector<std::int64_t>>& sig) -> std::optional<double> {
    for (const auto& op : sig) {
      if (op.size() < 2) continue;
      for (auto d : op)
        if (d != 1) return d > 0 ? std::optional<double>(static_cast<double>(d)) : std::nullopt;
      if (!op.empty()) return 1.0;  // all ones
    }
    return std::nullopt;
  };
  std::optional<double> best;
  for (const auto& sig : e.signatures)
    if (auto r = rows_of(sig); r && (!best || *r > *best)) best = r;
  if (!best) best = rows_of(e.shapes);
  return best;
}

}  // namespace

RegimeChoice pick_regime(const TopNEntry& e, const ServingInfo& serving, const RegimeHints& hints) {
  RegimeChoice out;
  if (auto one = single_regime(e)) {
    out.regime = *one;
    out.why = fmt::format("runs only in {} ({})", to_string(*one),
                          e.served_regimes.empty() ? "phase" : "served_regimes");
  } else {
    // Launch weight per regime: calls_per_step x steps, else phase_calls_measured.
    std::optional<double> wp, wd;
    std::string basis;
    auto steps_p = serving.n_prefill_steps, steps_d = serving.n_decode_steps;
    if (e.calls_per_step.any() && steps_p && steps_d) {
      wp = e.calls_per_step.prefill.value_or(0.0) * *steps_p;
      wd = e.calls_per_step.decode.value_or(0.0) * *steps_d;
      basis = "calls_per_step × steps";
    } else if (e.phase_calls_measured.any()) {
      wp = e.phase_calls_measured.prefill.value_or(0.0);
      wd = e.phase_calls_measured.decode.value_or(0.0);
      basis = "phase_calls_measured";
    }
    if (wp && wd && (*wp > 0 || *wd > 0)) {
      out.regime = *wp > *wd ? Regime::prefill : Regime::decode;
      out.why = fmt::format("carries the launches ({}: prefill {}, decode {})", basis, fmt_num(*wp),
                            fmt_num(*wd));
    } else if (steps_p && steps_d && (*steps_p > 0 || *steps_d > 0)) {
      out.regime = *steps_p > *steps_d ? Regime::prefill : Regime::decode;
      out.why = fmt::format(
          "no per-regime launch data; the run has more {} steps ({} prefill vs {} decode)",
          to_string(out.regime), fmt_num(*steps_p), fmt_num(*steps_d));
    } else if (const auto rows = shape_rows(e); hints.inferred && rows && hints.conc) {
      // No step annotations at all (docs/method.md §6.4): decode batches are at most the
      // concurrency.
      out.regime = *rows <= 2.0 * *hints.conc ? Regime::decode : Regime::prefill;
      out.why = fmt::format(
          "no per-regime data; the shapes show {} rows, {} 2 × workload.conc {} (MODELS.md §10)",
          fmt_num(*rows), out.regime == Regime::decode ? "≤" : ">", fmt_num(*hints.conc));
    } else {
      out.regime = Regime::decode;
      out.why = "no per-regime data and no step counts; assumed decode";
    }
  }
  const Regime r = out.regime;
  if (auto base = e.base_latency_ms.at(r)) {
    out.t_ms = *base;
    out.t_source = fmt::format("base_latency_ms.{}", to_string(r));
  } else if (e.avg_us) {
    out.t_ms = *e.avg_us / 1000.0;
    out.t_source = hints.inferred ? "avg_us / 1000 (no per-regime latency: the mean over prefill "
                                    "and decode launches alike)"
                                  : "avg_us / 1000 (no per-regime latency)";
  }
  if (auto cps = e.calls_per_step.at(r)) {
    out.launches_per_step = *cps;
    out.launches_source = fmt::format("calls_per_step.{}", to_string(r));
  } else if (auto measured = e.phase_calls_measured.at(r);
             measured && serving.steps(r) && *serving.steps(r) > 0) {
    out.launches_per_step = *measured / *serving.steps(r);
    out.launches_source = fmt::format("phase_calls_measured.{} {} / n_{}_steps {}", to_string(r),
                                      fmt_num(*measured), to_string(r), fmt_num(*serving.steps(r)));
  } else if (e.calls && serving.steps(r) && *serving.steps(r) > 0) {
    out.launches_per_step = *e.calls / *serving.steps(r);
    out.launches_source = fmt::format("calls {} / n_{}_steps {}", fmt_num(*e.calls), to_string(r),
                                      fmt_num(*serving.steps(r)));
  } else if (hints.inferred && hints.inferred->launches_per_step) {
    out.launches_per_step = *hints.inferred->launches_per_step;
    out.launches_source = hints.inferred->how + " (MODELS.md §10)";
  }
  out.notes.push_back(fmt::format("regime {}: {}", to_string(out.regime), out.why));
  if (out.t_ms)
    out.notes.push_back(fmt::format("t_ms {:.6g} ms per launch from {}", *out.t_ms, out.t_source));
  if (out.launches_per_step)
    out.notes.push_back(fmt::format("launches_per_step {:.6g} from {}", *out.launches_per_step,
                                    out.launches_source));
  if (hints.inferred && !hints.inferred->inconsistent.empty())
    out.notes.push_back(hints.inferred->inconsistent);
  return out;
}

}  // namespace roofline
