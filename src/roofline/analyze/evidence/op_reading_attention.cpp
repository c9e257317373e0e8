// The op table's attention formulas (docs/method.md §23.3): attention from q, k, v and the
// recorded scalars (layout, query length per sequence, context, causality, window), and the
// KV-cache writes (the new tokens' rows, never the pool).
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "roofline/analyze/evidence/op_reading_internal.hpp"
#include "roofline/base/units.hpp"

namespace roofline::analyze::op_detail {
namespace {

struct QShape {
  double b = 0, s = 0, t = 0, h = 0, d = 0;
  bool dense = false;  // [B, S, H, D] or [B, H, S, D]: every sequence S long
};

struct KShape {
  double b = 0, s = 0, total = 0, h = 0, d = 0;
  bool paged = false, dense = false, packed = false;
};

std::optional<QShape> q_shape(const std::vector<std::int64_t>& d, ArgLayout l) {
  auto v = [&](std::size_t i) { return static_cast<double>(d[i]); };
  if (d.size() == 3) return QShape{0, 0, v(0), v(1), v(2), false};
  if (d.size() != 4) return std::nullopt;
  if (l == ArgLayout::BHSD) return QShape{v(0), v(2), v(0) * v(2), v(1), v(3), true};
  return QShape{v(0), v(1), v(0) * v(1), v(2), v(3), true};
}

std::optional<KShape> k_shape(const std::vector<std::int64_t>& d, ArgLayout l) {
  auto v = [&](std::size_t i) { return static_cast<double>(d[i]); };
  KShape k;
  if (d.size() == 3) {
    k.total = v(0), k.h = v(1), k.d = v(2), k.packed = true;
  } else if (d.size() == 4 && (l == ArgLayout::paged || l == ArgLayout::THD)) {
    k.h = v(2), k.d = v(3), k.paged = true;
  } else if (d.size() == 4 && l == ArgLayout::BHSD) {
    k.b = v(0), k.h = v(1), k.s = v(2), k.d = v(3), k.dense = true;
  } else if (d.size() == 4) {
    k.b = v(0), k.s = v(1), k.h = v(2), k.d = v(3), k.dense = true;
  } else {
    return std::nullopt;
  }
  return k;
}

// (query, key) pairs of one sequence: q queries aligned to the end of k keys, each seeing the keys
// up to itself when causal, at most `cap` of them (a window), in closed form.
double pairs_per_sequence(double q, double k, bool causal, double cap) {
  if (!causal) return q * std::min(k, cap);
  const double a = k - q + 1;  // keys the first query sees
  const double i0 = std::max(0.0, 1.0 - a), n = std::max(0.0, q - i0);
  const double lo = a + i0;
  const double n1 = std::clamp(cap - lo + 1, 0.0, n);
  return n1 * lo + n1 * (n1 - 1) / 2 + (n - n1) * cap;
}

// Sequences, query length and context from the shapes and scalars; false (with the reason) when
// the launch's work is not given by them.
bool lengths(Reader& r, const QShape& q, const KShape& k, AttentionReading& a) {
  const Bound* cu = r.first(ArgRole::cu_seqlens_q);
  a.sequences = q.dense ? q.b
                : cu && !cu->arg->dims.empty() && cu->arg->dims[0] >= 2
                    ? static_cast<double>(cu->arg->dims[0] - 1)
                    : 0;
  a.tokens = q.t;
  const auto mq = r.number(ScalarName::max_seqlen_q), mk = r.number(ScalarName::max_seqlen_k);
  a.q_len = mq ? *mq : q.dense ? q.s : a.sequences == 1 ? q.t : 0;
  a.q_len_exact = q.dense || a.sequences == 1 || (mq && *mq == 1 && a.sequences == q.t);
  if (k.dense) {
    a.k_len = k.s, a.k_len_exact = true;
  } else if (k.packed && mk) {
    a.k_len = a.sequences > 0 ? k.total / a.sequences : 0, a.k_len_exact = a.sequences == 1;
  } else if (k.paged && mk) {
    a.k_len = *mk, a.k_len_exact = a.sequences == 1;
  }
  if (a.q_len > 0) {
    a.regime = a.q_len == 1 ? Regime::decode : Regime::prefill;
    a.regime_why = a.q_len == 1 ? fmt::format("{} query per sequence: decode",
                                              mq ? "max_seqlen_q 1, one" : "one")
                                : fmt::format("{} {} queries per sequence: prefill or mixed",
                                              a.q_len_exact ? "" : "up to", format_g(a.q_len));
  }
  if (a.sequences <= 0 || a.q_len <= 0) {
    r.fail(
        "the query length per sequence is not recorded (no max_seqlen_q, no sequence "
        "offsets): the step's sums or the capture must say it");
    return false;
  }
  if (a.k_len <= 0) {
    r.fail(
        "the context is not recorded (k holds the new tokens, or no max_seqlen_k): the step's "
        "sums or the capture must say it");
    return false;
  }
  const bool decode_sum = a.q_len == 1 && a.q_len_exact && k.packed;  // Σ keys = k's tokens
  // docs/method.md §10.8: decode over a paged pool, several sequences: max_seqlen_k bounds the
  // keys, a band of readings rather than none.
  const bool decode_bound = a.q_len == 1 && a.q_len_exact && k.paged && !a.k_len_exact;
  if (decode_bound) a.context_bound = ContextBound{0, 0, a.k_len, 0, 0, 0};
  // Prefill or mixed over a paged pool: max_seqlen_q and max_seqlen_k bound every length, a band
  // between two states (docs/method.md §10.8) — where the recorded figures admit any state.
  const bool prefill_bound = !a.q_len_exact && a.q_len > 1 && k.paged && mq && mk &&
                             a.sequences >= 2 && q.t >= a.sequences &&
                             q.t <= a.sequences * a.q_len && a.q_len <= a.k_len;
  if (prefill_bound) {
    a.seqlen_bound = SeqlenBound{};
    a.seqlen_bound->sequences = a.sequences, a.seqlen_bound->tokens = q.t;
    a.seqlen_bound->max_seqlen_q = a.q_len, a.seqlen_bound->max_seqlen_k = a.k_len;
  }
  if (!(a.q_len_exact && a.k_len_exact) && !decode_sum && !decode_bound && !prefill_bound) {
    r.fail(
        fmt::format("{} sequences: max_seqlen_q {} and max_seqlen_k {} bound their lengths, "
                    "they do not give them",
                    format_g(a.sequences), format_g(a.q_len), format_g(a.k_len)));
    return false;
  }
  return true;
}

// The bounds' figures (docs/method.md §10.8): Q and O, K and V a key, FLOPs a (query, key) pair
// — one query a key at decode — and each bound's ends.
void fill_bounds(AttentionReading& a, double fixed_bytes, double key_bytes, double pair_flops,
                 double keys, double cap, bool causal) {
  if (a.context_bound) {
    // Decode: each query reads its sequence's keys once, at most the window's W + 1.
    ContextBound& b = *a.context_bound;
    b.keys_hi = keys;
    b.keys_lo = std::min(a.k_len, cap) + (a.sequences - 1);
    b.fixed_bytes = fixed_bytes, b.key_bytes = key_bytes, b.key_flops = pair_flops;
  }
  if (a.seqlen_bound) {
    SeqlenBound& b = *a.seqlen_bound;
    b.causal = causal, b.cap = cap;
    b.fixed_bytes = fixed_bytes, b.key_bytes = key_bytes, b.pair_flops = pair_flops;
    const SeqlenState lo = seqlen_state(b, 0), hi = seqlen_state(b, b.max_seqlen_k);
    b.keys_lo = lo.keys, b.pairs_lo = lo.pairs, b.keys_hi = hi.keys, b.pairs_hi = hi.pairs;
  }
}

}  // namespace

void read_attention(Reader& r) {
  const Bound *qb = r.first(ArgRole::q), *kb = r.first(ArgRole::k), *vb = r.first(ArgRole::v);
  if (!qb || !kb || !vb) return r.fail("q, k and v must all be recorded");
  const auto q = q_shape(qb->arg->dims, qb->spec->layout);
  const auto k = k_shape(kb->arg->dims, kb->spec->layout);
  const auto v = k_shape(vb->arg->dims, vb->spec->layout);
  if (!q || !k || !v || !(q->h > 0 && q->d > 0 && k->h > 0 && v->d > 0))
    return r.fail(fmt::format("q {} / k {} do not fit the layouts {} / {}",
                              dims_text(qb->arg->dims), dims_text(kb->arg->dims),
                              to_string(qb->spec->layout), to_string(kb->spec->layout)));
  AttentionReading a;
  a.q_heads = q->h, a.kv_heads = k->h, a.d_qk = q->d, a.d_v = v->d, a.paged = k->paged;
  a.causal = r.flag(ScalarName::causal);
  if (auto w = r.number(ScalarName::window_left); w && *w >= 0) a.window_left = *w;
  const bool ok = lengths(r, *q, *k, a);
  r.out.attention = a;
  if (!ok) return;
  if (a.q_len > 1 && !a.causal) return r.fail("causality is not recorded for a multi-query launch");
  const double cap = a.window_left ? *a.window_left + 1 : a.k_len;
  const bool causal = a.causal.value_or(true);
  const double pairs = a.sequences * pairs_per_sequence(a.q_len, a.k_len, causal, cap);
  const double keys = a.sequences * std::min(a.k_len, a.window_left ? cap + a.q_len - 1 : a.k_len);
  const double qe = elem_bytes(*qb->arg, 2.0), ke = elem_bytes(*kb->arg, qe),
               ve = elem_bytes(*vb->arg, ke);
  const Bound* o = r.first(ArgRole::out);
  const double oe = o ? elem_bytes(*o->arg, qe) : qe;
  r.out.act_dtype = dtype_key(qb->arg->dtype);
  r.out.out_dtype = o ? dtype_key(o->arg->dtype) : r.out.act_dtype;
  r.out.kv_bytes = keys * k->h * (q->d * ke + v->d * ve);
  fill_bounds(a, q->t * q->h * (q->d * qe + v->d * oe), k->h * (q->d * ke + v->d * ve),
              2.0 * q->h * (q->d + v->d), keys, cap, causal);
  r.out.attention = a;
  r.out.notes.push_back(fmt::format(
      "attention by the op's roles: {} sequence(s), {}{} queries each, {}{} keys each ({}), "
      "{}{}; "
      "H_q {}, H_kv {}, head dims {} / {}; {}{}",
      format_g(a.sequences), a.q_len_exact ? "" : "up to ", format_g(a.q_len),
      a.context_bound || a.seqlen_bound ? "up to " : "", format_g(a.k_len),
      k->paged ? "the paged pool read as far as the context reaches, never whole"
               : "the recorded k and v",
      causal ? "causal" : "not causal",
      a.window_left ? fmt::format(", window {}", format_g(*a.window_left)) : "", format_g(q->h),
      format_g(k->h), format_g(q->d), format_g(v->d), a.regime_why,
      a.causal ? "" : " (causality not recorded: one query sees every key)"));
  r.out.bytes_term =
      sum("bytes", {part("Q", q->t * q->h * q->d * qe), part("K", keys * k->h * q->d * ke),
                    part("V", keys * k->h * v->d * ve), part("O", q->t * q->h * v->d * oe)});
  r.out.flops_term = term("flops", "2·H_q·pairs·(d_qk + d_v)", 2.0 * q->h * pairs * (q->d + v->d),
                          TermUnit::flops);
  r.out.bytes = r.out.bytes_term.value;
  r.out.flops = r.out.flops_term.value;
}

void read_kv_write(Reader& r) {
  const Bound *kb = r.first(ArgRole::k), *vb = r.first(ArgRole::v);
  if (!kb || !vb || kb->arg->dims.size() != 3 || vb->arg->dims.size() != 3)
    return r.fail("needs the new tokens' k and v as [T, H, D]");
  const double ke = elem_bytes(*kb->arg, 2.0), ve = elem_bytes(*vb->arg, ke);
  const Bound* pool = r.first(ArgRole::kv_cache);
  const double ce = pool ? elem_bytes(*pool->arg, ke) : ke;
  const double kn = arg_elements(*kb->arg), vn = arg_elements(*vb->arg);
  double index = 0, scales = 0;
  for (const Bound* x : r.with(ArgRole::index))
    index += arg_elements(*x->arg) * elem_bytes(*x->arg, 8);
  for (const Bound* x : r.with(ArgRole::scale))
    scales += arg_elements(*x->arg) * elem_bytes(*x->arg, 4);
  r.out.act_dtype = dtype_key(kb->arg->dtype);
  r.out.kv_bytes = (kn + vn) * ce;
  r.out.notes.push_back(fmt::format(
      "KV-cache write by the op's roles: {} new tokens' K {} and V {} read and written at {} B{}",
      kb->arg->dims[0], dims_text(kb->arg->dims), dims_text(vb->arg->dims), format_g(ce),
      pool ? fmt::format("; the pool {} is not counted", dims_text(pool->arg->dims)) : ""));
  std::vector<Term> parts{part("K + V read", kn * ke + vn * ve),
                          part("K + V written", (kn + vn) * ce)};
  if (index > 0) parts.push_back(part("slot mapping", index));
  if (scales > 0) parts.push_back(part("scales", scales));
  r.out.bytes_term = sum("bytes", std::move(parts));
  r.out.flops_term = term("flops", "none", 0.0, TermUnit::flops);
  r.out.bytes = r.out.bytes_term.value;
}

}  // namespace roofline::analyze::op_detail

namespace roofline::analyze {

SeqlenState seqlen_state(const SeqlenBound& b, double context) {
  // The queries split evenly: `big` sequences of q0 + 1, the rest of q0.
  const double q0 = std::floor(b.tokens / b.sequences);
  const double big = b.tokens - q0 * b.sequences;
  SeqlenState s;
  for (const auto& [n, lq] : {std::pair{b.sequences - big, q0}, std::pair{big, q0 + 1}}) {
    if (!(n > 0) || !(lq > 0)) continue;
    const double lk = std::max(lq, context);
    s.pairs += n * op_detail::pairs_per_sequence(lq, lk, b.causal, b.cap);
    s.keys += n * std::min(lk, b.cap + lq - 1);
  }
  return s;
}

}  // namespace roofline::analyze
