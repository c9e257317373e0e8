// The command-line layer: declares the subcommands with CLI11 and dispatches to each one's run.
#include "roofline/cli/cli.hpp"

#include <cstdio>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "roofline/cli/app.hpp"
#include "roofline/cli/app_docs.hpp"
#include "roofline/cli/cli_docs.hpp"
#include "roofline/cli/common.hpp"

namespace roofline::cli {

AppCommands build_app(CLI::App& app, AllArgs& args) {
  app.description(
      "roofline — how much of the hardware ceiling does each dominant GPU kernel already reach,\n"
      "how much is left to win, and what kind of fix can win it (tuning, fusion, fewer bytes)?\n\n"
      "Reads a recorded profile (profile/round_R/profile_topN.json), the environment report, the "
      "model's\n"
      "config.json and a peaks table; writes profile_roofline.json, profile_roofline.md and "
      "profile_roofline.svg\n"
      "beside the profile. Advisory: pct_gpu_time stays the primary key and measurement stays "
      "the judge.");
  app.set_version_flag("-V,--version", fmt::format("roofline {}", ROOFLINE_VERSION));
  app.require_subcommand(1);
  app.footer(help_footer(program_docs()));

  AppCommands c;
  c.analyze = add_analyze_command(app, args.analyze);
  c.peaks = add_peaks_commands(app, args.peaks);
  c.calc = add_calc_command(app, args.calc);
  c.counters = add_counters_command(app, args.counters);
  c.compare = add_compare_command(app, args.compare);
  c.outcomes = add_outcomes_command(app, args.outcomes);
  c.calibrate = add_calibrate_command(app, args.calibrate);
  c.topn = add_topn_command(app, args.topn);
  return c;
}

namespace {

// The hidden generators: `--help-man` prints the man page, `--completion bash|zsh` a completion
// script, both made from `app` as build_app declared it. They stop the parse with CLI::Success.
void add_generators(CLI::App& app, std::string& request) {
  app.add_flag_callback(
         "--help-man",
         [&request] {
           request = "man";
           throw CLI::Success();
         },
         "Print the man page (roff) and exit")
      ->group("");
  app.add_option_function<std::string>(
         "--completion",
         [&request](const std::string& shell) {
           request = shell;
           throw CLI::Success();
         },
         "Print the completion script for SHELL and exit")
      ->check(CLI::IsMember({"bash", "zsh"}))
      ->group("");
}

int print_generated(CLI::App& app, const std::string& request) {
  const CommandDoc tree = describe_app(app);
  const std::string out = request == "man"    ? render_man_page(tree, program_docs())
                          : request == "bash" ? render_bash_completion(tree)
                                              : render_zsh_completion(tree);
  std::fwrite(out.data(), 1, out.size(), stdout);
  return std::fflush(stdout) == 0 ? k_exit_ok : k_exit_write;
}

}  // namespace

int run(int argc, char** argv) {
  CLI::App app{"", "roofline"};
  AllArgs args;
  const AppCommands c = build_app(app, args);
  std::string generate;
  add_generators(app, generate);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::Success& e) {  // after the three above, which derive from it
    if (!generate.empty()) return print_generated(app, generate);
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    err_line(fmt::format("usage error: {}", e.what()));
    err_line("try 'roofline --help' or 'roofline <command> --help'");
    return k_exit_usage;
  }
  try {
    if (c.analyze->parsed()) return run_analyze(args.analyze);
    if (c.peaks.list->parsed()) return run_peaks_list(args.peaks);
    if (c.peaks.show->parsed()) return run_peaks_show(args.peaks);
    if (c.peaks.check->parsed()) return run_peaks_check(args.peaks);
    if (c.peaks.measure_script->parsed()) return run_peaks_measure_script();
    if (c.calc->parsed()) return run_calc(args.calc);
    if (c.counters->parsed()) return run_counters(args.counters);
    if (c.compare->parsed()) return run_compare(args.compare);
    if (c.outcomes->parsed()) return run_outcomes(args.outcomes);
    if (c.calibrate->parsed()) return run_calibrate(args.calibrate);
    if (c.topn->parsed()) return run_topn(args.topn);
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
