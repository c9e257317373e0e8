#pragma once
// A launching op's recorded arguments read through the op table (docs/method.md §23): each
// operand by the role the op gives it, the scalars at the positions the op records them, and the
// op's bytes and FLOPs from its formula. Pure: no I/O.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "roofline/analyze/layer.hpp"
#include "roofline/base/term.hpp"
#include "roofline/base/vocabulary.hpp"
#include "roofline/inputs/op_table.hpp"
#include "roofline/inputs/topn_document.hpp"

namespace roofline::analyze {

// One recorded argument: its dims (a tensor), the dims of each tensor of a tensor list, its dtype
// as spelled, and its Concrete Inputs text (a scalar). A None or a scalar has no dims.
struct OpArg {
  std::vector<std::int64_t> dims;
  std::vector<std::vector<std::int64_t>> list;
  std::string dtype;
  std::string scalar;
};

// One launch's launching op with its arguments. `positional`: every argument is at its own
// position (Input Dims as recorded, scalars included). Not positional: the tensors alone, in
// order (a list that dropped its empty arguments, as the Top-N's signatures do): they are matched
// to the row's operands in order. `scalars` (position, text) adds recorded scalars to either
// form; a positional argument's own `scalar` text is read too.
struct OpCall {
  std::string op;
  std::vector<OpArg> args;
  bool positional = true;
  std::vector<std::pair<std::size_t, std::string>> scalars;
};

// A GEMM's shape as its roles give it.
struct GemmReading {
  double m = 0, n = 0, k = 0, batch = 1;
};

// An attention launch as its q, k, v and scalars give it. q_len: the query tokens of one
// sequence (exact with one sequence or a dense layout; else the recorded max_seqlen_q, a bound);
// k_len: the keys of one sequence, exact when k_len_exact (one sequence with max_seqlen_k
// recorded, or dense k), else a bound (max_seqlen_k with several sequences) or 0 (unknown).
// docs/method.md §10.8, §23.3: several decode sequences whose context only max_seqlen_k bounds.
// Their keys in all lie in [keys_lo, keys_hi]: one sequence reaches the maximum (the op records the
// batch's longest), every other reads at least its own query's key; at most every sequence at the
// maximum (and a window's W + 1). Bytes and FLOPs are linear in the keys read: `fixed_bytes` (Q and
// O) plus `key_bytes` and `key_flops` per key (one query per key at decode).
struct ContextBound {
  double keys_lo = 0, keys_hi = 0, max_seqlen_k = 0;
  double fixed_bytes = 0, key_bytes = 0, key_flops = 0;
};

// docs/method.md §10.8, §23.3: several prefill or mixed sequences over a paged pool whose lengths
// max_seqlen_q and max_seqlen_k only bound (the queries in all are q's tokens). Two states bound
// every other on both axes at once: each context its own queries, the queries split evenly (the
// fewest keys and pairs: a causal sum is convex in the lengths), and each context at
// max_seqlen_k, the queries split evenly (the most: at a fixed context the pairs are concave in
// the queries). Bytes are `fixed_bytes` (Q and O) plus `key_bytes` a key; FLOPs `pair_flops` a
// (query, key) pair. seqlen_state() gives the keys and pairs at one context for every sequence.
struct SeqlenBound {
  double sequences = 0, tokens = 0, max_seqlen_q = 0, max_seqlen_k = 0;
  bool causal = true;
  double cap = 0;  // the keys a query sees at most (a window's W + 1, else max_seqlen_k)
  double fixed_bytes = 0, key_bytes = 0, pair_flops = 0;
  double keys_lo = 0, pairs_lo = 0, keys_hi = 0, pairs_hi = 0;
};
struct SeqlenState {
  double keys = 0, pairs = 0;
};
// The queries split evenly over the sequences, each context `context` keys (at least its own
// queries), or its own queries exactly when `context` is 0.
SeqlenState seqlen_state(const SeqlenBound& b, double context);

struct AttentionReading {
  double sequences = 1, tokens = 0, q_heads = 0, kv_heads = 0, d_qk = 0, d_v = 0;
  double q_len = 0, k_len = 0;
  bool q_len_exact = false, k_len_exact = false;
  std::optional<bool> causal;         // nullopt: not recorded
  std::optional<double> window_left;  // keys before the query (-1 = none)
  bool paged = false;                 // k and v are the paged pool
  std::optional<Regime> regime;       // decode when one query per sequence; prefill otherwise
  std::string regime_why;             // "max_seqlen_q 1024 per sequence: prefill or mixed"
  // Set when the keys are bounded, not given: the reading's bytes and FLOPs are keys_hi's.
  std::optional<ContextBound> context_bound;
  std::optional<SeqlenBound> seqlen_bound;  // set: the reading's bytes and FLOPs are the top's
};

// A second reading the same recorded arguments allow (docs/method.md §23.7): a generated kernel's
// integer argument may index the largest tensor (a gathered table read as far as the index
// reaches) or not (the tensor moved whole). `label` names each reading for the notes.
struct OtherReading {
  std::string label;
  Term bytes_term, flops_term;
};

struct OpReading {
  const OpRow* row = nullptr;  // null: the table lacks the op
  bool read = false;           // false: fall back to the rules without the table (why_not)
  std::string why_not;
  double bytes = 0, flops = 0;
  Term bytes_term, flops_term;
  std::vector<std::string> notes;  // which operand was read how, dtype readings
  std::optional<GemmReading> gemm;
  std::optional<AttentionReading> attention;
  std::string act_dtype, weight_dtype, out_dtype;  // canonical keys as read ("" = none)
  double weight_bytes = 0;                         // the part of `bytes` that is weights
  double kv_bytes = 0;                             // the part that is keys and values
  std::string label;                  // this reading, named beside `other` ("" when none)
  std::optional<OtherReading> other;  // what the same words also allow
};

// Reads one call through `table` (the shipped one by default). An op the table lacks, or whose
// recorded arguments do not fit its row (a missing operand, dims of the wrong rank, inner
// dimensions that disagree), is not read: `why_not` says so, naming the op.
OpReading read_op_call(const OpCall& call, const std::vector<OpRow>& table = builtin_op_table());

// The GEMM shape of each recorded signature of `e` (its `signatures`, else its `shapes`) that the
// op table reads with the gemm formula; empty when the entry's op is none or not a GEMM.
std::vector<GemmReading> recorded_gemms(const TopnEntry& e);

// Bytes per element of a recorded dtype spelling ("c10::BFloat16" 2, "long int" 8, "unsigned
// char" 1); nullopt when unknown.
std::optional<double> recorded_dtype_bytes(const std::string& spelling);

}  // namespace roofline::analyze
