// The command-line layer: declares the subcommands with CLI11 and dispatches to each one's run.
#include "cli/cli.hpp"

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "cli/analyze_cmd.hpp"
#include "cli/calc_cmd.hpp"
#include "cli/calibrate_cmd.hpp"
#include "cli/common.hpp"
#include "cli/compare_cmd.hpp"
#include "cli/counters_cmd.hpp"
#include "cli/outcomes_cmd.hpp"
#include "cli/peaks_cmd.hpp"
#include "cli/topn_cmd.hpp"

namespace roofline::cli {

int run(int argc, char** argv) {
  CLI::App app{
      "roofline — how much of the hardware ceiling does each dominant GPU kernel already reach,\n"
      "how much is left to win, and what kind of fix can win it (tuning, fusion, fewer bytes)?\n\n"
      "Reads a recorded profile (profile/round_R/profile_topN.json), the environment report, the "
      "model's\n"
      "config.json and a peaks table; writes profile_roofline.json, profile_roofline.md and "
      "profile_roofline.svg\n"
      "beside the profile. Advisory: pct_gpu_time stays the primary key and measurement stays "
      "the judge.",
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

  AnalyzeArgs analyze_args;
  PeaksArgs peaks_args;
  CalcArgs calc_args;
  CountersArgs counters_args;
  CompareArgs compare_args;
  OutcomesArgs outcomes_args;
  CalibrateArgs calibrate_args;
  TopnArgs topn_args;
  CLI::App* analyze = add_analyze_command(app, analyze_args);
  const PeaksCommands peaks = add_peaks_commands(app, peaks_args);
  CLI::App* calc = add_calc_command(app, calc_args);
  CLI::App* counters = add_counters_command(app, counters_args);
  CLI::App* compare = add_compare_command(app, compare_args);
  CLI::App* outcomes = add_outcomes_command(app, outcomes_args);
  CLI::App* calibrate = add_calibrate_command(app, calibrate_args);
  CLI::App* topn = add_topn_command(app, topn_args);

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
    if (analyze->parsed()) return run_analyze(analyze_args);
    if (peaks.list->parsed()) return run_peaks_list(peaks_args);
    if (peaks.show->parsed()) return run_peaks_show(peaks_args);
    if (peaks.check->parsed()) return run_peaks_check(peaks_args);
    if (calc->parsed()) return run_calc(calc_args);
    if (counters->parsed()) return run_counters(counters_args);
    if (compare->parsed()) return run_compare(compare_args);
    if (outcomes->parsed()) return run_outcomes(outcomes_args);
    if (calibrate->parsed()) return run_calibrate(calibrate_args);
    if (topn->parsed()) return run_topn(topn_args);
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
