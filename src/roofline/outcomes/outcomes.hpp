#pragma once
// `roofline outcomes` (docs/method.md §17.2, §17.3): measured outcomes of the workflow's
// optimisation attempts, each paired with what the baseline round predicted and given a verdict.

#include <array>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "roofline/outcomes/layer.hpp"
#include "roofline/outcomes/pairing.hpp"
#include "roofline/outcomes/predictions.hpp"

namespace roofline::outcomes {

// An isolated harness times its own launch overhead below this per-launch baseline time.
inline constexpr double k_isolated_floor_us = 17.0;
// An e2e gain this many points above the predicted gain contradicts a saturated prediction; the
// same slack sits on the Amdahl ceiling.
inline constexpr double k_e2e_slack_pct = 0.5;

// Where an outcome was measured; the order is calibrate's precedence (most direct first).
enum class OutcomeSource { director, opbench, integrate, compare };
// "director" | "opbench" | "integrate" | "compare", and back (nullopt for anything else).
const char* to_string(OutcomeSource s);
std::optional<OutcomeSource> parse_outcome_source(std::string_view s);
// A source spelling's place in that order (director 0, opbench 1, integrate 2, compare 3); 99
// for a spelling outside the set, so it sorts after every known one.
int source_precedence(std::string_view s);

// One measured outcome as an outcome file records it.
struct Outcome {
  OutcomeSource source = OutcomeSource::opbench;
  std::string file;              // relative to the evaluation folder
  std::string kernel;            // the kernel as the file names it
  std::vector<KernelRef> names;  // what to match against the predictions, in order
  std::optional<double> isolated_speedup, in_situ_speedup, e2e_delta_pct, pct_gpu_time;
  std::string gate;                // integrate: accepted | stack | rejected | incomplete
  std::string reason;              // integrate: the gate's reason, as written
  std::string baseline_round;      // compare: the round whose predictions the row joins
  std::string round;               // compare: the measured round
  std::string name_b;              // compare: round B's kernel the row was paired with
  std::string match;               // compare: how it was paired (exact, role, short_name, …)
  std::string undefined_reason;    // set when the file itself says the result is not usable
  std::vector<std::string> flags;  // reader flags: harness_suspect, vanished, ...
};

// The verdict of one outcome (docs/method.md §17.2).
struct OutcomeJudgement {
  std::string verdict;  // contradiction | confirmed | within_noise | regressed | undefined |
                        // unpredicted
  std::vector<std::string> flags;
  std::string reason;
};

// Amdahl ceiling of the e2e gain, in percent, of a kernel holding `pct` % of GPU time sped up
// `speedup`×: 100 · (1 / (1 − pct/100 · (1 − 1/speedup)) − 1) + 0.5.
double amdahl_ceiling_pct(double pct, double speedup);

// Judges an outcome against its prediction (null = none: unpredicted). Undefined when the file
// says so, without a speedup, or for an isolated speedup of a kernel whose baseline launch took
// under 17 µs; contradiction (against a prediction with a verdict) when the speedup exceeds
// attainable · (1 + band), or the e2e gain exceeds the predicted gain + 0.5 points of a
// saturated prediction; else within_noise, regressed, or confirmed. Flags amdahl_exceeded when an
// accepted e2e delta is above the Amdahl ceiling.
OutcomeJudgement judge_outcome(const Outcome& o, const Prediction* p, double band);

// Outcome files (never throw: a missing or mistyped field is one message naming the file and
// the field; the outcome is kept with undefined_reason set, or skipped when it names no kernel).
struct OutcomeScan {
  std::vector<Outcome> outcomes;
  std::vector<std::string> problems;
  std::size_t files = 0;
};
void parse_opbench_result(std::string_view text, const std::string& file, const std::string& folder,
                          OutcomeScan& out);
void parse_director_validation(std::string_view text, const std::string& file, OutcomeScan& out);
void parse_integrate_result(std::string_view text, const std::string& file, OutcomeScan& out);
void parse_compare_rows(std::string_view text, const std::string& file, OutcomeScan& out);
// docs/method.md §17.2: a compare row holds only when its round-B kernel is the one the pairing
// by role gives today (`pairing`: round A's kernel name -> round B's, "" gone; null when it could
// not be made, with `unchecked` saying why). A row paired with another kernel is undefined (flag
// pairing_disputed); an unchecked row paired by short name alone is undefined too (flag
// paired_by_short_name). Other outcomes are left as they are.
void hold_to_pairing(Outcome& o, const std::map<std::string, std::string>* pairing,
                     const std::string& unchecked);
// Every compare row of `outcomes` held to the pairing compare makes between its two rounds, each
// read from `eval_dir` (round A's predictions and Top-N, round B's Top-N and analysis); what could
// not be checked goes to `notes`.
void check_compare_pairings(std::vector<Outcome>& outcomes, const std::filesystem::path& eval_dir,
                            std::vector<std::string>& notes);
// Reads kernels/*/opbench_result.json, kernels/_exp/**/director_validation.json,
// overlay/cand_*/integrate_result.json and profile/round_*/roofline_compare.json, in sorted
// path order.
OutcomeScan read_outcome_files(const std::filesystem::path& eval_dir);

// One ledger record (docs/method.md §17.3); key = (run, kernel, source).
struct LedgerRecord {
  std::string run, kernel, source;
  std::string arch, product, model, op_class, regime, stage, confidence;
  bool predicted_present = false;
  Prediction predicted;  // when predicted_present
  std::optional<double> isolated_speedup, in_situ_speedup, e2e_delta_pct, measured_pct;
  std::string file, gate, rounds;
  std::string verdict;
  std::vector<std::string> flags;
  std::string reason;
  std::array<std::string, 3> key() const { return {run, kernel, source}; }
  // The measured speedup calibration uses: isolated, else in situ.
  std::optional<double> speedup() const;
};

// The record as one JSON object, keys in docs/method.md §17.3 order (extras after).
nlohmann::ordered_json ledger_record_json(const LedgerRecord& r);
// Reads a record back; nullopt with `error` set when the line is not a usable record.
std::optional<LedgerRecord> parse_ledger_record(const nlohmann::json& j, std::string& error);

// What one run knows beside its outcomes.
struct OutcomeRun {
  std::string run;    // the evaluation folder's name
  std::string model;  // env report `model`
};

// Pairs every outcome with its prediction (the baseline round's entry; for a compare row, the
// entry of the round the row was measured against), judges it, and keeps one record per key: a
// defined verdict before an undefined one, then (compare) the later measured round, then the
// larger speedup, then the first file. Superseded outcomes are named in `notes`. `rounds` maps a
// round name to its predictions and must hold `baseline`. Records come sorted by kernel, source.
std::vector<LedgerRecord> build_ledger_records(
    const std::vector<Outcome>& outcomes, const std::string& baseline,
    const std::map<std::string, RoundPredictions>& rounds, const OutcomeRun& run, double band,
    std::vector<std::string>& notes);

// docs/method.md §10.8, §17.2: attainable speedup is a ceiling, so a measured speedup below the
// band is expected; one above its high end (beyond the noise band `noise`) is a miss. Counted
// over the records with a predicted verdict and a measured speedup, beside today's
// contradictions among them.
struct BandMisses {
  std::size_t measured = 0, missed = 0, contradictions = 0;
};
BandMisses count_band_misses(const std::vector<LedgerRecord>& records, double noise);

}  // namespace roofline::outcomes
