// Pass pick_regimes (docs/method.md §6), pick_regime for one entry: the e2e-critical regime, its
// per-launch time and launches per step.
#include "roofline/analyze/steps/pick_regimes.hpp"

#include <cmath>

#include <fmt/format.h>

#include "roofline/analyze/entry/head_entry.hpp"
#include "roofline/analyze/evidence/op_reading.hpp"
#include "roofline/analyze/layer.hpp"
#include "roofline/analyze/models/models.hpp"
#include "roofline/base/units.hpp"

namespace roofline::analyze {
namespace {

std::optional<Regime> single_regime(const TopnEntry& e) {
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

bool is_head_count(std::int64_t d, const ModelConfig* c) {
  if (!c) return false;
  for (const auto& h : {c->n_heads, c->n_kv_heads})
    if (h && *h > 0 && d > 1 && static_cast<double>(d) <= *h &&
        std::fmod(*h, static_cast<double>(d)) == 0.0)  // n / tp on a rank
      return true;
  return false;
}

bool is_head_dim(std::int64_t d, const ModelConfig* c) {
  if (!c) return false;
  for (const auto& h : {c->head_dim, c->v_head_dim})
    if (h && static_cast<double>(d) == *h) return true;
  return c->qk_nope_head_dim &&
         static_cast<double>(d) == *c->qk_nope_head_dim + c->qk_rope_head_dim.value_or(0.0);
}

// The rows (tokens) of one operand of two or more dims (docs/method.md §6.4): the product of every
// dim but the last ([M, K] → M, [B, S, H] → B·S), except an attention operand whose last two dims
// are a head count and the head size of the config ([T, H, D] → T, [B, S, H, D] → B·S;
// [B, H, S, D] → B·S when dim 1 is the head count). Without a config a 4-D operand is read as
// [B, S, H, D]. nullopt for a flat operand or a non-positive dim.
std::optional<double> operand_rows(const std::vector<std::int64_t>& op, const ModelConfig* c) {
  const std::size_t n = op.size();
  if (n < 2) return std::nullopt;
  for (auto d : op)
    if (d <= 0) return std::nullopt;
  auto product = [&](std::size_t end) {
    double rows = 1.0;
    for (std::size_t i = 0; i < end; ++i) rows *= static_cast<double>(op[i]);
    return rows;
  };
  if (n >= 3 && is_head_dim(op[n - 1], c) && is_head_count(op[n - 2], c)) return product(n - 2);
  if (n == 4 && is_head_dim(op[3], c) && is_head_count(op[1], c))
    return static_cast<double>(op[0]) * static_cast<double>(op[2]);  // [B, H, S, D]
  if (n == 4) return product(2);                                     // no config: [B, S, H, D]
  return product(n - 1);
}

// Rows in flight the entry's shapes show (docs/method.md §6.4): the first operand of two or more
// dimensions (a flat operand's one dimension is an element count: a 1 GiB memcpy is not 268 M rows
// in flight) — a batched GEMM's M — over the signature with the most rows.
std::optional<double> shape_rows(const TopnEntry& e, const ModelConfig* config) {
  auto rows_of = [&](const std::vector<std::vector<std::int64_t>>& sig) -> std::optional<double> {
    // A batched GEMM [Bt, M, K] × [Bt, K, N]: the batch is experts or heads, its rows are M.
    if (sig.size() >= 2 && sig[0].size() == 3 && sig[1].size() == 3 && sig[0][0] == sig[1][0] &&
        sig[0][1] > 0)
      return static_cast<double>(sig[0][1]);
    for (const auto& op : sig)
      if (op.size() >= 2) return operand_rows(op, config);
    return std::nullopt;
  };
  std::optional<double> best;
  for (const auto& sig : e.signatures)
    if (auto r = rows_of(sig); r && (!best || *r > *best)) best = r;
  if (!best) best = rows_of(e.shapes);
  return best;
}

// What the entry's signatures say of its regime (docs/method.md §23.3): each signature's launching
// op read through the op table (an attention op's query length per sequence); one regime when
// every signature that says one agrees.
void signature_regime(const HeadEntry& he, const TopnEntry& e, RegimeHints& hints) {
  std::optional<Regime> found;
  std::string why;
  bool agree = true;
  auto consider = [&](const std::string& op, const ProbeCase& c) {
    if (op.empty() || c.dims.empty()) return;
    const OpReading r = read_op_call(detail::case_call(op, c));
    if (!r.attention || !r.attention->regime) return;
    if (found && *found != *r.attention->regime) agree = false;
    if (!found) why = fmt::format("{} ('{}')", r.attention->regime_why, op);
    found = r.attention->regime;
  };
  if (he.evidence.workload) {
    for (const ProbeCase& c : he.evidence.workload->cases) consider(detail::case_op(e, c), c);
  } else {
    for (const auto& dims :
         e.signatures.empty() ? decltype(e.signatures){e.shapes} : e.signatures) {
      ProbeCase c;
      c.dims = dims;
      consider(e.op, c);
    }
  }
  if (found && agree) {
    hints.signature_regime = found;
    hints.signature_why = why;
  }
}

// What step 5 adds to the entry's regime choice when the Top-N has no step annotations, and what
// its signatures say.
RegimeHints hints_for(const HeadEntry& e, const TopnEntry& t, const EnvReport* env,
                      const ModelConfig* config) {
  RegimeHints hints;
  if (env) hints.given = env->regime;
  if (e.launches) {
    hints.inferred = &*e.launches;
    if (env) hints.conc = env->workload.conc;
    hints.config = config;
  }
  signature_regime(e, t, hints);
  return hints;
}

// docs/method.md §6.1: weighted by their time where both regimes' per-launch times are measured
// — the regime that carries the entry's GPU time (a prefill of tens of thousands of tokens and one
// replayed decode step launch a kernel as often, but the prefill holds its time). False where the
// times are not both known.
bool by_time(RegimeChoice& out, const TopnEntry& e, const std::optional<double>& wp,
             const std::optional<double>& wd, const std::string& basis) {
  const auto& lp = e.base_latency_ms.prefill;
  const auto& ld = e.base_latency_ms.decode;
  if (!(wp && wd && *wp > 0 && *wd > 0 && lp && ld && *lp > 0 && *ld > 0)) return false;
  const double tp = *wp * *lp, td = *wd * *ld;
  out.regime = tp > td ? Regime::prefill : Regime::decode;
  out.why = fmt::format(
      "carries the GPU time ({}: prefill {} launches × {} ms = {} ms, decode {} × {} ms = {} ms)",
      basis, fmt_num(*wp), fmt_num(*lp), fmt_num(tp), fmt_num(*wd), fmt_num(*ld), fmt_num(td));
  return true;
}

// The regime of an entry that runs in both (or neither): by launch weight, else by step counts,
// else by the rows its shapes show, else decode.
void regime_from_data(RegimeChoice& out, const TopnEntry& e, const TopnServing& serving,
                      const RegimeHints& hints) {
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
  if (by_time(out, e, wp, wd, basis)) return;
  if (wp && wd && (*wp > 0 || *wd > 0)) {
    out.regime = *wp > *wd ? Regime::prefill : Regime::decode;
    out.why = fmt::format("carries the launches ({}: prefill {}, decode {})", basis, fmt_num(*wp),
                          fmt_num(*wd));
  } else if (steps_p && steps_d && (*steps_p > 0 || *steps_d > 0)) {
    out.regime = *steps_p > *steps_d ? Regime::prefill : Regime::decode;
    out.why = fmt::format(
        "no per-regime launch data; the run has more {} steps ({} prefill vs {} decode)",
        to_string(out.regime), fmt_num(*steps_p), fmt_num(*steps_d));
  } else if (hints.signature_regime) {
    out.regime = *hints.signature_regime;
    out.why = fmt::format("no per-regime data; the signature says so: {}", hints.signature_why);
  } else if (const auto rows = shape_rows(e, hints.config); hints.inferred && rows && hints.conc) {
    // No step annotations at all (docs/method.md §6.4): decode batches are at most the
    // concurrency.
    out.regime = *rows <= 2.0 * *hints.conc ? Regime::decode : Regime::prefill;
    out.shape_rows = rows;
    out.why = fmt::format(
        "no per-regime data; the shapes show {} rows, {} 2 × workload.conc {} (docs/method.md "
        "§6.4)",
        fmt_num(*rows), out.regime == Regime::decode ? "≤" : ">", fmt_num(*hints.conc));
    if (hints.pass_regime && *hints.pass_regime != out.regime) {
      out.regime = *hints.pass_regime;
      out.why += fmt::format(", but one forward pass has one regime: {}", hints.pass_why);
    }
  } else {
    // docs/method.md §6.4, §16.4: --conc settles it only where the rows rule would then decide.
    const bool has_rows = rows && hints.inferred;
    out.known = false;
    out.why = fmt::format(
        "unknown: no step annotations or per-regime data, no signature that says it{} (decode is "
        "never assumed)",
        !has_rows    ? ", and no operand rows to weigh against workload.conc"
        : hints.conc ? ""
                     : ", and no workload.conc to weigh the shapes' rows against");
    out.settled_by = {"--regime decode|prefill"};
    if (has_rows && !hints.conc) out.settled_by.emplace_back("--conc");
  }
}

// --regime over what the data picked (or could not pick), naming what it replaced.
void give_regime(RegimeChoice& out, const RegimeHints& hints) {
  if (!hints.given) return;
  const std::string before =
      out.known ? fmt::format("{}: {}", to_string(out.regime), out.why) : out.why;
  const bool same = out.known && out.regime == *hints.given;
  out.known = true;
  out.regime = *hints.given;
  out.shape_rows.reset();
  out.why = same ? fmt::format("given (--regime), as the data say ({})", before)
                 : fmt::format("given (--regime), over the data's {}", before);
}

// The per-launch time in the chosen regime and where it came from.
void regime_time(RegimeChoice& out, const TopnEntry& e, const RegimeHints& hints) {
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
}

// Launches per step in the chosen regime and where they came from.
void regime_launches(RegimeChoice& out, const TopnEntry& e, const TopnServing& serving,
                     const RegimeHints& hints) {
  const Regime r = out.regime;
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
    out.launches_source = hints.inferred->how + " (docs/method.md §6.4)";
  }
}

// docs/method.md §6.4: launches per step are a whole number (within 5 %); a fraction says the
// steps counted are not the steps these launches ran in (empty or partial steps), whatever the
// vendor, so the figure is not used.
void regime_drop_fractional_launches(RegimeChoice& out) {
  if (!out.launches_per_step || *out.launches_per_step < 1.0) return;
  const double x = *out.launches_per_step, whole = std::round(x);
  if (std::fabs(x - whole) > 0.05 * whole) {
    out.notes.push_back(fmt::format(
        "launches per step {:.6g} ({}) is not a whole number (±5 %): the steps counted are not "
        "the steps these launches ran in, so no launches per step are used",
        x, out.launches_source));
    out.launches_per_step.reset();
    out.launches_source.clear();
  }
}

}  // namespace

RegimeChoice pick_regime(const TopnEntry& e, const TopnServing& serving, const RegimeHints& hints) {
  RegimeChoice out;
  if (auto one = single_regime(e)) {
    out.regime = *one;
    out.why = fmt::format("runs only in {} ({})", to_string(*one),
                          e.served_regimes.empty() ? "phase" : "served_regimes");
    if (hints.given && *hints.given != *one)
      out.why += fmt::format("; --regime {} is not taken: the trace has no {} launch of it",
                             to_string(*hints.given), to_string(*hints.given));
  } else {
    regime_from_data(out, e, serving, hints);
    give_regime(out, hints);
  }
  regime_time(out, e, hints);
  regime_launches(out, e, serving, hints);
  regime_drop_fractional_launches(out);
  out.notes.push_back(out.known ? fmt::format("regime {}: {}", to_string(out.regime), out.why)
                                : "regime " + out.why);
  if (out.t_ms)
    out.notes.push_back(fmt::format("t_ms {:.6g} ms per launch from {}", *out.t_ms, out.t_source));
  if (out.launches_per_step)
    out.notes.push_back(fmt::format("launches_per_step {:.6g} from {}", *out.launches_per_step,
                                    out.launches_source));
  if (hints.inferred && !hints.inferred->inconsistent.empty())
    out.notes.push_back(hints.inferred->inconsistent);
  return out;
}

void pick_regimes(std::vector<HeadEntry>& head, const TopnDocument& topn, const EnvReport* env,
                  const ModelConfig* config) {
  for (HeadEntry& e : head)
    e.regime = pick_regime(topn.entries[e.topn_position], topn.serving,
                           hints_for(e, topn.entries[e.topn_position], env, config));
  // One forward pass, one regime: where the rows rule decided, the dense GEMMs' [M, K] rows are
  // the unambiguous ones (an [E, C, H] buffer or a [B, S, H, D] operand is not); when they all say
  // the same, every entry the rows rule decided takes it.
  std::optional<Regime> pass;
  std::string rows;
  bool agree = true;
  for (const HeadEntry& e : head) {
    const TopnEntry& t = topn.entries[e.topn_position];
    if (!e.regime.shape_rows || e.classified.op_class != OpClass::gemm || t.shapes.empty() ||
        t.shapes.front().size() != 2)
      continue;
    if (pass && *pass != e.regime.regime) agree = false;
    pass = e.regime.regime;
    rows += fmt::format("{}{} {}", rows.empty() ? "" : ", ", e.short_name,
                        format_g(*e.regime.shape_rows));
  }
  if (!pass || !agree) return;
  for (HeadEntry& e : head) {
    if (!e.regime.shape_rows || e.regime.regime == *pass) continue;
    RegimeHints hints = hints_for(e, topn.entries[e.topn_position], env, config);
    hints.pass_regime = pass;
    hints.pass_why = fmt::format("the dense GEMMs' rows ({}) say {}", rows, to_string(*pass));
    e.regime = pick_regime(topn.entries[e.topn_position], topn.serving, hints);
  }
}

}  // namespace roofline::analyze
