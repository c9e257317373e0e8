// What `roofline calc` and `roofline peaks` print: an entry's fields for numbers given on the
// command line, and the peaks a part resolves to.
#include <fmt/format.h>

#include "roofline/inputs/peaks_alias.hpp"

#include "roofline/base/json_number.hpp"
#include "roofline/base/units.hpp"
#include "roofline/inputs/load.hpp"
#include "roofline/render/layer.hpp"
#include "roofline/render/report.hpp"

namespace roofline::render {

ordered_json calc_json(const CalcResult& r) {
  ordered_json j = entry_json(r.entry);
  j["peaks"] = peaks_json(r.peaks, PeaksFields::calc);
  return j;
}

std::string calc_text(const CalcResult& r) {
  const HeadEntry& e = r.entry;
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
  // docs/method.md §10.6: without a verdict no place on the roof, no speedup, no gain.
  const bool verdict = v.headroom != Headroom::unknown;
  const auto of_verdict = [&](double x) {
    return verdict ? fmt::format("{:.4f}", x) : std::string("none (no verdict)");
  };
  out += fmt::format("roofline_pct           {}{}\n",
                     verdict ? opt(v.roofline_pct, "{:.4f}") : std::string("none (no verdict)"),
                     v.ceiling_beaten ? " (the measured ceiling beaten)" : "");
  out += fmt::format("roofline_pct_raw       {}\n", opt(v.roofline_pct_raw, "{:.4f}"));
  out += fmt::format("target_eff             {}\n", opt(v.target_eff, "{:g}"));
  out += fmt::format("attainable_speedup     {}\n", of_verdict(v.attainable_speedup));
  out += fmt::format("expected_e2e_gain_pct  {}\n", of_verdict(v.expected_e2e_gain_pct));
  out += fmt::format("headroom_class         {}\n", to_string(v.headroom));
  out += fmt::format("confidence             {}\n", to_string(e.grade.confidence));
  out += fmt::format("suspect                {}\n", v.suspect ? "true" : "false");
  if (v.suspect) {
    out += fmt::format("bytes_upper_bound      {}\n", opt(v.bytes_upper_bound, "{:.6g}"));
    out += fmt::format("flops_upper_bound      {}\n", opt(v.flops_upper_bound, "{:.6g}"));
  }
  out += fmt::format("route                  {}\n", e.advice.route);
  for (const auto& n : e.notes) out += fmt::format("note: {}\n", n);
  return out;
}

ordered_json peaks_json(const ResolvedPeaks& p, PeaksFields fields) {
  ordered_json j = ordered_json::object();
  if (fields != PeaksFields::artifact) {
    j["gfx"] = is_nvidia_arch(p.gfx) ? ordered_json(nullptr) : ordered_json(p.gfx);
    j["arch"] = p.gfx;
    j["product"] = p.product.empty() ? ordered_json(nullptr) : ordered_json(p.product);
  }
  j["hbm_bw_bytes_s"] = json_number(p.hbm_bw_bytes_s);
  ordered_json flops = ordered_json::object();
  for (const auto& [k, v] : p.flops) flops[k] = json_number(v);
  j["flops"] = std::move(flops);
  if (fields == PeaksFields::full) {
    j["l2_bytes"] = json_number(p.l2_bytes);
    j["mall_bytes"] = json_number(p.mall_bytes);
    j["link"] = p.link ? link_json(*p.link) : ordered_json(nullptr);
  }
  j["source"] = to_string(p.source);
  j["confidence"] = to_string(p.confidence);
  j["compute_validated"] = p.compute_validated;
  if (fields == PeaksFields::artifact && p.link) j["link"] = link_json(*p.link);
  if (p.measured) {
    // docs/method.md §5.7: both figures, and which one each axis divided by.
    ordered_json datasheet = ordered_json::object();
    datasheet["hbm_bw_bytes_s"] = json_number(p.datasheet_hbm_bw_bytes_s);
    ordered_json ds_flops = ordered_json::object();
    for (const auto& [k, v] : p.datasheet_flops) ds_flops[k] = json_number(v);
    datasheet["flops"] = std::move(ds_flops);
    j["datasheet"] = std::move(datasheet);
    ordered_json measured = ordered_json::object();
    measured["hbm_bw_bytes_s"] = json_number(p.measured->hbm_bw_bytes_s);
    ordered_json m_flops = ordered_json::object();
    for (const auto& [k, v] : p.measured->flops) m_flops[k] = json_number(v);
    measured["flops"] = std::move(m_flops);
    measured["source"] = p.measured->source;
    j["measured"] = std::move(measured);
    ordered_json compute = ordered_json::object();
    for (const auto& [k, kind] : p.compute_ceiling) compute[k] = to_string(kind);
    j["ceiling"] = ordered_json{{"memory", to_string(p.memory_ceiling)}, {"compute", compute}};
  }
  if (fields == PeaksFields::full) {
    j["hard_unknown"] = p.hard_unknown;
    j["notes"] = p.notes;
  }
  return j;
}

namespace {

// docs/method.md §10.7: what one direction of the interconnect gives a GPU of a group.
std::string link_text(const LinkPeak& l) {
  if (l.topology == "mesh")
    return fmt::format(
        "mesh, {:g} links x {:.4g} B/s per direction (a group of n GPUs: min(n-1, {:g}) x {:.4g} "
        "B/s)",
        l.links, l.bytes_s, l.links, l.bytes_s);
  return fmt::format("{}, {:.4g} B/s per GPU per direction, whatever the group size", l.topology,
                     l.bytes_s);
}

}  // namespace

std::string peaks_text(const ResolvedPeaks& p) {
  std::string out =
      fmt::format("{} {}{}: source {}, confidence {}{}\n", is_nvidia_arch(p.gfx) ? "arch" : "gfx",
                  p.gfx, p.product.empty() ? "" : ", product " + p.product, to_string(p.source),
                  to_string(p.confidence), p.hard_unknown ? " (hard unknown)" : "");
  // docs/method.md §5.7: a measured ceiling shows the datasheet figure beside it.
  const auto beside = [](bool measured, std::optional<double> datasheet, double used) {
    if (!measured || !datasheet || !(*datasheet > 0)) return std::string();
    return fmt::format("  measured, the ceiling (datasheet {:.4g}; {:.3f} of it)", *datasheet,
                       used / *datasheet);
  };
  out += fmt::format("  hbm_bw_bytes_s  {}{}\n",
                     p.hbm_bw_bytes_s ? fmt::format("{:.4g}", *p.hbm_bw_bytes_s) : "unknown",
                     p.hbm_bw_bytes_s ? beside(p.memory_ceiling == CeilingKind::measured,
                                               p.datasheet_hbm_bw_bytes_s, *p.hbm_bw_bytes_s)
                                      : std::string());
  for (const auto& [k, v] : p.flops) {
    auto ds = p.datasheet_flops.find(k);
    out += fmt::format(
        "  flops.{:<9} {:.4g}{}\n", k, v,
        beside(compute_ceiling_for(p, k) == CeilingKind::measured,
               ds == p.datasheet_flops.end() ? std::nullopt : std::optional<double>(ds->second),
               v));
  }
  if (p.measured)
    out += fmt::format("  measured by     {}\n",
                       p.measured->source.empty() ? "(no source given)" : p.measured->source);
  if (p.l2_bytes) out += fmt::format("  l2_bytes        {:.0f}\n", *p.l2_bytes);
  if (p.mall_bytes) out += fmt::format("  mall_bytes      {:.0f}\n", *p.mall_bytes);
  if (p.link) out += fmt::format("  link            {}\n", link_text(*p.link));
  out += fmt::format("  compute_validated {}\n", p.compute_validated ? "true" : "false");
  for (const auto& n : p.notes) out += fmt::format("  note: {}\n", n);
  return out;
}

namespace {

// One section's rows of `peaks list`: its figures, its measured ceilings, its source and what it
// answers to.
void section_rows(std::string& out, const PeaksSection& s, std::size_t product_w) {
  std::string flops;
  for (const auto& [k, v] : s.flops)
    flops += fmt::format("{}{} {:.3g}", flops.empty() ? "" : ", ", k, v);
  // The link roof in one cell: "switch 4.5e+11 B/s" per GPU, "mesh 7 x 6.4e+10 B/s" per link
  // (docs/method.md §10.7).
  std::string link = "-";
  if (s.link)
    link = s.link->topology == "mesh"
               ? fmt::format("mesh {:g} x {:.3g} B/s", s.link->links, s.link->bytes_s)
               : fmt::format("{} {:.3g} B/s", s.link->topology, s.link->bytes_s);
  out += fmt::format(
      "{:<9} {:<{}} {:>12}  {:<24}  {}\n", s.gfx, s.product.empty() ? "-" : s.product, product_w,
      s.hbm_bw_bytes_s ? fmt::format("{:.3g} B/s", *s.hbm_bw_bytes_s) : "?", link, flops);
  if (s.measured) {
    // docs/method.md §5.7: the measured figures on a row of their own, under the datasheet's.
    std::string mflops;
    for (const auto& [k, v] : s.measured->flops)
      mflops += fmt::format("{}{} {:.3g}", mflops.empty() ? "" : ", ", k, v);
    out += fmt::format(
        "{:<9} {:<{}} {:>12}  {:<24}  {}\n", "", "measured", product_w,
        s.measured->hbm_bw_bytes_s ? fmt::format("{:.3g} B/s", *s.measured->hbm_bw_bytes_s) : "-",
        "-", mflops.empty() ? "-" : mflops);
  }
  // Where the figures come from (data/peaks.md: every built-in row names its source).
  out += fmt::format("{:<9} {}{}{}\n", "", s.name.empty() ? "" : s.name + ": ",
                     s.source.empty() ? "(no source given)" : s.source,
                     s.memory_gib ? fmt::format(" [{} GiB]", format_g(*s.memory_gib)) : "");
  if (s.measured)
    out += fmt::format("{:<9} measured by: {}\n", "",
                       s.measured->source.empty() ? "(no source given)" : s.measured->source);
  std::string names;
  for (const std::string& n : product_spellings(s)) names += (names.empty() ? "" : ", ") + n;
  if (!names.empty()) out += fmt::format("{:<9} answers to: {}\n", "", names);
}

// An arch's heading in `peaks list`: its sections, and what --gfx alone resolves to (the section
// without product, or none: --product names the part, as calc and peaks show say).
std::string arch_heading(const std::string& arch, const std::vector<const PeaksSection*>& rows) {
  std::vector<std::string> parts;
  for (const PeaksSection* s : rows)
    if (!s->product.empty()) parts.push_back(s->product);
  const bool common = parts.size() < rows.size();
  if (parts.empty()) return fmt::format("{} — 1 section, without product\n", arch);
  std::string list;
  for (std::size_t i = 0; i < parts.size(); ++i)
    list += (i == 0 ? "" : i + 1 == parts.size() && !common ? " and " : ", ") + parts[i];
  return fmt::format("{} — {} section{}: {}{}\n", arch, rows.size(), rows.size() == 1 ? "" : "s",
                     list,
                     common ? " and one without product, which --gfx alone takes"
                            : "; --gfx alone takes none, --product names the part");
}

}  // namespace

// The table grouped by architecture (issue 46), each arch where it first appears in the file,
// its section without product first, then its parts in the file's order.
std::string peaks_table_text(const PeaksTable& table) {
  std::vector<std::pair<std::string, std::vector<const PeaksSection*>>> archs;
  for (const PeaksSection& s : table.sections) {
    auto it =
        std::find_if(archs.begin(), archs.end(), [&](const auto& a) { return a.first == s.gfx; });
    if (it == archs.end()) it = archs.insert(archs.end(), {s.gfx, {}});
    it->second.push_back(&s);
  }
  std::size_t product_w = 9;
  for (const PeaksSection& s : table.sections) product_w = std::max(product_w, s.product.size());
  std::string out = fmt::format("{:<9} {:<{}} {:>12}  {:<24}  {}\n", "arch", "product", product_w,
                                "bandwidth", "link (per direction)", "dense FLOP/s");
  for (auto& [arch, rows] : archs) {
    std::stable_partition(rows.begin(), rows.end(),
                          [](const PeaksSection* s) { return s->product.empty(); });
    out += "\n" + arch_heading(arch, rows);
    for (const PeaksSection* s : rows) section_rows(out, *s, product_w);
  }
  out += "\n";
  out += fmt::format("({} sections from {})\n", table.sections.size(), table.source_name);
  out +=
      "(--product NAME in analyze and calc: any name a row answers to, case, spaces, dashes and "
      "AMD/NVIDIA/Instinct/GeForce ignored; a name several rows share in part, such as "
      "rtx-pro-6000, takes their lower figures)\n";
  return out;
}

}  // namespace roofline::render
