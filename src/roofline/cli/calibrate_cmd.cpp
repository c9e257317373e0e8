// The `calibrate` subcommand (docs/method.md §17.4) and the calibration input of `analyze` (§17.5).
#include "roofline/cli/calibrate_cmd.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <set>

#include <fmt/format.h>

#include "roofline/cli/common.hpp"
#include "roofline/cli/round_args.hpp"
#include "roofline/outcomes/ledger.hpp"
#include "roofline/inputs/load.hpp"
#include "roofline/render/report.hpp"

namespace roofline::cli {
namespace fs = std::filesystem;

int run_calibrate(const CalibrateArgs& args) {
  std::vector<fs::path> ledgers;
  for (const auto& l : args.ledgers) ledgers.emplace_back(l);
  if (ledgers.empty()) ledgers.push_back(ledger_path("", "roofline_outcomes.jsonl"));
  std::vector<LedgerRecord> records;
  std::vector<ByteRatioSample> ratios;
  std::vector<std::string> scan_notes;
  std::set<fs::path> scanned;
  for (const auto& l : ledgers) {
    const LedgerRead r = read_ledger(l, l.string());
    if (!r.found)
      throw UsageError(fmt::format("calibrate --ledger {}: file not found", l.string()));
    for (const auto& p : r.problems) err_line("warning: " + p);
    records.insert(records.end(), r.records.begin(), r.records.end());
    const fs::path folder = l.has_parent_path() ? l.parent_path() : fs::path(".");
    if (scanned.insert(fs::weakly_canonical(fs::absolute(folder))).second) {
      auto found = scan_stage_c_artifacts(folder, scan_notes);
      ratios.insert(ratios.end(), found.begin(), found.end());
    }
  }
  CalibrationTable table = calibrate(records, ratios, args.min_n);
  for (auto& n : scan_notes) table.notes.push_back(std::move(n));

  const fs::path out = !args.out.empty() ? fs::path(args.out)
                       : ledgers.front().has_parent_path()
                           ? ledgers.front().parent_path() / "roofline_calibration.json"
                           : fs::path("roofline_calibration.json");
  const std::string text = calibration_json(table).dump(
                               2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) +
                           "\n";
  if (const auto error = write_atomic(out, text)) {
    err_line("calibration not written: " + *error);
    return k_exit_write;
  }
  if (args.format == "json") {
    std::fwrite(text.data(), 1, text.size(), stdout);
  } else if (args.format == "text") {
    std::string t = render_calibration_text(table) + fmt::format("  wrote {}\n", out.string());
    std::fwrite(t.data(), 1, t.size(), stdout);
  }
  return k_exit_ok;
}

}  // namespace roofline::cli
