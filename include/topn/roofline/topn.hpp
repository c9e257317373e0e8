#pragma once
// `roofline topn` (REACH §3): the standardized Top-N built from raw profiler output.
//
// Three steps, kept apart so each can be tested alone:
//   read   — a trace file (PyTorch profiler Chrome trace, .json or .json.gz; rocprofv3
//            kernel_trace / kernel_stats CSV; Nsight Systems cuda_gpu_kern_sum CSV) streamed
//            into a TraceProfile: per kernel name, calls and GPU time, and per distinct call
//            case (operand dims, dtypes, regime) its count and time. Only I/O step.
//   build  — TraceProfile -> TopnDocument: ranking, rounding, short names, shapes/dtypes,
//            classification and the kernel-family fields, per-regime fields. Pure.
//   render — TopnDocument -> the text of profile_topN.json and profile_workload.json. Pure.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "roofline/classify.hpp"
#include "roofline/inputs.hpp"
#include "roofline/kernel_backends.hpp"
#include "roofline/load.hpp"

namespace roofline {

// ---- read ------------------------------------------------------------------------------------

enum class GpuEventKind { kernel, memcpy, memset };

// One distinct way a kernel was launched: the launching op's non-empty operand dims, their input
// types (aligned with dims), and the regime of the step it ran in (when steps are annotated).
struct TraceCase {
  std::vector<std::vector<std::int64_t>> dims;
  std::vector<std::string> dtypes;
  std::optional<Regime> regime;
  double count = 0.0;
  double total_us = 0.0;
};

// All launches of one kernel name.
struct TraceKernel {
  std::string name;
  GpuEventKind kind = GpuEventKind::kernel;
  double calls = 0.0;
  double total_us = 0.0;
  std::vector<std::string> dtypes;  // distinct tensor input types of the launching ops, sorted
  std::vector<TraceCase> cases;     // launches whose op had operand dims (others: no case)
  PerRegime<double> regime_calls;   // launches inside prefill / decode step annotations
  PerRegime<double> regime_us;
};

// Step annotations (`execute_…context_<nreq>(<ntok>)…generation_<batch>(…)`) seen in a trace.
struct StepStats {
  double n_prefill = 0.0;         // steps with context tokens > 0
  double n_decode = 0.0;          // the others
  double prefill_rows_sum = 0.0;  // context tokens + generation batch, over prefill steps
  std::map<std::int64_t, double> decode_batches;  // generation batch -> decode steps with it
  bool any() const { return n_prefill + n_decode > 0; }
};

struct TraceProfile {
  std::string source;                // "torch-trace", "rocprofv3", "nsys"
  std::vector<TraceKernel> kernels;  // sorted by name
  StepStats steps;
};

// The outcome of reading one trace file. `error` set: the file is unusable (one line naming the
// file and what is wrong); `notes` are facts worth printing that change no number.
struct TraceRead {
  std::optional<TraceProfile> profile;
  std::string error;
  std::vector<std::string> notes;
};

// Streaming byte source: fills up to `cap` bytes, returns how many (0 = end of input).
using ByteReader = std::function<std::size_t(char* buf, std::size_t cap)>;

// Reads a trace file of any supported format, recognised by its content (gzip by its magic
// bytes). Memory stays a small fraction of the file: nothing is held whole. Never throws.
TraceRead read_trace_file(const std::filesystem::path& path, const std::string& display);

// The same over a byte stream (gzip inflated when the stream starts with its magic bytes).
TraceRead read_trace_stream(const ByteReader& read, const std::string& display);

// Sums several profiles (e.g. one trace per rank) by kernel name; sources are joined with '+'.
TraceProfile merge_profiles(std::vector<TraceProfile> profiles);

// ---- build -----------------------------------------------------------------------------------

// The kernel-family table (BackendRule, data/kernel_backends.tsv): roofline/kernel_backends.hpp.

// `short_name`: the first identifier after dropping `void `, return types, namespaces, template
// and argument lists (memcpy/memset activity names keep their words), at most 60 characters.
std::string kernel_short_name(std::string_view name, GpuEventKind kind = GpuEventKind::kernel);

// Python's round(x, digits) (round half to even on the exact binary value).
double round_to(double x, int digits);

struct TopnOptions {
  std::size_t top = 25;
};

struct WorkloadCase {
  std::vector<std::vector<std::int64_t>> dims;
  std::vector<std::string> dtypes;
  std::optional<Regime> regime;
  double count = 0.0;
  double baseline_latency_ms = 0.0;  // mean per call, rounded to 6 decimals
};

struct TopnEntry {
  std::size_t rank = 0;
  std::string name, short_name;
  double calls = 0.0;
  double total_ms = 0.0, avg_us = 0.0, pct_gpu_time = 0.0;     // rounded to 4, 3, 2 decimals
  std::vector<std::vector<std::vector<std::int64_t>>> shapes;  // up to 5 call signatures
  std::vector<std::string> dtypes;
  std::string classification, backend_guess, opt_hint;
  std::optional<bool> editable;
  // Per-regime fields, only when the trace had step annotations and this kernel ran in a step.
  bool has_regimes = false;
  std::string phase;  // prefill | decode | both
  std::vector<std::string> served_regimes;
  PerRegime<double> phase_calls_measured, calls_per_step, base_latency_ms, est_rows;
  // profile_workload.json
  std::vector<WorkloadCase> cases;  // most calls first
  double calls_without_shapes = 0.0;
};

struct ServingSummary {
  double n_prefill_steps = 0.0, n_decode_steps = 0.0;
  std::optional<double> decode_batch_captured;  // largest generation batch of a decode step
  std::optional<double> decode_batch_steady;    // most common one (ties: the larger)
  std::optional<bool> steady;                   // that batch covers >= 90% of decode steps
};

struct TopnDocument {
  std::string source;
  double total_gpu_time_ms = 0.0;  // rounded to 4 decimals
  double num_kernel_launches = 0.0;
  double num_distinct_kernels = 0.0;
  std::optional<ServingSummary> serving;
  std::vector<TopnEntry> entries;
};

// Ranks the profile's kernels by total GPU time (ties by name), keeps the first `options.top`
// and fills every Top-N field. Pure: the same profile always gives the same document.
TopnDocument build_topn(const TraceProfile& profile, const TopnOptions& options,
                        const std::vector<ClassRule>& class_families,
                        const std::vector<BackendRule>& backends);

// ---- render ----------------------------------------------------------------------------------

// profile_topN.json text (SPEC §2.1 field order; shapes three levels deep, RUNS §2b).
std::string render_topn_json(const TopnDocument& doc);
// profile_workload.json text (`schema: "workload-v1"`, RUNS §2b).
std::string render_workload_json(const TopnDocument& doc);

}  // namespace roofline
