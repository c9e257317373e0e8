// docs/method.md §10.8, §23.3: a decode attention over a paged pool whose context only
// max_seqlen_k bounds. The keys it reads lie in a range; the workload narrows it where it agrees
// with the trace, the measured time caps it, and its ends are readings of the entry's band.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "roofline/analyze/models/models.hpp"

namespace roofline::analyze::detail {
namespace {

struct KeysRange {
  double lo = 0, hi = 0, taken = 0;
  std::string taken_why;
  std::string lo_why = "one sequence at the maximum, each other at least its query's key";
};

// The workload's word on the contexts (docs/method.md §8.8): the step annotations' measured mean
// context fixes the keys; isl and osl put every sequence between isl and isl + osl keys. Either
// one only where the trace's bound admits it: a contradiction is noted and the trace stands.
void narrow_by_workload(const ContextBound& b, double sequences, const EnvReport* env, KeysRange& k,
                        std::vector<std::string>& notes) {
  if (!env) return;
  const Workload& w = env->workload;
  const double longest = k.hi / sequences;  // max_seqlen_k, or a window's W + 1
  if (w.decode_context && *w.decode_context > 0) {
    const double keys = sequences * std::min(*w.decode_context, longest);
    if (keys >= k.lo && keys <= k.hi) {
      k = KeysRange{
          keys, keys, keys,
          fmt::format("{} sequences × the measured decode context {} ({})", format_g(sequences),
                      format_g(*w.decode_context), w.decode_context_source)};
      return;
    }
    notes.push_back(fmt::format(
        "the measured decode context {} ({}) does not fit the launch's bound ({} to {} keys): "
        "the trace's bound stands",
        format_g(*w.decode_context), w.decode_context_source, format_g(k.lo), format_g(k.hi)));
    return;
  }
  if (!w.isl || !w.osl) return;
  const double low = std::min(*w.isl, longest), high = std::min(*w.isl + *w.osl, longest);
  if (b.max_seqlen_k < *w.isl || b.max_seqlen_k > *w.isl + *w.osl) {
    notes.push_back(fmt::format(
        "the workload's isl {} and osl {} put every context between {} and {} keys, but the "
        "launch records max_seqlen_k {}: the trace's bound stands, the workload is not this "
        "launch's",
        format_g(*w.isl), format_g(*w.osl), format_g(*w.isl), format_g(*w.isl + *w.osl),
        format_g(b.max_seqlen_k)));
    return;
  }
  k.lo = std::max(k.lo, longest + (sequences - 1) * low);
  k.lo_why = fmt::format("one sequence at the maximum, each other at least isl {}", format_g(low));
  k.hi = std::min(k.hi, longest + (sequences - 1) * high);
  const double mid = std::min(*w.isl + *w.osl / 2.0, longest);
  k.taken = std::clamp(sequences * mid, k.lo, k.hi);
  k.taken_why = fmt::format(
      "{} sequences × isl + osl/2 = {} (the workload; every context between isl {} and isl + osl "
      "{})",
      format_g(sequences), format_g(mid), format_g(*w.isl), format_g(*w.isl + *w.osl));
}

double keys_bytes(const ContextBound& b, double keys) {
  return b.fixed_bytes + keys * b.key_bytes;
}

// docs/method.md §9: no reading moves more bytes than the time allows at the datasheet bandwidth;
// the range's top is cut there (where even its bottom is refuted, the figure is infeasible, L3).
void cap_by_time(const ContextBound& b, std::optional<double> budget, KeysRange& k,
                 std::vector<std::string>& notes) {
  if (!budget || keys_bytes(b, k.hi) <= *budget || keys_bytes(b, k.lo) > *budget) return;
  // Whole keys, so the cut figure stays inside the budget.
  const double most = std::max(k.lo, std::floor((*budget - b.fixed_bytes) / b.key_bytes));
  notes.push_back(fmt::format(
      "the measured time allows at most {} in the launch ({} keys at {} B each plus Q and O): the "
      "range's top {} keys is cut to {}",
      fmt_bytes(*budget), format_g(most), format_g(b.key_bytes), format_g(k.hi), format_g(most)));
  k.hi = most;
  if (k.taken > most) k.taken = most, k.taken_why = "the most keys the measured time allows";
}

// A bounded attention's terms at the taken reading: Q and O, K and V per key read, FLOPs per
// `unit` (a key at decode, a (query, key) pair in prefill).
void set_bound_terms(OpReading& r, double fixed_bytes, double keys, double key_bytes, double units,
                     double unit_flops, const char* unit) {
  r.bytes_term =
      sum("bytes", {part("Q + O", fixed_bytes),
                    part(fmt::format("K + V: {} keys × {} B", format_g(keys), format_g(key_bytes)),
                         keys * key_bytes)});
  r.flops_term = term("flops",
                      fmt::format("2·H_q·(d_qk + d_v) = {} per {} × {} {}s", format_g(unit_flops),
                                  unit, format_g(units), unit),
                      units * unit_flops, TermUnit::flops);
  r.bytes = r.bytes_term.value;
  r.flops = r.flops_term.value;
  r.kv_bytes = keys * key_bytes;
}

Reading keys_reading(const ContextBound& b, double keys, std::string label, std::string why) {
  return Reading{"context_bound",     std::move(label),   std::move(why),
                 keys_bytes(b, keys), keys * b.key_flops, std::nullopt};
}

}  // namespace

void apply_context_bound(const OpCall& call, OpReading& r, const ModelContext& ctx,
                         std::optional<double> budget, WorkEstimate& work) {
  const AttentionReading& a = *r.attention;
  const ContextBound& b = *a.context_bound;
  KeysRange k{b.keys_lo, b.keys_hi, b.keys_hi,
              fmt::format("every sequence at max_seqlen_k {} (the most the launch allows)",
                          format_g(b.max_seqlen_k))};
  narrow_by_workload(b, a.sequences, ctx.env, k, work.notes);
  cap_by_time(b, budget, k, work.notes);
  work.notes.push_back(fmt::format(
      "'{}' records max_seqlen_k {} over {} decode sequences: a bound, not their contexts; the "
      "keys read lie between {} ({}) and {}; taken: {} keys, {}",
      call.op, format_g(b.max_seqlen_k), format_g(a.sequences), format_g(k.lo), k.lo_why,
      format_g(k.hi), format_g(k.taken), k.taken_why));
  set_bound_terms(r, b.fixed_bytes, k.taken, b.key_bytes, k.taken, b.key_flops, "key");
  if (k.lo < k.taken)
    work.readings.push_back(keys_reading(b, k.lo, "the shortest contexts the bound allows",
                                         fmt::format("{} keys in all", format_g(k.lo))));
  if (k.hi > k.taken)
    work.readings.push_back(keys_reading(b, k.hi, "the longest contexts the bound allows",
                                         fmt::format("{} keys in all", format_g(k.hi))));
  work.readings_decide = !work.readings.empty();
}

namespace {

double state_bytes(const SeqlenBound& b, const SeqlenState& s) {
  return b.fixed_bytes + s.keys * b.key_bytes;
}

// The largest context in [lo, hi] whose state fits `budget` (bytes grow with the context), or
// nullopt when even `lo`'s does not.
std::optional<double> context_within(const SeqlenBound& b, double lo, double hi, double budget) {
  const auto fits = [&](double c) { return state_bytes(b, seqlen_state(b, c)) <= budget; };
  if (!fits(lo)) return std::nullopt;
  while (hi - lo > 1) {  // fits(lo), not fits(hi)
    const double mid = std::floor((lo + hi) / 2);
    (fits(mid) ? lo : hi) = mid;
  }
  return lo;
}

}  // namespace

bool apply_seqlen_bound(const OpCall& call, OpReading& r, std::optional<double> budget,
                        WorkEstimate& work, std::string& why) {
  const SeqlenBound& b = *r.attention->seqlen_bound;
  const SeqlenState lo = seqlen_state(b, 0);
  double context = b.max_seqlen_k;
  SeqlenState taken = seqlen_state(b, context);
  std::string cut;
  if (budget && state_bytes(b, taken) > *budget) {
    const auto fits = context_within(b, 0, context, *budget);
    if (!fits) {
      why = fmt::format(
          "'{}': even every context at its own queries ({} keys) moves more bytes than the "
          "measured time allows",
          call.op, format_g(lo.keys));
      return false;
    }
    context = *fits;
    taken = seqlen_state(b, context);
    cut = fmt::format("; the measured time allows at most {}: contexts cut to {} keys",
                      fmt_bytes(*budget), format_g(context));
  }
  work.notes.push_back(fmt::format(
      "'{}' records max_seqlen_q {} and max_seqlen_k {} over {} sequences of {} queries in all: "
      "bounds, not their lengths; between each context at its own queries, split evenly ({} "
      "keys, {} pairs) and each context at {} keys ({} keys, {} pairs); taken: the top{}",
      call.op, format_g(b.max_seqlen_q), format_g(b.max_seqlen_k), format_g(b.sequences),
      format_g(b.tokens), format_g(lo.keys), format_g(lo.pairs), format_g(context),
      format_g(taken.keys), format_g(taken.pairs), cut));
  set_bound_terms(r, b.fixed_bytes, taken.keys, b.key_bytes, taken.pairs, b.pair_flops, "pair");
  if (lo.keys < taken.keys || lo.pairs < taken.pairs)
    work.readings.push_back(
        Reading{"seqlen_bound", "each context at its own queries",
                fmt::format("{} keys, {} pairs", format_g(lo.keys), format_g(lo.pairs)),
                state_bytes(b, lo), lo.pairs * b.pair_flops, std::nullopt});
  work.readings_decide = !work.readings.empty();
  return true;
}

}  // namespace roofline::analyze::detail
