// docs/method.md §23: a case's launching op read through the op table, before the class models —
// the operands by the roles the op gives them, the scalars where the op records them, the dtypes
// as the trace recorded them. The class models run where the table lacks the op or cannot read
// the case (with a note naming the op).
#include <algorithm>

#include <fmt/format.h>

#include "roofline/analyze/evidence/op_reading.hpp"
#include "roofline/analyze/models/models.hpp"

namespace roofline::analyze::detail {
namespace {

std::optional<Dtype> key_dtype(const std::string& key) {
  if (key.empty()) return std::nullopt;
  return parse_dtype(key);
}

bool split_kv_reduction(const Classification& cls) {
  return cls.op_class == OpClass::attn && cls.detail.attn == AttnVariant::decode_reduce;
}

// Whether the op's row speaks for this kernel: the same class (a GEMM op's split-K reduction or
// memset kernel keeps its own class and model; an attention op's split-KV reduction kernel does
// not carry the whole op's formula).
bool speaks_for(const OpRow& row, const Classification& cls) {
  if (split_kv_reduction(cls)) return false;
  if (row.op_class == cls.op_class) return true;
  return row.formula == OpFormula::kv_write && cls.op_class == OpClass::elementwise;
}

// The trace's weight dtype against the config's (docs/method.md §23.5): a narrower recorded weight
// under an unquantized config is online quantization, and the trace wins for that operand.
void weight_dtype_note(const OpReading& r, const ModelContext& ctx, WorkEstimate& work) {
  const auto w = key_dtype(r.weight_dtype);
  const ModelConfig* cfg = ctx.config;
  if (!w || !cfg || cfg->dtype.empty() || cfg->quant_weight_bytes) return;
  const auto c = parse_dtype(cfg->dtype);
  if (!c || !(w->bytes < c->bytes)) return;
  work.notes.push_back(fmt::format(
      "weights recorded {} under a {} config without quantization_config: online quantization, "
      "the trace's dtype is used for this operand and its scales are counted",
      r.weight_dtype, cfg->dtype));
}

// The split-KV reduction kernel of an attention op (docs/method.md §8.11), sized from the op's
// own query tokens, heads and output dtype rather than the config's.
std::optional<WorkEstimate> reduction_from_op(const OpCall& call, const OpReading& r,
                                              WorkEstimate& work) {
  const AttentionReading& a = *r.attention;
  const double d_v = a.d_v > 0 ? a.d_v : a.d_qk;
  if (!(a.tokens > 0) || !(a.q_heads > 0) || !(d_v > 0)) return std::nullopt;
  const Dtype out =
      key_dtype(r.out_dtype).value_or(key_dtype(r.act_dtype).value_or(dtype_of(DtypeKey::bf16)));
  work.notes.push_back(fmt::format(
      "the split-KV reduction kernel of the attention op '{}': not the op's whole formula, the "
      "reduction over its {} query tokens and {} query heads",
      call.op, format_g(a.tokens), format_g(a.q_heads)));
  split_kv_reduce(SplitKvReduce{a.tokens, fmt::format("the query tokens '{}' records", call.op),
                                a.q_heads, d_v, out.bytes},
                  work);
  work.activation_dtype = out.key;
  work.kv_dtype = out.key;
  work.modeled = true;
  return work;
}

// docs/method.md §23.7, §10.8: the recorded words allow a second reading. Beyond the 15 % band a
// reading the measured time refutes falls (the other is taken); with both standing the first is
// taken and the other is a reading of the band, which must hold in one class for a verdict.
// Within the band the first stands and the other is the band's too.
void weigh_op_readings(const OpCall& call, OpReading& r, std::optional<double> budget,
                       WorkEstimate& work) {
  OtherReading& o = *r.other;
  const std::string both =
      fmt::format("{}: {}, {}; {}: {}, {}", r.label, shown(r.bytes_term), shown(r.flops_term),
                  o.label, shown(o.bytes_term), shown(o.flops_term));
  const bool beyond =
      beyond_band(r.bytes, o.bytes_term.value) || beyond_band(r.flops, o.flops_term.value);
  if (beyond && budget && (r.bytes <= *budget) != (o.bytes_term.value <= *budget)) {
    const bool keep_first = r.bytes <= *budget;
    work.notes.push_back(fmt::format(
        "two readings of '{}' differ by more than the 15 % band ({}); the measured time refutes "
        "{} (at most {} can move in t_unit)",
        call.op, both, keep_first ? "the second" : "the first",
        format_bytes(*budget, Digits::exact)));
    if (!keep_first) {
      std::swap(r.label, o.label);
      std::swap(r.bytes_term, o.bytes_term);
      std::swap(r.flops_term, o.flops_term);
      r.bytes = r.bytes_term.value;
      r.flops = r.flops_term.value;
    }
    return;
  }
  work.readings.push_back(
      Reading{"other_reading", o.label,
              fmt::format("the same recorded words of '{}' read the other way", call.op),
              o.bytes_term.value, o.flops_term.value, std::nullopt});
  work.readings_decide = beyond;
  work.notes.push_back(
      beyond ? fmt::format("two readings of '{}' differ by more than the 15 % band and nothing in "
                           "the trace says which holds ({}): the first is taken, the other is a "
                           "reading of its band (docs/method.md §10.8)",
                           call.op, both)
             : fmt::format("two readings of '{}' agree within the 15 % band ({}): the first is "
                           "used, the other is a reading of its band",
                           call.op, both));
}

}  // namespace

const std::string& case_op(const TopnEntry& e, const ProbeCase& c) {
  return c.signature && !c.signature->op.empty() ? c.signature->op : e.op;
}

OpCall case_call(const std::string& op, const ProbeCase& c) {
  OpCall call{op, {}, false, {}};
  for (std::size_t i = 0; i < c.dims.size(); ++i)
    call.args.push_back(OpArg{c.dims[i], {}, i < c.dtypes.size() ? c.dtypes[i] : "", ""});
  if (!c.signature) return call;
  // The signature's recorded scalars at their positions: its keys, and a varying scalar that
  // took one value over every launch (min = max); one that varied gives no value.
  for (const ProbeScalar& s : c.signature->scalars)
    if (!s.value.empty()) call.scalars.emplace_back(s.arg, s.value);
  for (const ProbeScalar& s : c.signature->ranges)
    if (s.min && s.max && *s.min == *s.max)
      call.scalars.emplace_back(s.arg, fmt::format("{}", *s.min));
  return call;
}

std::optional<WorkEstimate> model_from_op_table(const OpCall& call, const RegimeChoice& regime,
                                                const Classification& cls, const ModelContext& ctx,
                                                std::string& note) {
  if (call.op.empty() || call.args.empty() || !regime.t_ms || !(*regime.t_ms > 0))
    return std::nullopt;
  OpReading r = read_op_call(call);
  // A batched GEMM may be every expert at once (docs/method.md §8.5): the class model decides.
  if (r.read && r.row->formula == OpFormula::bmm) return std::nullopt;
  WorkEstimate work;
  work.t_unit_ms = *regime.t_ms;
  work.unit = "1 launch";
  if (r.read && r.attention && split_kv_reduction(cls)) return reduction_from_op(call, r, work);
  if (!r.read || !speaks_for(*r.row, cls)) {
    note = r.read ? fmt::format(
                        "op table: '{}' is a {} op, the kernel a {} kernel: its class "
                        "model applies",
                        call.op, to_string(r.row->op_class), to_string(cls.op_class))
                  : r.why_not;
    return std::nullopt;
  }
  work.notes = r.notes;
  const auto budget =
      ctx.peaks ? byte_budget(feasibility_bw(*ctx.peaks), work.t_unit_ms) : std::nullopt;
  if (r.other) weigh_op_readings(call, r, budget, work);
  if (r.attention && r.attention->context_bound) apply_context_bound(call, r, ctx, budget, work);
  if (r.attention && r.attention->seqlen_bound && !apply_seqlen_bound(call, r, budget, work, note))
    return std::nullopt;
  if (r.attention && r.attention->regime && regime.known && *r.attention->regime != regime.regime)
    work.notes.push_back(
        fmt::format("the signature says {}; the entry's regime is {} (bytes and "
                    "FLOPs do not depend on it)",
                    r.attention->regime_why, to_string(regime.regime)));
  weight_dtype_note(r, ctx, work);
  work.notes.push_back(render_all({r.bytes_term, r.flops_term}));
  const Dtype act = key_dtype(r.act_dtype).value_or(dtype_of(DtypeKey::bf16));
  const Dtype weight = key_dtype(r.weight_dtype).value_or(act);
  work.activation_dtype = act.key;
  work.weight_dtype = weight.key;
  work.kv_dtype = act.key;
  work.compute_dtype = wider_dtype(act, weight);
  work.has_compute_peak_class = cls.op_class != OpClass::elementwise;
  work.weight_bytes = r.weight_bytes;
  work.kv_bytes = r.kv_bytes;
  add_candidate(work, fmt::format("op table: {}", call.op), r.bytes_term, r.flops_term);
  work.modeled = true;
  return work;
}

}  // namespace roofline::analyze::detail
