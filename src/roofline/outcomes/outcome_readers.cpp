// Reading the workflow's outcome files (docs/method.md §17.2). Defensive: a missing or mistyped
// field is one message naming the file and the field; the outcome is kept as undefined, or skipped
// with the reason when it names no kernel. Never throws.
#include <algorithm>
#include <system_error>

#include <fmt/format.h>

#include "roofline/inputs/json_input.hpp"
#include "roofline/inputs/load.hpp"
#include "roofline/outcomes/layer.hpp"
#include "roofline/outcomes/outcomes.hpp"
#include "roofline/outcomes/rounds.hpp"
#include "roofline/outcomes/util.hpp"

namespace roofline::outcomes {
namespace fs = std::filesystem;

namespace {

constexpr int k_max_depth = 64;
constexpr std::size_t k_max_outcome_bytes = std::size_t{64} << 20;
constexpr int k_max_exp_depth = 8;

// A numeric field the verdict needs: a problem with it makes the outcome undefined.
std::optional<double> needed_number(FieldReader& f, const json& doc, const char* key, Outcome& o,
                                    const std::vector<std::string>& problems) {
  const std::size_t before = problems.size();
  auto v = f.number(doc, key, key);
  if (problems.size() > before && o.undefined_reason.empty())
    o.undefined_reason = fmt::format("{} is unreadable", key);
  return v;
}

std::string strip_task_suffix(std::string name) {
  constexpr std::string_view suffix = "_task";
  if (name.size() > suffix.size() &&
      name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
    name.resize(name.size() - suffix.size());
  return name;
}

void add_name(Outcome& o, const std::string& name) {
  if (name.empty()) return;
  for (const auto& n : o.names)
    if (n.name == name) return;
  o.names.push_back({name, name});
}

bool lower_in(const std::string& value, std::initializer_list<std::string_view> words) {
  const std::string v = lower_ascii(trim(value));
  return std::find(words.begin(), words.end(), v) != words.end();
}

// Sorted regular files `dir/*/<file>` of the folders named `want_prefix`… (except `skip`).
std::vector<fs::path> child_files(const fs::path& dir, const std::string& file,
                                  std::string_view want_prefix, std::string_view skip) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.rfind(want_prefix, 0) != 0) continue;
    if (name == skip) continue;
    std::error_code fe;
    if (fs::is_regular_file(it->path() / file, fe)) out.push_back(it->path() / file);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<fs::path> tree_files(const fs::path& dir, const std::string& file) {
  std::vector<fs::path> out;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return out;
  fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    if (it.depth() >= k_max_exp_depth) it.disable_recursion_pending();
    std::error_code fe;
    if (it->path().filename() == file && it->is_regular_file(fe)) out.push_back(it->path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

void parse_opbench_result(std::string_view text, const std::string& file, const std::string& folder,
                          OutcomeScan& out) {
  auto doc = parse_json_object(text, file, k_max_depth, out.problems);
  if (!doc) return;
  FieldReader f(file, out.problems);
  Outcome o;
  o.source = OutcomeSource::opbench;
  o.file = file;
  const std::string task = f.string(*doc, "task", "task").value_or("");
  o.kernel = !task.empty() ? strip_task_suffix(task) : strip_task_suffix(folder);
  add_name(o, task);
  add_name(o, strip_task_suffix(task));
  add_name(o, strip_task_suffix(folder));
  if (o.names.empty()) {
    f.error("task", "missing, and no kernels/<name>_task folder name: outcome skipped");
    return;
  }
  o.isolated_speedup = needed_number(f, *doc, "isolated_speedup", o, out.problems);
  o.pct_gpu_time = f.number(*doc, "pct_gpu_time", "pct_gpu_time");
  const std::size_t b = out.problems.size();
  const auto measured = f.boolean(*doc, "measured", "measured");
  const auto suspect = f.boolean(*doc, "harness_suspect", "harness_suspect");
  if (out.problems.size() > b && o.undefined_reason.empty())
    o.undefined_reason = "measured / harness_suspect unreadable (see the message on this file)";
  if (measured && !*measured) o.undefined_reason = "not measured (measured: false)";
  if (suspect && *suspect) {
    o.flags.push_back("harness_suspect");
    if (o.undefined_reason.empty()) o.undefined_reason = "the harness is suspect";
  }
  if (!o.isolated_speedup && o.undefined_reason.empty() && !f.find(*doc, "isolated_speedup"))
    f.error("isolated_speedup", "missing: outcome kept as undefined");
  out.outcomes.push_back(std::move(o));
}

void parse_director_validation(std::string_view text, const std::string& file, OutcomeScan& out) {
  auto doc = parse_json_object(text, file, k_max_depth, out.problems);
  if (!doc) return;
  FieldReader f(file, out.problems);
  Outcome o;
  o.source = OutcomeSource::director;
  o.file = file;
  o.kernel = f.string(*doc, "kernel_name", "kernel_name").value_or("");
  if (o.kernel.empty()) {
    f.error("kernel_name", "missing or empty: outcome skipped");
    return;
  }
  add_name(o, o.kernel);
  const char* key = f.find(*doc, "director_verified_speedup_weighted") &&
                            !f.find(*doc, "director_verified_speedup_weighted")->is_null()
                        ? "director_verified_speedup_weighted"
                        : "director_verified_speedup_geomean";
  o.isolated_speedup = needed_number(f, *doc, key, o, out.problems);
  if (!o.isolated_speedup && o.undefined_reason.empty())
    f.error("director_verified_speedup_weighted",
            "missing (and no director_verified_speedup_geomean): outcome kept as undefined");
  const std::string status = f.string(*doc, "validation_status", "validation_status").value_or("");
  if (lower_in(status, {"incomplete", "failed", "fail", "error", "pending", "skipped", "timeout",
                        "invalid", "not_run", "aborted"}))
    o.undefined_reason = fmt::format("validation_status {}", status);
  if (const json* c = f.find(*doc, "correctness"); c && !c->is_null()) {
    const bool failed =
        (c->is_boolean() && !c->get<bool>()) ||
        (c->is_string() &&
         lower_in(c->get<std::string>(), {"fail", "failed", "false", "incorrect", "mismatch"}));
    if (failed) o.undefined_reason = "correctness failed: the speedup is not of a correct kernel";
    if (!c->is_boolean() && !c->is_string() && !c->is_object())
      f.error("correctness", "expected true/false or a status string, got " + describe_type(*c));
  }
  out.outcomes.push_back(std::move(o));
}

void parse_integrate_result(std::string_view text, const std::string& file, OutcomeScan& out) {
  auto doc = parse_json_object(text, file, k_max_depth, out.problems);
  if (!doc) return;
  FieldReader f(file, out.problems);
  Outcome o;
  o.source = OutcomeSource::integrate;
  o.file = file;
  o.kernel = f.string(*doc, "short_name", "short_name").value_or("");
  if (o.kernel.empty()) {
    f.error("short_name", "missing or empty: outcome skipped");
    return;
  }
  add_name(o, o.kernel);
  o.isolated_speedup = needed_number(f, *doc, "isolated_speedup", o, out.problems);
  o.pct_gpu_time = f.number(*doc, "pct_gpu_time", "pct_gpu_time");
  o.e2e_delta_pct = f.number(*doc, "e2e_delta_pct", "e2e_delta_pct");
  o.gate = f.string(*doc, "gate", "gate").value_or("");
  o.reason = f.string(*doc, "reason", "reason").value_or("");
  if (!o.gate.empty() && !lower_in(o.gate, {"accepted", "stack", "rejected", "incomplete"}))
    f.error("gate", fmt::format("'{}' is not accepted|stack|rejected|incomplete", o.gate));
  o.gate = lower_ascii(o.gate);
  out.outcomes.push_back(std::move(o));
}

namespace {

// How the row's kernel of round B was found (docs/method.md §17.1): a row without a counterpart
// (`gone`, an older file's `vanished`) measured nothing; the kernel it was paired with and how
// are kept for check_compare_pairings.
void read_row_pairing(FieldReader& f, const json& row, const std::string& path,
                      const std::vector<std::string>& status, Outcome& o) {
  o.match = f.string(row, "match", path + ".match").value_or("");
  o.name_b = f.string(row, "name_b", path + ".name_b").value_or("");
  for (const char* gone : {"gone", "vanished"})
    if (std::find(status.begin(), status.end(), gone) != status.end()) {
      o.flags.push_back("gone");
      o.undefined_reason = fmt::format("gone in round {}: no kernel there is it", o.round);
      return;
    }
  if (o.match == "role" || o.match == "only_of_class") o.flags.push_back("renamed_" + o.match);
}

}  // namespace

void parse_compare_rows(std::string_view text, const std::string& file, OutcomeScan& out) {
  auto doc = parse_json_object(text, file, k_max_depth, out.problems);
  if (!doc) return;
  FieldReader f(file, out.problems);
  if (auto schema = f.string(*doc, "schema", "schema"); schema != "roofline-compare-v1") {
    f.error("schema", fmt::format("{} is not roofline-compare-v1: file skipped",
                                  schema ? "'" + *schema + "'" : std::string("missing")));
    return;
  }
  const std::string a = f.string(*doc, "baseline_round", "baseline_round").value_or("");
  const std::string b = f.string(*doc, "round", "round").value_or("");
  if (!valid_round_name(a) || !valid_round_name(b)) {
    f.error("baseline_round", "baseline_round and round must be round names: file skipped");
    return;
  }
  const json* rows = f.array(*doc, "rows", "rows");
  if (!rows) return;
  for (std::size_t i = 0; i < rows->size(); ++i) {
    const json& row = (*rows)[i];
    const std::string path = fmt::format("rows[{}]", i);
    Outcome o;
    o.source = OutcomeSource::compare;
    o.file = file;
    o.baseline_round = a;
    o.round = b;
    o.kernel = f.string(row, "name", path + ".name").value_or("");
    if (!row.is_object() || o.kernel.empty()) {
      f.error(path + ".name", "missing or empty: row skipped");
      continue;
    }
    std::vector<std::string> status;
    if (const json* st = f.array(row, "status", path + ".status"))
      for (const json& s : *st)
        if (s.is_string()) status.push_back(s.get<std::string>());
    if (std::find(status.begin(), status.end(), "new") != status.end()) continue;  // no prediction
    o.names.push_back({o.kernel, f.string(row, "short_name", path + ".short_name").value_or("")});
    std::size_t before = out.problems.size();
    o.in_situ_speedup = f.number(row, "speedup", path + ".speedup");
    o.pct_gpu_time = f.number(row, "pct_a", path + ".pct_a");
    if (out.problems.size() > before) o.undefined_reason = "a row field is unreadable";
    read_row_pairing(f, row, path, status, o);
    out.outcomes.push_back(std::move(o));
  }
}

OutcomeScan read_outcome_files(const fs::path& eval_dir) {
  OutcomeScan out;
  auto each = [&](const std::vector<fs::path>& files, auto&& parse) {
    for (const auto& path : files) {
      const std::string display = display_relative(path, eval_dir);
      ++out.files;
      FileText text = read_text_file(path, k_max_outcome_bytes);
      if (!text.error.empty()) {
        out.problems.push_back(fmt::format("{}: {}", display, text.error));
        continue;
      }
      parse(text.text, display, path);
    }
  };
  each(child_files(eval_dir / "kernels", "opbench_result.json", "", "_exp"),
       [&](std::string_view t, const std::string& d, const fs::path& p) {
         parse_opbench_result(t, d, p.parent_path().filename().string(), out);
       });
  each(tree_files(eval_dir / "kernels" / "_exp", "director_validation.json"),
       [&](std::string_view t, const std::string& d, const fs::path&) {
         parse_director_validation(t, d, out);
       });
  each(child_files(eval_dir / "overlay", "integrate_result.json", "cand_", ""),
       [&](std::string_view t, const std::string& d, const fs::path&) {
         parse_integrate_result(t, d, out);
       });
  std::vector<fs::path> compares;
  for (const auto& r : rounds_in(eval_dir)) {
    std::error_code ec;
    const fs::path p = round_dir(eval_dir, r) / "roofline_compare.json";
    if (fs::is_regular_file(p, ec)) compares.push_back(p);
  }
  each(compares, [&](std::string_view t, const std::string& d, const fs::path&) {
    parse_compare_rows(t, d, out);
  });
  return out;
}

}  // namespace roofline::outcomes
