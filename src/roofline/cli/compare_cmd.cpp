// The `compare` subcommand (docs/method.md §17.1).
#include "roofline/cli/compare_cmd.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include <fmt/format.h>

#include "roofline/cli/analyze_steps.hpp"
#include "roofline/cli/common.hpp"
#include "roofline/cli/input_checks.hpp"
#include "roofline/cli/layer.hpp"
#include "roofline/cli/round_args.hpp"
#include "roofline/inputs/eval_inputs.hpp"
#include "roofline/inputs/load.hpp"
#include "roofline/outcomes/compare.hpp"
#include "roofline/outcomes/rounds.hpp"
#include "roofline/render/report.hpp"
#include "roofline/topn/readers/input_kind.hpp"

namespace roofline::cli {
namespace fs = std::filesystem;

namespace {

// The two rounds of `args`: exactly two, both present, and different; else a usage error.
void check_rounds(const CompareArgs& args, const fs::path& dir) {
  if (args.rounds.size() != 2)
    throw UsageError(fmt::format(
        "compare: --round must be given exactly twice (A, then B); got {} round(s) (or give two "
        "traces: roofline compare BEFORE AFTER --config config.json)",
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

// What a comparison reads: each round's predictions (its analysis) and Top-N, the config that
// counts steps, and where the comparison is written.
struct Rounds {
  std::string a, b;
  RoundPredictions preds_a, preds_b;
  std::optional<TopnDocument> topn_a;
  TopnDocument topn_b;
  InputFile<ModelConfig> config;
  fs::path out;       // round B's folder: the comparison is written there
  fs::path folder_a;  // the trace form: round A's folder
};

// `--round A --round B --dir D`: A's predictions, B's measurements and B's analysis (its artifact,
// else in memory: what its kernels are, for the pairing).
Rounds folder_rounds(const CompareArgs& args) {
  const fs::path dir = args.dir;
  check_rounds(args, dir);
  Rounds r;
  r.a = args.rounds[0];
  r.b = args.rounds[1];
  r.topn_b = load_measurements(dir, r.b);
  r.preds_a = load_predictions(dir, r.a);
  r.preds_b = load_round_predictions(dir, r.b);
  r.topn_a = load_baseline_topn(dir, r.a);
  r.config = load_config(dir, r.b);
  r.out = round_dir(dir, r.b);
  return r;
}

// The trace form's options apart from the folder form's, and exactly two traces.
void check_trace_form(const CompareArgs& args) {
  const AnalyzeArgs& an = args.analyze;
  const GivenArgs& g = an.given;
  const bool analyze_options = an.paths.config || an.paths.env || an.paths.peaks ||
                               an.head_threshold || !g.product.empty() || g.conc || g.isl ||
                               g.osl || g.tp || !g.regime.empty() || !an.classify.empty() ||
                               !args.captures_before.empty() || !args.captures_after.empty() ||
                               args.max_entries;
  if (args.traces.empty()) {
    if (analyze_options)
      throw UsageError(
          "compare: --config, --env, --peaks, --head-threshold, --max-entries, --classify, "
          "--capture-before/--capture-after and the run's --product, --conc, --isl, --osl, --tp, "
          "--regime analyse two traces (roofline compare BEFORE AFTER --config config.json); "
          "with --round the rounds' own analyses are compared");
    return;
  }
  if (!args.rounds.empty() || args.dir != ".")
    throw UsageError(
        "compare: give two traces (roofline compare BEFORE AFTER --config config.json) or "
        "--round A --round B [--dir D], not both");
  if (args.traces.size() != 2)
    throw UsageError(fmt::format(
        "compare: two traces, BEFORE then AFTER (the profile before and after one change); got {}",
        args.traces.size()));
  if (trace_stem(args.traces[0]) == trace_stem(args.traces[1]))
    throw UsageError(fmt::format(
        "compare: both traces would be written to ./{}/ (analyze names the folder after the "
        "trace): give the two traces different names; nothing written",
        trace_stem(args.traces[0])));
  for (const auto& t : args.traces)
    if (const InputKindInfo k = sniff_input_kind(t);
        k.kind == InputKind::topn || k.kind == InputKind::roofline_artifact)
      throw UsageError(fmt::format(
          "compare {}: this is {}, not a profiler trace (rounds of an evaluation folder are "
          "compared with --round A --round B --dir D); nothing written",
          fs::path(t).generic_string(), k.what));
}

// One trace's folder read back as a round: the artifact its analysis wrote and its Top-N.
void read_trace_round(const fs::path& dir, RoundPredictions& preds,
                      std::optional<TopnDocument>& topn) {
  const std::string artifact = (dir / "profile_roofline.json").generic_string();
  FileText text = read_text_file(dir / "profile_roofline.json", k_max_json_bytes);
  preds = parse_predictions(text.text, artifact);
  for (const auto& p : preds.problems) err_line("warning: " + p);
  const std::string topn_name = (dir / "profile_topN.json").generic_string();
  FileText t = read_text_file(dir / "profile_topN.json", k_max_json_bytes);
  topn = parse_topn(t.text, topn_name).value;
  if (!topn) throw UsageError(fmt::format("compare: {} could not be read back", topn_name));
}

// `compare BEFORE AFTER`: each trace read and analysed as `analyze TRACE` does, both before
// anything is written; each round written where `analyze TRACE` writes it. nullopt with `exit`
// set when a trace cannot be read or a round cannot be written.
std::optional<Rounds> trace_rounds(const CompareArgs& args, int& exit) {
  AnalyzeArgs base = args.analyze;
  base.traces = args.traces;
  check_input_kinds(base);
  std::vector<TraceRun> runs;
  for (const auto& t : args.traces) {
    AnalyzeArgs a = args.analyze;
    a.traces = {t};
    a.captures = runs.empty() ? args.captures_before : args.captures_after;
    if (args.max_entries) a.options.scope.max_entries = *args.max_entries;
    a.format = "quiet";
    std::optional<TraceRun> run = prepare_trace_run(std::move(a));
    if (!run) {
      err_line("nothing written: fix the trace above");
      exit = k_exit_usage;
      return std::nullopt;
    }
    runs.push_back(std::move(*run));
  }
  if (fs::weakly_canonical(fs::absolute(runs[0].dir)) ==
      fs::weakly_canonical(fs::absolute(runs[1].dir)))
    throw UsageError(fmt::format(
        "compare: both traces would be written to {}/ (analyze names the folder after the trace): "
        "give the two traces different names; nothing written",
        runs[0].dir.generic_string()));
  for (const auto& run : runs)
    if (const int code = write_trace_run(run); code != k_exit_ok) {
      exit = code;
      return std::nullopt;
    }
  Rounds r;
  r.a = trace_stem(args.traces[0]);
  r.b = trace_stem(args.traces[1]);
  std::optional<TopnDocument> topn_b;
  read_trace_round(runs[0].dir, r.preds_a, r.topn_a);
  read_trace_round(runs[1].dir, r.preds_b, topn_b);
  r.topn_b = std::move(*topn_b);
  r.config = runs[1].inputs.config;
  r.out = runs[1].dir;
  r.folder_a = runs[0].dir;
  return r;
}

}  // namespace

int run_compare(const CompareArgs& args) {
  check_trace_form(args);
  int exit = k_exit_ok;
  std::optional<Rounds> rounds =
      args.traces.empty() ? std::optional<Rounds>(folder_rounds(args)) : trace_rounds(args, exit);
  if (!rounds) return exit;
  const Rounds& r = *rounds;

  CompareInput in;
  in.config = r.config.loaded.value ? &*r.config.loaded.value : nullptr;
  in.baseline_round = r.a;
  in.round = r.b;
  in.a = &r.preds_a;
  in.b = &r.preds_b;
  in.topn_a = r.topn_a ? &*r.topn_a : nullptr;
  in.topn_b = &r.topn_b;
  in.noise_isolated = args.noise_isolated;
  const Comparison c = compare_rounds(in);

  const std::string json_text =
      comparison_json(c).dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) +
      "\n";
  const std::string md_text = render_comparison_markdown(c);
  if (!write_comparison(r.out, json_text, md_text)) return k_exit_write;
  print_comparison(args.format, c, json_text, r.out);
  if (!args.traces.empty() && args.format == "text")
    std::fputs(fmt::format("  rounds written where analyze writes them: {}/ and {}/\n",
                           r.folder_a.generic_string(), r.out.generic_string())
                   .c_str(),
               stdout);
  return fails_on(args.fail_on, c, r.a, r.b) ? k_exit_strict : k_exit_ok;
}

}  // namespace roofline::cli
