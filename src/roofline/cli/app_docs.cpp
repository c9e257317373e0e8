// The program-wide documentation: exit statuses, environment, files and examples.
#include "roofline/cli/app_docs.hpp"

#include <fmt/format.h>

#include "roofline/analyze/steps/scope_to_head.hpp"
#include "roofline/cli/layer.hpp"

namespace roofline::cli {
namespace {

std::vector<DocItem> exit_status_docs() {
  return {
      {"0",
       "Written (every subcommand): the artifacts or output files were written, even when "
       "entries are degraded or have skill errors; calc computed; counters: every file usable; "
       "peaks check: the table is sound; analyze switched off by ANALYSIS_SKILL (L0, nothing "
       "written)."},
      {"1",
       "A check that was asked for failed, the outputs still written: analyze --strict when "
       "something is degraded or a skill error occurred; compare --fail-on when its condition "
       "holds; peaks check when the table is not sound. No other case exits 1."},
      {"2",
       "Usage error, nothing written (every subcommand): a bad option or option value; a round "
       "that does not exist (the message lists those that do); a file named on the command line "
       "that is missing, empty, unreadable, truncated, of no supported format or of another kind "
       "than its option reads (a config given as a trace, a trace as a config, a Top-N as a "
       "config); counters: a file with no usable row; calc: a part the peaks table lacks, or an "
       "arch its parts share without --product (the error lists them)."},
      {"3",
       "Nothing could be written: an output folder or file that cannot be created or replaced "
       "(a read-only folder, a path through a file). Never for a folder that does not exist yet: "
       "-o and --out create it."},
  };
}

std::vector<DocItem> environment_docs() {
  return {
      {"ANALYSIS_SKILL",
       "When set and non-empty, analyze runs only if the comma-separated list names roofline, all "
       "or *; any other value (e.g. none) makes it write nothing and exit 0 (level L0)."},
      {"HEAD_THRESHOLD_PCT",
       fmt::format("The head threshold of analyze, in percent of GPU time (0 to 100), when "
                   "--head-threshold is not given; default {:g}.",
                   k_default_head_threshold_pct)},
      {"ROOFLINE_LEDGER",
       "The outcome ledger that outcomes writes and calibrate reads when --ledger is not given."},
      {"ROOFLINE_CALIBRATION",
       "The roofline_calibration.json that analyze reads when --calibration is not given; a file "
       "that is missing or not a calibration is a usage error."},
      {"NO_COLOR",
       "Set and non-empty: no colour in the text summary under --color auto (as with TERM=dumb "
       "or when stdout is not a terminal)."},
  };
}

std::vector<DocItem> file_docs() {
  return {
      {"D/profile/round_R/profile_topN.json",
       "The standardized Top-N of round R of the evaluation folder D (--dir), which analyze "
       "reads and topn writes (with profile_workload.json beside it)."},
      {"D/env_report.json", "The environment report (else D/profile/round_R/env_report.json)."},
      {"D/config.json",
       "The model's HuggingFace config (first the one beside the model path of the environment "
       "report)."},
      {"D/profile/round_R/profile_roofline.json, .md, .svg",
       "What analyze writes: the artifact, the report and the roofline chart."},
      {"D/profile/round_B/roofline_compare.json, .md", "What compare writes."},
      {"D/roofline_outcomes.jsonl",
       "The outcome ledger of outcomes (JSON Lines); calibrate reads ./roofline_outcomes.jsonl "
       "by default."},
      {"roofline_calibration.json",
       "What calibrate writes beside the first ledger, and analyze --calibration reads."},
  };
}

std::vector<DocItem> example_docs() {
  return {
      {"roofline analyze trace.json.gz --config config.json",
       "One command from a profiler trace: the Top-N built in memory, the artifacts (and the "
       "Top-N) written into ./trace/."},
      {"roofline analyze --round 3",
       "Analyse ./profile/round_3 and write the artifacts beside it."},
      {"roofline analyze --round 1 --dir EVAL --format json | jq '.entries[0]'",
       "The artifact on stdout, for a script."},
      {"roofline topn trace.pt.trace.json.gz -o EVAL/profile/round_0/profile_topN.json",
       "A Top-N from a raw PyTorch profiler trace."},
      {"roofline compare --dir EVAL --round 0 --round 1 --fail-on regression",
       "Round 0's predictions against round 1's measurements; exit 1 on a regression."},
      {"roofline peaks show gfx950", "The peaks a part resolves to, and why."},
      {"roofline peaks measure-script > measure_peaks.py",
       "The script that measures a GPU's ceilings (run it with PyTorch on the GPU host)."},
      {"roofline calc --bytes 6.97e8 --flops 1.6e9 --time-us 98.9 --gfx gfx950 --dtype fp8 "
       "--class moe --pct 26.45",
       "The roofline arithmetic on numbers given by hand."},
  };
}

std::vector<DocItem> see_also_docs() {
  return {
      {"README.md",
       "The method, the inputs and the outputs, in the package's documentation folder "
       "(/usr/share/doc/roofline when installed from the package)."},
      {"/usr/share/roofline/measure_peaks.py",
       "The ceiling-measuring script, installed with the package beside peaks.md."},
      {"jq(1)", "For reading profile_roofline.json."},
  };
}

ProgramDocs make_docs() {
  ProgramDocs d;
  d.summary = "roofline headroom analyzer for recorded GPU profiles";
  d.exit_statuses = exit_status_docs();
  d.environment = environment_docs();
  d.files = file_docs();
  d.examples = example_docs();
  d.see_also = see_also_docs();
  return d;
}

// `text` as lines of at most `width` columns (a longer word stays whole), each after `indent`.
std::string wrap(const std::string& text, const std::string& indent, std::size_t width) {
  std::string out;
  std::string line;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(start, end - start);
    start = end + 1;
    if (word.empty()) continue;
    if (!line.empty() && indent.size() + line.size() + 1 + word.size() > width) {
      out += indent + line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  if (!line.empty()) out += indent + line + "\n";
  return out;
}

}  // namespace

const ProgramDocs& program_docs() {
  static const ProgramDocs docs = make_docs();
  return docs;
}

std::string help_footer(const ProgramDocs& docs) {
  std::string out = "Examples:\n";
  for (const auto& e : docs.examples) out += fmt::format("  {}\n", e.term);
  out += "\nExit status:\n";
  for (const auto& e : docs.exit_statuses) {
    const std::string body = wrap(e.text, "     ", 100);
    out += fmt::format("  {}  {}", e.term, body.substr(5));
  }
  out += "\nEnvironment:";
  for (const auto& e : docs.environment) out += fmt::format(" {}", e.term);
  out += " (man roofline says what each one does).";
  return out;
}

}  // namespace roofline::cli
