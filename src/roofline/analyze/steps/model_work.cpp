// Step 7, model_work (docs/method.md §8): the call signatures as cases, and the class model
// (models/dispatch.hpp) or the op table over the entry's one recorded call.
#include "roofline/analyze/steps/model_work.hpp"

#include <algorithm>

#include "roofline/analyze/evidence/operand_dtypes.hpp"
#include "roofline/analyze/layer.hpp"
#include "roofline/analyze/models/dispatch.hpp"
#include "roofline/analyze/models/models.hpp"

namespace roofline::analyze {

SignatureCases signature_cases(const TopnEntry& e, OpClass cls, const ModelConfig* config) {
  SignatureCases out;
  if (!e.dtypes_are_set || e.signatures.empty()) return out;
  // The profiler's format (docs/method.md §8.2): each call signature a case, dtypes by role.
  for (const auto& sig : e.signatures) {
    OperandDtypes d = operand_dtypes(e.dtypes, sig, cls, config);
    out.rule = d.rule;
    ProbeCase c;
    c.dims = sig;
    c.dtypes = std::move(d.dtypes);
    out.cases.push_back(std::move(c));
  }
  out.bound_dtypes =
      operand_dtypes(e.dtypes, e.signatures.front(), OpClass::elementwise, config).dtypes;
  return out;
}

// Step 7 gets the Top-N's call signatures from the driver as cases (signature_cases) and runs the
// case model over them; it never reaches into step 8, which runs the same case model on the
// evidence (the workload's and the probes' cases) afterwards.
WorkEstimate model_work(const TopnEntry& e, const RegimeChoice& regime, const Classification& cls,
                        const ModelContext& ctx, const SignatureCases& signatures) {
  if (!signatures.cases.empty()) {
    std::vector<const ProbeCase*> refs;
    for (const auto& c : signatures.cases) refs.push_back(&c);
    WorkEstimate work = model_work_cases(e, regime, cls, ctx, refs, CaseSource::signatures);
    if (work.modeled) {
      work.notes.insert(work.notes.begin() + 1, signatures.rule);
      return work;
    }
    // Signatures with models that cannot stand for the entry (docs/method.md §22.8): no verdict.
    if (std::any_of(work.signatures.begin(), work.signatures.end(),
                    [](const SignatureWork& s) { return s.modeled; }))
      return work;
    // No model: the first signature, every operand at the activation type (for the bound).
    TopnEntry one = e;
    one.shapes = e.signatures.front();
    one.dtypes = signatures.bound_dtypes;
    one.signatures.clear();
    one.dtypes_are_set = false;
    return model_work(one, regime, cls, ctx);
  }
  ProbeCase recorded;  // docs/method.md §23: the entry's one signature, read through the op table
  recorded.dims = e.shapes;
  recorded.dtypes = e.dtypes;
  std::string table_note;
  auto from_table = e.dtypes_are_set
                        ? std::nullopt
                        : detail::model_from_op_table(detail::case_call(e.op, recorded), regime,
                                                      cls, ctx, table_note);
  WorkEstimate work = from_table ? std::move(*from_table) : model_candidates(e, regime, cls, ctx);
  if (!table_note.empty()) work.notes.insert(work.notes.begin(), table_note);
  if (work.modeled)
    choose_candidate(work, ctx.peaks ? *ctx.peaks : ResolvedPeaks{});
  else if (!work.bytes_lower_bound)  // an op-table reading that left two may have set it
    detail::operand_bytes_bound(e, regime, cls, ctx, work);
  return work;
}

}  // namespace roofline::analyze
