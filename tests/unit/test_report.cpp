// report.hpp (docs/method.md §16.1): Markdown escaping, table integrity, JSON determinism, atomic
// writes.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>

#include <unistd.h>

#include <catch2/catch.hpp>

#include "roofline/cli/layer.hpp"
#include "roofline/render/report.hpp"
#include "unit/test_helpers.hpp"

namespace unit_report {
using namespace roofline::cli;
using roofline::test::contains;
using roofline::test::gfx950_peaks;
namespace fs = std::filesystem;

namespace {

const char* const k_hostile = "evil|kernel`<script>alert(1)</script>\n| injected | row |";

HeadEntry make_entry(const std::string& name, double pct, Headroom h, double gain) {
  HeadEntry e;
  e.name = e.short_name = e.ranking_name = name;
  e.pct_gpu_time = e.share.pct = pct;
  e.pct_gpu_time_raw = pct;
  e.cls.op_class = OpClass::gemm;
  e.regime.t_ms = 0.05;
  e.work.modeled = true;
  e.work.unit = "1 launch";
  e.work.t_unit_ms = 0.05;
  e.work.bytes = 2.0e8;
  e.work.flops = 1.0e9;
  e.work.candidates.push_back({"dense GEMM", 2.0e8, 1.0e9, true});
  e.verdict.hbm_util = 0.5;
  e.verdict.achieved_bw_bytes_s = 4.0e12;
  e.verdict.achieved_flops = 2.0e13;
  e.verdict.roofline_pct = 0.5;
  e.verdict.roofline_pct_raw = 0.5;
  e.verdict.bound = Bound::latency;
  e.verdict.headroom = h;
  e.verdict.expected_e2e_gain_pct = gain;
  e.verdict.target_eff = 0.9;
  e.advice.route = "kernel tuning | top priority";
  e.notes = {"note with <script>x</script> and a | pipe"};
  return e;
}

Analysis hostile_analysis() {
  Analysis a;
  a.gfx = "gfx950";
  a.peaks = gfx950_peaks();
  a.run.model = "Qwen/Qwen3.5-35B-A3B-FP8";
  a.entries.push_back(make_entry(k_hostile, 26.45, Headroom::underperforming, 4.0));
  a.entries.push_back(make_entry("a``b`c|d", 8.86, Headroom::moderate, 1.0));
  a.entries.push_back(make_entry("void wvSplitK_hf_<__hip_bfloat16, 64, 2>(int, int)", 6.62,
                                 Headroom::saturated, 0.1));
  for (std::size_t i = 0; i < a.entries.size(); ++i) a.rankings.by_pct.push_back(i);
  a.rankings.by_expected_gain = a.rankings.by_pct;
  a.diagnostics.push_back(Diagnostic{Severity::warning, Level::L2, Topic::entry, k_hostile,
                                     "no <b>model</b> | for this"});
  return a;
}

// `|` not escaped by a backslash.
std::size_t cell_pipes(const std::string& line) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < line.size(); ++i)
    if (line[i] == '|' && (i == 0 || line[i - 1] != '\\')) ++n;
  return n;
}

// The table lines that follow `heading` up to the first blank line after the table.
std::vector<std::string> table_after(const std::string& md, const std::string& heading) {
  std::vector<std::string> rows;
  std::istringstream in(md.substr(md.find(heading)));
  std::string line;
  bool inside = false;
  while (std::getline(in, line)) {
    if (!line.empty() && line[0] == '|') {
      inside = true;
      rows.push_back(line);
    } else if (inside) {
      break;
    }
  }
  return rows;
}

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::size_t temp_files_in(const fs::path& dir) {
  std::size_t n = 0;
  for (const auto& f : fs::directory_iterator(dir))
    if (f.path().filename().string().find(".tmp") != std::string::npos) ++n;
  return n;
}

struct TempDir {
  fs::path path;
  TempDir() {
    path = fs::temp_directory_path() / ("roofline_unit_" + std::to_string(::getpid()));
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

}  // namespace

TEST_CASE("md_escape: table-breaking and HTML characters", "[report]") {
  CHECK(md_escape("a|b") == "a\\|b");
  CHECK(md_escape("line1\nline2\r\n") == "line1 line2  ");
  CHECK(md_escape("x`y") == "x\\`y");
  // Backslash escapes, not entities: literal when rendered, legible in the raw text.
  CHECK(md_escape("<script>alert(1)</script>") == "\\<script\\>alert(1)\\</script\\>");
  CHECK(md_escape("a & b") == "a \\& b");
  CHECK(md_escape("dims[0][0]") == "dims[0][0]");  // no reference is defined: stays text
  CHECK(md_escape("x](javascript:y)") == "x\\](javascript:y)");  // cannot close a link
  CHECK(md_escape("fused_moe_kernel") == "fused_moe_kernel");    // intraword underscores stay
  const std::string hostile = md_escape(k_hostile);
  CHECK(hostile.find('\n') == std::string::npos);
  for (std::size_t at = hostile.find('<'); at != std::string::npos; at = hostile.find('<', at + 1))
    CHECK((at > 0 && hostile[at - 1] == '\\'));  // every '<' escaped: no raw HTML
  CHECK(cell_pipes(hostile) == 0);
}

TEST_CASE("render_markdown: hostile kernel names cannot break the tables", "[report]") {
  const std::string md = render_markdown(hostile_analysis());
  // Raw newline inside a name would start a line with the injected row.
  std::istringstream in(md);
  std::string line;
  while (std::getline(in, line)) {
    INFO(line);
    CHECK(line.rfind("| injected", 0) != 0);
    // HTML from names or notes only ever appears inside a code span.
    if (auto pos = line.find("<script");
        pos != std::string::npos && (pos == 0 || line[pos - 1] != '\\'))
      CHECK(line.substr(0, pos).find('`') != std::string::npos);
  }
  const auto summary = table_after(md, "## Summary");
  REQUIRE(summary.size() == 2 + 3);  // header, rule, 3 entries
  for (const auto& row : summary) {
    INFO(row);
    CHECK(cell_pipes(row) == 11);  // 10 columns
  }
  const auto rankings = table_after(md, "## Rankings");
  REQUIRE(rankings.size() == 2 + 3);
  for (const auto& row : rankings) {
    INFO(row);
    CHECK(cell_pipes(row) == 4);  // 3 columns
  }
  const auto degraded = table_after(md, "## Degraded");
  REQUIRE(degraded.size() == 3);
  for (const auto& row : degraded) {
    INFO(row);
    CHECK(cell_pipes(row) == 4);
  }
  CHECK(contains(md, "\\<script\\>x\\</script\\>"));  // the note, escaped
}

TEST_CASE("render_markdown / render_text_summary: short names print whole, tables intact",
          "[report]") {
  Analysis a = hostile_analysis();
  const std::string long_short =
      "cudnn_generated_fort_native_sdpa_sm80_flash_fprop_wmma_f16_knob_35_16x128x128_1x4x1_"
      "cga1x1x1_kernel0_0|x";
  a.entries[1].display_name = long_short;  // what every surface shows
  const std::string md = render_markdown(a);
  const auto summary = table_after(md, "## Summary");
  REQUIRE(summary.size() == 2 + 3);
  CHECK(contains(summary[3], "cga1x1x1_kernel0_0\\|x`"));  // whole, `|` escaped, not cut
  CHECK(cell_pipes(summary[3]) == 11);
  CHECK(contains(md, "### 2. `" + long_short + "`"));

  const std::string text = render_text_summary(a, {}, false);
  std::istringstream in(text);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  // the long name alone on its line, its figures under the columns on the next
  const auto at = std::find(lines.begin(), lines.end(), "  " + long_short);
  REQUIRE(at != lines.end());
  REQUIRE(at + 1 != lines.end());
  CHECK((at + 1)->rfind(std::string(2 + 48 + 3, ' ') + "8.86 gemm", 0) == 0);
  CHECK(contains(text, "  void wvSplitK_hf_<__hip_bfloat16, 64, 2>(int, int)"));  // 50 > 48
  CHECK_FALSE(contains(text, "…"));
}

TEST_CASE("render_markdown: the rankings' disagreement is called out", "[report]") {
  Analysis a;
  a.gfx = "gfx950";
  a.peaks = gfx950_peaks();
  a.entries.push_back(make_entry("fused_moe_kernel", 26.45, Headroom::saturated, 0.57));
  a.entries.push_back(
      make_entry("kernel_paged_attention_2d", 8.86, Headroom::underperforming, 5.7));
  a.rankings.by_pct = {0, 1};            // fused_moe_kernel, kernel_paged_attention_2d
  a.rankings.by_expected_gain = {1, 0};  // the other way round
  const std::string md = render_markdown(a);
  CHECK(contains(md, "disagree"));
  // Every place where the two orders differ is named, with both positions.
  CHECK(contains(md, "`kernel_paged_attention_2d` #2 → #1"));
  CHECK(contains(md, "`fused_moe_kernel` #1 → #2"));
  a.rankings.by_expected_gain = a.rankings.by_pct;
  CHECK(contains(render_markdown(a), "The two orders agree on every position."));
}

TEST_CASE("render_markdown: links the chart and names what is not on it", "[report]") {
  Analysis a = hostile_analysis();
  for (auto& e : a.entries) e.verdict.arithmetic_intensity = 5.0;
  a.entries[1].work.modeled = false;
  const std::string md = render_markdown(a);
  CHECK(contains(md,
                 "![Roofline: arithmetic intensity against achieved FLOP/s]"
                 "(profile_roofline.svg)"));
  CHECK(contains(md, "Not on the chart: ```a``b`c|d``` (not modelled)"));
  // The reviewer's arithmetic: bytes / time = rate = share of the peak.
  CHECK(contains(md, "memory 200.0 MB / 50.000 µs = 4 TB/s = 50.0% of 8 TB/s"));
}

TEST_CASE("render_json: deterministic, verbatim pct, non-finite numbers are null", "[report]") {
  Analysis a = hostile_analysis();
  a.entries[0].pct_gpu_time_raw = nlohmann::json::parse("26.45");
  a.entries[1].verdict.hbm_util = std::numeric_limits<double>::quiet_NaN();
  a.entries[1].verdict.achieved_bw_bytes_s = std::numeric_limits<double>::infinity();
  a.entries[1].verdict.arithmetic_intensity = -std::numeric_limits<double>::infinity();
  const std::string first = render_json(a);
  CHECK(render_json(a) == first);
  auto j = nlohmann::ordered_json::parse(first);  // valid JSON (no NaN/Infinity tokens)
  CHECK(first.find("NaN") == std::string::npos);
  CHECK(first.find("Infinity") == std::string::npos);
  const auto& e1 = j["entries"][1];
  CHECK(e1["hbm_util"].is_null());
  CHECK(e1["achieved_bw_bytes_s"].is_null());
  CHECK(e1["arithmetic_intensity"].is_null());
  CHECK(j["entries"][0]["pct_gpu_time"].dump() == "26.45");
  CHECK(j["entries"][0]["name"] == k_hostile);  // names are data in JSON, kept exactly
}

TEST_CASE("render_json: the rankings are entry indices, printed as the entries' ranking names",
          "[report]") {
  Analysis a = hostile_analysis();
  a.entries[2].ranking_name = "wvSplitK#7";  // the name the rankings use, not the kernel's
  a.rankings.by_pct = {2, 0, 1};
  a.rankings.by_expected_gain = {1};
  const auto j = nlohmann::ordered_json::parse(render_json(a));
  CHECK(j["ranking_by_pct"] ==
        nlohmann::ordered_json::array({"wvSplitK#7", std::string(k_hostile), "a``b`c|d"}));
  CHECK(j["ranking_by_expected_gain"] == nlohmann::ordered_json::array({"a``b`c|d"}));
  // The report's ranking table reads the same entries by index.
  const std::string md = render_markdown(a);
  CHECK(md.find("`wvSplitK#7`") < md.find("## Roofline chart"));
}

TEST_CASE("render_json: key order as SPEC §10", "[report]") {
  auto j = nlohmann::ordered_json::parse(render_json(hostile_analysis()));
  auto in_order = [](const nlohmann::ordered_json& obj, std::vector<std::string> keys) {
    std::size_t next = 0;
    for (auto it = obj.begin(); it != obj.end() && next < keys.size(); ++it)
      if (it.key() == keys[next]) ++next;
    return next == keys.size();
  };
  CHECK(in_order(j, {"skill", "skill_version", "tool", "gfx", "product", "peaks", "stage",
                     "head_threshold_pct", "skipped_count", "entries", "ranking_by_pct",
                     "ranking_by_expected_gain", "degraded", "skill_errors"}));
  CHECK(j["skill"] == "roofline");
  CHECK(j["peaks"]["source"] == "table");
  CHECK(in_order(j["entries"][0], {"name",
                                   "short_name",
                                   "pct_gpu_time",
                                   "regime",
                                   "op_class",
                                   "modeled",
                                   "t_ms",
                                   "launches_per_step",
                                   "unit",
                                   "t_unit_ms",
                                   "bytes_est",
                                   "flops_est",
                                   "achieved_bw_bytes_s",
                                   "achieved_flops",
                                   "hbm_util",
                                   "compute_util",
                                   "arithmetic_intensity",
                                   "ridge_point",
                                   "bound_type",
                                   "roofline_pct",
                                   "roofline_pct_raw",
                                   "target_eff",
                                   "attainable_speedup",
                                   "expected_e2e_gain_pct",
                                   "headroom_class",
                                   "confidence",
                                   "suspect",
                                   "editable",
                                   "route",
                                   "byte_reduction_levers",
                                   "notes"}));
}

TEST_CASE("render_json: suspect entries carry the upper bounds", "[report]") {
  Analysis a = hostile_analysis();
  Verdict& v = a.entries[0].verdict;
  v.suspect = true;
  v.stage_c_candidate = true;
  a.entries[0].grade.stage_c_candidate = true;
  v.bytes_upper_bound = 7.915e8;
  v.implied_max_experts_hit = 251;
  auto j = nlohmann::ordered_json::parse(render_json(a));
  CHECK(j["entries"][0]["bytes_upper_bound"].get<double>() == Approx(7.915e8));
  CHECK(j["entries"][0]["implied_max_experts_hit"].get<double>() == Approx(251));
  CHECK(j["entries"][0]["stage_c_candidate"] == true);
  CHECK_FALSE(j["entries"][1].contains("bytes_upper_bound"));
  // The artifact's flag is grade's, not judge's: a measured (stage C) entry is no candidate.
  a.entries[0].grade.stage_c_candidate = false;
  j = nlohmann::ordered_json::parse(render_json(a));
  CHECK(j["entries"][0]["stage_c_candidate"] == false);
  CHECK(a.entries[0].verdict.stage_c_candidate);  // judge's own output untouched
}

TEST_CASE("write_atomic: writes, replaces, leaves no temp file", "[report][io]") {
  TempDir dir;
  const fs::path target = dir.path / "profile_roofline.json";
  CHECK_FALSE(write_atomic(target, "{\"a\": 1}\n"));
  CHECK(read_file(target) == "{\"a\": 1}\n");
  CHECK_FALSE(write_atomic(target, "{\"b\": 2}\n"));
  CHECK(read_file(target) == "{\"b\": 2}\n");
  CHECK(temp_files_in(dir.path) == 0);
}

TEST_CASE("write_atomic: a missing target folder is a message, not a file", "[report][io]") {
  TempDir dir;
  const fs::path target = dir.path / "no_such_round" / "profile_roofline.json";
  std::optional<std::string> error;
  REQUIRE_NOTHROW(error = write_atomic(target, "x"));
  REQUIRE(error);
  CHECK(contains(*error, "profile_roofline.json"));
  CHECK_FALSE(fs::exists(target));
  CHECK(temp_files_in(dir.path) == 0);
}

TEST_CASE("write_atomic: a failed rename keeps the old target and removes the temp file",
          "[report][io]") {
  TempDir dir;
  const fs::path target = dir.path / "profile_roofline.md";
  fs::create_directories(target / "occupied");  // a non-empty folder cannot be replaced by a file
  const auto error = write_atomic(target, "# report\n");
  CHECK(error);
  CHECK(fs::is_directory(target / "occupied"));
  CHECK(temp_files_in(dir.path) == 0);
}

TEST_CASE("render_json: the fields added since SPEC §10 come last, in its order", "[report]") {
  Analysis a = hostile_analysis();
  a.peaks.link = LinkPeak{"mesh", 76.5e9, 7};
  HeadEntry& comm = a.entries[0];
  comm.cls.op_class = OpClass::comm;
  comm.work.comm = CommFacts{"all_reduce", "two-shot", 786432, 8, 1, 1376256};
  comm.verdict.roof = Roof::link;
  comm.verdict.link_util = 0.1367;
  comm.verdict.hbm_util.reset();
  HeadEntry& l2 = a.entries[1];
  l2.work.modeled = false;
  l2.work.candidates.clear();
  l2.work.bytes_lower_bound = 29491200;
  a.entries[2].verdict.roof = Roof::hbm;
  a.entries[2].work.candidates.push_back({"all experts", 3.0e8, 1.0e9, false, false});
  auto j = nlohmann::ordered_json::parse(render_json(a));
  auto keys = [](const nlohmann::ordered_json& o) {
    std::vector<std::string> k;
    for (auto it = o.begin(); it != o.end(); ++it) k.push_back(it.key());
    return k;
  };
  const auto k0 = keys(j["entries"][0]);
  REQUIRE(k0.size() >= 4);
  CHECK(std::vector<std::string>(k0.end() - 4, k0.end()) ==
        std::vector<std::string>{"byte_candidates", "roof", "link_bytes", "link_util"});
  CHECK(j["entries"][0]["link_bytes"] == 1376256);
  CHECK(j["entries"][0]["hbm_util"].is_null());
  CHECK(keys(j["entries"][1]).back() == "bytes_lower_bound");
  CHECK(j["entries"][1]["bytes_lower_bound"] == 29491200);
  CHECK(j["entries"][2]["byte_candidates"][1]["in_choice"] == false);
  CHECK_FALSE(j["entries"][2]["byte_candidates"][0].contains("in_choice"));
  CHECK(keys(j["peaks"]).back() == "link");
  CHECK(j["peaks"]["link"]["topology"] == "mesh");
}

TEST_CASE("render_markdown: the layer plan in the header, collectives beside the chart",
          "[report]") {
  Analysis a = hostile_analysis();
  a.run.layer_plan = "48 layers: 36 chunked(8192) + 12 full; MoE on 24 (every 2nd)";
  a.entries[1].cls.op_class = OpClass::comm;
  a.entries[1].verdict.roof = Roof::link;
  a.entries[1].verdict.link_util = 0.3053;
  const std::string md = render_markdown(a);
  CHECK(contains(md, "| Layers | 48 layers: 36 chunked(8192) + 12 full; MoE on 24 (every 2nd) |"));
  CHECK(contains(md, "collective on the link roof: 30.5% link utilisation"));
}

}  // namespace unit_report
