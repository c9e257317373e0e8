// A compare file's rows held to the pairing compare makes today (docs/method.md §17.2): a row
// that joined two different kernels never becomes a verdict or a band miss.
#include <map>
#include <optional>
#include <utility>

#include <fmt/format.h>

#include "roofline/inputs/load.hpp"
#include "roofline/outcomes/compare.hpp"
#include "roofline/outcomes/layer.hpp"
#include "roofline/outcomes/outcomes.hpp"
#include "roofline/outcomes/rounds.hpp"
#include "roofline/outcomes/util.hpp"

namespace roofline::outcomes {
namespace fs = std::filesystem;

namespace {

// A round's Top-N, when its folder holds a readable one.
std::optional<TopnDocument> round_topn(const fs::path& eval_dir, const std::string& round) {
  const fs::path path = round_dir(eval_dir, round) / "profile_topN.json";
  FileText text = read_text_file(path, k_max_json_bytes);
  if (!text.found || !text.error.empty()) return std::nullopt;
  return parse_topn(text.text, display_relative(path, eval_dir)).value;
}

// The pairing between rounds `a` and `b` as compare makes it; nullopt with `why` set when a round
// lacks what it needs.
std::optional<std::map<std::string, std::string>> rounds_pairing(const fs::path& eval_dir,
                                                                 const std::string& a,
                                                                 const std::string& b,
                                                                 std::string& why) {
  std::error_code ec;
  if (!fs::is_directory(round_dir(eval_dir, a), ec) ||
      !fs::is_directory(round_dir(eval_dir, b), ec)) {
    why = fmt::format("round {} or round {} is not in this folder", a, b);
    return std::nullopt;
  }
  const std::optional<TopnDocument> topn_b = round_topn(eval_dir, b);
  if (!topn_b) {
    why = fmt::format("round {}'s profile_topN.json cannot be read", b);
    return std::nullopt;
  }
  const RoundPredictions preds_a = load_round_predictions(eval_dir, a);
  const RoundPredictions preds_b = load_round_predictions(eval_dir, b);
  const std::optional<TopnDocument> topn_a = round_topn(eval_dir, a);
  CompareInput in;
  in.baseline_round = a;
  in.round = b;
  in.a = &preds_a;
  in.b = &preds_b;
  in.topn_a = topn_a ? &*topn_a : nullptr;
  in.topn_b = &*topn_b;
  return pair_rounds(in);
}

}  // namespace

void hold_to_pairing(Outcome& o, const std::map<std::string, std::string>* pairing,
                     const std::string& unchecked) {
  if (o.source != OutcomeSource::compare || !o.undefined_reason.empty()) return;
  if (!pairing) {
    if (o.match != "short_name") return;
    o.flags.push_back("paired_by_short_name");
    o.undefined_reason = fmt::format(
        "paired with round {}'s '{}' by short name alone, which may be another kernel, and the "
        "pairing by role cannot be made ({})",
        o.round, o.name_b, unchecked);
    return;
  }
  const auto it = pairing->find(o.kernel);
  if (it == pairing->end() || it->second == o.name_b) return;
  o.flags.push_back("pairing_disputed");
  o.undefined_reason = fmt::format(
      "the comparison paired it with round {}'s '{}', but by role its counterpart there is {}: "
      "re-run `roofline compare`",
      o.round, o.name_b, it->second.empty() ? "none (gone)" : "'" + it->second + "'");
}

void check_compare_pairings(std::vector<Outcome>& outcomes, const fs::path& eval_dir,
                            std::vector<std::string>& notes) {
  std::map<std::pair<std::string, std::string>,
           std::pair<std::optional<std::map<std::string, std::string>>, std::string>>
      made;
  for (Outcome& o : outcomes) {
    if (o.source != OutcomeSource::compare) continue;
    const auto key = std::make_pair(o.baseline_round, o.round);
    auto it = made.find(key);
    if (it == made.end()) {
      std::string why;
      auto pairing = rounds_pairing(eval_dir, o.baseline_round, o.round, why);
      if (!pairing)
        notes.push_back(
            fmt::format("{}: its rows cannot be held to the pairing by role: {}", o.file, why));
      it = made.emplace(key, std::make_pair(std::move(pairing), why)).first;
    }
    const auto& [pairing, why] = it->second;
    hold_to_pairing(o, pairing ? &*pairing : nullptr, why);
  }
}

}  // namespace roofline::outcomes
