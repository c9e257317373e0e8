// The SVG writer (escaping, numbers), the chart's scales and ticks, label placement, and what
// the chart model leaves off the chart.
#include <fmt/format.h>
#include <catch2/catch.hpp>

#include "roofline/cli/layer.hpp"
#include "roofline/render/chart_layout.hpp"
#include "roofline/render/chart_model.hpp"
#include "roofline/render/report.hpp"
#include "roofline/render/svg.hpp"
#include "unit/test_helpers.hpp"

namespace unit_svg {
using namespace roofline::cli;
using roofline::test::contains;
using roofline::test::gfx950_peaks;

namespace {

HeadEntry plotted(const std::string& name, double pct, double bytes, double flops, double t_ms,
                  Headroom h) {
  HeadEntry e;
  e.name = e.short_name = e.ranking_name = name;
  e.pct_gpu_time = pct;
  e.cls.op_class = OpClass::gemm;
  e.work.modeled = true;
  e.work.t_unit_ms = t_ms;
  e.work.bytes = bytes;
  e.work.flops = flops;
  e.work.compute_dtype.key = DtypeKey::fp8;
  e.verdict.achieved_flops = flops / (t_ms / 1000.0);
  e.verdict.arithmetic_intensity = flops / bytes;
  e.verdict.target_eff = 0.9;
  e.verdict.headroom = h;
  return e;
}

Analysis example_like() {
  Analysis a;
  a.gfx = "gfx950";
  a.peaks = gfx950_peaks();
  a.entries.push_back(
      plotted("fused_moe_kernel", 26.45, 6.97e8, 3.22e9, 0.098942, Headroom::saturated));
  HeadEntry unmodelled;
  unmodelled.name = unmodelled.short_name = unmodelled.ranking_name = "gated_delta_rule";
  unmodelled.pct_gpu_time = 12.82;
  a.entries.push_back(unmodelled);
  auto no_flops = plotted("fill_kernel", 7.0, 1e6, 0.0, 0.02, Headroom::underperforming);
  no_flops.verdict.achieved_flops = 0.0;
  a.entries.push_back(no_flops);
  return a;
}

std::size_t count(const std::string& hay, const std::string& needle) {
  std::size_t n = 0;
  for (auto pos = hay.find(needle); pos != std::string::npos; pos = hay.find(needle, pos + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("xml_escape: markup, quotes, control characters and broken UTF-8", "[svg]") {
  CHECK(svg::xml_escape("<script>alert('x')</script>") ==
        "&lt;script&gt;alert(&apos;x&apos;)&lt;/script&gt;");
  CHECK(svg::xml_escape("a & \"b\"") == "a &amp; &quot;b&quot;");
  CHECK(svg::xml_escape("tab\tnew\nline") == "tab\tnew\nline");
  CHECK(svg::xml_escape(std::string("nul\0bell\x07", 9)) == "nul bell ");
  CHECK(svg::xml_escape("µs ×") == "µs ×");                          // valid UTF-8 passes through
  CHECK(svg::xml_escape("bad\xC3(") == "bad\xEF\xBF\xBD(");          // truncated sequence
  CHECK(svg::xml_escape("\xC0\xAF") == "\xEF\xBF\xBD\xEF\xBF\xBD");  // overlong '/'
  CHECK(svg::xml_escape("\xED\xA0\x80") == "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // surrogate
  CHECK(svg::xml_escape("\xEF\xBF\xBE") == "\xEF\xBF\xBD");  // U+FFFE is not an XML character
}

TEST_CASE("svg::Writer: escapes every value and text, nests and closes", "[svg]") {
  svg::Writer w(100, 50);
  w.open("g", {{"id", "a\"b<c>"}});
  w.text("text", {{"x", svg::num(1.5)}}, "x < y & `z` | w");
  w.leaf("circle", {{"r", svg::num(3)}});
  const std::string doc = w.finish();
  CHECK(doc.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg ", 0) == 0);
  CHECK(contains(doc, "viewBox=\"0 0 100 50\""));
  CHECK(contains(doc, "<g id=\"a&quot;b&lt;c&gt;\">"));
  CHECK(contains(doc, "<text x=\"1.5\">x &lt; y &amp; `z` | w</text>"));
  CHECK(contains(doc, "    <circle r=\"3\"/>\n  </g>\n</svg>\n"));
}

TEST_CASE("svg::num and clip: stable numbers, UTF-8-safe cuts", "[svg]") {
  CHECK(svg::num(12.0) == "12");
  CHECK(svg::num(12.345) == "12.35");  // fixed 2 decimals, rounded
  CHECK(svg::num(0.1) == "0.1");
  CHECK(svg::num(-0.001) == "0");
  CHECK(svg::num(std::nan("")) == "0");
  CHECK(svg::clip("abcdef", 4) == "abc…");
  CHECK(svg::clip("abc", 4) == "abc");
  CHECK(svg::clip("µµµµµ", 3) == "µµ…");
  CHECK(svg::code_points("µ×a") == 3);
}

TEST_CASE("LogScale and decade_span: log mapping, padding, limits", "[svg][chart]") {
  const chart::LogScale xs{0, 4, 100, 500};
  CHECK(xs(1.0) == Approx(100));
  CHECK(xs(100.0) == Approx(300));
  CHECK(xs(1e4) == Approx(500));
  CHECK(xs.inverse(200) == Approx(10));
  CHECK(xs.contains(5e3));
  CHECK_FALSE(xs.contains(2e4));
  CHECK_FALSE(xs.contains(0.0));
  const chart::LogScale ys{12, 16, 560, 80};  // y grows upwards
  CHECK(ys(1e14) == Approx(320));

  auto s = chart::decade_span(2.3, 2500, 3, 9);
  CHECK(s.lo_exp == 0);
  CHECK(s.hi_exp == 4);
  s = chart::decade_span(50, 60, 3, 9);  // too narrow: widened to 3 decades around the data
  CHECK(s.hi_exp - s.lo_exp == 3);
  CHECK(s.lo_exp <= 1);
  CHECK(s.hi_exp >= 2);
  s = chart::decade_span(1e-9, 1e6, 3, 9);  // too wide: the top 9 decades are kept
  CHECK(s.hi_exp == 6);
  CHECK(s.lo_exp == -3);
}

TEST_CASE("decade tick labels", "[svg][chart]") {
  CHECK(chart::plain_decade(-2) == "0.01");
  CHECK(chart::plain_decade(0) == "1");
  CHECK(chart::plain_decade(2) == "100");
  CHECK(chart::plain_decade(4) == "10k");
  CHECK(chart::plain_decade(6) == "1M");
  CHECK(chart::rate_decade(12, "FLOP/s") == "1 TFLOP/s");
  CHECK(chart::rate_decade(14, "FLOP/s") == "100 TFLOP/s");
  CHECK(chart::rate_decade(16, "FLOP/s") == "10 PFLOP/s");
}

TEST_CASE("place_labels: free spots first, no overlaps, away from other markers", "[svg][chart]") {
  const chart::Rect bounds{0, 0, 400, 300};
  // Three markers in a tight cluster: every label must find its own free spot.
  std::vector<chart::LabelRequest> req{
      {200, 150, 10, 120, 30}, {215, 160, 6, 120, 30}, {190, 170, 6, 120, 30}};
  const auto spots = chart::place_labels(req, bounds, {});
  REQUIRE(spots.size() == 3);
  // A lone marker's label takes the first candidate: right of it, vertically centred.
  const auto lone = chart::place_labels({req[0]}, bounds, {});
  CHECK(lone[0].box.x == Approx(200 + 10 + 4));
  CHECK(lone[0].box.y == Approx(150 - 15));
  CHECK_FALSE(lone[0].leader);
  for (std::size_t i = 0; i < spots.size(); ++i) {
    INFO("label " << i);
    CHECK(spots[i].box.inside(bounds));
    for (std::size_t j = 0; j < spots.size(); ++j) {
      if (i != j) CHECK(spots[i].box.overlap_area(spots[j].box) == 0.0);
      const chart::Rect marker{req[j].x - req[j].r, req[j].y - req[j].r, 2 * req[j].r,
                               2 * req[j].r};
      CHECK(spots[i].box.overlap_area(marker) == 0.0);
      if (i != j) {  // and keeps clear of the other markers by a margin
        const chart::Rect near{marker.x - 7, marker.y - 7, marker.w + 14, marker.h + 14};
        CHECK(spots[i].box.overlap_area(near) == 0.0);
      }
    }
  }
  // An obstacle right of the marker pushes the label to the next candidate (left).
  const auto moved = chart::place_labels({{200, 150, 10, 120, 30}}, bounds, {{214, 100, 150, 100}});
  CHECK(moved[0].box.right() <= 200 - 10 - 4 + 1e-9);
  // Deterministic.
  const auto again = chart::place_labels(req, bounds, {});
  for (std::size_t i = 0; i < spots.size(); ++i) CHECK(again[i].box.x == spots[i].box.x);
}

TEST_CASE("chart_model: points, roofs in play, entries left off with a reason", "[svg][chart]") {
  const Analysis a = example_like();
  const auto m = chart::chart_model(a);
  REQUIRE(m.points.size() == 1);
  CHECK(m.points[0].entry->name == "fused_moe_kernel");
  CHECK(m.points[0].ai == Approx(3.22e9 / 6.97e8));
  REQUIRE(m.roofs.size() == 1);  // only fp8 is in play
  CHECK(m.roofs[0].dtype == "fp8");
  CHECK(m.roofs[0].ridge == Approx(625));
  REQUIRE(m.ceilings.size() == 1);
  CHECK(m.ceilings[0].classes == "gemm");
  REQUIRE(m.off_chart.size() == 2);
  CHECK(m.off_chart[0].name == "gated_delta_rule");
  CHECK(contains(m.off_chart[0].reason, "not modelled"));
  CHECK(m.off_chart[1].name == "fill_kernel");
  CHECK(contains(m.off_chart[1].reason, "no FLOPs"));
  CHECK(m.x.lo_exp <= 0);  // AI 4.6 and the ridge 625 both inside
  CHECK(m.x.hi_exp >= 3);
}

TEST_CASE("chart_model: an entry without a verdict is no place on the roof", "[svg][chart]") {
  // docs/method.md §10.6, §16.3: an infeasible entry, a band across classes and a dispatch-bound
  // kernel are each listed as not plotted, with the reason, never drawn as a point.
  for (int which = 0; which < 3; ++which) {
    Analysis a = example_like();
    auto& e = a.entries[0];
    e.verdict.headroom = Headroom::unknown;
    e.verdict.roofline_pct.reset();
    e.verdict.roofline_pct_raw = 1.7;
    e.verdict.suspect = which == 0;
    e.verdict.band.withheld = which == 1;
    e.verdict.dispatch_bound = which == 2;
    const auto m = chart::chart_model(a);
    CHECK(m.points.empty());
    REQUIRE(!m.off_chart.empty());
    CHECK(m.off_chart[0].name == "fused_moe_kernel");
    CHECK(contains(m.off_chart[0].reason, which == 0   ? "infeasible: the measured time refutes"
                                          : which == 1 ? "its band spans classes"
                                                       : "dispatch-bound"));
    CHECK(contains(render_roofline_svg(a), "Not plotted"));
  }
}

TEST_CASE("chart_model: a band is a segment between its feasible readings' points",
          "[svg][chart][band]") {
  // docs/method.md §10.8, §16.3: the taken reading (6.97e8 B) and a feasible reading of fewer
  // bytes (6.0e8 B, the same FLOPs) sit at AI 4.62 and 5.37, both at the measured FLOP/s; a
  // reading the time refutes is no end of the segment.
  Analysis a = example_like();
  HeadEntry& e = a.entries[0];
  const double t_s = e.work.t_unit_ms / 1000.0;
  auto reading = [&](const char* key, double bytes, bool feasible, bool taken) {
    ReadingVerdict r;
    r.reading = Reading{key, key, "", bytes, 3.22e9, std::nullopt};
    r.feasible = feasible;
    r.taken = taken;
    return r;
  };
  e.verdict.band.readings = {reading("taken", 6.97e8, true, true),
                             reading("experts_hit", 6.0e8, true, false),
                             reading("all_experts", 9.0e8, false, false)};
  e.verdict.band.kind = BandKind::holds;
  const auto m = chart::chart_model(a);
  REQUIRE(m.points.size() == 1);
  REQUIRE(m.points[0].band.size() == 2);
  CHECK(m.points[0].band[0].ai == Approx(3.22e9 / 6.97e8));  // lowest AI first
  CHECK(m.points[0].band[1].ai == Approx(3.22e9 / 6.0e8));
  CHECK(m.points[0].band[0].flops_s == Approx(3.22e9 / t_s));
  CHECK(m.points[0].band[1].flops_s == Approx(3.22e9 / t_s));
  Analysis one = a;
  one.entries.resize(1);
  CHECK(count(render_roofline_svg(one), "class=\"band\"") == 1);
  // Only one feasible reading: no segment.
  one.entries[0].verdict.band.readings[1].feasible = false;
  one.entries[0].verdict.band.kind = BandKind::one_feasible;
  CHECK(chart::chart_model(one).points[0].band.empty());
  CHECK(count(render_roofline_svg(one), "class=\"band\"") == 0);
}

TEST_CASE("render_roofline_svg: degenerate runs still give a document that says so",
          "[svg][chart]") {
  Analysis none;
  none.gfx = "gfx1200";
  none.peaks.hard_unknown = true;
  const std::string doc = render_roofline_svg(none);
  CHECK(contains(doc, "Nothing to plot"));
  CHECK(contains(doc, "hard unknown"));
  CHECK(doc.substr(doc.size() - 7) == "</svg>\n");

  Analysis one = example_like();
  one.entries.resize(1);
  const std::string chart = render_roofline_svg(one);
  CHECK(count(chart, "<circle") == 1 + 3 + 3);  // the point, the headroom legend, the sizes
  CHECK(contains(chart, "no verdict: not plotted"));
  CHECK(contains(chart, "fp8 roof 5 PFLOP/s"));
  CHECK(contains(chart, "ridge 625 FLOP/B (fp8)"));
  CHECK(contains(chart, "stroke-dasharray=\"7 5\""));  // the target_eff ceiling
  CHECK_FALSE(contains(chart, "Nothing to plot"));
  CHECK(render_roofline_svg(one) == chart);  // deterministic
}

TEST_CASE("render_roofline_svg: hostile names stay text", "[svg][chart]") {
  Analysis a = example_like();
  a.entries[0].name = a.entries[0].ranking_name = "<script>x</script>\n]]><!--";
  const std::string doc = render_roofline_svg(a);
  CHECK_FALSE(contains(doc, "<script"));
  CHECK_FALSE(contains(doc, "]]>"));
  CHECK_FALSE(contains(doc, "<!--"));
  CHECK(contains(doc, "&lt;script&gt;"));
}

namespace {

// The boxes of the point labels (<g class="label"><rect x y width height>) in a chart.
std::vector<chart::Rect> label_boxes(const std::string& svg) {
  std::vector<chart::Rect> out;
  const auto attr = [&](std::size_t from, const std::string& name) {
    const std::size_t at = svg.find(" " + name + "=\"", from) + name.size() + 3;
    return std::stod(svg.substr(at, svg.find('"', at) - at));
  };
  for (auto g = svg.find("<g class=\"label\">"); g != std::string::npos;
       g = svg.find("<g class=\"label\">", g + 1)) {
    const std::size_t rect = svg.find("<rect", g);
    out.push_back({attr(rect, "x"), attr(rect, "y"), attr(rect, "width"), attr(rect, "height")});
  }
  return out;
}

// Twenty entries as a real decode step has them: GEMMs of four projections at neighbouring
// intensities, attention and norms crowded at the memory roof, a few copies far below it.
Analysis twenty_entries() {
  Analysis a;
  a.gfx = "gfx950";
  a.peaks = gfx950_peaks();
  const char* roles[] = {"qkv_proj", "o_proj", "gate_up_proj", "down_proj", "attention",
                         "rms_norm", "rope",   "act_and_mul",  "copy",      "moe"};
  for (int i = 0; i < 20; ++i) {
    const double ai = i < 8 ? 20.0 + 15.0 * i : i < 16 ? 0.5 + 0.25 * (i - 8) : 0.05 * (i - 15);
    const double bytes = 4e7 + 1e6 * i;
    const double t_ms = 0.010 + 0.002 * (i % 5) + (i >= 16 ? 0.05 : 0.0);
    HeadEntry e = plotted(fmt::format("kernel_{}", i), 20.0 - 0.9 * i, bytes, ai * bytes, t_ms,
                          i % 3 == 0 ? Headroom::saturated : Headroom::moderate);
    e.display_name = fmt::format("{} · Cijk MT{}x32x64", roles[i % 10], 16 * (i + 1));
    e.verdict.roofline_pct = 0.5;
    a.entries.push_back(e);
  }
  return a;
}

}  // namespace

TEST_CASE("render_roofline_svg: 20 entries, no two label boxes overlap", "[svg][chart]") {
  const std::string svg = render_roofline_svg(twenty_entries());
  const auto boxes = label_boxes(svg);
  REQUIRE(boxes.size() >= 18);  // entries placed on the chart get a label each
  for (std::size_t i = 0; i < boxes.size(); ++i)
    for (std::size_t j = i + 1; j < boxes.size(); ++j) {
      INFO("labels " << i << " and " << j);
      CHECK(boxes[i].overlap_area(boxes[j]) == 0.0);
    }
  // Every label names its entry by its display name.
  CHECK(contains(svg, "gate_up_proj · Cijk MT48x32x64"));
}

TEST_CASE("render_roofline_svg: the title names the model, never a piece of a remark or path",
          "[svg][chart]") {
  Analysis a = twenty_entries();
  a.run.model = "Qwen3-30B-A3B (one layer; tests/fixtures/torch-trace)";
  CHECK(contains(render_roofline_svg(a), "Roofline — Qwen3-30B-A3B on"));
  a.run.model = "/models/Qwen/Qwen3-8B";
  CHECK(contains(render_roofline_svg(a), "Roofline — Qwen3-8B on"));
}

}  // namespace unit_svg
