// `roofline calc`: one synthetic entry through the verdict and advice stages.
#include "roofline/calc.hpp"

#include <fmt/format.h>

#include "output/md_util.hpp"

namespace roofline {

CalcResult calc(const CalcInput& in, const PeaksTable& table) {
  CalcResult r;
  r.peaks = resolve_peaks(table, in.gfx, in.product, DeviceProps{});
  EntryResult& e = r.entry;
  e.name = "calc";
  e.short_name = "calc";
  e.pct_gpu_time = in.pct_gpu_time.value_or(0.0);
  e.pct_gpu_time_raw = e.pct_gpu_time;
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
  w.candidates.push_back({"given", in.bytes, in.flops, std::nullopt});
  w.bytes = in.bytes;
  w.flops = in.flops;
  if (r.peaks.hbm_bw_bytes_s)
    w.candidates[0].feasible = in.bytes <= *r.peaks.hbm_bw_bytes_s * w.t_unit_ms / 1000.0;
  VerdictParams params;
  params.launch_overhead_us = in.launch_overhead_us;
  e.verdict = judge(w, e.cls.op_class, e.pct_gpu_time, r.peaks, params);
  e.confidence = r.peaks.confidence;
  e.notes = r.peaks.notes;
  e.notes.push_back(fmt::format("given: {:g} B, {:g} FLOP in {:g} us; compute dtype {}", in.bytes,
                                in.flops, in.time_us,
                                w.compute_dtype.key.empty() ? "unknown" : w.compute_dtype.key));
  if (!in.pct_gpu_time)
    e.notes.push_back("no --pct: expected_e2e_gain_pct is computed for 0% of GPU time");
  for (const auto& n : e.verdict.notes) e.notes.push_back(n);
  if (!w.modeled) e.notes.push_back(w.unmodeled_reason);
  Advice advice = advise(e, TopN{}, r.peaks);
  e.route = advice.route;
  e.levers = advice.levers;
  e.ranking_name = e.name;
  return r;
}

ordered_json calc_json(const CalcResult& r) {
  ordered_json j = entry_json(r.entry);
  ordered_json flops = ordered_json::object();
  for (const auto& [k, v] : r.peaks.flops) flops[k] = v;
  j["peaks"] = ordered_json{
      {"gfx", r.peaks.gfx},
      {"product", r.peaks.product.empty() ? ordered_json(nullptr) : ordered_json(r.peaks.product)},
      {"hbm_bw_bytes_s",
       r.peaks.hbm_bw_bytes_s ? ordered_json(*r.peaks.hbm_bw_bytes_s) : ordered_json(nullptr)},
      {"flops", flops},
      {"source", to_string(r.peaks.source)},
      {"confidence", to_string(r.peaks.confidence)},
      {"compute_validated", r.peaks.compute_validated}};
  return j;
}

std::string calc_text(const CalcResult& r) {
  const EntryResult& e = r.entry;
  const Verdict& v = e.verdict;
  auto opt = [](const std::optional<double>& x, const char* f) {
    return x ? fmt::format(fmt::runtime(f), *x) : std::string("unknown");
  };
  std::string out;
  out += fmt::format("achieved_bw_bytes_s    {}\n", opt(v.achieved_bw_bytes_s, "{:.6g}"));
  out += fmt::format("achieved_flops         {}\n", opt(v.achieved_flops, "{:.6g}"));
  out += fmt::format("hbm_util               {}\n", opt(v.hbm_util, "{:.4f}"));
  out += fmt::format("compute_util           {}\n", opt(v.compute_util, "{:.4f}"));
  out += fmt::format("arithmetic_intensity   {}\n", opt(v.arithmetic_intensity, "{:.6g}"));
  out += fmt::format("ridge_point            {}\n", opt(v.ridge_point, "{:.6g}"));
  out += fmt::format("bound_type             {}\n", to_string(v.bound));
  out += fmt::format("roofline_pct           {}\n", opt(v.roofline_pct, "{:.4f}"));
  out += fmt::format("roofline_pct_raw       {}\n", opt(v.roofline_pct_raw, "{:.4f}"));
  out += fmt::format("target_eff             {}\n", opt(v.target_eff, "{:g}"));
  out += fmt::format("attainable_speedup     {:.4f}\n", v.attainable_speedup);
  out += fmt::format("expected_e2e_gain_pct  {:.4f}\n", v.expected_e2e_gain_pct);
  out += fmt::format("headroom_class         {}\n", to_string(v.headroom));
  out += fmt::format("confidence             {}\n", to_string(e.confidence));
  out += fmt::format("suspect                {}\n", v.suspect ? "true" : "false");
  if (v.suspect) {
    out += fmt::format("bytes_upper_bound      {}\n", opt(v.bytes_upper_bound, "{:.6g}"));
    out += fmt::format("flops_upper_bound      {}\n", opt(v.flops_upper_bound, "{:.6g}"));
  }
  out += fmt::format("route                  {}\n", e.route);
  for (const auto& n : e.notes) out += fmt::format("note: {}\n", n);
  return out;
}

}  // namespace roofline
