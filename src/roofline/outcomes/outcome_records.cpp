// Ledger records (docs/method.md §17.3): outcomes paired with predictions, judged, one per key.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "roofline/inputs/json_input.hpp"
#include "roofline/outcomes/layer.hpp"
#include "roofline/outcomes/outcomes.hpp"
#include "roofline/outcomes/rounds.hpp"
#include "roofline/outcomes/util.hpp"

namespace roofline::outcomes {

namespace {

using detail::str_or_null;
using ojson = nlohmann::ordered_json;

struct RecordChoice {
  LedgerRecord record;
  std::string round;  // compare: the measured round
  bool defined = false;
};

// True when `x` should be the record of its key rather than `y` (which came first).
bool better(const RecordChoice& x, const RecordChoice& y) {
  if (x.defined != y.defined) return x.defined;
  if (x.round != y.round) return round_before(y.round, x.round);
  const double sx = x.record.speedup().value_or(0.0), sy = y.record.speedup().value_or(0.0);
  return sx > sy;
}

const Prediction* find_prediction(const Outcome& o, const RoundPredictions& preds,
                                  MatchKind& kind) {
  std::vector<KernelRef> to;
  for (const auto& p : preds.entries) to.push_back({p.name, p.short_name});
  for (const auto& ref : o.names) {
    const std::vector<KernelPair> m = pair_kernels({ref}, to);
    if (m[0].index) {
      kind = m[0].kind;
      return &preds.entries[*m[0].index];
    }
  }
  return nullptr;
}

// The string field `k` of `o` ("" when absent); a wrong type is reported under the name `k`.
std::string text_field(FieldReader& f, const nlohmann::json& o, const char* k) {
  return f.string(o, k, k).value_or("");
}

// The `predicted` object of a ledger record into `r.predicted`. A record written before ceilings
// were recorded predicted against the datasheet.
void read_record_prediction(FieldReader& f, const nlohmann::json& p, LedgerRecord& r) {
  r.predicted_present = true;
  Prediction& q = r.predicted;
  q.name = r.kernel;
  q.op_class = r.op_class;
  q.roofline_pct = f.number(p, "roofline_pct", "predicted.roofline_pct");
  q.target_eff = f.number(p, "target_eff", "predicted.target_eff");
  q.attainable_speedup = f.number(p, "attainable_speedup", "predicted.attainable_speedup");
  q.expected_e2e_gain_pct = f.number(p, "expected_e2e_gain_pct", "predicted.expected_e2e_gain_pct");
  q.bytes_est = f.number(p, "bytes_est", "predicted.bytes_est");
  q.t_unit_ms = f.number(p, "t_unit_ms", "predicted.t_unit_ms");
  q.headroom_class = text_field(f, p, "headroom_class");
  q.suspect = f.boolean(p, "suspect", "predicted.suspect").value_or(false);
  q.pct_gpu_time = f.number(p, "pct_gpu_time", "predicted.pct_gpu_time");
  q.t_ms = f.number(p, "t_ms", "predicted.t_ms");
  if (const auto it = p.find("attainable_speedup_band"); it != p.end() && it->is_array() &&
                                                         it->size() == 2 && (*it)[0].is_number() &&
                                                         (*it)[1].is_number()) {
    q.band_speedup_lo = (*it)[0].get<double>();
    q.band_speedup_hi = (*it)[1].get<double>();
  }
  if (const auto ceiling = f.string(p, "ceiling", "predicted.ceiling")) {
    if (auto kind = parse_ceiling(*ceiling))
      q.ceiling = *kind;
    else
      f.error("predicted.ceiling", fmt::format("'{}': expected datasheet or measured", *ceiling));
  }
}

// The `measured` object of a ledger record.
void read_record_measurement(FieldReader& f, const nlohmann::json& m, LedgerRecord& r) {
  r.isolated_speedup = f.number(m, "isolated_speedup", "measured.isolated_speedup");
  r.e2e_delta_pct = f.number(m, "e2e_delta_pct", "measured.e2e_delta_pct");
  r.gate = text_field(f, m, "gate");
  r.in_situ_speedup = f.number(m, "in_situ_speedup", "measured.in_situ_speedup");
  r.measured_pct = f.number(m, "pct_gpu_time", "measured.pct_gpu_time");
  r.file = text_field(f, m, "file");
  r.rounds = text_field(f, m, "rounds");
}

// The record of outcome `o` and of its prediction `p` in `preds` (either may be null), before
// its judgement.
LedgerRecord paired_record(const Outcome& o, const RoundPredictions* preds, const Prediction* p,
                           const OutcomeRun& run) {
  LedgerRecord r;
  r.run = run.run;
  r.kernel = p ? p->name : o.kernel;
  r.source = to_string(o.source);
  r.model = run.model;
  if (preds) {
    r.arch = preds->arch;
    r.product = preds->product;
  }
  if (p) {
    r.op_class = p->op_class;
    r.regime = p->regime;
    r.stage = p->stage;
    r.confidence = p->confidence;
    r.predicted_present = true;
    r.predicted = *p;
  }
  r.isolated_speedup = o.isolated_speedup;
  r.in_situ_speedup = o.in_situ_speedup;
  r.e2e_delta_pct = o.e2e_delta_pct;
  r.measured_pct = o.pct_gpu_time;
  r.file = o.file;
  r.gate = o.gate;
  if (o.source == OutcomeSource::compare) r.rounds = o.baseline_round + "→" + o.round;
  return r;
}

// Outcome `o` paired with its prediction in the round it was measured against (compare: its
// baseline round, else `baseline`), and judged.
RecordChoice judged_record(const Outcome& o, const std::string& baseline,
                           const std::map<std::string, RoundPredictions>& rounds,
                           const OutcomeRun& run, double band) {
  const std::string round = o.source == OutcomeSource::compare ? o.baseline_round : baseline;
  const auto it = rounds.find(round);
  const RoundPredictions* preds = it == rounds.end() ? nullptr : &it->second;
  MatchKind kind = MatchKind::none;
  const Prediction* p = preds ? find_prediction(o, *preds, kind) : nullptr;
  OutcomeJudgement judged = judge_outcome(o, p, band);
  if (p && kind != MatchKind::exact)
    judged.flags.push_back(fmt::format("matched_{}", to_string(kind)));

  RecordChoice c;
  c.record = paired_record(o, preds, p, run);
  c.record.verdict = judged.verdict;
  c.record.flags = judged.flags;
  c.record.reason = judged.reason;
  c.round = o.round;
  c.defined = c.record.verdict != "undefined" && c.record.verdict != "unpredicted";
  return c;
}

// `c` added to `kept`, unless a record of its key is there: then the better of the two stays, and
// a note says which file superseded which.
void keep_best(RecordChoice c, std::vector<RecordChoice>& kept,
               std::map<std::array<std::string, 3>, std::size_t>& by_key,
               std::vector<std::string>& notes) {
  const auto [slot, fresh] = by_key.emplace(c.record.key(), kept.size());
  if (fresh) {
    kept.push_back(std::move(c));
    return;
  }
  RecordChoice& old = kept[slot->second];
  const bool replace = better(c, old);
  const RecordChoice& loser = replace ? old : c;
  const RecordChoice& winner = replace ? c : old;
  const LedgerRecord& r = c.record;
  notes.push_back(fmt::format("{} superseded by {} for ({}, {}, {})", loser.record.file,
                              winner.record.file, r.run, r.kernel, r.source));
  if (replace) old = std::move(c);
}

}  // namespace

std::optional<double> LedgerRecord::speedup() const {
  if (isolated_speedup && std::isfinite(*isolated_speedup) && *isolated_speedup > 0)
    return isolated_speedup;
  if (in_situ_speedup && std::isfinite(*in_situ_speedup) && *in_situ_speedup > 0)
    return in_situ_speedup;
  return std::nullopt;
}

ojson ledger_record_json(const LedgerRecord& r) {
  ojson j;
  j["key"] = ojson::array({r.run, r.kernel, r.source});
  j["run"] = r.run;
  j["arch"] = str_or_null(r.arch);
  j["product"] = str_or_null(r.product);
  j["model"] = str_or_null(r.model);
  j["op_class"] = str_or_null(r.op_class);
  j["regime"] = str_or_null(r.regime);
  j["stage"] = str_or_null(r.stage);
  j["confidence"] = str_or_null(r.confidence);
  if (r.predicted_present) {
    const Prediction& p = r.predicted;
    j["predicted"] = {{"roofline_pct", json_number(p.roofline_pct)},
                      {"target_eff", json_number(p.target_eff)},
                      {"attainable_speedup", json_number(p.attainable_speedup)},
                      {"expected_e2e_gain_pct", json_number(p.expected_e2e_gain_pct)},
                      {"bytes_est", json_number(p.bytes_est)},
                      {"t_unit_ms", json_number(p.t_unit_ms)},
                      {"headroom_class", str_or_null(p.headroom_class)},
                      {"suspect", p.suspect},
                      {"pct_gpu_time", json_number(p.pct_gpu_time)},
                      {"t_ms", json_number(p.t_ms)},
                      {"ceiling", to_string(p.ceiling)}};
    if (p.band_speedup_lo && p.band_speedup_hi)  // docs/method.md §10.8
      j["predicted"]["attainable_speedup_band"] = {json_number(p.band_speedup_lo),
                                                   json_number(p.band_speedup_hi)};
  } else {
    j["predicted"] = nullptr;
  }
  j["measured"] = {{"isolated_speedup", json_number(r.isolated_speedup)},
                   {"e2e_delta_pct", json_number(r.e2e_delta_pct)},
                   {"source", r.source},
                   {"gate", str_or_null(r.gate)},
                   {"in_situ_speedup", json_number(r.in_situ_speedup)},
                   {"pct_gpu_time", json_number(r.measured_pct)},
                   {"file", r.file},
                   {"rounds", str_or_null(r.rounds)}};
  j["verdict"] = r.verdict;
  j["flags"] = r.flags;
  j["reason"] = r.reason;
  return j;
}

std::optional<LedgerRecord> parse_ledger_record(const nlohmann::json& j, std::string& error) {
  if (!j.is_object()) {
    error = "not a JSON object";
    return std::nullopt;
  }
  const auto key = j.find("key");
  if (key == j.end() || !key->is_array() || key->size() != 3 ||
      !std::all_of(key->begin(), key->end(), [](const auto& k) { return k.is_string(); })) {
    error = "no key [run, kernel, source] of three strings";
    return std::nullopt;
  }
  std::vector<std::string> problems;
  FieldReader f("", problems);
  LedgerRecord r;
  r.run = (*key)[0].get<std::string>();
  r.kernel = (*key)[1].get<std::string>();
  r.source = (*key)[2].get<std::string>();
  r.arch = text_field(f, j, "arch");
  r.product = text_field(f, j, "product");
  r.model = text_field(f, j, "model");
  r.op_class = text_field(f, j, "op_class");
  r.regime = text_field(f, j, "regime");
  r.stage = text_field(f, j, "stage");
  r.confidence = text_field(f, j, "confidence");
  if (const auto* p = f.object(j, "predicted", "predicted")) read_record_prediction(f, *p, r);
  if (const auto* m = f.object(j, "measured", "measured")) read_record_measurement(f, *m, r);
  r.verdict = text_field(f, j, "verdict");
  if (const auto* flags = f.array(j, "flags", "flags"))
    for (const auto& fl : *flags)
      if (fl.is_string()) r.flags.push_back(fl.get<std::string>());
  r.reason = text_field(f, j, "reason");
  if (!problems.empty()) {
    // FieldReader prefixes an empty file name: drop the leading ": ".
    error = problems.front().substr(problems.front().rfind(": ", 1) == 0 ? 2 : 0);
    return std::nullopt;
  }
  return r;
}

std::vector<LedgerRecord> build_ledger_records(
    const std::vector<Outcome>& outcomes, const std::string& baseline,
    const std::map<std::string, RoundPredictions>& rounds, const OutcomeRun& run, double band,
    std::vector<std::string>& notes) {
  std::vector<RecordChoice> kept;
  std::map<std::array<std::string, 3>, std::size_t> by_key;
  for (const Outcome& o : outcomes)
    keep_best(judged_record(o, baseline, rounds, run, band), kept, by_key, notes);
  std::vector<LedgerRecord> out;
  for (auto& c : kept) out.push_back(std::move(c.record));
  std::stable_sort(out.begin(), out.end(), [](const LedgerRecord& x, const LedgerRecord& y) {
    if (x.kernel != y.kernel) return x.kernel < y.kernel;
    return source_precedence(x.source) < source_precedence(y.source);
  });
  return out;
}

}  // namespace roofline::outcomes
