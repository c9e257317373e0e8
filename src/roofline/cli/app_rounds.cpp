// The declarations of the round subcommands' options (compare, outcomes, calibrate) and the
// option checks every subcommand shares (cli/options.hpp): CLI11 bound straight to each command's
// argument struct. Their run_* functions live in the command's own file and never see CLI11.
#include <cmath>
#include <limits>
#include <string>

#include <fmt/format.h>

#include "roofline/cli/calibrate_cmd.hpp"
#include "roofline/cli/common.hpp"
#include "roofline/cli/compare_cmd.hpp"
#include "roofline/cli/layer.hpp"
#include "roofline/cli/options.hpp"
#include "roofline/cli/outcomes_cmd.hpp"
#include "roofline/cli/round_args.hpp"

namespace roofline::cli {

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
        return fmt::format("'{}' is not {}", s, want);
      },
      std::isinf(hi) ? fmt::format("NUMBER>={:g}", lo)
                     : fmt::format("NUMBER in [{:g}, {:g}]", lo, hi));
}

CLI::Validator non_negative() {
  return finite_range(0.0, std::numeric_limits<double>::infinity());
}

CLI::Validator positive() {
  return CLI::Validator(
      [](std::string& s) -> std::string {
        try {
          std::size_t used = 0;
          double v = std::stod(s, &used);
          if (used == s.size() && std::isfinite(v) && v > 0) return {};
        } catch (...) {
        }
        return fmt::format("'{}' is not a positive number", s);
      },
      "NUMBER>0");
}

CLI::Validator whole_number(long long lo, long long hi) {
  return CLI::Validator(
      [lo, hi](std::string& s) -> std::string {
        try {
          std::size_t used = 0;
          const long long v = std::stoll(s, &used);
          if (used == s.size() && v >= lo && v <= hi) return {};
        } catch (...) {
        }
        return fmt::format("'{}' is not a whole number from {} to {}", s, lo, hi);
      },
      fmt::format("INT in [{}, {}]", lo, hi));
}

CLI::Validator noise_band_validator() {
  return CLI::Validator(
      [](std::string& s) -> std::string {
        try {
          std::size_t used = 0;
          const double v = std::stod(s, &used);
          if (used == s.size() && std::isfinite(v) && v > 0 && v < 1) return {};
        } catch (...) {
        }
        return "'" + s + "' is not a fraction between 0 and 1 (e.g. 0.034 for 3.4 %)";
      },
      "FRACTION in (0, 1)");
}

CLI::App* add_compare_command(CLI::App& app, CompareArgs& args) {
  auto* cmd = app.add_subcommand(
      "compare",
      "Round A's predictions against round B's measured times, kernels paired by what they are: "
      "per kernel speedup, realized gain, contradictions and regressions");
  cmd->add_option("trace", args.traces,
                  "Two traces, BEFORE then AFTER (one change re-profiled): each analysed as "
                  "`roofline analyze TRACE` would and written where it writes (./<trace name>/), "
                  "then compared (instead of --round)")
      ->check(CLI::ExistingFile);
  cmd->add_option("-r,--round", args.rounds,
                  "Give twice: --round A (the predictions: profile_roofline.json, else analysed "
                  "in memory) --round B (the measurements: its profile_topN.json)");
  cmd->add_option("-d,--dir", args.dir, "Evaluation folder holding profile/round_A and round_B")
      ->check(CLI::ExistingDirectory)
      ->capture_default_str();
  cmd->add_option("--config", args.analyze.paths.config,
                  "With two traces: HuggingFace model config.json (else config.json beside each "
                  "trace)")
      ->check(CLI::ExistingFile);
  cmd->add_option("--env", args.analyze.paths.env,
                  "With two traces: environment report (else env_report.json beside each trace)")
      ->check(CLI::ExistingFile);
  cmd->add_option("--peaks", args.analyze.paths.peaks,
                  "With two traces: peaks table in peaks.md format (default: built-in table)")
      ->check(CLI::ExistingFile);
  add_analyze_given(*cmd, args.analyze.given);
  cmd->add_option("--head-threshold", args.analyze.head_threshold,
                  "With two traces: analyse entries at or above this % of GPU time (default: "
                  "$HEAD_THRESHOLD_PCT, else 5)")
      ->check(finite_range(0.0, 100.0));
  cmd->add_option("--noise-isolated", args.noise_isolated,
                  "Noise band of a per-kernel speedup (|speedup - 1| within it: within_noise)")
      ->check(noise_band_validator())
      ->capture_default_str();
  cmd->add_option("--fail-on", args.fail_on,
                  "Exit 1 when a head kernel regressed beyond the band (regression) or the model "
                  "was contradicted (contradiction); repeatable")
      ->check(CLI::IsMember({"regression", "contradiction"}));
  cmd->add_option("-f,--format", args.format, "stdout: text (the table), json, quiet")
      ->check(CLI::IsMember({"text", "json", "quiet"}))
      ->capture_default_str();
  cmd->footer(
      "Examples:\n"
      "  roofline compare before.json.gz after.json.gz --config config.json   # -> ./before/, "
      "./after/\n"
      "  roofline compare --round 0 --round 1 --dir EVAL --fail-on contradiction\n\n"
      "Kernels are paired by what they are, never by short name alone: the same kernel by name, "
      "else a\nrenamed kernel (a dtype change renames kernels) sharing its projection, module or "
      "GEMM weight,\nelse the one kernel of its class renamed in each round; classes, roles or "
      "weights that disagree\nare no pairing. A kernel without a counterpart is gone; one new in "
      "B's head is new.\n"
      "Writes D/profile/round_B/roofline_compare.json and .md (with two traces: into AFTER's "
      "folder).\n"
      "Exit codes: 0 written; 1 a --fail-on condition holds; 2 usage error (a missing round lists "
      "the rounds that exist; a trace that cannot be read; a file of the wrong kind); 3 the files "
      "could not be written.");
  return cmd;
}

CLI::App* add_outcomes_command(CLI::App& app, OutcomesArgs& args) {
  auto* cmd = app.add_subcommand(
      "outcomes",
      "Record measured outcomes (opbench, director, integrate, compare files) against the "
      "baseline round's predictions in the outcome ledger, and count the band misses");
  cmd->add_option("-d,--dir", args.dir, "Evaluation folder")
      ->check(CLI::ExistingDirectory)
      ->capture_default_str();
  cmd->add_option("--baseline-round", args.baseline_round,
                  "Round whose predictions outcomes are judged against (default 0, else the "
                  "first round: 0, config, tuning, other names, 1, 2, …)");
  cmd->add_option(
      "--ledger", args.ledger,
      "Ledger file (JSON Lines; default $ROOFLINE_LEDGER, else D/roofline_outcomes.jsonl)");
  cmd->add_option("-f,--format", args.format, "stdout: text (the records), quiet")
      ->check(CLI::IsMember({"text", "quiet"}))
      ->capture_default_str();
  cmd->footer(
      "Reads D/kernels/*/opbench_result.json, D/kernels/_exp/**/director_validation.json,\n"
      "D/overlay/cand_*/integrate_result.json and D/profile/round_*/roofline_compare.json.\n"
      "A compare row keeps the pairing compare made (by role); a row without a counterpart, or "
      "one an\nolder compare paired by short name alone, is undefined.\n"
      "Band misses: prints how many measured speedups lie above their predicted band's high end "
      "by more\nthan the 3.4 % noise band (docs/method.md §10.8), in this run and over every "
      "record of the ledger,\nbeside the contradictions among them (undefined outcomes are never "
      "counted).\n"
      "The ledger is locked through F.lock while it is rewritten; the lock file is removed when "
      "done.\n"
      "Exit codes: 0 ledger written (problems in outcome files are reported on stderr); 2 usage "
      "error; 3 the ledger could not be written (it is left as it was).");
  return cmd;
}

CLI::App* add_calibrate_command(CLI::App& app, CalibrateArgs& args) {
  auto* cmd = app.add_subcommand(
      "calibrate",
      "Fit target_eff per (op_class, arch, product) from recorded outcomes, shrunk toward the "
      "shipped prior, kept only where it predicts better (leave-one-out)");
  cmd->add_option("--ledger", args.ledgers,
                  "Outcome ledger(s), repeatable (default $ROOFLINE_LEDGER, else "
                  "./roofline_outcomes.jsonl)");
  cmd->add_option("-o,--out", args.out,
                  "Calibration file (default roofline_calibration.json beside the first ledger)");
  cmd->add_option("--min-n", args.min_n, "A class needs this many outcomes to be used")
      ->check(whole_number(1, 100000))
      ->capture_default_str();
  cmd->add_option("-f,--format", args.format, "stdout: text (the table), json, quiet")
      ->check(CLI::IsMember({"text", "json", "quiet"}))
      ->capture_default_str();
  cmd->footer(
      "Stage-C profile_roofline.json files beside a ledger (up to 5 levels below its folder) add "
      "the per-class\nmedian measured_vs_model.bytes ratio. Exit codes: 0 written; 2 usage error; "
      "3 not written.");
  return cmd;
}

}  // namespace roofline::cli
