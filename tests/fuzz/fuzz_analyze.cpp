// libFuzzer target: the whole analyze path on an in-memory evaluation folder.
//
// The input is up to five files joined by the separator line "\n--8<--\n":
//   profile_topN.json --8<-- env_report.json [--8<-- config.json [--8<-- peaks.md
//   [--8<-- profile_workload.json]]]
// A missing config is "not found"; a missing or empty peaks part means the built-in table; a
// missing workload part means no profile_workload.json. An odd-sized input scopes the head on
// serving_weighted_pct (--head-key serving_weighted). Every input
// must give an artifact whose JSON parses back (valid UTF-8, numbers finite or null) and keeps
// the schema's numeric invariants; the Markdown and terminal renderers must not fail either.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "roofline/analyze/analyze.hpp"
#include "roofline/inputs/peaks.hpp"
#include "roofline/render/report.hpp"

namespace {

constexpr std::string_view k_separator = "\n--8<--\n";

std::vector<std::string_view> split(std::string_view text) {
  std::vector<std::string_view> parts;
  while (parts.size() < 4) {
    auto pos = text.find(k_separator);
    if (pos == std::string_view::npos) break;
    parts.push_back(text.substr(0, pos));
    text.remove_prefix(pos + k_separator.size());
  }
  parts.push_back(text);
  return parts;
}

template <class T, class Parse>
roofline::render::InputFile<T> in_memory(std::string_view text, const char* name, Parse parse) {
  roofline::render::InputFile<T> f;
  f.display = name;
  f.found = true;
  f.loaded = parse(text, f.display, roofline::render::InputLimits{});
  return f;
}

void require(bool ok) {
  if (!ok) __builtin_trap();
}

bool number_in(const nlohmann::json& v, double lo, double hi) {
  return v.is_number() && v.get<double>() >= lo && v.get<double>() <= hi;
}

void check_artifact(const std::string& text) {
  // Throws (and so fails the target) on invalid JSON or invalid UTF-8.
  auto doc = nlohmann::json::parse(text);
  require(doc.is_object() && doc.at("skill") == "roofline");
  require(doc.at("entries").is_array() && doc.at("skill_errors").is_array());
  for (const auto& e : doc.at("entries")) {
    require(e.at("name").is_string() && !e.at("name").get_ref<const std::string&>().empty());
    require(number_in(e.at("pct_gpu_time"), 0.0, HUGE_VAL));
    // docs/method.md §10.6: a verdict is a place on the roof (above 1 only with the measured
    // ceiling beaten, at most datasheet / measured ≤ 1 / 0.3); no verdict, no place: null figures.
    if (e.at("headroom_class") == "unknown") {
      require(e.at("roofline_pct").is_null() && e.at("attainable_speedup").is_null() &&
              e.at("expected_e2e_gain_pct").is_null());
      continue;
    }
    require(number_in(e.at("roofline_pct"), 0.0, e.contains("ceiling_beaten") ? 1.0 / 0.3 : 1.0));
    require(number_in(e.at("attainable_speedup"), 1.0, HUGE_VAL));
    require(number_in(e.at("expected_e2e_gain_pct"), 0.0, HUGE_VAL));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace roofline::render;
  const auto parts = split(std::string_view(reinterpret_cast<const char*>(data), size));
  AnalyzeInputs in;
  in.topn = in_memory<TopnDocument>(parts[0], "profile_topN.json", parse_topn);
  if (parts.size() > 1)
    in.env = in_memory<EnvReport>(parts[1], "env_report.json", parse_env_report);
  else
    in.env.display = "env_report.json";  // not found
  if (parts.size() > 2)
    in.config = in_memory<ModelConfig>(parts[2], "config.json", parse_model_config);
  else
    in.config.display = "config.json";
  if (parts.size() > 3 && !parts[3].empty()) {
    in.peaks = in_memory<PeaksTable>(parts[3], "peaks.md", parse_peaks_md);
  } else {
    in.peaks.display = "built-in peaks.md";
    in.peaks.found = true;
    in.peaks.origin = InputOrigin::builtin;
    in.peaks.loaded.value = builtin_peaks();
  }
  if (parts.size() > 4)
    in.workload = in_memory<ProbeSet>(parts[4], "profile_workload.json", parse_workload);
  else
    in.workload.display = "profile_workload.json";  // not found

  AnalyzeOptions options;
  options.scope.head_threshold_pct = 1.0;
  options.scope.max_entries = 16;
  if (size % 2 == 1) options.scope.key = HeadKey::serving_weighted;
  const Analysis analysis = analyze(in, options);
  check_artifact(render_json(analysis));
  (void)render_markdown(analysis);
  (void)render_text_summary(analysis, {"profile_roofline.json"}, false);
  return 0;
}
