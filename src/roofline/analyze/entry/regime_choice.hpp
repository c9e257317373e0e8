#pragma once
// What pick_regimes leaves on an entry (docs/method.md §6): its regime, per-launch time and
// launches per step, and what the run adds to the choice.
#include <optional>
#include <string>
#include <vector>

#include "roofline/analyze/entry/step_inference.hpp"
#include "roofline/analyze/layer.hpp"
#include "roofline/base/vocabulary.hpp"
#include "roofline/inputs/inputs.hpp"

namespace roofline::analyze {

struct RegimeChoice {
  // The regime, when `known`. Unknown (docs/method.md §6.4: nothing in the run says it, and decode
  // is never assumed): `regime` is then a placeholder no figure may depend on; the artifact says
  // "unknown", and a model that needs the regime (rows from the workload, a shapeless attention)
  // gives no verdict and says what would settle it.
  Regime regime = Regime::decode;
  bool known = true;
  std::string why;
  std::optional<double> t_ms;  // one launch, this regime
  std::string t_source;
  std::optional<double> launches_per_step;
  std::string launches_source;
  std::vector<std::string> notes;  // the choice, the time and the launch count, with their sources
  std::optional<double> shape_rows;  // set when the rows rule (no step annotations) decided
  // Unknown: the options that would settle it (docs/method.md §16.4) — --regime always, --conc
  // only where the rows rule would then decide (operand rows, steps inferred, no workload.conc).
  std::vector<std::string> settled_by;
};
// What the run adds to one entry's regime choice when the Top-N has no step annotations.
struct RegimeHints {
  const InferredLaunches* inferred = nullptr;  // set when step inference was attempted
  std::optional<double> conc;                  // workload.conc, for the rows rule
  const ModelConfig* config = nullptr;         // head counts: [B, S, H, D] or [B, H, S, D]
  // One forward pass, one regime (docs/method.md §6.4): the regime the head's dense GEMMs' rows
  // show, used instead of each entry's own rows; unset when they disagree or there are none.
  std::optional<Regime> pass_regime;
  std::string pass_why;
  // The regime the entry's own signatures say (an attention op's query length per sequence,
  // docs/method.md §23.3), with the reading; unset when they say none or disagree.
  std::optional<Regime> signature_regime;
  std::string signature_why;
  // --regime (docs/method.md §22.9): the e2e-critical regime of an entry that runs in both or
  // neither, over what the launch data would pick.
  std::optional<Regime> given;
};

// "prefill", "decode", or "unknown" when nothing says it: what every surface prints.
std::string regime_label(const RegimeChoice& choice);

}  // namespace roofline::analyze
