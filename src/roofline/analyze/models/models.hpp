#pragma once
// Shared pieces of the per-class byte/FLOP models (docs/method.md §8). Internal to the model stage.

#include <optional>
#include <string>
#include <vector>

#include "roofline/analyze/entry/model_context.hpp"
#include "roofline/analyze/entry/regime_choice.hpp"
#include "roofline/analyze/entry/work_estimate.hpp"
#include "roofline/analyze/evidence/op_reading.hpp"
#include "roofline/analyze/evidence/resolve_dtypes.hpp"
#include "roofline/analyze/layer.hpp"
#include "roofline/base/term.hpp"
#include "roofline/base/units.hpp"
#include "roofline/classify/classify.hpp"

namespace roofline::analyze::detail {

struct ModelInput {
  const TopnEntry& entry;
  const RegimeChoice& regime;
  const Classification& cls;
  const ModelContext& ctx;
  ResolvedDtypes dtypes;
  double tp = 1.0;
  std::optional<double> rows;  // M: rows in flight
  std::string rows_source;
};

// Each per-class model either fills `work.candidates` (and notes) or sets
// `work.unmodeled_reason`. The dispatcher applies the feasibility rule afterwards.
void model_gemm(const ModelInput& in, WorkEstimate& work);
void model_moe(const ModelInput& in, WorkEstimate& work);
void model_attention(const ModelInput& in, WorkEstimate& work);

// The second stage of a split-KV attention (docs/method.md §8.11) over `rows` query rows of n_q
// heads: fp32 partials and log-sum-exp for an assumed split count in, the output out.
struct SplitKvReduce {
  double rows = 0;
  std::string rows_source;  // where `rows` came from, for the notes
  double n_q = 0, d_v = 0, out_bytes = 2;
};
void split_kv_reduce(const SplitKvReduce& r, WorkEstimate& work);
void model_elementwise(const ModelInput& in, WorkEstimate& work);
// Linear attention and state-space layers (model_linear.cpp): GDN/KDA/lightning/mamba decode
// updates and their short convs; chunked-prefill kernels stay L2 (the operand-bytes bound).
void model_linear_attention(const ModelInput& in, WorkEstimate& work);
// Collectives (model_comm.cpp): link bytes per GPU for the algorithm, the link roof's group.
void model_comm(const ModelInput& in, WorkEstimate& work);
// DeepSeek-V3.2 lightning indexer scores (model_indexer.cpp), called by model_attention.
void model_indexer(const ModelInput& in, WorkEstimate& work);

// docs/method.md §8.16 (model_bound.cpp): for an entry left unmodelled that has shapes and dtypes,
// the operand-bytes lower bound and the hbm_util it implies (notes). Evidence, not a verdict.
// MoE and attention entries get none: their operands are expert stacks and paged KV pools that a
// launch reads only in part.
void operand_bytes_bound(const TopnEntry& e, const RegimeChoice& regime, const Classification& cls,
                         const ModelContext& ctx, WorkEstimate& work);

// A batched GEMM [Bt, M, K] × [Bt, K, N] (or [Bt, N, K]) from the entry's shapes
// (docs/method.md §8.5).
struct BatchedShape {
  double batch = 0, m = 0, n = 0, k = 0;
  std::string how;
};
std::optional<BatchedShape> batched_shape(const TopnEntry& e);

// The layer plan's windows seen by a softmax-attention kernel at context S (docs/method.md §8.8):
// the mean tokens read over the layers it serves, and the split for notes.
struct WindowMix {
  double mean_tokens = 0;
  double layers = 0;
  std::string how;  // "mean tokens 4416 = (12·8704 + 12·128)/24"
};
WindowMix attention_window_mix(const ModelConfig& cfg, double S);

// S = isl + osl/2, the mean decode context (false, with what is missing, when unknown).
bool decode_context(const ModelInput& in, double& S, std::string& missing);
// How S was reached, for notes: "isl + osl/2 = 1536 (average context mid-decode, an assumption
// and a real error source)", or the measured decode context and where it came from.
std::string decode_context_how(const ModelInput& in, double S);

// Dense FFN gating from the config (relu2 is non-gated).
bool config_gated(const ModelConfig& cfg);

// docs/method.md §23 (model_op_table.cpp): a case as a call of its launching op (its dims and
// dtypes in order: the tensors the Top-N and the workload keep), and the model the op table gives
// it — nullopt when the table lacks the op, cannot read the case or the op's class is not the
// kernel's (`note` says which; the class model then applies).
OpCall case_call(const std::string& op, const ProbeCase& c);
// The op that launched a case: its signature's op where `roofline topn` recorded one
// (docs/method.md §22.8), else the entry's launching op (the Top-N names one per kernel).
const std::string& case_op(const TopnEntry& e, const ProbeCase& c);
std::optional<WorkEstimate> model_from_op_table(const OpCall& call, const RegimeChoice& regime,
                                                const Classification& cls, const ModelContext& ctx,
                                                std::string& note);
// docs/method.md §10.8 (op_context_bound.cpp): a decode attention whose context only
// max_seqlen_k bounds: the keys taken (the workload's where it agrees with the trace, else the
// bound's top, cut to what the measured time allows), `r`'s terms set to them, and the range's
// ends as readings of the band.
// docs/method.md §10.8 (op_context_bound.cpp): a prefill or mixed attention whose lengths only
// max_seqlen_q and max_seqlen_k bound: the top state taken (every context at max_seqlen_k, cut to
// what the measured time allows), `r`'s terms set to it, the bottom state a reading. False, with
// `why`, when the time allows no state at all.
bool apply_seqlen_bound(const OpCall& call, OpReading& r, std::optional<double> budget,
                        WorkEstimate& work, std::string& why);
void apply_context_bound(const OpCall& call, OpReading& r, const ModelContext& ctx,
                         std::optional<double> budget, WorkEstimate& work);

// Product of dims as a double (0 for an empty operand).
double elements(const std::vector<std::int64_t>& dims);

// Numbers in notes keep every digit a reader needs to redo the arithmetic: 696.75 MB, 98.942.
inline std::string fmt_bytes(double bytes) {
  return format_bytes(bytes, Digits::exact);
}

// A candidate whose figures are the values of its byte and FLOP terms (the numbers the notes
// print are the numbers the choice uses).
inline void add_candidate(WorkEstimate& work, std::string label, const Term& bytes,
                          const Term& flops, bool in_choice = true,
                          CandidateKind kind = CandidateKind::model) {
  work.candidates.push_back(
      Candidate{std::move(label), bytes.value, flops.value, std::nullopt, in_choice, kind});
}

// The Top-N's per-regime shape field the rows came from ("est_shape.decode"), or "the case's
// rows" when the regime is unknown (the rows are then a case's own, not a regime's).
std::string est_label(const RegimeChoice& regime);
// The clause that names what settles a message (docs/method.md §16.4): "--a would settle it",
// "--a or --b would settle it" — only options whose figure the run lacks and that change the
// message when given. "" for none.
std::string would_settle(const std::vector<std::string>& options, const char* joiner = " or ");
// "a, b or c" (joiner " or ") or "a, b and c" (" and ").
std::string option_list(const std::vector<std::string>& options, const char* joiner = " or ");
// Why a model that needs the regime gives no verdict when nothing says it (docs/method.md §6.4),
// and the options that would settle it (regime.settled_by). "" when the regime is known.
std::string regime_unknown_reason(const RegimeChoice& regime, const char* model);
// Why `model` has no rows in flight in `regime`, naming the option that gives them (--conc in
// decode, --isl in prefill; docs/method.md §22.9).
std::string rows_missing_reason(Regime regime, const char* model);
// An unknown regime's settling options as one item of a longer list: "--regime decode|prefill",
// "(--regime decode|prefill or --conc)"; "" when none.
std::string regime_options(const RegimeChoice& regime);
// The option that gives a known regime's rows in flight: --conc in decode, --isl in prefill.
const char* rows_option(Regime regime);

// The collective a kernel's name spells (docs/method.md §8.14): all_reduce | all_gather |
// reduce_scatter | all_to_all, "" when it names none.
std::string collective_op(std::string_view name, std::string_view short_name);

// "missing: a, b" helper: appends `name` when `value` is absent.
void require(const std::optional<double>& value, const char* name, std::string& missing);

// docs/method.md §22.8 (model_signatures.cpp). What a signature is, for its row: the config's
// projection with its N and K (GEMMs), else its innermost module or op, with its operand dims, its
// key flags, or its grid and block when it has no dims.
std::string signature_label(const ProbeCase& c, OpClass cls, const ModelContext& ctx);
// Sub-rows never read the same: where two signatures' labels agree, each gets what tells it
// apart — its grid and block, else its dtypes, else its order (" #2").
void distinct_labels(std::vector<SignatureWork>& rows);
// Signatures without counts or times (the Top-N's shapes alone) whose per-launch bytes or FLOPs
// differ by more than the 15 % band: the reason no equal-weight mean stands for the entry.
std::optional<std::string> signatures_disagree(const std::vector<SignatureWork>& sigs);
// Two figures more than the 15 % band apart (a zero or negative one against a positive one is).
bool beyond_band(double a, double b);
// Dims as a label writes them: "[1×2048]".
std::string dims_label(const std::vector<std::int64_t>& d);
// The share of the signatures' time (count · per-launch time) that the modelled, unrefuted ones
// carry.
double modelled_share(const std::vector<SignatureWork>& sigs);

}  // namespace roofline::analyze::detail
