// The three artifacts of one run behind the render half of the L5 boundary (docs/method.md §13): a
// renderer that throws is a skill error every artifact names, and its own artifact is a minimal
// valid one.
#include <algorithm>
#include <exception>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "roofline/render/svg.hpp"
#include "roofline/render/report.hpp"
#include "roofline/analyze/test_hooks.hpp"

namespace roofline {
namespace {

// The artifact without what a renderer can trip on: the run's own fields and every diagnostic
// and note, no entries and no rankings (so stage A, which every entry of none is).
std::string minimal_json(const Analysis& a) {
  Analysis m;
  m.round = a.round;
  m.inputs = a.inputs;
  m.gfx = a.gfx;
  m.arch = a.arch;
  m.product = a.product;
  m.peaks = a.peaks;
  m.head_threshold_pct = a.head_threshold_pct;
  m.skipped_count = a.skipped_count;
  m.diagnostics = a.diagnostics;
  m.notes = a.notes;
  return json_text(artifact_json(m));
}

std::string minimal_markdown(const Analysis& a) {
  std::string out =
      "# Roofline headroom — report not rendered\n\n"
      "The report could not be rendered; `profile_roofline.json` holds the run's results and "
      "[profile_roofline.svg](profile_roofline.svg) its chart.\n\n## Skill errors\n\n";
  for (const Diagnostic& d : a.diagnostics)
    if (d.severity == Severity::error) out += fmt::format("- {}\n", md_escape(skill_error_text(d)));
  return out + "\n---\n*roofline " ROOFLINE_VERSION "*\n";
}

std::string minimal_svg(const Analysis&) {
  svg::Writer w(640, 80);
  w.text("text", {{"x", "20"}, {"y", "44"}, {"font-family", "sans-serif"}, {"font-size", "14"}},
         "roofline: the chart could not be drawn (see skill_errors in profile_roofline.json)");
  return w.finish();
}

// What is written when even the minimal form throws: fixed text, valid against the schema.
constexpr const char* k_last_json =
    "{\n  \"skill\": \"roofline\",\n  \"skill_version\": \"1\",\n  \"tool\": {\"name\": "
    "\"roofline\", \"version\": \"" ROOFLINE_VERSION
    "\"},\n  \"gfx\": null,\n  \"product\": null,\n  \"peaks\": {\"hbm_bw_bytes_s\": null, "
    "\"flops\": {}, \"source\": \"none\", \"confidence\": \"low\", \"compute_validated\": "
    "false},\n  \"stage\": \"A\",\n  \"head_threshold_pct\": 5,\n  \"skipped_count\": 0,\n  "
    "\"entries\": [],\n  \"ranking_by_pct\": [],\n  \"ranking_by_expected_gain\": [],\n  "
    "\"degraded\": [{\"name\": \"(peaks)\", \"reason\": \"unknown: the artifact could not be "
    "rendered\", \"level\": \"L1\"}],\n  \"skill_errors\": [\"internal error: the artifact "
    "could not be rendered, not even in its minimal form (L5)\"],\n  \"notes\": []\n}\n";
constexpr const char* k_last_md =
    "# Roofline headroom — report not rendered\n\nThe report could not be rendered, not even in "
    "its minimal form (L5).\n";
constexpr const char* k_last_svg =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" "
    "viewBox=\"0 0 640 80\" width=\"640\" height=\"80\"/>\n";

struct Renderer {
  const char* point;  // the ROOFLINE_TEST_THROW point
  const char* file;
  std::string Artifacts::*text;
  std::string (*render)(const Analysis&);
  std::string (*minimal)(const Analysis&);
  const char* last;
};
constexpr Renderer k_renderers[] = {
    {"render_json", "profile_roofline.json", &Artifacts::json, render_json, minimal_json,
     k_last_json},
    {"render_md", "profile_roofline.md", &Artifacts::markdown, render_markdown, minimal_markdown,
     k_last_md},
    {"render_svg", "profile_roofline.svg", &Artifacts::svg, render_roofline_svg, minimal_svg,
     k_last_svg},
};

// The minimal form of one artifact, or its fixed text when even that throws.
std::string minimal(const Renderer& r, const Analysis& a) {
  try {
    return r.minimal(a);
  } catch (const std::exception&) {
    return r.last;
  }
}

// Renders one artifact into `out`; a throw is recorded in `a` and returns false.
bool attempt(const Renderer& r, Analysis& a, Artifacts& out) {
  try {
    test_fault_point(r.point);
    out.*r.text = r.render(a);
    return true;
  } catch (const std::exception& ex) {
    a.diagnostics.push_back(Diagnostic{
        Severity::error, std::nullopt, Topic::input, "",
        fmt::format("internal error while rendering {}: {}; a minimal {} was written instead (L5)",
                    r.file, ex.what(), r.file)});
    return false;
  }
}

}  // namespace

Artifacts render_artifacts(Analysis& a) {
  Artifacts out;
  std::vector<const Renderer*> failed;
  for (const Renderer& r : k_renderers)
    if (!attempt(r, a, out)) failed.push_back(&r);
  if (failed.empty()) return out;
  // The error is now in the Analysis: every artifact rendered before it is rendered again to name
  // it, and each one that failed is its minimal form.
  for (const Renderer& r : k_renderers) {
    const bool ok = std::find(failed.begin(), failed.end(), &r) == failed.end();
    if (!ok || !attempt(r, a, out)) out.*r.text = minimal(r, a);
  }
  return out;
}

}  // namespace roofline
