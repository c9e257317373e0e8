#pragma once
// What a round predicted: the entries of its profile_roofline.json (docs/method.md §16.1), read
// back for compare and outcomes (docs/method.md §17.1, §17.2).

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "roofline/base/vocabulary.hpp"
#include "roofline/outcomes/layer.hpp"

namespace roofline::outcomes {

// One call signature of an entry as the artifact records it (docs/method.md §22.8): what compare's
// pairing reads of it (docs/method.md §17.1).
struct SignatureRef {
  std::string label;   // "qkv_proj (linear plan) [16×2048]·[2048×5120] grid […]"
  std::string module;  // its launches' module path; "" when none
  std::vector<std::vector<std::int64_t>> dims;  // operand dims as recorded or planned
  std::optional<double> mean_us;                // time_us.mean: one launch of it
};

// One analysed entry as the artifact records it (the fields compare and outcomes use).
struct Prediction {
  std::string name, short_name;
  std::string display_name;  // the artifact's display_name ("" in artifacts older than it)
  std::string op, module;    // the launching op and module path, when the trace gave them
  std::vector<SignatureRef> signatures;
  std::optional<double> pct_gpu_time;
  std::string regime, op_class, unit, bound_type, headroom_class, confidence, stage;
  std::optional<double> t_ms;  // one launch in `regime`
  std::optional<double> launches_per_step, t_unit_ms, bytes_est;
  std::optional<double> roofline_pct, target_eff, attainable_speedup, expected_e2e_gain_pct;
  bool suspect = false;
  // The ceiling the prediction divided by (docs/method.md §5.7): the entry's `ceiling`, datasheet
  // when the artifact does not write one (no measured figure anywhere).
  CeilingKind ceiling = CeilingKind::datasheet;
  std::optional<double> measured_vs_model_bytes;  // stage C: measured_vs_model.bytes, when written
  // docs/method.md §10.8: the band of the attainable speedup, when the entry writes one.
  std::optional<double> band_speedup_lo, band_speedup_hi;
  // A verdict was given: headroom_class is saturated, moderate or underperforming.
  bool has_verdict() const;
  // Launches per logical unit, read from `unit` ("2 launches = one MoE layer" -> 2); 1 when the
  // text gives no count.
  double unit_launches() const;
  // The high end of the attainable speedup's band: the band's, else the point (a one-point band).
  std::optional<double> band_high() const;
};

struct RoundPredictions {
  std::string round;
  std::string from;  // the artifact as named in messages, or how the round was analysed
  bool analysed_in_memory = false;
  std::string arch;  // `arch` when the artifact has it, else `gfx`; "" when unknown
  std::string product;
  std::optional<double> head_threshold_pct;
  std::vector<Prediction> entries;
  std::vector<std::string> problems;  // "file: field: what is wrong", one per line
  bool usable = false;                // the artifact could be read as an object
};

// Reads profile_roofline.json text. Never throws: a wrong field is one message naming the file
// and the field; an entry without a name is skipped with its reason.
RoundPredictions parse_predictions(std::string_view text, const std::string& display);

// Round `round`'s predictions: its profile_roofline.json when present (and readable), else the
// round analysed in memory from the same inputs (load_inputs + analyze, default options), which
// `from` then says. `eval_dir` must hold profile/round_<round>/.
RoundPredictions load_round_predictions(const std::filesystem::path& eval_dir,
                                        const std::string& round);

}  // namespace roofline::outcomes
