// `roofline calc`: one synthetic entry through the verdict and advice stages.
#include "roofline/analyze/calc.hpp"

#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "roofline/analyze/layer.hpp"
#include "roofline/base/units.hpp"
#include "roofline/inputs/load.hpp"

namespace roofline::analyze {

namespace {

// Why --gfx alone gives no roof (docs/method.md §22.2): an arch the table does not have, or has
// only as named parts with no section of their common figures — then the parts, as `peaks show`
// lists them, and --product picks one.
std::string no_roof_reason(const PeaksTable& table, const std::string& gfx) {
  const std::string arch = normalize_arch(gfx);
  std::vector<const PeaksSection*> rows;
  for (const PeaksSection& s : table.sections)
    if (s.gfx == arch && !s.product.empty()) rows.push_back(&s);
  std::vector<std::string> parts;
  for (const PeaksSection* s : rows)
    parts.push_back(s->name.empty() ? s->product : fmt::format("{} ({})", s->product, s->name));
  if (rows.size() > 1)
    return fmt::format(
        "--gfx '{}': {} parts share {} and their figures differ: {}; --product NAME would settle "
        "it (e.g. --product {})",
        gfx, rows.size(), arch, fmt::join(parts, ", "), rows.front()->product);
  if (rows.size() == 1)  // the table has the arch, but only as a named part
    return fmt::format(
        "--gfx '{}': the peaks table has {} only as the part {}; --product {} would settle it", gfx,
        arch, parts.front(), rows.front()->product);
  return fmt::format(
      "--gfx '{}': not in the peaks table, so there is no roof to judge against (`roofline "
      "peaks list` names the parts it has; --peaks FILE adds one)",
      gfx);
}

}  // namespace

CalcResult calc(const CalcInput& in, const PeaksTable& table) {
  CalcResult r;
  r.peaks = resolve_peaks(table, in.gfx, in.product, DeviceProps{}, "", in.product_pinned);
  // An arch the table does not have, or several parts share (no product given), leaves nothing
  // to divide by: a usage error, as the help says, not a run of unknowns.
  if (r.peaks.source == PeaksSource::none && !r.peaks.hard_unknown && in.product.empty())
    r.errors.push_back(no_roof_reason(table, in.gfx));
  HeadEntry& e = r.entry;
  e.name = "calc";
  e.short_name = "calc";
  e.pct_gpu_time = in.pct_gpu_time.value_or(0.0);
  e.pct_gpu_time_raw = e.pct_gpu_time;
  e.share.pct = e.pct_gpu_time;
  e.regime.t_ms = in.time_us / 1000.0;
  e.regime.t_source = "--time-us";
  auto cls = parse_op_class(in.op_class);
  if (!cls)
    r.errors.push_back(
        fmt::format("--class '{}': expected gemm, moe, attn, linear_attn, ssm, comm, elementwise "
                    "or unknown",
                    in.op_class));
  e.cls.op_class = cls.value_or(OpClass::unknown);
  e.cls.rule = "--class";
  auto dtype = parse_dtype(in.dtype);
  if (!dtype)
    r.errors.push_back(
        fmt::format("--dtype '{}': not a dtype roofline knows (e.g. bf16, fp8, fp16)", in.dtype));
  WorkEstimate& w = e.work;
  w.modeled = in.time_us > 0;
  if (!w.modeled) w.unmodeled_reason = "--time-us must be positive";
  w.unit = "1 launch";
  w.t_unit_ms = in.time_us / 1000.0;
  w.compute_dtype = dtype.value_or(Dtype{});
  w.has_compute_peak_class = e.cls.op_class != OpClass::elementwise &&
                             e.cls.op_class != OpClass::linear_attn &&
                             e.cls.op_class != OpClass::ssm && e.cls.op_class != OpClass::comm;
  w.candidates.push_back({"given", in.bytes, in.flops, std::nullopt, true, CandidateKind::given});
  w.bytes = in.bytes;
  w.flops = in.flops;
  if (const auto budget = byte_budget(feasibility_bw(r.peaks), w.t_unit_ms))
    w.candidates[0].feasible = in.bytes <= *budget;
  e.verdict = judge(w, e.cls.op_class, e.pct_gpu_time, r.peaks, in.verdict);
  // No evidence stage to grade: confidence is the peaks', and the stage-C flag judge's own.
  e.grade.confidence = r.peaks.confidence;
  e.grade.stage_c_candidate = e.verdict.stage_c_candidate;
  e.notes = r.peaks.notes;
  e.notes.push_back(
      fmt::format("given: {:g} B, {:g} FLOP in {:g} us; compute dtype {}", in.bytes, in.flops,
                  in.time_us, w.compute_dtype.key.empty() ? "unknown" : w.compute_dtype.key.str()));
  if (!in.pct_gpu_time)
    e.notes.push_back("no --pct: expected_e2e_gain_pct is computed for 0% of GPU time");
  for (const auto& n : e.verdict.notes) e.notes.push_back(n);
  if (!w.modeled) e.notes.push_back(w.unmodeled_reason);
  e.advice = advise(e, TopnDocument{}, r.peaks);
  e.ranking_name = e.name;
  return r;
}

}  // namespace roofline::analyze
