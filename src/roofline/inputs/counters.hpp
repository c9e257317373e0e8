#pragma once
// Stage C input (docs/method.md §11.4): hardware counter CSVs written by rocprofv3
// (`*_counter_collection.csv`, one row per (dispatch, counter), every header generation), by
// legacy rocprof v1 (`results.csv`, one row per dispatch, counters as columns) and by Nsight
// Compute (`ncu --csv`: the details page, one row per (launch, metric), or `--page raw`, one row
// per launch; units converted to base units, a launch is a dispatch). Files are streamed in
// fixed-size chunks: memory stays constant whatever the file size, because rows are folded into
// per-kernel sums as they are read. Never throws: problems are data (errors, bad-row counts).

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>
#include "roofline/inputs/layer.hpp"

namespace roofline::inputs {

// FLOPs per SQ_INSTS_VALU_MFMA_MOPS_F8 count: fp8 has no MfmaFlops counter (docs/method.md §11.4).
inline constexpr double k_default_mfma_f8_flops = 512.0;

struct CounterOptions {
  double mfma_f8_flops_per_inst = k_default_mfma_f8_flops;
  std::size_t bad_lines_listed = 5;  // how many bad-row line numbers to keep
  // Streaming limits (memory stays below about buffer_bytes + max_row_bytes whatever the file):
  std::size_t buffer_bytes = std::size_t{1} << 20;    // read size; grows only for a longer row
  std::size_t max_row_bytes = std::size_t{16} << 20;  // a longer row is skipped as a bad row
  // Recently seen dispatches remembered per kernel, so that rows of one dispatch separated by
  // rows of other dispatches are still folded into it (see counters_ingest.cpp).
  std::size_t dispatch_window = 64;
  // In the one-row-per-counter layouts (rocprofv3, Nsight Compute details page) only the values
  // of the counters measure() reads (counter_used_by_measure) are converted and summed: the
  // others are listed with the dispatches that reported them, their sum left unset, and a broken
  // value in one of them does not make its row bad. True converts and sums every counter. The
  // one-row-per-dispatch layouts (rocprof v1, Nsight Compute raw page) always read every column.
  bool all_counter_values = false;
};

// One counter of one kernel, summed over the dispatches that reported it.
struct CounterSum {
  double sum = 0.0;
  std::uint64_t dispatches = 0;
  bool summed = true;  // false: values not read (CounterOptions::all_counter_values), sum is 0
};

// Everything measured for one kernel name (as spelled in the file), over all its dispatches.
struct KernelCounters {
  std::string name;
  std::uint64_t dispatches = 0;                // distinct dispatches
  std::map<std::string, CounterSum> counters;  // counter name -> sum over dispatches
  double duration_ns_sum = 0.0;                // End - Start, each dispatch counted once
  std::uint64_t timed_dispatches = 0;
};

enum class CounterFormat { unknown, rocprofv3, rocprof_v1, ncu_details, ncu_raw };

struct CounterFile {
  std::string display;  // the file as named in messages
  CounterFormat format = CounterFormat::unknown;
  std::string format_detail;  // e.g. "rocprofv3 counter_collection, 19 columns (ROCm 6.4+)"
  std::uint64_t lines = 0;    // data rows seen (header and blank lines excluded)
  std::uint64_t rows_used = 0;
  std::uint64_t bad_rows = 0;                // wrong column count or unparsable value
  std::vector<std::uint64_t> bad_row_lines;  // first `bad_lines_listed` 1-based line numbers
                                             // (physical lines: quoted newlines count)
  std::vector<KernelCounters> kernels;       // in order of first appearance
  std::vector<std::string> errors;           // "file: what is wrong" (empty file, no header, ...)
  std::vector<std::string> notes;
  bool usable() const { return !kernels.empty(); }
};

// Streaming interface: `read(buf, cap)` fills up to `cap` bytes and returns how many (0 = end).
using ChunkReader = std::function<std::size_t(char* buf, std::size_t cap)>;
CounterFile parse_counters(const ChunkReader& read, const std::string& display,
                           const CounterOptions& options);
// The same over text already in memory (tests, fuzzing).
CounterFile parse_counters_text(std::string_view text, const std::string& display,
                                const CounterOptions& options);
// Opens and streams a file; a missing or unreadable file is an error in the result.
CounterFile read_counters_file(const std::filesystem::path& path, const std::string& display,
                               const CounterOptions& options);

// Per-dispatch (per-launch) averages derived from one kernel's counters (docs/method.md §11.4).
struct KernelMeasurement {
  // AMD: (FETCH_SIZE + WRITE_SIZE) * 1024; NVIDIA: dram__bytes_read.sum + dram__bytes_write.sum.
  std::optional<double> bytes;
  // AMD: MfmaFlops*, or SQ_INSTS_VALU_MFMA_MOPS_F8 * factor; NVIDIA: the sum of the
  // sm__ops_path_tensor_*.sum metrics when > 0, else 2*ffma + fadd + fmul.
  std::optional<double> flops;
  // AMD: end - start timestamps; NVIDIA: gpu__time_duration.sum.
  std::optional<double> time_us;
  std::uint64_t dispatches = 0;
  std::string bytes_source, flops_source, time_source;  // which counters, for notes
  // The operand type the FLOPs ran at where the counters name it (the tensor path
  // `sm__ops_path_tensor_src_<type>_…` with the most operations; MfmaFlopsBF16/F16/F32/F64;
  // the fp8 MFMA instructions): "bf16", "fp8", …; "" when they do not say.
  std::string flops_dtype;
  std::vector<std::string> counters_used;  // every counter the numbers came from
  std::string unusable_reason;             // set when bytes cannot be formed
};
// The measurement of one kernel: NVIDIA metrics when it has no AMD byte counters and any metric
// measure() reads from Nsight Compute, else the AMD counters. Each counter is averaged over the
// dispatches that reported it.
KernelMeasurement measure(const KernelCounters& k, const CounterOptions& options);
// Whether measure() reads the counter of this name (AMD: FETCH_SIZE, WRITE_SIZE, MfmaFlops*,
// SQ_INSTS_VALU_MFMA_MOPS_F8; NVIDIA: dram__bytes_read.sum, dram__bytes_write.sum,
// gpu__time_duration.sum, sm__ops_path_tensor_src_*.sum,
// smsp__sass_thread_inst_executed_op_{ffma,fadd,fmul}_pred_on.sum).
bool counter_used_by_measure(std::string_view name);

// Adds `from`'s dispatches, durations and counter sums into `into` (kernels of different names
// are different dispatches, so every count adds).
void add_kernel_counters(KernelCounters& into, const KernelCounters& from);
// Folds kernels from several files into one list (same name: sums added).
std::vector<KernelCounters> merge_kernels(const std::vector<CounterFile>& files);

}  // namespace roofline::inputs
