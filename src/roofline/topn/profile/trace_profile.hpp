#pragma once
// What a trace says once read (docs/method.md §18): per kernel name, its calls and GPU time and,
// per distinct signature, its launches; the steps, the device and the graph replays. Every reader
// gives a TraceProfile; build_topn reads it.

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "roofline/inputs/inputs.hpp"
#include "roofline/topn/layer.hpp"

namespace roofline::topn {

enum class GpuEventKind : std::uint8_t { kernel, memcpy, memset };

// A recorded scalar of the launching op that varies launch by launch (docs/method.md §22.8):
// its range over a signature's launches.
struct ScalarRange {
  std::size_t arg = 0;  // position in the op's argument list
  std::string name;     // op_scalar_name
  double min = 0.0, max = 0.0, sum = 0.0, n = 0.0;
  double mean() const { return n > 0 ? sum / n : 0.0; }
};

// Launches of one signature by the kind of step they ran in (docs/method.md §22.8): a mixed step
// is a prefill step that also carries decode requests.
struct StepKindCounts {
  double prefill = 0.0, decode = 0.0, mixed = 0.0;
};

// A kernel launched beside a signature's launches on their stream (docs/method.md §22.4): its name
// and launch geometry; quantizations and collectives between are looked through.
struct NeighbourKey {
  std::string kernel;
  std::vector<std::int64_t> grid, block;
  friend bool operator<(const NeighbourKey& a, const NeighbourKey& b) {
    return std::tie(a.kernel, a.grid, a.block) < std::tie(b.kernel, b.grid, b.block);
  }
};
using NeighbourCounts = std::map<NeighbourKey, double>;  // neighbour -> launches

// One signature of a kernel (docs/method.md §22.8): what one launch did, keyed on its launching op,
// the op's non-empty operand dims and their input types (aligned with dims), the scalars that
// change the work and the launch geometry. `dims` is empty for launches whose op recorded none (a
// graph replay without a capture keeps its grid and block).
struct TraceCase {
  std::vector<std::vector<std::int64_t>> dims;
  std::vector<std::string> dtypes;
  std::optional<Regime> regime;  // when every launch that fell in a step fell in one regime
  double count = 0.0;
  double total_us = 0.0;
  std::optional<double> rows;  // the GEMM rows of the steps it ran in, when one (§22.7)
  std::string op;              // the launching op ("" none)
  std::string module;          // its most common module path ("" none)
  // What the call stack says of its launches (docs/method.md §22.10), the most common: the
  // collective a frame names ("all_reduce") and the call site in the model's own file
  // ("deepseek_v2.py: forward_normal_prepare"); "" none.
  std::string collective, call_site;
  std::string library;  // the serving or kernel library whose Python launched it ("aiter")
  std::vector<std::pair<std::size_t, std::string>> key_scalars;  // (position, text)
  std::vector<ScalarRange> scalar_ranges;                        // by position
  std::vector<std::int64_t> grid, block;                         // empty when not recorded
  std::vector<float> durations_us;  // each launch's time, for the median (not rendered)
  double min_us = 0.0, max_us = 0.0;
  StepKindCounts steps;
  double step_count = 0.0;  // the steps its launches fell in
  double inherited = 0.0;   // launches without a launching op that took this signature
  bool replay = false;      // graph replays (no capture joined, or one without shapes)
  double first_us = 0.0;    // the start of its first launch (not rendered)
  std::size_t order = 0;    // the rank of that start among the kernel's signatures (0 = first)
  // The kernels launched just before and just after its launches on their stream (counted per
  // grid and block: the signatures of one geometry share them).
  NeighbourCounts before, after;
};

// The quantizations a kernel's inputs went through (docs/method.md §23.5): (output dtype as
// spelled, the op or kernel that quantized, how it was found) -> launches.
using InputQuantSums = std::map<std::tuple<std::string, std::string, std::string>, double>;

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
  double replay_calls = 0.0;        // launches from a CUDA/HIP graph replay (docs/method.md §22.7)
  double replay_with_shapes = 0.0;  // of those, paired with a captured launch that had shapes
  // (launching op, module path) -> launches (docs/method.md §22.7; "" when a launch had none)
  std::map<std::pair<std::string, std::string>, double> launchers;
  InputQuantSums input_quant;
};

// Sums over the steps of one part (context or generation) of one regime's steps. A Σ term is
// meaningful only when every step with the part wrote it: `*_steps` count the steps that did.
struct StepPartSums {
  double steps = 0.0;  // steps with this part (requests > 0, or Σq > 0)
  double requests = 0.0, sum_q = 0.0, sum_kv = 0.0, sum_q2 = 0.0, sum_qkv = 0.0;
  double requests_steps = 0.0, q_steps = 0.0, kv_steps = 0.0, q2_steps = 0.0, qkv_steps = 0.0;
};

// Step annotations (docs/method.md §22.7, every spelling) seen in a trace.
struct StepStats {
  double n_prefill = 0.0;         // steps with prefill tokens
  double n_decode = 0.0;          // the others
  double prefill_rows_sum = 0.0;  // the tokens of each prefill step, summed
  // Steps that count nothing (the call stack's forward frames, docs/method.md §22.10): in n_prefill
  // and n_decode, not in the rows or batches.
  double prefill_unrowed = 0.0, decode_unrowed = 0.0;
  std::map<std::int64_t, double> decode_batches;  // generation requests -> decode steps with it
  // Where the steps came from: "user_annotation" (CPU spans, launches attributed by where they
  // were launched), "gpu_user_annotation" (GPU spans, by GPU time) or "python_function" (the call
  // stack's forward frames, by where they were launched); several joined with '+'.
  std::string source;
  StepPartSums prefill_context, prefill_generation, decode_generation;
  double unparsed = 0.0;  // annotation names that start like a step but do not parse
  std::string unparsed_example;
  double empty = 0.0;  // step annotations with zero tokens or no launch: not steps
  bool any() const { return n_prefill + n_decode > 0; }
};

// The GPU a trace ran on, from its `deviceProperties` (docs/method.md §22.7): the Top-N's `device`.
struct TraceDevice {
  std::string name;                // as the trace spells it; "" when it leaves it empty
  std::string vendor;              // "AMD" | "NVIDIA" (from the trace's version keys) | ""
  std::string arch;                // sm_90, gfx942, …; "" when the compute capability names none
  std::optional<double> cu_count;  // numSms
  std::optional<double> memory_bytes;  // totalGlobalMem
  std::optional<std::int64_t> id;      // the deviceProperties entry taken
  std::string note;  // how the entry was chosen when not by the kernels' device id, and why no arch
  std::string source = "trace deviceProperties";  // or "rocprofv3 agents"
  bool operator==(const TraceDevice&) const = default;
};

// A replay no capture window matched.
struct UnpairedReplay {
  std::int64_t correlation = 0;  // the *GraphLaunch's correlation id
  double launches = 0.0;
  std::optional<double> step_size;  // the step's graph size (tokens or requests), when known
  std::string reason;
};

// Graph replays of a trace and how many of their launches were joined to a capture
// (docs/method.md §22.7).
struct GraphReplayStats {
  bool capture_given = false;
  double capture_windows = 0.0;  // windows in the capture traces given
  double replays = 0.0;          // *GraphLaunch calls with GPU events
  double launches = 0.0;         // their GPU events
  double paired = 0.0;           // of those, paired with a captured launch
  double with_shapes = 0.0;      // of those, whose captured op had operand shapes
  std::map<std::string, std::pair<double, double>> unpaired_reasons;  // -> (replays, launches)
  std::vector<UnpairedReplay> unpaired_examples;                      // the first ones
  bool any() const { return replays > 0; }
};

struct TraceProfile {
  std::string source;                // "torch-trace", "rocprofv3", "nsys"
  std::vector<TraceKernel> kernels;  // sorted by name
  StepStats steps;
  std::optional<TraceDevice> device;  // Chrome traces' deviceProperties, rocprofv3's agents
  std::optional<double> world_size;   // distributedInfo.world_size
  GraphReplayStats graph;
};

// The outcome of reading one trace file. `error` set: the file is unusable (one line naming the
// file and what is wrong); `notes` are facts worth printing that change no number.
struct TraceRead {
  std::optional<TraceProfile> profile;
  std::string error;
  std::vector<std::string> notes;
  std::vector<std::string> warnings;  // facts that change what the Top-N can say (stderr)
};

}  // namespace roofline::topn
