// Step 0, load_inputs (docs/method.md §2.1 defaults, §2): reading an evaluation folder, the only
// I/O before the artifacts.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <fstream>

#include <fmt/format.h>

#include "roofline/base/text.hpp"
#include "roofline/inputs/eval_inputs.hpp"
#include "roofline/inputs/layer.hpp"
#include "roofline/inputs/peaks.hpp"

namespace roofline::inputs {
namespace fs = std::filesystem;

namespace {

template <class T, class Parse>
InputFile<T> load_file(const fs::path& path, const fs::path& eval_dir, const InputLimits& limits,
                       Parse parse) {
  InputFile<T> in;
  in.display = display_relative(path, eval_dir);
  FileText text = read_text_file(path, limits.max_bytes);
  in.found = text.found;
  if (!text.found) return in;
  if (!text.error.empty()) {
    in.loaded.errors.push_back(fmt::format("{}: {}", in.display, text.error));
    return in;
  }
  in.loaded = parse(text.text, in.display, limits);
  return in;
}

// A document built in memory (analyze TRACE), read as load_file reads a file's text.
template <class T, class Parse>
InputFile<T> built_file(const std::string& text, const std::string& display,
                        const InputLimits& limits, Parse parse) {
  InputFile<T> in;
  in.display = display;
  in.found = true;
  in.loaded = parse(text, in.display, limits);
  return in;
}

bool exists_file(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec);
}

// The files a --shapes / --counters argument names: the file itself, or the matching files
// under a folder (recursively, sorted so runs are deterministic).
std::vector<fs::path> expand(const fs::path& p, bool (*wanted)(const fs::path& file)) {
  std::error_code ec;
  if (!fs::is_directory(p, ec)) return {p};
  std::vector<fs::path> out;
  for (auto it =
           fs::recursive_directory_iterator(p, fs::directory_options::skip_permission_denied, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
    if (it->is_regular_file(ec) && wanted(it->path())) out.push_back(it->path());
  std::sort(out.begin(), out.end());
  return out;
}

bool is_probe_file(const fs::path& p) {
  const std::string f = p.filename().string();
  return f.size() > 5 && f.compare(f.size() - 5, 5, ".json") == 0 &&
         (f.rfind("probe_", 0) == 0 || f.find("per_shape_probe") != std::string::npos);
}

// An Nsight Compute `--csv` export has any name: its first lines say what it is (a details page
// names "Metric Name", a raw page the metric columns).
bool looks_like_ncu_csv(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::string head(4096, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  return head.find("\"Kernel Name\"") != std::string::npos &&
         (head.find("\"Metric Name\"") != std::string::npos ||
          head.find("gpu__time_duration") != std::string::npos ||
          head.find("dram__bytes") != std::string::npos);
}

bool is_counter_csv(const fs::path& p) {
  const std::string f = p.filename().string();
  if (f.size() <= 4 || f.compare(f.size() - 4, 4, ".csv") != 0) return false;
  return f.find("counter_collection") != std::string::npos || f.rfind("results", 0) == 0 ||
         looks_like_ncu_csv(p);
}

// Every file the arguments name (a folder: the wanted files under it); a folder with none is an
// error naming what was looked for.
std::vector<fs::path> files_named(const std::vector<fs::path>& args, const fs::path& dir,
                                  bool (*wanted)(const fs::path&), const char* looked_for,
                                  std::vector<std::string>& errors) {
  std::vector<fs::path> out;
  for (const auto& arg : args) {
    auto files = expand(arg, wanted);
    if (files.empty())
      errors.push_back(
          fmt::format("{}: no {} in this folder", display_relative(arg, dir), looked_for));
    out.insert(out.end(), files.begin(), files.end());
  }
  return out;
}

ShapesInput load_shapes(const std::vector<fs::path>& args, const fs::path& dir,
                        const InputLimits& limits) {
  ShapesInput in;
  in.requested = !args.empty();
  for (const auto& f : files_named(args, dir, is_probe_file,
                                   "probe files (probe_*.json, per_shape_probe.json)", in.errors)) {
    auto file = load_file<ProbeSet>(f, dir, limits, parse_probes);
    in.files.push_back(file.display);
    for (auto& e : file.loaded.errors) in.errors.push_back(std::move(e));
    for (auto& n : file.loaded.notes) in.notes.push_back(std::move(n));
    if (!file.found) in.errors.push_back(fmt::format("{}: not found", file.display));
    if (file.loaded.value)
      for (auto& k : file.loaded.value->kernels) in.probes.kernels.push_back(std::move(k));
  }
  return in;
}

CountersInput load_counters(const std::vector<fs::path>& args, const fs::path& dir,
                            const CounterOptions& options) {
  CountersInput in;
  in.requested = !args.empty();
  in.options = options;
  for (const auto& f : files_named(
           args, dir, is_counter_csv,
           "counter CSVs (*counter_collection.csv, results*.csv, ncu --csv exports)", in.errors))
    in.files.push_back(read_counters_file(f, display_relative(f, dir), options));
  return in;
}

// A round name made of digits only, as a number (for ordering); nullopt otherwise.
std::optional<unsigned long long> round_number(const std::string& name) {
  if (name.empty() || name.size() > 18) return std::nullopt;
  unsigned long long v = 0;
  auto [ptr, ec] = std::from_chars(name.data(), name.data() + name.size(), v);
  if (ec != std::errc() || ptr != name.data() + name.size()) return std::nullopt;
  return v;
}

// 0 baseline, 1 config, 2 tuning, 3 other names, 4 numbered milestones.
int round_group(const std::string& name) {
  const auto n = round_number(name);
  if (n) return *n == 0 ? 0 : 4;
  if (name == "config") return 1;
  if (name == "tuning") return 2;
  return 3;
}

// --env, else D/env_report.json, else env_report.json beside the Top-N (the round folder).
fs::path env_path(const InputPaths& paths, const fs::path& topn_path) {
  if (paths.env) return *paths.env;
  const fs::path top = paths.eval_dir / "env_report.json";
  if (exists_file(top)) return top;
  const fs::path beside = topn_path.parent_path() / "env_report.json";
  return exists_file(beside) ? beside : top;
}

// --config, else the env report's model path + /config.json, else D/config.json; a missing
// config is named by every place looked at.
InputFile<ModelConfig> load_config(const InputPaths& paths, const InputFile<EnvReport>& env) {
  std::vector<fs::path> candidates;
  if (paths.config) {
    candidates.push_back(*paths.config);
  } else {
    if (env.loaded.value && !env.loaded.value->model.empty())
      candidates.push_back(fs::path(env.loaded.value->model) / "config.json");
    candidates.push_back(paths.eval_dir / "config.json");
  }
  fs::path chosen = candidates.back();
  for (const auto& c : candidates)
    if (exists_file(c)) {
      chosen = c;
      break;
    }
  auto config = load_file<ModelConfig>(chosen, paths.eval_dir, paths.limits, parse_model_config);
  if (!config.found) {
    std::string looked;
    for (const auto& c : candidates)
      looked += (looked.empty() ? "" : ", ") + display_relative(c, paths.eval_dir);
    config.display = looked;
  }
  return config;
}

}  // namespace

InputFile<ModelConfig> load_run_config(const InputPaths& paths) {
  const fs::path topn_path =
      paths.topn ? *paths.topn
                 : round_dir(paths.eval_dir, paths.round.value_or("0")) / "profile_topN.json";
  return load_config(paths, load_file<EnvReport>(env_path(paths, topn_path), paths.eval_dir,
                                                 paths.limits, parse_env_report));
}

fs::path round_dir(const fs::path& eval_dir, const std::string& round) {
  return eval_dir / "profile" / ("round_" + round);
}

bool valid_round_name(std::string_view round) {
  return !round.empty() && std::all_of(round.begin(), round.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
  });
}

bool round_before(const std::string& a, const std::string& b) {
  const int ga = round_group(a), gb = round_group(b);
  if (ga != gb) return ga < gb;
  if (ga == 4) {
    const auto na = round_number(a), nb = round_number(b);
    if (*na != *nb) return *na < *nb;
  }
  return a < b;  // "01" and "1" are different folders: keep them apart, deterministically
}

std::vector<std::string> rounds_in(const fs::path& eval_dir) {
  std::vector<std::string> rounds;
  std::error_code ec;
  for (fs::directory_iterator it(eval_dir / "profile", ec), end; !ec && it != end;
       it.increment(ec)) {
    const std::string name = it->path().filename().string();
    std::error_code dir_ec;
    if (name.rfind("round_", 0) == 0 && valid_round_name(name.substr(6)) &&
        it->is_directory(dir_ec))
      rounds.push_back(name.substr(6));
  }
  std::sort(rounds.begin(), rounds.end(), round_before);
  return rounds;
}

AnalyzeInputs load_inputs(const InputPaths& paths) {
  AnalyzeInputs in;
  in.round = paths.round;
  const fs::path& dir = paths.eval_dir;
  const fs::path topn_path =
      paths.topn ? *paths.topn : round_dir(dir, paths.round.value_or("0")) / "profile_topN.json";
  if (paths.built_topn) {
    in.topn = built_file<TopnDocument>(paths.built_topn->topn_json, paths.built_topn->display,
                                       paths.limits, parse_topn);
    in.workload = built_file<ProbeSet>(paths.built_topn->workload_json, paths.built_topn->display,
                                       paths.limits, parse_workload);
  } else {
    in.topn = load_file<TopnDocument>(topn_path, dir, paths.limits, parse_topn);
    in.workload = load_file<ProbeSet>(topn_path.parent_path() / "profile_workload.json", dir,
                                      paths.limits, parse_workload);
  }
  in.env = load_file<EnvReport>(env_path(paths, topn_path), dir, paths.limits, parse_env_report);
  in.config = load_config(paths, in.env);
  if (paths.peaks) {
    in.peaks = load_file<PeaksTable>(*paths.peaks, dir, paths.limits, parse_peaks_md);
  } else {
    in.peaks.display = "built-in peaks.md";
    in.peaks.found = true;
    in.peaks.origin = InputOrigin::builtin;
    in.peaks.loaded.value = builtin_peaks();
  }
  if (paths.calibration)
    in.calibration =
        load_file<CalibrationTable>(*paths.calibration, dir, paths.limits, parse_calibration);
  in.shapes = load_shapes(paths.shapes, dir, paths.limits);
  in.counters = load_counters(paths.counters, dir, paths.counter_options);
  return in;
}

}  // namespace roofline::inputs
