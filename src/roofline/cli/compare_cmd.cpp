// The `compare` subcommand (docs/method.md §17.1).
#include "roofline/cli/compare_cmd.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include <fmt/format.h>

#include "roofline/cli/common.hpp"
#include "roofline/cli/layer.hpp"
#include "roofline/cli/round_args.hpp"
#include "roofline/inputs/eval_inputs.hpp"
#include "roofline/inputs/load.hpp"
#include "roofline/outcomes/compare.hpp"
#include "roofline/outcomes/rounds.hpp"
#include "roofline/render/report.hpp"

namespace roofline::cli {
namespace fs = std::filesystem;

namespace {

// The two rounds of `args`: exactly two, both present, and different; else a usage error.
void check_rounds(const CompareArgs& args, const fs::path& dir) {
  if (args.rounds.size() != 2)
    throw UsageError(
        fmt::format("compare: --round must be given exactly twice (A, then B); got {} round(s)",
                    args.rounds.size()));
  for (const auto& r : args.rounds) require_round(dir, r, "compare --round");
  if (args.rounds[0] == args.rounds[1])
    throw UsageError(
        fmt::format("compare: --round {} twice: give two different rounds", args.rounds[0]));
}

// Round B's Top-N (its measurements); a usage error when it is missing or unusable.
TopnDocument load_measurements(const fs::path& dir, const std::string& b) {
  const fs::path topn_b_path = round_dir(dir, b) / "profile_topN.json";
  const std::string topn_b_name = fmt::format("profile/round_{}/profile_topN.json", b);
  FileText text_b = read_text_file(topn_b_path, k_max_json_bytes);
  if (!text_b.found)
    throw UsageError(
        fmt::format("compare --round {}: {} not found (round B's measurements)", b, topn_b_name));
  Loaded<TopnDocument> topn_b = parse_topn(text_b.text, topn_b_name);
  for (const auto& e : topn_b.errors) err_line("warning: " + e);
  if (!text_b.error.empty() || !topn_b.value)
    throw UsageError(fmt::format("compare --round {}: {} is unusable{}", b, topn_b_name,
                                 text_b.error.empty() ? "" : ": " + text_b.error));
  return std::move(*topn_b.value);
}

// Round A's predictions; a usage error when it has none and something was wrong.
RoundPredictions load_predictions(const fs::path& dir, const std::string& a) {
  RoundPredictions preds = load_round_predictions(dir, a);
  for (const auto& p : preds.problems) err_line("warning: " + p);
  if (preds.entries.empty() && !preds.problems.empty())
    throw UsageError(fmt::format("compare --round {}: round {} has no predictions ({})", a, a,
                                 preds.problems.front()));
  return preds;
}

// Round A's Top-N, when it is there and readable (for its GPU time per step).
std::optional<TopnDocument> load_baseline_topn(const fs::path& dir, const std::string& a) {
  if (FileText t = read_text_file(round_dir(dir, a) / "profile_topN.json", k_max_json_bytes);
      t.found && t.error.empty())
    return parse_topn(t.text, fmt::format("profile/round_{}/profile_topN.json", a)).value;
  return std::nullopt;
}

// The model config of round B: the layer plan counts steps when the Top-Ns have no step
// annotations (docs/method.md §6.4).
InputFile<ModelConfig> load_config(const fs::path& dir, const std::string& b) {
  InputPaths config_paths;
  config_paths.eval_dir = dir;
  config_paths.round = b;
  return load_run_config(config_paths);
}

// roofline_compare.json and .md into `out`; false (after saying why) when one cannot be written.
bool write_comparison(const fs::path& out, const std::string& json_text,
                      const std::string& md_text) {
  for (const auto& [name, text] : {std::pair{"roofline_compare.json", &json_text},
                                   std::pair{"roofline_compare.md", &md_text}}) {
    if (const auto error = write_atomic(out / name, *text)) {
      err_line("comparison not written: " + *error);
      return false;
    }
  }
  return true;
}

// The comparison on stdout in `format` (json: the artifact; text: the summary and the files
// written; anything else: nothing).
void print_comparison(const std::string& format, const Comparison& c, const std::string& json_text,
                      const fs::path& out) {
  if (format == "json") {
    std::fwrite(json_text.data(), 1, json_text.size(), stdout);
  } else if (format == "text") {
    std::string t = render_comparison_text(c);
    t += fmt::format("  wrote {}\n  wrote {}\n", (out / "roofline_compare.json").string(),
                     (out / "roofline_compare.md").string());
    std::fwrite(t.data(), 1, t.size(), stdout);
  }
}

// Whether a --fail-on condition holds; says which rows meet each one that does.
bool fails_on(const std::vector<std::string>& fail_on, const Comparison& c, const std::string& a,
              const std::string& b) {
  bool fail = false;
  for (const auto& f : fail_on) {
    const std::string status = f == "regression" ? "regressed" : "contradiction";
    std::string which;
    for (const auto& r : c.rows)
      if (std::find(r.status.begin(), r.status.end(), status) != r.status.end())
        which += fmt::format("{}'{}' {:.3f}×", which.empty() ? "" : ", ", r.name,
                             r.speedup.value_or(0.0));
    if (which.empty()) continue;
    err_line(
        fmt::format("--fail-on {}: {} in round {} against round {}: {}", f, status, b, a, which));
    fail = true;
  }
  return fail;
}

}  // namespace

int run_compare(const CompareArgs& args) {
  const fs::path dir = args.dir;
  check_rounds(args, dir);
  const std::string& a = args.rounds[0];
  const std::string& b = args.rounds[1];
  const TopnDocument topn_b = load_measurements(dir, b);
  const RoundPredictions preds = load_predictions(dir, a);
  // What round B's kernels are, for the pairing: its artifact, else its analysis in memory (its
  // problems are round B's own, reported when it is analysed).
  const RoundPredictions preds_b = load_round_predictions(dir, b);
  const std::optional<TopnDocument> topn_a = load_baseline_topn(dir, a);
  const InputFile<ModelConfig> config = load_config(dir, b);

  CompareInput in;
  in.config = config.loaded.value ? &*config.loaded.value : nullptr;
  in.baseline_round = a;
  in.round = b;
  in.a = &preds;
  in.b = &preds_b;
  in.topn_a = topn_a ? &*topn_a : nullptr;
  in.topn_b = &topn_b;
  in.noise_isolated = args.noise_isolated;
  const Comparison c = compare_rounds(in);

  const std::string json_text =
      comparison_json(c).dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) +
      "\n";
  const std::string md_text = render_comparison_markdown(c);
  const fs::path out = round_dir(dir, b);
  if (!write_comparison(out, json_text, md_text)) return k_exit_write;
  print_comparison(args.format, c, json_text, out);
  return fails_on(args.fail_on, c, a, b) ? k_exit_strict : k_exit_ok;
}

}  // namespace roofline::cli
