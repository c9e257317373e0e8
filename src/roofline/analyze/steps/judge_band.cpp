// Step 9's band (docs/method.md §10.8): every reading the model's evidence allows, judged by the
// point's own formulas, and the verdict that holds across them.
#include <algorithm>

#include <fmt/format.h>

#include "roofline/analyze/layer.hpp"
#include "roofline/analyze/steps/judge.hpp"
#include "roofline/base/units.hpp"

namespace roofline::analyze {

namespace {

bool moe_figure(CandidateKind k) {
  return k == CandidateKind::experts_hit || k == CandidateKind::all_experts;
}

// The MoE figures the model reports beside the one it takes (docs/method.md §8.7): the experts
// uniform routing reaches in expectation, and every expert. A measured or count-weighted figure
// is one reading. Where every expert is taken — a dense batched GEMM over all E (its shapes show
// every expert evaluated) or a family that streams every expert — the routing-aware figure stays
// a comparison, not a reading: the evidence says the kernel reads them all.
void moe_readings(const WorkEstimate& work, std::vector<Reading>& out) {
  if (!work.moe || work.candidates.empty() || !moe_figure(work.candidates[work.chosen].kind) ||
      work.candidates[work.chosen].kind == CandidateKind::all_experts)
    return;
  for (std::size_t i = 0; i < work.candidates.size(); ++i) {
    const Candidate& c = work.candidates[i];
    if (i == work.chosen || !moe_figure(c.kind)) continue;
    const bool all = c.kind == CandidateKind::all_experts;
    out.push_back(Reading{
        all ? "all_experts" : "experts_hit", c.label,
        all ? fmt::format("every one of the {} experts' weights read", format_g(work.moe->experts))
            : fmt::format("the {:.4g} experts uniform routing reaches in expectation",
                          work.moe->experts_hit),
        c.bytes, c.flops, std::nullopt});
  }
}

ReadingVerdict judged(const Verdict& v, Reading r, bool taken) {
  ReadingVerdict out;
  out.reading = std::move(r);
  out.taken = taken;
  out.feasible = !v.suspect && !v.dispatch_bound && v.headroom != Headroom::unknown;
  out.roofline_pct = v.roofline_pct;
  out.attainable_speedup = v.attainable_speedup;
  out.expected_e2e_gain_pct = v.expected_e2e_gain_pct;
  out.headroom = v.headroom;
  return out;
}

// One reading by the point's formulas: the estimate with the reading's bytes and FLOPs (and its
// compute dtype), judged as a whole (a signature's own figures are the taken reading's).
ReadingVerdict judge_reading(const WorkEstimate& work, const Reading& r, OpClass cls,
                             double pct_gpu_time, const ResolvedPeaks& peaks,
                             const VerdictParams& params) {
  WorkEstimate w = work;
  w.bytes = r.bytes;
  w.flops = r.flops;
  if (r.compute_dtype) w.compute_dtype = *r.compute_dtype;
  w.signatures_judged = false;
  w.signatures.clear();
  w.readings.clear();
  return judged(judge_point(w, cls, pct_gpu_time, peaks, params), r, false);
}

Interval span(const std::vector<const ReadingVerdict*>& rs, double (*get)(const ReadingVerdict&)) {
  Interval i{get(*rs.front()), get(*rs.front())};
  for (const ReadingVerdict* r : rs) i.lo = std::min(i.lo, get(*r)), i.hi = std::max(i.hi, get(*r));
  return i;
}

// What would settle which reading holds, by the sources of the band (docs/method.md §10.8).
std::string settle_text(const std::vector<ReadingVerdict>& rs) {
  bool operands = false, weights = false, experts = false, context = false, rows = false,
       lengths = false, padded = false;
  for (const auto& r : rs) {
    context = context || r.reading.key == "context_bound";
    lengths = lengths || r.reading.key == "seqlen_bound";
    rows = rows || r.reading.key == "grid_rows";
    operands = operands || r.reading.key == "other_reading";
    weights = weights || r.reading.key == "weights_other";
    padded = padded || r.reading.key == "padded_width";
    experts = experts || r.reading.key == "all_experts" || r.reading.key == "experts_hit";
  }
  std::string out =
      "counters of this kernel's DRAM bytes (stage C, docs/method.md §11.4) measure "
      "the bytes outright";
  if (operands)
    out +=
        "; a capture that records the integer argument's values says whether a table is "
        "gathered";
  if (weights)
    out +=
        "; the config's quantization_config, or a trace whose GEMM kernels name the weight "
        "type, gives the weights' format";
  if (padded)
    out +=
        "; the weight operand's captured shape (a probe of this kernel, --shapes) says whether "
        "the weights are padded to the tiles too";
  if (experts)
    out += "; the routing decides how many experts are read, which only counters measure";
  if (context)
    out +=
        "; the sequences' contexts settle the keys read: a trace whose steps record Σkv "
        "(docs/method.md §22.3); the workload's isl and osl only narrow the range";
  if (lengths)
    out +=
        "; each sequence's query and context lengths settle the pairs: step annotations whose "
        "sums give them (docs/method.md §22.6)";
  if (rows)
    out +=
        "; the step's rows settle M: step annotations with the batch, a norm or activation "
        "beside the GEMM that launches one block per row, or --conc in a decode step and --isl in "
        "a prefill step";
  return out;
}

}  // namespace

Band judge_band(const WorkEstimate& work, OpClass cls, double pct_gpu_time,
                const ResolvedPeaks& peaks, const VerdictParams& params, const Verdict& point) {
  Band b;
  if (!work.modeled || work.measured_vs_model) return b;
  std::vector<Reading> others = work.readings;
  moe_readings(work, others);
  const std::string taken_label =
      work.candidates.empty() ? std::string("the model") : work.candidates[work.chosen].label;
  b.readings.push_back(judged(point,
                              Reading{"taken", taken_label, "the reading the tool takes",
                                      work.bytes, work.flops, std::nullopt},
                              true));
  if (work.signatures_judged && work.signatures.size() > 1) others.clear();
  for (const Reading& r : others) {
    // A reading with the same bytes and FLOPs as one already judged is the same reading.
    if (std::any_of(b.readings.begin(), b.readings.end(), [&](const ReadingVerdict& x) {
          return x.reading.bytes == r.bytes && x.reading.flops == r.flops && !r.compute_dtype;
        }))
      continue;
    b.readings.push_back(judge_reading(work, r, cls, pct_gpu_time, peaks, params));
  }
  std::vector<const ReadingVerdict*> ok;
  for (const auto& r : b.readings)
    if (r.feasible) ok.push_back(&r);
  if (b.readings.size() < 2 || ok.empty()) return b;
  b.roofline_pct = span(ok, [](const ReadingVerdict& r) { return r.roofline_pct.value_or(0.0); });
  b.attainable_speedup = span(ok, [](const ReadingVerdict& r) { return r.attainable_speedup; });
  b.expected_e2e_gain_pct =
      span(ok, [](const ReadingVerdict& r) { return r.expected_e2e_gain_pct; });
  for (Headroom h : {Headroom::saturated, Headroom::moderate, Headroom::underperforming})
    if (std::any_of(ok.begin(), ok.end(),
                    [&](const ReadingVerdict* r) { return r->headroom == h; }))
      b.classes.push_back(h);
  // A range of readings (the keys a context bound allows) passes through every class between
  // its ends: the utilization is monotone in the bytes.
  const bool range = std::any_of(b.readings.begin(), b.readings.end(), [](const ReadingVerdict& r) {
    return r.reading.key == "context_bound" || r.reading.key == "seqlen_bound" ||
           r.reading.key == "grid_rows";
  });
  if (range && b.classes.size() == 2 && b.classes.front() == Headroom::saturated &&
      b.classes.back() == Headroom::underperforming)
    b.classes.insert(b.classes.begin() + 1, Headroom::moderate);
  b.kind = ok.size() == 1          ? BandKind::one_feasible
           : b.classes.size() == 1 ? BandKind::holds
                                   : BandKind::spans;
  if (b.kind == BandKind::spans) b.settle = settle_text(b.readings);
  b.withheld = b.kind == BandKind::spans && work.readings_decide;
  return b;
}

std::string classes_text(const std::vector<Headroom>& cs) {
  std::string out;
  for (std::size_t i = 0; i < cs.size(); ++i)
    out += fmt::format("{}{}", i == 0 ? "" : i + 1 == cs.size() ? " and " : ", ", to_string(cs[i]));
  return out;
}

namespace {

std::string reading_line(const ReadingVerdict& r) {
  return fmt::format(
      "{}'{}' ({}): {}, {:.4g} FLOP → {}", r.taken ? "taken " : "", r.reading.label, r.reading.why,
      format_bytes(r.reading.bytes, Digits::exact), r.reading.flops,
      r.feasible ? fmt::format("roofline_pct {}, attainable {:.3f}x, gain {:.3f}%, {}",
                               format_pct(r.roofline_pct.value_or(0.0)), r.attainable_speedup,
                               r.expected_e2e_gain_pct, to_string(r.headroom))
                 : std::string("no verdict (refuted by the time, or dispatch-bound)"));
}

// The band's note: each reading by the point's formulas, the intervals, and what holds.
void band_note(Verdict& v) {
  const Band& b = v.band;
  if (b.readings.size() < 2) return;
  std::string list;
  for (const auto& r : b.readings) list += (list.empty() ? "" : "; ") + reading_line(r);
  std::string what;
  if (b.kind == BandKind::point)
    what = "no reading has a verdict";
  else if (b.kind == BandKind::one_feasible)
    what = "one reading has a verdict: it is the band";
  else
    what = fmt::format(
        "roofline_pct {}, attainable {}, expected e2e gain {}: {}",
        format_range(format_pct(b.roofline_pct->lo), format_pct(b.roofline_pct->hi)),
        format_range(fmt::format("{:.3f}x", b.attainable_speedup->lo),
                     fmt::format("{:.3f}x", b.attainable_speedup->hi)),
        format_range(fmt::format("{:.3f}%", b.expected_e2e_gain_pct->lo),
                     fmt::format("{:.3f}%", b.expected_e2e_gain_pct->hi)),
        b.kind == BandKind::holds
            ? fmt::format("every reading is {}, the verdict holds across the band",
                          to_string(b.classes.front()))
            : fmt::format("the readings span {}; {}", classes_text(b.classes), b.settle));
  v.notes.push_back(fmt::format("band (docs/method.md §10.8), per reading: {}; {}", list, what));
}

}  // namespace

std::string band_withheld_reason(const Band& b) {
  return fmt::format(
      "the readings the evidence allows span {} and nothing picks one: no verdict; {} "
      "(docs/method.md §10.8)",
      classes_text(b.classes), b.settle);
}

Verdict judge(const WorkEstimate& work, OpClass cls, double pct_gpu_time,
              const ResolvedPeaks& peaks, const VerdictParams& params) {
  Verdict v = judge_point(work, cls, pct_gpu_time, peaks, params);
  v.band = judge_band(work, cls, pct_gpu_time, peaks, params, v);
  band_note(v);
  if (v.band.withheld) {  // no verdict: no place on the roof either (docs/method.md §10.6)
    v.headroom = Headroom::unknown;
    v.roofline_pct.reset();
    v.attainable_speedup = 1.0;
    v.expected_e2e_gain_pct = 0.0;
    v.notes.push_back(band_withheld_reason(v.band));
  }
  return v;
}

}  // namespace roofline::analyze
