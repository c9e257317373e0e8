// The `outcomes` subcommand (docs/method.md §17.2, §17.3).
#include "roofline/cli/outcomes_cmd.hpp"

#include <cstdio>
#include <filesystem>
#include <map>

#include <fmt/format.h>

#include "roofline/analyze/steps/display_names.hpp"
#include "roofline/cli/common.hpp"
#include "roofline/cli/layer.hpp"
#include "roofline/cli/round_args.hpp"
#include "roofline/inputs/load.hpp"
#include "roofline/outcomes/compare.hpp"
#include "roofline/outcomes/ledger.hpp"
#include "roofline/outcomes/outcomes.hpp"
#include "roofline/outcomes/rounds.hpp"

namespace roofline::cli {
namespace fs = std::filesystem;

namespace {

std::string num(const std::optional<double>& v, const char* spec) {
  return v ? fmt::format(fmt::runtime(spec), *v) : std::string("—");
}

std::string kernel_one_line(std::string s) {
  for (char& c : s)
    if (static_cast<unsigned char>(c) < 0x20) c = ' ';
  return s.size() > 40 ? s.substr(0, 39) + "…" : s;
}

// The env report's model, for the records: D/env_report.json, else the baseline round folder's.
std::string run_model(const fs::path& dir, const std::string& baseline) {
  for (const fs::path& p :
       {dir / "env_report.json", round_dir(dir, baseline) / "env_report.json"}) {
    FileText t = read_text_file(p, k_max_json_bytes);
    if (!t.found || !t.error.empty()) continue;
    auto env = parse_env_report(t.text, p.filename().string());
    return env.value ? env.value->model : std::string();
  }
  return {};
}

std::string table(const std::vector<LedgerRecord>& records) {
  std::string out = fmt::format("  {:<44} {:<9} {:>9} {:>8} {:>9} {:<13} {}\n", "kernel", "source",
                                "speedup", "e2e %", "attain.", "verdict", "flags");
  for (const auto& r : records) {
    std::string flags;
    for (const auto& f : r.flags) flags += (flags.empty() ? "" : ",") + f;
    // The name a person reads (docs/method.md §16.6), not the raw one cut short.
    const std::string shown = !r.predicted.display_name.empty()
                                  ? r.predicted.display_name
                                  : kernel_tag(r.predicted.short_name, "", r.kernel);
    out += fmt::format("  {:<44} {:<9} {:>9} {:>8} {:>9} {:<13} {}\n", kernel_one_line(shown),
                       r.source, num(r.speedup(), "{:.3f}×"), num(r.e2e_delta_pct, "{:+.3f}"),
                       r.predicted.has_verdict() ? num(r.predicted.attainable_speedup, "{:.3f}×")
                                                 : std::string("—"),
                       r.verdict, flags);
  }
  return out;
}

// docs/method.md §10.8: how often a measured speedup exceeded its band, in this run and over
// every record the ledger holds, beside today's contradictions.
std::string band_misses_text(const std::vector<LedgerRecord>& records, const fs::path& ledger,
                             const std::string& display) {
  const BandMisses run = count_band_misses(records, k_noise_isolated);
  const LedgerRead all = read_ledger(ledger, display);
  const BandMisses over = count_band_misses(all.records, k_noise_isolated);
  return fmt::format(
      "  band misses (a measured speedup above its band's high end + {:g} %, docs/method.md "
      "§10.8): {} of {} in this run ({} contradiction(s)); {} of {} over the ledger's {} "
      "record(s) ({} contradiction(s))\n",
      100.0 * k_noise_isolated, run.missed, run.measured, run.contradictions, over.missed,
      over.measured, all.records.size(), over.contradictions);
}

// The round outcomes are judged against: --baseline-round, else the first round ("0" sorts first);
// a usage error when there is none or it does not exist.
std::string baseline_round(const OutcomesArgs& args, const fs::path& dir) {
  std::string baseline = args.baseline_round;
  if (baseline.empty()) {
    const std::vector<std::string> rounds = rounds_in(dir);
    if (rounds.empty())
      throw UsageError(fmt::format(
          "outcomes --dir {}: no profile/round_* folders, so no baseline predictions", args.dir));
    baseline = rounds.front();
  }
  require_round(dir, baseline, "outcomes --baseline-round");
  return baseline;
}

}  // namespace

int run_outcomes(const OutcomesArgs& args) {
  const fs::path dir = args.dir;
  const std::string baseline = baseline_round(args, dir);

  OutcomeScan scan = read_outcome_files(dir);
  for (const auto& p : scan.problems) err_line("warning: " + p);
  std::vector<std::string> pairing_notes;
  check_compare_pairings(scan.outcomes, dir, pairing_notes);
  for (const auto& n : pairing_notes) err_line("note: " + n);
  std::map<std::string, RoundPredictions> preds;
  auto load = [&](const std::string& round) {
    if (preds.count(round)) return;
    std::error_code ec;
    if (!fs::is_directory(round_dir(dir, round), ec)) return;
    preds.emplace(round, load_round_predictions(dir, round));
    for (const auto& p : preds.at(round).problems) err_line("warning: " + p);
  };
  load(baseline);
  for (const auto& o : scan.outcomes)
    if (o.source == OutcomeSource::compare) load(o.baseline_round);

  OutcomeRun run;
  run.run = fs::weakly_canonical(fs::absolute(dir)).filename().string();
  run.model = run_model(dir, baseline);
  std::vector<std::string> notes;
  const std::vector<LedgerRecord> records =
      build_ledger_records(scan.outcomes, baseline, preds, run, k_noise_isolated, notes);
  for (const auto& n : notes) err_line("note: " + n);

  const fs::path ledger = ledger_path(args.ledger, dir / "roofline_outcomes.jsonl");
  const std::string display = ledger.string();
  const LedgerUpdate u = update_ledger(ledger, records, display);
  for (const auto& p : u.merge.problems) err_line("warning: " + p);
  if (!u.ok) {
    err_line("ledger not written: " + u.error);
    return k_exit_write;
  }
  if (args.format == "text") {
    std::string out = fmt::format(
        "roofline outcomes: run {}, baseline round {} (predictions: {}); {} outcome file(s), {} "
        "record(s)\n",
        run.run, baseline, preds.at(baseline).from, scan.files, records.size());
    out += table(records);
    out += fmt::format(
        "  ledger {}: {} added, {} updated, {} unchanged, {} other record(s) kept{}\n", display,
        u.merge.added, u.merge.updated, u.merge.unchanged, u.merge.kept,
        u.merge.problems.empty()
            ? ""
            : fmt::format(", {} problem line(s) kept (see stderr)", u.merge.problems.size()));
    out += band_misses_text(records, ledger, display);
    std::fwrite(out.data(), 1, out.size(), stdout);
  }
  return k_exit_ok;
}

}  // namespace roofline::cli
