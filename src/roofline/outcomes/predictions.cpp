// Reading a round's predictions back: its profile_roofline.json, or the round analysed in memory.
#include "roofline/outcomes/predictions.hpp"

#include <cctype>

#include <fmt/format.h>

#include "roofline/analyze/analyze.hpp"
#include "roofline/inputs/json_input.hpp"
#include "roofline/outcomes/layer.hpp"
#include "roofline/outcomes/rounds.hpp"
#include "roofline/outcomes/util.hpp"
#include "roofline/render/report.hpp"

namespace roofline::outcomes {
namespace fs = std::filesystem;

namespace {

constexpr int k_max_artifact_depth = 256;

// `signatures[]`: each one's label, module and operand dims (a signature that is no object is
// skipped; a wrong field is reported on its path).
std::vector<SignatureRef> read_signatures(FieldReader& f, const json& e, const std::string& path) {
  std::vector<SignatureRef> out;
  const json* sigs = f.array(e, "signatures", path + ".signatures");
  if (!sigs) return out;
  for (std::size_t i = 0; i < sigs->size(); ++i) {
    const json& s = (*sigs)[i];
    if (!s.is_object()) continue;
    const std::string at = fmt::format("{}.signatures[{}]", path, i);
    SignatureRef r;
    r.label = f.string(s, "label", at + ".label").value_or("");
    r.module = f.string(s, "module", at + ".module").value_or("");
    read_operand_dims(f, s, "dims", at + ".dims", r.dims);
    if (const json* t = f.object(s, "time_us", at + ".time_us"))
      r.mean_us = f.number(*t, "mean", at + ".time_us.mean");
    out.push_back(std::move(r));
  }
  return out;
}

Prediction read_entry(FieldReader& f, const json& e, const std::string& path) {
  Prediction p;
  auto str = [&](const char* key) { return f.string(e, key, path + "." + key).value_or(""); };
  auto number = [&](const char* key) { return f.number(e, key, path + "." + key); };
  p.name = str("name");
  p.short_name = str("short_name");
  if (const json* d = f.find(e, "display_name"); d && d->is_string())
    p.display_name = d->get<std::string>();
  p.op = str("op");
  p.module = str("module");
  p.signatures = read_signatures(f, e, path);
  p.pct_gpu_time = number("pct_gpu_time");
  p.regime = str("regime");
  p.op_class = str("op_class");
  p.unit = str("unit");
  p.t_ms = number("t_ms");
  p.launches_per_step = number("launches_per_step");
  p.t_unit_ms = number("t_unit_ms");
  p.bytes_est = number("bytes_est");
  p.bound_type = str("bound_type");
  p.roofline_pct = number("roofline_pct");
  p.target_eff = number("target_eff");
  p.attainable_speedup = number("attainable_speedup");
  p.expected_e2e_gain_pct = number("expected_e2e_gain_pct");
  p.headroom_class = str("headroom_class");
  p.confidence = str("confidence");
  p.suspect = f.boolean(e, "suspect", path + ".suspect").value_or(false);
  p.stage = str("stage");
  if (const auto ceiling = f.string(e, "ceiling", path + ".ceiling")) {
    if (auto kind = parse_ceiling(*ceiling))
      p.ceiling = *kind;
    else
      f.error(path + ".ceiling", fmt::format("'{}': expected datasheet or measured", *ceiling));
  }
  if (const json* mvm = f.object(e, "measured_vs_model", path + ".measured_vs_model"))
    p.measured_vs_model_bytes = f.number(*mvm, "bytes", path + ".measured_vs_model.bytes");
  if (const json* band = f.object(e, "band", path + ".band")) {
    const auto it = band->find("attainable_speedup");
    if (it != band->end() && it->is_array() && it->size() == 2 && (*it)[0].is_number() &&
        (*it)[1].is_number()) {
      p.band_speedup_lo = (*it)[0].get<double>();
      p.band_speedup_hi = (*it)[1].get<double>();
    }
  }
  return p;
}

}  // namespace

std::optional<double> Prediction::band_high() const {
  return band_speedup_hi ? band_speedup_hi : attainable_speedup;
}

bool Prediction::has_verdict() const {
  return headroom_class == "saturated" || headroom_class == "moderate" ||
         headroom_class == "underperforming";
}

double Prediction::unit_launches() const {
  double k = 0;
  std::size_t i = 0;
  while (i < unit.size() && std::isdigit(static_cast<unsigned char>(unit[i])) && k < 1e6)
    k = k * 10 + (unit[i++] - '0');
  return i > 0 && k >= 1 ? k : 1.0;
}

RoundPredictions parse_predictions(std::string_view text, const std::string& display) {
  RoundPredictions r;
  r.from = display;
  auto doc = parse_json_object(text, display, k_max_artifact_depth, r.problems);
  if (!doc) return r;
  r.usable = true;
  FieldReader f(display, r.problems);
  r.arch = f.string(*doc, "arch", "arch").value_or("");
  if (r.arch.empty()) r.arch = f.string(*doc, "gfx", "gfx").value_or("");
  r.product = f.string(*doc, "product", "product").value_or("");
  r.head_threshold_pct = f.number(*doc, "head_threshold_pct", "head_threshold_pct");
  if (const json* round = f.find(*doc, "round");
      round && (round->is_string() || round->is_number()))
    r.round = round->is_string() ? round->get<std::string>() : round->dump();
  const json* entries = f.array(*doc, "entries", "entries");
  if (!entries) {
    if (!f.find(*doc, "entries")) f.error("entries", "missing: no predictions in this artifact");
    return r;
  }
  for (std::size_t i = 0; i < entries->size(); ++i) {
    const std::string path = fmt::format("entries[{}]", i);
    const json& e = (*entries)[i];
    if (!e.is_object()) {
      f.error(path, "expected an object, got " + describe_type(e) + "; entry skipped");
      continue;
    }
    Prediction p = read_entry(f, e, path);
    if (p.name.empty()) {
      f.error(path + ".name", "missing or empty; entry skipped");
      continue;
    }
    r.entries.push_back(std::move(p));
  }
  return r;
}

RoundPredictions load_round_predictions(const fs::path& eval_dir, const std::string& round) {
  const fs::path artifact = round_dir(eval_dir, round) / "profile_roofline.json";
  const std::string display = display_relative(artifact, eval_dir);
  std::vector<std::string> earlier;
  FileText text = read_text_file(artifact, k_max_json_bytes);
  if (text.found && text.error.empty()) {
    RoundPredictions r = parse_predictions(text.text, display);
    r.round = round;
    if (r.usable) return r;
    earlier = r.problems;
  } else if (text.found) {
    earlier.push_back(fmt::format("{}: {}", display, text.error));
  }

  InputPaths paths;
  paths.eval_dir = eval_dir;
  set_input_round(paths, round);
  const AnalyzeInputs inputs = load_inputs(paths);
  Analysis analysis = analyze::analyze(inputs, AnalyzeOptions{});
  // The artifact as analyze would write it, read back through the same reader.
  RoundPredictions r = parse_predictions(render_artifacts(analysis).json, display);
  r.round = round;
  r.analysed_in_memory = true;
  r.from = text.found ? fmt::format(
                            "round {} analysed in memory ({} is unreadable; default "
                            "options)",
                            round, display)
                      : fmt::format("round {} analysed in memory (no {}; default options)", round,
                                    display);
  r.problems = earlier;
  for (const Diagnostic& d : analysis.diagnostics)
    if (d.severity == Severity::error) r.problems.push_back(skill_error_text(d));
  return r;
}

}  // namespace roofline::outcomes
