#include "cli/cli.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <unistd.h>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "roofline/analyze.hpp"
#include "roofline/calc.hpp"
#include "roofline/embedded_data.hpp"
#include "roofline/kernel_classes.hpp"
#include "roofline/peaks.hpp"
#include "roofline/report.hpp"

namespace roofline::cli {
namespace {

namespace fs = std::filesystem;

constexpr int k_exit_ok = 0;
constexpr int k_exit_strict = 1;
constexpr int k_exit_usage = 2;
constexpr int k_exit_write = 3;

struct AnalyzeArgs {
  std::optional<long> round;
  std::string dir = ".";
  std::string topn, env, config, peaks, out, format;
  std::vector<std::string> shapes, counters, classify;
  std::optional<double> head_threshold;
  std::size_t max_entries = 8;
  double launch_overhead_us = 5.0;
  bool strict = false;
  bool fsync = false;
};

struct PeaksArgs {
  std::string gfx, product, file, format = "text";
};

struct CalcArgs {
  CalcInput in;
  std::string peaks, format = "text";
};

void err_line(const std::string& msg) {
  std::fprintf(stderr, "roofline: %s\n", msg.c_str());
}

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

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
  AnalyzeInputs inputs = load_inputs(paths);
  for (const auto& s : args.shapes)
    inputs.notes.push_back(
        fmt::format("--shapes {}: stage B (captured shapes) is not supported by this version; "
                    "stage A estimates kept (L4)",
                    s));
  for (const auto& c : args.counters)
    inputs.notes.push_back(
        fmt::format("--counters {}: stage C (rocprofv3 counters) is not supported by this version; "
                    "stage A estimates kept, confidence not raised (L4)",
                    c));
  Analysis analysis = analyze(inputs, opts);
  for (const auto& s : args.shapes)
    analysis.degraded.push_back(
        {"(shapes)", "L4", fmt::format("--shapes {}: stage B not supported by this version", s)});
  for (const auto& c : args.counters)
    analysis.degraded.push_back(
        {"(counters)", "L4",
         fmt::format("--counters {}: stage C not supported by this version", c)});

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
  std::error_code ec;
  fs::create_directories(out_dir, ec);
  if (ec) {
    err_line(fmt::format("artifacts not written: cannot create output folder {}: {}",
                         out_dir.string(), ec.message()));
    return k_exit_write;
  }
  const fs::path json_path = out_dir / "profile_roofline.json";
  const fs::path md_path = out_dir / "profile_roofline.md";
  std::vector<std::string> written;
  for (const auto& [path, text] :
       {std::pair{json_path, &json_text}, std::pair{md_path, &md_text}}) {
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
    const bool color = ::isatty(STDOUT_FILENO) && !std::getenv("NO_COLOR");
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
      fmt::format("{:<9} {:<9} {:>12}  {}\n", "gfx", "product", "bandwidth", "dense FLOP/s");
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
        {"gfx", p.gfx},
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
      fmt::format("gfx {}{}: source {}, confidence {}{}\n", p.gfx,
                  p.product.empty() ? "" : ", product " + p.product, to_string(p.source),
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
CLI::Validator finite_range(double lo, double hi) {
  const std::string want = std::isinf(hi) ? fmt::format("a finite number >= {:g}", lo)
                                          : fmt::format("a number between {:g} and {:g}", lo, hi);
  return CLI::Validator(
      [lo, hi, want](std::string& s) -> std::string {
        try {
          std::size_t used = 0;
          double v = std::stod(s, &used);
          if (used == s.size() && std::isfinite(v) && v >= lo && v <= hi) return {};
        } catch (...) {
        }
        return "must be " + want;
      },
      std::isinf(hi) ? fmt::format("NUMBER>={:g}", lo)
                     : fmt::format("NUMBER in [{:g}, {:g}]", lo, hi));
}

CLI::Validator non_negative() {
  return finite_range(0.0, std::numeric_limits<double>::infinity());
}

}  // namespace

int run(int argc, char** argv) {
  CLI::App app{
      "roofline — how much of the hardware ceiling does each dominant GPU kernel already reach,\n"
      "how much is left to win, and what kind of fix can win it (tuning, fusion, fewer bytes)?\n\n"
      "Reads a recorded profile (profile/round_R/profile_topN.json), the environment report, the "
      "model's\n"
      "config.json and a peaks table; writes profile_roofline.json and profile_roofline.md beside "
      "the profile.\n"
      "Advisory: pct_gpu_time stays the primary key and measurement stays the judge.",
      "roofline"};
  app.set_version_flag("-V,--version", fmt::format("roofline {}", ROOFLINE_VERSION));
  app.require_subcommand(1);
  app.footer(
      "Examples:\n"
      "  roofline analyze --round 3                      # ./profile/round_3 -> artifacts beside "
      "it\n"
      "  roofline analyze --round 1 --dir EVAL --format json | jq '.entries[0]'\n"
      "  roofline peaks show gfx950\n"
      "  roofline calc --bytes 6.97e8 --flops 1.6e9 --time-us 98.9 --gfx gfx950 --dtype fp8 "
      "--class moe --pct 26.45\n\n"
      "Exit codes: 0 artifacts written (even when entries degraded), 1 --strict and something "
      "degraded or\n"
      "errored, 2 usage error, 3 artifacts could not be written. ANALYSIS_SKILL set without "
      "'roofline'\n"
      "(e.g. none) makes analyze write nothing and exit 0.");

  AnalyzeArgs a;
  auto* analyze_cmd =
      app.add_subcommand("analyze", "Analyse one profile round and write the artifacts");
  analyze_cmd->footer(
      "Inputs (defaults): D/profile/round_R/profile_topN.json; D/env_report.json, then\n"
      "D/profile/round_R/env_report.json; the env report's model path + /config.json, then "
      "D/config.json;\n"
      "the built-in peaks table. A missing or broken default input is reported in the artifact\n"
      "(skill_errors / degraded) and the run still writes; a file named explicitly must exist "
      "(else exit 2).\n\n"
      "Scope: entries with pct_gpu_time >= the head threshold (default 5, or "
      "$HEAD_THRESHOLD_PCT),\n"
      "biggest first, at most --max-entries; smaller ones are skipped (counted, not degraded).\n\n"
      "Every number in the artifact is explained in the entry's notes: unit, byte model, "
      "assumptions.");
  analyze_cmd
      ->add_option("-r,--round", a.round, "Profile round number R (reads D/profile/round_R/)")
      ->check(CLI::NonNegativeNumber);
  analyze_cmd->add_option("-d,--dir", a.dir, "Evaluation folder holding profile/round_R/")
      ->check(CLI::ExistingDirectory)
      ->capture_default_str();
  analyze_cmd
      ->add_option("--topn", a.topn,
                   "Explicit Top-N file (instead of D/profile/round_R/profile_topN.json)")
      ->check(CLI::ExistingFile);
  analyze_cmd
      ->add_option("--env", a.env,
                   "Environment report (default D/env_report.json, then the round folder)")
      ->check(CLI::ExistingFile);
  analyze_cmd->add_option("--config", a.config, "HuggingFace model config.json (optional input)")
      ->check(CLI::ExistingFile);
  analyze_cmd
      ->add_option("--peaks", a.peaks, "Peaks table in peaks.md format (default: built-in table)")
      ->check(CLI::ExistingFile);
  analyze_cmd
      ->add_option("--shapes", a.shapes,
                   "Stage B captured-shape file or folder (not supported yet: recorded as L4)")
      ->check(CLI::ExistingPath);
  analyze_cmd
      ->add_option("--counters", a.counters,
                   "Stage C rocprofv3 counter CSV (not supported yet: recorded as L4)")
      ->check(CLI::ExistingPath);
  analyze_cmd
      ->add_option(
          "--head-threshold", a.head_threshold,
          "Analyse entries at or above this % of GPU time (default: $HEAD_THRESHOLD_PCT, else 5)")
      ->check(finite_range(0.0, 100.0));
  analyze_cmd->add_option("--max-entries", a.max_entries, "At most this many head entries")
      ->check(CLI::Range(std::size_t{1}, std::size_t{100000}))
      ->capture_default_str();
  analyze_cmd
      ->add_option("--launch-overhead-us", a.launch_overhead_us,
                   "Dispatch floor unit: a unit of <= 2x this is dispatch-bound (no verdict)")
      ->check(non_negative())
      ->capture_default_str();
  analyze_cmd->add_option(
      "--classify", a.classify,
      "PATTERN=CLASS[:detail], repeatable: force the op class (gemm, moe, attn, elementwise, "
      "unknown) of kernels whose name matches PATTERN (substring, or glob with * ?)");
  analyze_cmd->add_option("-o,--out", a.out,
                          "Folder for the artifacts (default: the round folder)");
  analyze_cmd
      ->add_option("-f,--format", a.format,
                   "stdout: text (a summary), json (the artifact), quiet. "
                   "Default: text on a terminal, quiet otherwise")
      ->check(CLI::IsMember({"text", "json", "quiet"}));
  analyze_cmd->add_flag("--strict", a.strict,
                        "Exit 1 when anything is degraded or a skill error occurred");
  analyze_cmd->add_flag(
      "--fsync", a.fsync,
      "Flush the artifacts to stable storage before the atomic rename (survives power loss; "
      "slower on some disks). Without it writes are still atomic against crashes");

  PeaksArgs p;
  auto* peaks_cmd = app.add_subcommand("peaks", "Inspect or validate hardware peak tables");
  peaks_cmd->require_subcommand(1);
  auto* list_cmd = peaks_cmd->add_subcommand("list", "List the sections of the peaks table");
  list_cmd->add_option("--peaks", p.file, "Peaks file (default: built-in)")
      ->check(CLI::ExistingFile);
  auto* show_cmd = peaks_cmd->add_subcommand(
      "show", "Show the peaks a gfx (and product) resolves to, with the rules applied");
  show_cmd->add_option("gfx", p.gfx, "gfx name, e.g. gfx950 or gfx942:sramecc+:xnack-")->required();
  show_cmd->add_option("--product", p.product, "Product identity, e.g. r9700 (default: none)");
  show_cmd->add_option("--peaks", p.file, "Peaks file (default: built-in)")
      ->check(CLI::ExistingFile);
  show_cmd->add_option("-f,--format", p.format, "text or json")
      ->check(CLI::IsMember({"text", "json"}));
  auto* check_cmd = peaks_cmd->add_subcommand("check",
                                              "Validate a peaks file: gfx and hbm_bw_bytes_s "
                                              "present, numbers parse, bf16 == fp16, no duplicate "
                                              "(gfx, product). Exit 0 when sound, 1 when not");
  check_cmd->add_option("file", p.file, "peaks.md to check (default: the built-in table)");

  CalcArgs c;
  auto* calc_cmd =
      app.add_subcommand("calc", "What-if: the roofline arithmetic on raw bytes, FLOPs and time");
  calc_cmd->add_option("--bytes", c.in.bytes, "HBM bytes moved by one unit")
      ->required()
      ->check(non_negative());
  calc_cmd->add_option("--flops", c.in.flops, "FLOPs of one unit")
      ->required()
      ->check(non_negative());
  calc_cmd->add_option("--time-us", c.in.time_us, "Time of one unit in microseconds")
      ->required()
      ->check(CLI::PositiveNumber);
  calc_cmd->add_option("--gfx", c.in.gfx, "gfx name, e.g. gfx950")->required();
  calc_cmd->add_option("--product", c.in.product, "Product identity (e.g. r9700)");
  calc_cmd->add_option("--dtype", c.in.dtype, "Compute dtype (bf16, fp16, fp8, fp32, ...)")
      ->required();
  calc_cmd->add_option("--class", c.in.op_class, "Op class: gemm, moe, attn, elementwise, unknown")
      ->required();
  calc_cmd
      ->add_option("--pct", c.in.pct_gpu_time,
                   "pct_gpu_time of the kernel (for the expected e2e gain)")
      ->check(finite_range(0.0, 100.0));
  calc_cmd->add_option("--launch-overhead-us", c.in.launch_overhead_us, "Dispatch floor unit")
      ->check(non_negative())
      ->capture_default_str();
  calc_cmd->add_option("--peaks", c.peaks, "Peaks file (default: built-in)")
      ->check(CLI::ExistingFile);
  calc_cmd->add_option("-f,--format", c.format, "text or json")
      ->check(CLI::IsMember({"text", "json"}));

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    err_line(fmt::format("usage error: {}", e.what()));
    err_line("try 'roofline --help' or 'roofline <command> --help'");
    return k_exit_usage;
  }
  try {
    if (analyze_cmd->parsed()) return run_analyze(a);
    if (list_cmd->parsed()) return run_peaks_list(p);
    if (show_cmd->parsed()) return run_peaks_show(p);
    if (check_cmd->parsed()) return run_peaks_check(p);
    if (calc_cmd->parsed()) return run_calc(c);
  } catch (const UsageError& e) {
    err_line(fmt::format("usage error: {}", e.what()));
    return k_exit_usage;
  } catch (const std::exception& e) {
    err_line(fmt::format("internal error: {}", e.what()));
    return k_exit_write;
  }
  return k_exit_usage;
}

}  // namespace roofline::cli
