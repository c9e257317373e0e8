// The command-line layer: declares the commands and their options with CLI11 and dispatches.
#include "cli/cli.hpp"

#include <cmath>
#include <limits>
#include <string>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "cli/commands.hpp"
#include "cli/counters_cmd.hpp"

namespace roofline::cli {
namespace {

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
                   "Stage B: captured-shape probe file (probe_<pid>_<target>.json or "
                   "per_shape_probe.json) or a folder of them; repeatable. Matched entries are "
                   "modelled on the real shapes (confidence medium)")
      ->check(CLI::ExistingPath);
  analyze_cmd
      ->add_option("--counters", a.counters,
                   "Stage C: rocprofv3 *_counter_collection.csv or rocprof results.csv, or a "
                   "folder searched for them; repeatable. Matched entries use the measured "
                   "(FETCH_SIZE+WRITE_SIZE)*1024 bytes per dispatch (confidence high)")
      ->check(CLI::ExistingPath);
  analyze_cmd
      ->add_option("--mfma-f8-flops", a.mfma_f8_flops,
                   "Stage C: FLOPs per SQ_INSTS_VALU_MFMA_MOPS_F8 count (fp8 has no MfmaFlops "
                   "counter)")
      ->check(finite_range(1e-9, 1e9))
      ->capture_default_str();
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
      "PATTERN=CLASS[:detail], repeatable: force the op class (gemm, moe, attn, linear_attn, "
      "ssm, comm, elementwise, unknown) of kernels whose name matches PATTERN (substring, or "
      "glob with * ?)");
  analyze_cmd->add_option("-o,--out", a.out,
                          "Folder for the artifacts (default: the round folder)");
  analyze_cmd
      ->add_option("-f,--format", a.format,
                   "stdout: text (a summary), json (the artifact), quiet. "
                   "Default: text on a terminal, quiet otherwise")
      ->check(CLI::IsMember({"text", "json", "quiet"}));
  analyze_cmd
      ->add_option("--color", a.color,
                   "Colour in the text summary: auto (a terminal, and NO_COLOR unset), always, "
                   "never")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->capture_default_str();
  analyze_cmd
      ->add_option("--max-input-size", a.limits.max_bytes,
                   "Refuse an input file larger than this (e.g. 64MiB, 1GiB; plain numbers are "
                   "bytes); the file is reported as unreadable and the run goes on")
      ->transform(CLI::AsSizeValue(false))
      ->default_str("256MiB");
  analyze_cmd
      ->add_option("--max-json-depth", a.limits.max_depth,
                   "Refuse an input nested deeper than this many levels (JSON arrays/objects, "
                   "YAML flow collections)")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  analyze_cmd
      ->add_option("--max-topn-entries", a.limits.max_entries,
                   "Read at most this many Top-N top_kernels (the rest are reported, not read)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{100000000}))
      ->capture_default_str();
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

  CountersArgs counters_args;
  auto* counters_cmd = add_counters_command(app, counters_args);

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
    if (counters_cmd->parsed()) return run_counters(counters_args);
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
