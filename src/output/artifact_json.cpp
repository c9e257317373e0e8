// profile_roofline.json (SPEC §10): key order as listed, non-finite numbers as null.
#include <cmath>

#include <fmt/format.h>

#include "roofline/report.hpp"

namespace roofline {
namespace {

ordered_json num(std::optional<double> v) {
  if (!v || !std::isfinite(*v)) return nullptr;
  return *v;
}
ordered_json num(double v) {
  return std::isfinite(v) ? ordered_json(v) : ordered_json(nullptr);
}

std::string join_notes(const std::vector<std::string>& notes) {
  std::string out;
  for (const auto& n : notes) {
    if (n.empty()) continue;
    if (!out.empty()) out += "; ";
    out += n;
  }
  return out;
}

}  // namespace

ordered_json link_json(const LinkPeak& link) {
  // `links` counts a mesh's links per GPU; a switch row gives none (read as 0): null.
  return ordered_json{{"topology", link.topology},
                      {"bytes_s", num(link.bytes_s)},
                      {"links", link.links >= 1 ? num(link.links) : ordered_json(nullptr)}};
}

ordered_json entry_json(const EntryResult& e) {
  const WorkEstimate& w = e.work;
  const Verdict& v = e.verdict;
  ordered_json j;
  j["name"] = e.name;
  j["short_name"] = e.short_name;
  j["pct_gpu_time"] =
      e.pct_gpu_time_raw.is_number() ? ordered_json(e.pct_gpu_time_raw) : num(e.pct_gpu_time);
  j["regime"] = to_string(e.regime.regime);
  j["op_class"] = to_string(e.cls.op_class);
  j["modeled"] = w.modeled;
  j["t_ms"] = num(e.regime.t_ms);
  j["launches_per_step"] = num(e.regime.launches_per_step);
  j["unit"] = w.modeled ? w.unit : (w.unit.empty() ? "1 launch" : w.unit);
  j["t_unit_ms"] = w.t_unit_ms > 0 ? num(w.t_unit_ms) : num(e.regime.t_ms);
  j["bytes_est"] = w.modeled ? num(w.bytes) : nullptr;
  j["flops_est"] = w.modeled ? num(w.flops) : nullptr;
  j["achieved_bw_bytes_s"] = num(v.achieved_bw_bytes_s);
  j["achieved_flops"] = num(v.achieved_flops);
  j["hbm_util"] = num(v.hbm_util);
  j["compute_util"] = num(v.compute_util);
  j["arithmetic_intensity"] = num(v.arithmetic_intensity);
  j["ridge_point"] = num(v.ridge_point);
  j["bound_type"] = to_string(v.bound);
  j["roofline_pct"] = num(v.roofline_pct);
  j["roofline_pct_raw"] = num(v.roofline_pct_raw);
  j["target_eff"] = num(v.target_eff);
  j["attainable_speedup"] = num(v.attainable_speedup);
  j["expected_e2e_gain_pct"] = num(v.expected_e2e_gain_pct);
  j["headroom_class"] = to_string(v.headroom);
  j["confidence"] = to_string(e.confidence);
  j["suspect"] = v.suspect;
  if (v.suspect) {
    j["bytes_upper_bound"] = num(v.bytes_upper_bound);
    j["flops_upper_bound"] = num(v.flops_upper_bound);
    if (v.implied_max_experts_hit) j["implied_max_experts_hit"] = num(v.implied_max_experts_hit);
    j["stage_c_candidate"] = v.stage_c_candidate;
  }
  j["editable"] = e.editable ? ordered_json(*e.editable) : ordered_json(nullptr);
  j["route"] = e.route;
  j["byte_reduction_levers"] = e.levers;
  j["notes"] = join_notes(e.notes);
  j["stage"] = to_string(e.stage);
  ordered_json candidates = ordered_json::array();
  for (std::size_t i = 0; i < w.candidates.size(); ++i) {
    const Candidate& c = w.candidates[i];
    ordered_json cj{{"label", c.label},
                    {"bytes", num(c.bytes)},
                    {"flops", num(c.flops)},
                    {"feasible", c.feasible ? ordered_json(*c.feasible) : ordered_json(nullptr)},
                    {"chosen", i == w.chosen}};
    if (!c.in_choice) cj["in_choice"] = false;  // reported for comparison (MODELS.md §4)
    candidates.push_back(std::move(cj));
  }
  j["byte_candidates"] = std::move(candidates);
  // Fields added since SPEC §10, in its order, each only when it applies.
  if (w.bytes_lower_bound) j["bytes_lower_bound"] = num(w.bytes_lower_bound);
  if (v.roof != Roof::none) j["roof"] = to_string(v.roof);
  if (w.comm) {
    j["link_bytes"] = num(w.comm->link_bytes);
    j["link_util"] = num(v.link_util);
  }
  if (w.measured_vs_model)
    j["measured_vs_model"] = ordered_json{{"bytes", num(w.measured_vs_model->bytes)},
                                          {"flops", num(w.measured_vs_model->flops)}};
  if (!v.target_eff_source.empty()) j["target_eff_source"] = v.target_eff_source;
  if (e.serving_weighted_pct) j["serving_weighted_pct"] = num(e.serving_weighted_pct);
  return j;
}

ordered_json artifact_json(const Analysis& a) {
  ordered_json j;
  j["skill"] = "roofline";
  j["skill_version"] = "1";
  j["tool"] = ordered_json{{"name", "roofline"}, {"version", ROOFLINE_VERSION}};
  j["gfx"] = a.gfx.empty() ? ordered_json(nullptr) : ordered_json(a.gfx);
  j["product"] = a.product.empty() ? ordered_json(nullptr) : ordered_json(a.product);
  ordered_json flops = ordered_json::object();
  for (const auto& [key, value] : a.peaks.flops) flops[key] = num(value);
  j["peaks"] = ordered_json{{"hbm_bw_bytes_s", num(a.peaks.hbm_bw_bytes_s)},
                            {"flops", std::move(flops)},
                            {"source", to_string(a.peaks.source)},
                            {"confidence", to_string(a.peaks.confidence)},
                            {"compute_validated", a.peaks.compute_validated}};
  if (a.peaks.link) j["peaks"]["link"] = link_json(*a.peaks.link);
  j["stage"] = to_string(a.stage);
  j["head_threshold_pct"] = num(a.head_threshold_pct);
  j["skipped_count"] = a.skipped_count;
  ordered_json entries = ordered_json::array();
  for (const auto& e : a.entries) entries.push_back(entry_json(e));
  j["entries"] = std::move(entries);
  j["ranking_by_pct"] = a.rankings.by_pct;
  j["ranking_by_expected_gain"] = a.rankings.by_expected_gain;
  ordered_json degraded = ordered_json::array();
  ordered_json skill_errors = ordered_json::array();
  for (const Diagnostic& d : a.diagnostics) {
    if (d.level)
      degraded.push_back(
          ordered_json{{"name", subject(d)}, {"reason", d.text}, {"level", to_string(*d.level)}});
    if (d.severity == Severity::error) skill_errors.push_back(skill_error_text(d));
  }
  j["degraded"] = std::move(degraded);
  j["skill_errors"] = std::move(skill_errors);
  j["round"] = a.round ? ordered_json(*a.round) : ordered_json(nullptr);
  if (!a.arch.empty()) j["arch"] = a.arch;
  ordered_json inputs = ordered_json::array();
  for (const auto& i : a.inputs) inputs.push_back(ordered_json{{"path", i.path}, {"role", i.role}});
  j["inputs"] = std::move(inputs);
  j["notes"] = a.notes;
  return j;
}

std::string render_json(const Analysis& a) {
  return artifact_json(a).dump(2, ' ', false, ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace roofline
