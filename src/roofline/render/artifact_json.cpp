// profile_roofline.json (docs/method.md §16): key order as listed, non-finite numbers as null.
#include <cmath>

#include <fmt/format.h>

#include "roofline/base/json_number.hpp"
#include "roofline/render/layer.hpp"
#include "roofline/render/md_util.hpp"
#include "roofline/render/report.hpp"

namespace roofline::render {
namespace {

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

// docs/method.md §10.4: the fusion lever's partners, as the trace launched them.
ordered_json partners_json(const std::vector<FusionPartner>& partners) {
  ordered_json out = ordered_json::array();
  for (const FusionPartner& p : partners)
    out.push_back({{"partner_kernel", p.kernel},
                   {"partner_display", p.display},
                   {"side", p.side},
                   {"launches_beside", json_number(p.launches)},
                   {"pct_gpu_time", p.pct_gpu_time ? json_number(*p.pct_gpu_time) : ordered_json()},
                   {"round_trip_bytes_max",
                    p.round_trip_bytes_max ? json_number(*p.round_trip_bytes_max) : ordered_json()},
                   {"e2e_gain_pct_max",
                    p.e2e_gain_pct_max ? json_number(*p.e2e_gain_pct_max) : ordered_json()}});
  return out;
}

ordered_json link_json(const LinkPeak& link) {
  // `links` counts a mesh's links per GPU; a switch row gives none (read as 0): null.
  return ordered_json{{"topology", link.topology},
                      {"bytes_s", json_number(link.bytes_s)},
                      {"links", link.links >= 1 ? json_number(link.links) : ordered_json(nullptr)}};
}

namespace {

// docs/method.md §22.8: what the trace recorded of one signature.
ordered_json signature_trace_json(const SignatureWork& s) {
  const ProbeCase& c = s.source;
  ordered_json j;
  j["label"] = s.label;
  const CaseSignature none;
  const CaseSignature& sig = c.signature ? *c.signature : none;
  j["op"] = sig.op.empty() ? ordered_json(nullptr) : ordered_json(sig.op);
  j["module"] = sig.module.empty() ? ordered_json(nullptr) : ordered_json(sig.module);
  j["dims"] = c.dims;
  j["dtypes"] = c.dtypes;
  ordered_json scalars = ordered_json::object();
  for (const ProbeScalar& k : sig.scalars) scalars[k.name] = k.value;
  for (const ProbeScalar& r : sig.ranges)
    scalars[r.name] = ordered_json{
        {"min", json_number(r.min)}, {"mean", json_number(r.mean)}, {"max", json_number(r.max)}};
  j["scalars"] = std::move(scalars);
  j["grid"] = sig.grid.empty() ? ordered_json(nullptr) : ordered_json(sig.grid);
  j["block"] = sig.block.empty() ? ordered_json(nullptr) : ordered_json(sig.block);
  j["count"] = json_number(s.count);
  j["time_us"] = ordered_json{{"total", json_number(sig.total_us)},
                              {"mean", json_number(s.t_launch_ms * 1000.0)},
                              {"median", json_number(sig.median_us)},
                              {"min", json_number(sig.min_us)},
                              {"max", json_number(sig.max_us)}};
  j["steps"] = ordered_json{{"prefill", json_number(sig.prefill)},
                            {"decode", json_number(sig.decode)},
                            {"mixed", json_number(sig.mixed)}};
  return j;
}

// docs/method.md §22.8: each signature's own model and verdict.
ordered_json signature_json(const SignatureWork& s, const SignatureVerdict* sv) {
  ordered_json j = signature_trace_json(s);
  j["modeled"] = s.modeled;
  if (!s.unmodeled_reason.empty()) j["unmodeled_reason"] = s.unmodeled_reason;
  const double k = s.unit_launches > 0 ? s.unit_launches : 1.0;
  j["bytes_est"] = s.modeled ? json_number(s.bytes / k) : nullptr;
  j["flops_est"] = s.modeled ? json_number(s.flops / k) : nullptr;
  const SignatureVerdict none;
  const SignatureVerdict& v = sv ? *sv : none;
  j["arithmetic_intensity"] = json_number(v.arithmetic_intensity);
  j["hbm_util"] = json_number(v.hbm_util);
  j["compute_util"] = json_number(v.compute_util);
  j["roof"] = v.roof == Roof::none ? ordered_json(nullptr) : ordered_json(to_string(v.roof));
  j["roof_time_us"] = v.roof_launch_ms ? json_number(*v.roof_launch_ms * 1000.0) : nullptr;
  j["roofline_pct"] = json_number(v.roofline_pct);
  j["roofline_pct_raw"] = json_number(v.roofline_pct_raw);
  j["bound_type"] = to_string(v.bound);
  j["headroom_class"] = to_string(v.headroom);
  j["suspect"] = v.suspect;
  j["win_ms"] = json_number(v.win_ms);
  return j;
}

void add_signatures(const WorkEstimate& w, const Verdict& v, ordered_json& j) {
  ordered_json sigs = ordered_json::array();
  for (std::size_t i = 0; i < w.signatures.size(); ++i)
    sigs.push_back(
        signature_json(w.signatures[i], i < v.signatures.size() ? &v.signatures[i] : nullptr));
  j["signatures"] = std::move(sigs);
  j["signatures_judged"] = w.signatures_judged;
  j["modelled_share"] = json_number(w.modelled_share);
  if (v.most_to_win) j["most_to_win"] = w.signatures[*v.most_to_win].label;
}

// The byte models the entry's estimate chose from, the chosen one marked.
ordered_json byte_candidates_json(const WorkEstimate& w) {
  ordered_json candidates = ordered_json::array();
  for (std::size_t i = 0; i < w.candidates.size(); ++i) {
    const Candidate& c = w.candidates[i];
    ordered_json cj{{"label", c.label},
                    {"bytes", json_number(c.bytes)},
                    {"flops", json_number(c.flops)},
                    {"feasible", c.feasible ? ordered_json(*c.feasible) : ordered_json(nullptr)},
                    {"chosen", i == w.chosen}};
    if (!c.in_choice) cj["in_choice"] = false;  // reported for comparison (docs/method.md §8.7)
    candidates.push_back(std::move(cj));
  }
  return candidates;
}

// docs/method.md §10.6: a figure of a verdict, null where there is none (never the clamp).
ordered_json verdict_number(bool verdict, double value) {
  return verdict ? json_number(value) : ordered_json(nullptr);
}

ordered_json interval_json(const std::optional<Interval>& i) {
  if (!i) return nullptr;
  return ordered_json::array({json_number(i->lo), json_number(i->hi)});
}

// docs/method.md §10.8: the readings the evidence allows, each judged, and what holds across them.
ordered_json band_json(const Band& b) {
  ordered_json readings = ordered_json::array();
  for (const ReadingVerdict& r : b.readings)
    readings.push_back(
        ordered_json{{"label", r.reading.label},
                     {"source", r.reading.key},
                     {"why", r.reading.why},
                     {"taken", r.taken},
                     {"bytes", json_number(r.reading.bytes)},
                     {"flops", json_number(r.reading.flops)},
                     {"feasible", r.feasible},
                     {"roofline_pct", json_number(r.roofline_pct)},
                     {"attainable_speedup", verdict_number(r.feasible, r.attainable_speedup)},
                     {"expected_e2e_gain_pct", verdict_number(r.feasible, r.expected_e2e_gain_pct)},
                     {"headroom_class", to_string(r.headroom)}});
  ordered_json classes = ordered_json::array();
  for (Headroom h : b.classes) classes.push_back(to_string(h));
  ordered_json j{{"kind", to_string(b.kind)},
                 {"readings", std::move(readings)},
                 {"roofline_pct", interval_json(b.roofline_pct)},
                 {"attainable_speedup", interval_json(b.attainable_speedup)},
                 {"expected_e2e_gain_pct", interval_json(b.expected_e2e_gain_pct)},
                 {"classes", std::move(classes)},
                 {"withheld", b.withheld}};
  if (!b.settle.empty()) j["settle"] = b.settle;
  return j;
}

// Fields added since docs/method.md §16, in its order, each only when it applies.
void add_later_entry_fields(const HeadEntry& e, ordered_json& j) {
  const WorkEstimate& w = e.work;
  const Verdict& v = e.verdict;
  if (w.bytes_lower_bound) j["bytes_lower_bound"] = json_number(w.bytes_lower_bound);
  if (v.roof != Roof::none) j["roof"] = to_string(v.roof);
  // docs/method.md §5.7: which figure the roof divided by, where the run has measured ones.
  if (v.roof != Roof::none && v.ceiling_recorded) j["ceiling"] = to_string(v.ceiling);
  if (v.ceiling_beaten) j["ceiling_beaten"] = true;  // roofline_pct above 1, within the datasheet
  if (w.comm) {
    j["link_bytes"] = json_number(w.comm->link_bytes);
    j["link_util"] = json_number(v.link_util);
  }
  if (w.measured_vs_model)
    j["measured_vs_model"] = ordered_json{{"bytes", json_number(w.measured_vs_model->bytes)},
                                          {"flops", json_number(w.measured_vs_model->flops)}};
  if (!v.target_eff_source.empty()) j["target_eff_source"] = v.target_eff_source;
  if (e.serving_weighted_pct) j["serving_weighted_pct"] = json_number(e.serving_weighted_pct);
  if (!w.signatures.empty()) add_signatures(w, v, j);
  if (v.band.readings.size() > 1) j["band"] = band_json(v.band);
}

}  // namespace

ordered_json entry_json(const HeadEntry& e) {
  const WorkEstimate& w = e.work;
  const Verdict& v = e.verdict;
  ordered_json j;
  j["name"] = e.name;
  j["short_name"] = e.short_name;
  j["display_name"] = shown_name(e);
  if (!e.op.empty()) j["op"] = e.op;
  if (!e.module.empty()) j["module"] = e.module;
  j["pct_gpu_time"] = e.pct_gpu_time_raw.is_number() ? ordered_json(e.pct_gpu_time_raw)
                                                     : json_number(e.pct_gpu_time);
  j["regime"] = regime_label(e.regime);
  j["op_class"] = to_string(e.cls.op_class);
  j["modeled"] = w.modeled;
  j["t_ms"] = json_number(e.regime.t_ms);
  j["launches_per_step"] = json_number(e.regime.launches_per_step);
  j["unit"] = w.modeled ? w.unit : (w.unit.empty() ? "1 launch" : w.unit);
  j["t_unit_ms"] = w.t_unit_ms > 0 ? json_number(w.t_unit_ms) : json_number(e.regime.t_ms);
  j["bytes_est"] = w.modeled ? json_number(w.bytes) : nullptr;
  j["flops_est"] = w.modeled && !w.flops_unknown ? json_number(w.flops) : nullptr;
  j["achieved_bw_bytes_s"] = json_number(v.achieved_bw_bytes_s);
  j["achieved_flops"] = json_number(v.achieved_flops);
  j["hbm_util"] = json_number(v.hbm_util);
  j["compute_util"] = json_number(v.compute_util);
  j["arithmetic_intensity"] = json_number(v.arithmetic_intensity);
  j["ridge_point"] = json_number(v.ridge_point);
  j["bound_type"] = to_string(v.bound);
  j["roofline_pct"] = json_number(v.roofline_pct);
  j["roofline_pct_raw"] = json_number(v.roofline_pct_raw);
  j["target_eff"] = json_number(v.target_eff);
  const bool verdict = v.headroom != Headroom::unknown;
  j["attainable_speedup"] = verdict_number(verdict, v.attainable_speedup);
  j["expected_e2e_gain_pct"] = verdict_number(verdict, v.expected_e2e_gain_pct);
  j["headroom_class"] = to_string(v.headroom);
  j["confidence"] = to_string(e.grade.confidence);
  j["suspect"] = v.suspect;
  if (v.suspect) {
    j["bytes_upper_bound"] = json_number(v.bytes_upper_bound);
    j["flops_upper_bound"] = json_number(v.flops_upper_bound);
    if (v.implied_max_experts_hit)
      j["implied_max_experts_hit"] = json_number(v.implied_max_experts_hit);
    j["stage_c_candidate"] = e.grade.stage_c_candidate;
  }
  j["editable"] = e.editable ? ordered_json(*e.editable) : ordered_json(nullptr);
  j["route"] = e.advice.route;
  j["byte_reduction_levers"] = e.advice.levers;
  if (!e.advice.partners.empty()) j["fusion_partners"] = partners_json(e.advice.partners);
  j["notes"] = join_notes(e.notes);
  j["stage"] = to_string(e.stage);
  j["byte_candidates"] = byte_candidates_json(w);
  add_later_entry_fields(e, j);
  return j;
}

ordered_json artifact_json(const Analysis& a) {
  ordered_json j;
  j["skill"] = "roofline";
  j["skill_version"] = "1";
  j["tool"] = ordered_json{{"name", "roofline"}, {"version", ROOFLINE_VERSION}};
  j["gfx"] = a.gfx.empty() ? ordered_json(nullptr) : ordered_json(a.gfx);
  j["product"] = a.product.empty() ? ordered_json(nullptr) : ordered_json(a.product);
  j["peaks"] = peaks_json(a.peaks, PeaksFields::artifact);
  j["stage"] = to_string(a.stage);
  j["head_threshold_pct"] = json_number(a.head_threshold_pct);
  j["skipped_count"] = a.skipped_count;
  ordered_json entries = ordered_json::array();
  for (const auto& e : a.entries) entries.push_back(entry_json(e));
  j["entries"] = std::move(entries);
  // The rankings are entry indices; the artifact names each entry as the rankings do.
  auto names = [&](const std::vector<std::size_t>& order) {
    ordered_json out = ordered_json::array();
    for (std::size_t i : order) out.push_back(a.entries[i].ranking_name);
    return out;
  };
  j["ranking_by_pct"] = names(a.rankings.by_pct);
  j["ranking_by_expected_gain"] = names(a.rankings.by_expected_gain);
  j["ranking_by_sure_gain"] = names(a.rankings.by_sure_gain);
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

std::string json_text(const ordered_json& document) {
  return document.dump(2, ' ', false, ordered_json::error_handler_t::replace) + "\n";
}

std::string render_json(const Analysis& a) {
  return json_text(artifact_json(a));
}

}  // namespace roofline::render
