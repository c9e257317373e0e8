// analyze, peaks list|show|check and calc: each reads its options struct, calls the core, and
// maps the outcome to an exit code.
#include "cli/commands.hpp"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string_view>

#include <unistd.h>

#include <fmt/format.h>

#include "roofline/analyze.hpp"
#include "roofline/embedded_data.hpp"
#include "roofline/kernel_classes.hpp"
#include "roofline/peaks.hpp"
#include "roofline/report.hpp"

namespace roofline::cli {

void err_line(const std::string& msg) {
  std::fprintf(stderr, "roofline: %s\n", msg.c_str());
}

namespace {

namespace fs = std::filesystem;

// ANALYSIS_SKILL set and not naming roofline (e.g. "none") switches analyze off (L0).
bool skill_disabled(std::string& value) {
  const char* v = std::getenv("ANALYSIS_SKILL");
  if (!v || !*v) return false;
  value = v;
  std::string token;
  for (std::size_t i = 0; i <= value.size(); ++i) {
    char c = i < value.size()
                 ? static_cast<char>(std::tolower(static_cast<unsigned char>(value[i])))
                 : ',';
    if (c == ',' || c == ' ' || c == ':' || c == ';' || c == '+') {
      if (token == "roofline" || token == "all" || token == "*") return false;
      token.clear();
    } else {
      token += c;
    }
  }
  return true;
}

double head_threshold(const AnalyzeArgs& a) {
  if (a.head_threshold) return *a.head_threshold;
  const char* env = std::getenv("HEAD_THRESHOLD_PCT");
  if (!env || !*env) return 5.0;
  char* end = nullptr;
  double v = std::strtod(env, &end);
  if (end == env || *end != '\0' || !std::isfinite(v) || v < 0 || v > 100)
    throw UsageError(
        fmt::format("HEAD_THRESHOLD_PCT='{}': expected a percentage between 0 and 100", env));
  return v;
}

const PeaksTable& load_peaks_or_throw(const std::string& file, PeaksTable& storage) {
  if (file.empty()) return builtin_peaks();
  FileText text = read_text_file(file, k_max_json_bytes);
  if (!text.found) throw UsageError(fmt::format("--peaks {}: file not found", file));
  if (!text.error.empty()) throw UsageError(fmt::format("--peaks {}: {}", file, text.error));
  auto loaded = parse_peaks_md(text.text, file);
  for (const auto& e : loaded.errors) err_line("warning: " + e);
  storage = loaded.value.value_or(PeaksTable{});
  return storage;
}

}  // namespace

int run_analyze(const AnalyzeArgs& args) {
  std::string skill;
  if (skill_disabled(skill)) {
    err_line(fmt::format(
        "ANALYSIS_SKILL={} does not name roofline: analysis skipped, nothing written (L0)", skill));
    return k_exit_ok;
  }
  if (!args.round && args.topn.empty())
    throw UsageError("analyze: --round is required unless --topn names the Top-N file");
  AnalyzeOptions opts;
  opts.scope.head_threshold_pct = head_threshold(args);
  opts.scope.max_entries = args.max_entries;
  opts.verdict.launch_overhead_us = args.launch_overhead_us;
  for (const auto& spec : args.classify) {
    std::string error;
    auto rule = parse_classify_override(spec, error);
    if (!rule) throw UsageError(error);
    opts.overrides.push_back(*rule);
  }

  InputPaths paths;
  paths.eval_dir = args.dir;
  paths.round = args.round;
  if (!args.topn.empty()) paths.topn = args.topn;
  if (!args.env.empty()) paths.env = args.env;
  if (!args.config.empty()) paths.config = args.config;
  if (!args.peaks.empty()) paths.peaks = args.peaks;
  for (const auto& sh : args.shapes) paths.shapes.emplace_back(sh);
  for (const auto& c : args.counters) paths.counters.emplace_back(c);
  paths.counter_options.mfma_f8_flops_per_inst = args.mfma_f8_flops;
  paths.limits = args.limits;
  AnalyzeInputs inputs = load_inputs(paths);
  Analysis analysis = analyze(inputs, opts);

  fs::path out_dir;
  if (!args.out.empty())
    out_dir = args.out;
  else if (!args.topn.empty())
    out_dir = fs::path(args.topn).parent_path();
  else
    out_dir = fs::path(args.dir) / "profile" / fmt::format("round_{}", *args.round);
  if (out_dir.empty()) out_dir = ".";

  for (const auto& e : analysis.skill_errors) err_line("error: " + e);
  for (const auto& w : analysis.warnings) err_line("warning: " + w);
  for (const auto& d : analysis.degraded)
    err_line(fmt::format("degraded [{}] {}: {}", d.level, d.name, d.reason));

  const std::string json_text = render_json(analysis);
  const std::string md_text = render_markdown(analysis);
  const std::string svg_text = render_roofline_svg(analysis);
  std::error_code ec;
  fs::create_directories(out_dir, ec);
  if (ec) {
    err_line(fmt::format("artifacts not written: cannot create output folder {}: {}",
                         out_dir.string(), ec.message()));
    return k_exit_write;
  }
  const fs::path json_path = out_dir / "profile_roofline.json";
  const fs::path md_path = out_dir / "profile_roofline.md";
  const fs::path svg_path = out_dir / "profile_roofline.svg";
  std::vector<std::string> written;
  for (const auto& [path, text] : {std::pair{json_path, &json_text}, std::pair{md_path, &md_text},
                                   std::pair{svg_path, &svg_text}}) {
    if (std::string error = write_atomic(path, *text, args.fsync); !error.empty()) {
      err_line("artifacts not written: " + error);
      return k_exit_write;
    }
    written.push_back(path.string());
  }

  std::string format = args.format;
  if (format.empty()) format = ::isatty(STDOUT_FILENO) ? "text" : "quiet";
  if (format == "json") {
    std::fwrite(json_text.data(), 1, json_text.size(), stdout);
  } else if (format == "text") {
    const char* no_color = std::getenv("NO_COLOR");  // no-color.org: set and non-empty
    const char* term = std::getenv("TERM");
    const bool color = args.color == "always" ||
                       (args.color == "auto" && ::isatty(STDOUT_FILENO) &&
                        !(no_color && *no_color) && !(term && std::string_view(term) == "dumb"));
    std::string text = render_text_summary(analysis, written, color);
    std::fwrite(text.data(), 1, text.size(), stdout);
  }
  if (args.strict && (!analysis.degraded.empty() || !analysis.skill_errors.empty()))
    return k_exit_strict;
  return k_exit_ok;
}

int run_peaks_list(const PeaksArgs& args) {
  PeaksTable storage;
  const PeaksTable& table = load_peaks_or_throw(args.file, storage);
  std::string out =
      fmt::format("{:<9} {:<9} {:>12}  {}\n", "arch", "product", "bandwidth", "dense FLOP/s");
  for (const auto& s : table.sections) {
    std::string flops;
    for (const auto& [k, v] : s.flops)
      flops += fmt::format("{}{} {:.3g}", flops.empty() ? "" : ", ", k, v);
    out +=
        fmt::format("{:<9} {:<9} {:>12}  {}\n", s.gfx, s.product.empty() ? "-" : s.product,
                    s.hbm_bw_bytes_s ? fmt::format("{:.3g} B/s", *s.hbm_bw_bytes_s) : "?", flops);
  }
  out += fmt::format("({} sections from {})\n", table.sections.size(), table.source_name);
  std::fwrite(out.data(), 1, out.size(), stdout);
  return k_exit_ok;
}

int run_peaks_show(const PeaksArgs& args) {
  PeaksTable storage;
  const PeaksTable& table = load_peaks_or_throw(args.file, storage);
  ResolvedPeaks p = resolve_peaks(table, args.gfx, args.product, DeviceProps{});
  if (args.format == "json") {
    ordered_json flops = ordered_json::object();
    for (const auto& [k, v] : p.flops) flops[k] = v;
    ordered_json j{
        {"gfx", is_nvidia_arch(p.gfx) ? ordered_json(nullptr) : ordered_json(p.gfx)},
        {"arch", p.gfx},
        {"product", p.product.empty() ? ordered_json(nullptr) : ordered_json(p.product)},
        {"hbm_bw_bytes_s",
         p.hbm_bw_bytes_s ? ordered_json(*p.hbm_bw_bytes_s) : ordered_json(nullptr)},
        {"flops", flops},
        {"l2_bytes", p.l2_bytes ? ordered_json(*p.l2_bytes) : ordered_json(nullptr)},
        {"mall_bytes", p.mall_bytes ? ordered_json(*p.mall_bytes) : ordered_json(nullptr)},
        {"source", to_string(p.source)},
        {"confidence", to_string(p.confidence)},
        {"compute_validated", p.compute_validated},
        {"hard_unknown", p.hard_unknown},
        {"notes", p.notes}};
    std::string text = j.dump(2) + "\n";
    std::fwrite(text.data(), 1, text.size(), stdout);
    return k_exit_ok;
  }
  std::string out =
      fmt::format("{} {}{}: source {}, confidence {}{}\n", is_nvidia_arch(p.gfx) ? "arch" : "gfx",
                  p.gfx, p.product.empty() ? "" : ", product " + p.product, to_string(p.source),
                  to_string(p.confidence), p.hard_unknown ? " (hard unknown)" : "");
  out += fmt::format("  hbm_bw_bytes_s  {}\n",
                     p.hbm_bw_bytes_s ? fmt::format("{:.4g}", *p.hbm_bw_bytes_s) : "unknown");
  for (const auto& [k, v] : p.flops) out += fmt::format("  flops.{:<9} {:.4g}\n", k, v);
  if (p.l2_bytes) out += fmt::format("  l2_bytes        {:.0f}\n", *p.l2_bytes);
  if (p.mall_bytes) out += fmt::format("  mall_bytes      {:.0f}\n", *p.mall_bytes);
  out += fmt::format("  compute_validated {}\n", p.compute_validated ? "true" : "false");
  for (const auto& n : p.notes) out += fmt::format("  note: {}\n", n);
  std::fwrite(out.data(), 1, out.size(), stdout);
  return k_exit_ok;
}

int run_peaks_check(const PeaksArgs& args) {
  std::string name = args.file.empty() ? "built-in peaks.md" : args.file;
  Loaded<PeaksTable> loaded;
  if (args.file.empty()) {
    loaded = parse_peaks_md(builtin_peaks_md(), name);
  } else {
    FileText text = read_text_file(args.file, k_max_json_bytes);
    if (!text.found) throw UsageError(fmt::format("peaks check {}: file not found", args.file));
    if (!text.error.empty())
      throw UsageError(fmt::format("peaks check {}: {}", args.file, text.error));
    loaded = parse_peaks_md(text.text, name);
  }
  std::vector<std::string> problems = loaded.errors;
  if (loaded.value)
    for (auto& p : check_peaks(*loaded.value)) problems.push_back(p);
  for (const auto& p : problems) std::printf("%s\n", p.c_str());
  const std::size_t sections = loaded.value ? loaded.value->sections.size() : 0;
  if (problems.empty()) {
    std::printf("%s: ok (%zu sections)\n", name.c_str(), sections);
    return k_exit_ok;
  }
  std::printf("%s: %zu problem%s in %zu sections\n", name.c_str(), problems.size(),
              problems.size() == 1 ? "" : "s", sections);
  return k_exit_strict;
}

int run_calc(const CalcArgs& args) {
  PeaksTable storage;
  const PeaksTable& table = load_peaks_or_throw(args.peaks, storage);
  CalcResult r = calc(args.in, table);
  if (!r.errors.empty()) throw UsageError(r.errors.front());
  std::string out = args.format == "json" ? calc_json(r).dump(2) + "\n" : calc_text(r);
  std::fwrite(out.data(), 1, out.size(), stdout);
  return k_exit_ok;
}

// A finite number within [lo, hi] (CLI::Range lets NaN through); hi = inf means no upper bound.
}  // namespace roofline::cli
