// `roofline analyze TRACE --config config.json`: one command from a profiler trace. The Top-N is
// built in memory exactly as `roofline topn` builds it, analysed as `analyze --topn` would read
// it, and written with the three artifacts into --out (default: a folder named after the trace).
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "roofline/cli/analyze_steps.hpp"
#include "roofline/cli/common.hpp"
#include "roofline/cli/trace_topn.hpp"
#include "roofline/render/report.hpp"

namespace roofline::cli {
namespace analyze_trace_impl {  // named, not anonymous: unity batches share one translation unit

namespace fs = std::filesystem;

constexpr int k_exit_bad_trace = k_exit_usage;  // as `roofline topn`: a named trace it cannot read
constexpr std::size_t k_topn_kernels = 25;

// "run.pt.trace.json.gz" -> "run": the trace's name without the extensions traces carry.
std::string trace_stem(const fs::path& trace) {
  std::string name = trace.filename().string();
  for (std::string_view ext : {".gz", ".json", ".csv", ".trace", ".pt"})
    if (name.size() > ext.size() && name.compare(name.size() - ext.size(), ext.size(), ext) == 0)
      name.resize(name.size() - ext.size());
  return name;
}

// --out, else ./<trace name>/ in the current folder (never beside the trace unless that is the
// current folder; never the trace itself).
fs::path trace_out_dir(const AnalyzeArgs& a) {
  if (!a.out.empty()) return a.out;
  fs::path dir = trace_stem(a.traces.front());
  std::error_code ec;
  if (fs::exists(dir, ec) && !fs::is_directory(dir, ec)) dir += "_roofline";
  return dir;
}

std::string traces_display(const std::vector<std::string>& traces) {
  std::string out;
  for (const auto& t : traces) out += (out.empty() ? "" : " + ") + fs::path(t).generic_string();
  return out;
}

// The evaluation-folder options have no meaning with a trace: refuse them by name.
void refuse_folder_options(const AnalyzeArgs& a) {
  const char* which = a.paths.round ? "--round" : a.paths.topn ? "--topn" : nullptr;
  if (!which && a.dir != ".") which = "--dir";
  if (which)
    throw UsageError(fmt::format(
        "{} reads an evaluation folder's Top-N; with a TRACE the Top-N is built from the trace "
        "(give one or the other)",
        which));
}

// Without --env / --config: the env_report.json / config.json beside the (first) trace.
void default_paths(AnalyzeArgs& a) {
  a.paths.eval_dir = ".";
  const fs::path beside = fs::path(a.traces.front()).parent_path();
  std::error_code ec;
  if (!a.paths.env) a.paths.env = beside / "env_report.json";
  if (!a.paths.config && fs::is_regular_file(beside / "config.json", ec))
    a.paths.config = beside / "config.json";
}

// Writes the Top-N and its workload into `dir`, as `roofline topn -o DIR` would.
bool write_topn_files(const AnalyzeArgs& a, const TopnBuild& build, const fs::path& dir,
                      std::vector<std::string>& written) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    err_line(fmt::format("nothing written: cannot create output folder {}: {}", dir.string(),
                         ec.message()));
    return false;
  }
  for (const auto& [name, text] :
       {std::pair{"profile_topN.json", render_topn_json(build.topn)},
        std::pair{"profile_workload.json", render_workload_json(build)}}) {
    if (const auto error = write_atomic(dir / name, text, a.fsync)) {
      err_line("nothing written: " + *error);
      return false;
    }
    written.push_back((dir / name).string());
  }
  return true;
}

}  // namespace analyze_trace_impl

std::string trace_stem(const std::filesystem::path& trace) {
  return analyze_trace_impl::trace_stem(trace);
}

std::optional<TraceRun> prepare_trace_run(AnalyzeArgs a) {
  analyze_trace_impl::refuse_folder_options(a);
  analyze_trace_impl::default_paths(a);
  prepare_options(a);
  std::optional<TopnBuild> build =
      topn_from_traces(a.traces, a.captures, analyze_trace_impl::k_topn_kernels);
  if (!build) return std::nullopt;
  a.paths.built_topn = BuiltTopN{
      fmt::format("{} (Top-N built in memory)", analyze_trace_impl::traces_display(a.traces)),
      render_topn_json(build->topn), render_workload_json(*build)};
  AnalyzeInputs inputs = load_analyze_inputs(a);
  std::filesystem::path dir = analyze_trace_impl::trace_out_dir(a);
  return TraceRun{std::move(a), std::move(*build), std::move(inputs), std::move(dir)};
}

int write_trace_run(const TraceRun& run) {
  std::vector<std::string> written;
  if (!analyze_trace_impl::write_topn_files(run.args, run.build, run.dir, written))
    return k_exit_write;
  return analyze_and_write(run.args, run.inputs, run.dir, std::move(written));
}

int run_analyze_trace(AnalyzeArgs a) {
  const std::optional<TraceRun> run = prepare_trace_run(std::move(a));
  if (!run) {
    err_line("nothing written: fix or leave out the trace(s) above");
    return analyze_trace_impl::k_exit_bad_trace;
  }
  return write_trace_run(*run);
}

}  // namespace roofline::cli
