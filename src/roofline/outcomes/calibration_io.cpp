// roofline_calibration.json out and back in, the stdout table, and the stage-C artifact scan.
#include <algorithm>
#include <system_error>

#include <fmt/format.h>

#include "roofline/inputs/json_input.hpp"
#include "roofline/outcomes/util.hpp"
#include "roofline/outcomes/calibrate.hpp"
#include "roofline/outcomes/predictions.hpp"

namespace roofline {
namespace fs = std::filesystem;

namespace {

using outcomes_detail::opt_fmt;
using outcomes_detail::str_or_null;
using ojson = nlohmann::ordered_json;

constexpr int k_scan_depth = 5;
constexpr std::size_t k_max_artifact_bytes = std::size_t{64} << 20;

}  // namespace

std::vector<ByteRatioSample> scan_stage_c_artifacts(const fs::path& dir,
                                                    std::vector<std::string>& notes) {
  std::vector<fs::path> files;
  std::error_code ec;
  fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    std::error_code fe;
    if (it->is_directory(fe) && (it.depth() >= k_scan_depth || name.rfind('.', 0) == 0)) {
      it.disable_recursion_pending();
      continue;
    }
    if (name == "profile_roofline.json" && it->is_regular_file(fe)) files.push_back(it->path());
  }
  std::sort(files.begin(), files.end());
  std::vector<ByteRatioSample> out;
  for (const auto& path : files) {
    const std::string display = display_relative(path, dir);
    FileText text = read_text_file(path, k_max_artifact_bytes);
    if (!text.error.empty()) {
      notes.push_back(fmt::format("{}: {}", display, text.error));
      continue;
    }
    const RoundPredictions p = parse_predictions(text.text, display);
    std::size_t used = 0;
    for (const auto& e : p.entries) {
      if (e.stage != "C" || !e.measured_vs_model_bytes || e.op_class.empty()) continue;
      out.push_back(
          ByteRatioSample{e.op_class, p.arch, p.product, *e.measured_vs_model_bytes, e.ceiling});
      ++used;
    }
    if (used > 0) notes.push_back(fmt::format("stage C byte ratios: {} from {}", used, display));
  }
  return out;
}

ojson calibration_json(const CalibrationTable& t) {
  ojson j;
  j["schema"] = "roofline-calibration-v1";
  j["min_n"] = t.min_n;
  auto classes = ojson::array();
  for (const auto& c : t.classes) {
    ojson o;
    o["op_class"] = c.op_class;
    o["arch"] = c.arch;
    o["product"] = str_or_null(c.product);
    o["ceiling"] = to_string(c.ceiling);
    o["n"] = c.n;
    o["prior"] = c.prior;
    o["target_eff"] = c.target_eff;
    o["loo_error_prior"] = json_number(c.loo_error_prior);
    o["loo_error_calibrated"] = json_number(c.loo_error_calibrated);
    o["used"] = c.used;
    if (c.byte_ratio) {
      o["byte_ratio"] = *c.byte_ratio;
      o["byte_ratio_n"] = c.byte_ratio_n;
    }
    auto keys = ojson::array();
    for (const auto& k : c.keys) keys.push_back(ojson::array({k[0], k[1], k[2]}));
    o["keys"] = std::move(keys);
    o["why"] = c.why;
    classes.push_back(std::move(o));
  }
  j["classes"] = std::move(classes);
  j["notes"] = t.notes;
  return j;
}

std::string render_calibration_text(const CalibrationTable& t) {
  using outcomes_detail::pad;
  std::string out =
      fmt::format("roofline calibrate: {} class(es), min-n {}\n", t.classes.size(), t.min_n);
  // The ceiling last (docs/method.md §5.7), after the byte ratio padded to its widest cell.
  out += fmt::format("  {} {} {} {} {} {} {} {} {} {} {}\n", pad("op_class", 11), pad("arch", 8),
                     pad("product", 8), pad("n", 3, true), pad("prior", 6, true),
                     pad("target", 7, true), pad("LOO prior", 9, true), pad("LOO cal.", 9, true),
                     pad("used", 4), pad("byte ratio", 13), "ceiling");
  for (const auto& c : t.classes)
    out += fmt::format(
        "  {} {} {} {} {} {} {} {} {} {} {}\n", pad(c.op_class, 11), pad(c.arch, 8),
        pad(c.product.empty() ? "-" : c.product, 8), pad(std::to_string(c.n), 3, true),
        pad(fmt::format("{:.3f}", c.prior), 6, true),
        pad(fmt::format("{:.4f}", c.target_eff), 7, true),
        pad(opt_fmt(c.loo_error_prior, "{:.4f}"), 9, true),
        pad(opt_fmt(c.loo_error_calibrated, "{:.4f}"), 9, true), pad(c.used ? "yes" : "no", 4),
        pad(c.byte_ratio ? fmt::format("{:.3f} (n={})", *c.byte_ratio, c.byte_ratio_n) : "—", 13),
        to_string(c.ceiling));
  for (const auto& c : t.classes)
    out += fmt::format("  {} {} {} {}: {}\n", c.op_class, c.arch,
                       c.product.empty() ? "-" : c.product, to_string(c.ceiling), c.why);
  for (const auto& n : t.notes) out += "  note: " + n + "\n";
  return out;
}

}  // namespace roofline
