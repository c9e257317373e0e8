#pragma once
// `roofline compare --round A --round B` (docs/method.md §17.1): round A's predictions joined with
// round B's in-situ measurements, kernel by kernel.

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "roofline/inputs/inputs.hpp"
#include "roofline/outcomes/layer.hpp"
#include "roofline/outcomes/predictions.hpp"

namespace roofline::outcomes {

// Noise bands (docs/method.md §17.1): an isolated speedup is real only beyond 3.4 %, an e2e delta
// beyond 0.5 %.
inline constexpr double k_noise_isolated = 0.034;
inline constexpr double k_noise_e2e = 0.005;

struct CompareRow {
  std::string name, short_name;  // as round A names the kernel (round B's for a `new` row)
  std::string display_name;      // as a person reads it (docs/method.md §16.6)
  std::string name_b;            // round B's name; "" when absent from B
  std::string display_name_b;    // round B's display name; "" when absent from B
  std::string signature_b;       // the signature of B's kernel it was paired through, if one
  std::string role_a, role_b;    // what each round's kernel is (roles.hpp: role_text)
  // How B's kernel was found (pairing_label): exact | normalized | substring (the same kernel),
  // role | only_of_class (renamed), none; and why, in words.
  std::string match = "none";
  std::string pairing;
  std::optional<double> pct_a, pct_b;
  std::optional<double> t_a_ms, t_b_ms;  // per unit of A's regime and unit
  std::optional<double> speedup;         // t_a / t_b
  std::optional<double> attainable_speedup_a, expected_e2e_gain_pct_a, roofline_pct_a;
  std::string headroom_class_a;  // A's verdict; "unknown" = no prediction to hold it to
  std::optional<double> realized_gain_pct, realized_fraction;
  std::vector<std::string> status;  // within_noise|improved|regressed (+contradiction),
                                    // gone, new, undefined
  std::string note;
};

struct StepTime {
  double steps_a = 0, steps_b = 0;
  std::string source_a, source_b;
  double gpu_ms_per_step_a = 0, gpu_ms_per_step_b = 0;
  double speedup = 1;     // per-step time A / B
  double change_pct = 0;  // 100 · (B / A − 1): negative is faster
  std::string status;     // within_noise | improved | regressed against the e2e band
};

struct Comparison {
  std::string baseline_round, round;
  std::string predictions_from;
  double noise_isolated = k_noise_isolated;
  std::vector<CompareRow> rows;
  std::optional<StepTime> step_time;
  std::vector<std::string> notes;  // incl. why there is no step time
  bool any_status(std::string_view status) const;
};

struct CompareInput {
  std::string baseline_round, round;
  const RoundPredictions* a = nullptr;  // required
  // Round B's analysis: what its kernels are, for the pairing (may be null: then each kernel's
  // role is read from its Top-N entry alone).
  const RoundPredictions* b = nullptr;
  const TopnDocument* topn_a = nullptr;  // round A's Top-N: GPU time per step, its other kernels
  const TopnDocument* topn_b = nullptr;  // required
  double noise_isolated = k_noise_isolated;
  const ModelConfig* config = nullptr;  // the layer plan, for steps without annotations (or null)
};

// Statuses of one measured speedup against its prediction: within_noise when |s − 1| ≤ band,
// regressed when s < 1 − band, else improved; plus contradiction when the prediction had a
// verdict and s > attainable · (1 + band). ["undefined"] without a speedup.
std::vector<std::string> speedup_statuses(std::optional<double> speedup, const Prediction& a,
                                          double band);

// Per-launch time of a Top-N entry in a regime ("prefill" | "decode"): that regime's
// base_latency_ms, else avg_us / 1000; nullopt when neither is given.
std::optional<double> per_launch_ms(const TopnEntry& entry, std::string_view regime);

// The comparison (pure): one row per entry of A's head in A's order, paired with its kernel in
// round B by role (pair_by_role) or `gone`, then round B's head kernels (pct ≥ A's head threshold,
// else 5) that pair with no row, as `new`, biggest first; the GPU time per step of both rounds
// when both give step counts and total GPU time.
Comparison compare_rounds(const CompareInput& in);

// The pairing compare_rounds makes (pair_by_role): each entry of A's head by name, and the name of
// its kernel in round B ("" when it is gone). What `outcomes` holds a compare file's rows to.
std::map<std::string, std::string> pair_rounds(const CompareInput& in);

// roofline_compare.json (`roofline-compare-v1`), deterministic.
nlohmann::ordered_json comparison_json(const Comparison& c);
// roofline_compare.md: the table, with contradictions, regressions, renamed and gone kernels
// called out in sentences.
std::string render_comparison_markdown(const Comparison& c);
// The terminal table.
std::string render_comparison_text(const Comparison& c);

}  // namespace roofline::outcomes
