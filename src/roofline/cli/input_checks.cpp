// check_input_kinds (input_checks.hpp): each named file sniffed once (sniff_input_kind) and
// checked against what its option reads; the message says what the file is and where it goes.
#include "roofline/cli/input_checks.hpp"

#include <initializer_list>
#include <string>

#include <fmt/format.h>

#include "roofline/cli/common.hpp"
#include "roofline/topn/readers/input_kind.hpp"

namespace roofline::cli {
namespace input_checks_impl {  // named, not anonymous: unity batches share one translation unit

namespace fs = std::filesystem;

// Where a file of this kind belongs on analyze's command line.
std::string belongs(InputKind kind) {
  switch (kind) {
    case InputKind::profiler_trace:
    case InputKind::rocprof_json:
    case InputKind::kernel_csv:
      return "analyse a trace with `roofline analyze TRACE --config config.json`";
    case InputKind::topn:
      return "give it to --topn";
    case InputKind::model_config:
      return "give it to --config";
    case InputKind::env_report:
      return "give it to --env";
    case InputKind::counters_csv:
      return "give it to --counters";
    case InputKind::workload:
      return "it is read from beside its Top-N: name the Top-N with --topn";
    case InputKind::roofline_artifact:
      return "it is what analyze writes, not an input";
    case InputKind::capture_details:
      return "give its folder to --capture";
    default:
      return "";
  }
}

bool is_file(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec);
}

// An input named on the command line that is empty is a usage error: there is nothing to read,
// and a run on it would go on without what was asked for.
void check_not_empty(const std::string& option, const fs::path& p) {
  std::error_code ec;
  if (is_file(p) && fs::file_size(p, ec) == 0 && !ec)
    throw UsageError(
        fmt::format("{}{}: the file is empty; nothing written", option, p.generic_string()));
}

bool ends_with_csv(const fs::path& p) {
  const std::string f = p.filename().string();
  for (std::string_view ext : {".csv", ".csv.gz"})
    if (f.size() >= ext.size() && f.compare(f.size() - ext.size(), ext.size(), ext) == 0)
      return true;
  return false;
}

// A kind the reader of `expected` could never read: another recognised document (a kernel CSV
// only by its .csv name: a broken file stays the reader's to report).
bool wrong_kind(const InputKindInfo& info, InputKind expected, const fs::path& p) {
  if (info.kind == expected) return false;
  switch (info.kind) {
    case InputKind::unreadable:
    case InputKind::other:
    case InputKind::other_json:
      return false;
    case InputKind::kernel_csv:
      return ends_with_csv(p);
    default:
      return true;
  }
}

[[noreturn]] void refuse(const std::string& option, const fs::path& p, const InputKindInfo& info,
                         const char* expected) {
  const std::string where = belongs(info.kind);
  throw UsageError(fmt::format("{}{}: this is {}, not {}{}; nothing written", option,
                               p.generic_string(), info.what, expected,
                               where.empty() ? "" : " (" + where + ")"));
}

void check_one(const std::string& option, const fs::path& p, InputKind expected,
               const char* expected_text) {
  if (!is_file(p)) return;  // a folder (--counters, --capture), or missing: checked elsewhere
  check_not_empty(option, p);
  const InputKindInfo info = sniff_input_kind(p);
  if (wrong_kind(info, expected, p)) refuse(option, p, info, expected_text);
}

// A trace must be a trace: a JSON document of another kind is named too (its reader would say
// "not a trace" only after reading it).
void check_trace(const std::string& option, const fs::path& p) {
  if (!is_file(p)) return;
  check_not_empty(option, p);
  const InputKindInfo info = sniff_input_kind(p);
  if (is_trace_kind(info.kind) || info.kind == InputKind::unreadable ||
      info.kind == InputKind::other)
    return;
  if (option == "--capture " && info.kind == InputKind::capture_details) return;
  refuse(option, p, info, "a profiler trace");
}

}  // namespace input_checks_impl

bool misnamed_trace(const std::string& path) {
  const fs::path p(path);
  if (!input_checks_impl::is_file(p)) return false;
  std::error_code ec;
  if (fs::file_size(p, ec) == 0 && !ec) return true;
  const InputKind kind = sniff_input_kind(p).kind;
  return !(is_trace_kind(kind) || kind == InputKind::unreadable || kind == InputKind::other);
}

void check_input_kinds(const AnalyzeArgs& a) {
  for (const auto& t : a.traces) input_checks_impl::check_trace("", t);
  for (const auto& c : a.captures) input_checks_impl::check_trace("--capture ", c);
  const InputPaths& p = a.paths;
  if (p.topn)
    input_checks_impl::check_one("--topn ", *p.topn, InputKind::topn,
                                 "a Top-N (profile_topN.json)");
  if (p.config)
    input_checks_impl::check_one("--config ", *p.config, InputKind::model_config,
                                 "a model config.json");
  if (p.env)
    input_checks_impl::check_one("--env ", *p.env, InputKind::env_report, "an env_report.json");
  if (p.peaks)
    input_checks_impl::check_one("--peaks ", *p.peaks, InputKind::other,
                                 "a peaks table (peaks.md)");
  // A kernel CSV given as counters is the counter reader's to name (it says which CSV it is);
  // --calibration has its own check (require_calibration: the schema it expected).
  for (const auto& c : p.counters)
    if (input_checks_impl::is_file(c) && sniff_input_kind(c).kind != InputKind::kernel_csv)
      input_checks_impl::check_one("--counters ", c, InputKind::counters_csv, "a counter CSV");
}

}  // namespace roofline::cli
