#pragma once
// profile_topN.json (docs/method.md §2.3, §22.7) as one vocabulary for both of its sides:
// `roofline topn` builds a TopnDocument and renders it (src/roofline/topn), `load_topn` reads one
// back from any profiler's file, and analyze reads that. A field a file may leave out is
// std::optional or an empty string: a missing field is data, not an error.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "roofline/base/vocabulary.hpp"

namespace roofline::inputs {

// A value that may be recorded separately for the prefill and the decode regime.
template <class T>
struct PerRegime {
  std::optional<T> prefill;
  std::optional<T> decode;
  const std::optional<T>& at(Regime r) const { return r == Regime::prefill ? prefill : decode; }
  std::optional<T>& at(Regime r) { return r == Regime::prefill ? prefill : decode; }
  bool any() const { return prefill.has_value() || decode.has_value(); }
};

// `est_shape[regime]`: rows in flight and, when the profiler recorded them, N and K.
struct EstShape {
  std::optional<double> m;
  std::optional<double> n;
  std::optional<double> k;
};

// docs/method.md §23.5: a quantization the kernel's input went through just before it ran — the
// nearest quantization kernel before its launch on the same stream with no other matrix kernel
// between (`input_quant[]`).
struct TopnInputQuant {
  std::string dtype;      // the format it wrote, as spelled ("fp8", "fp4", "int8")
  std::string by;         // the op that quantized (eager), else the quantization kernel's name
  std::string evidence;   // "inside its own op" | "before it on its stream"
  double launches = 0.0;  // the kernel's launches that read it
};

// One `top_kernels[]` element.
struct TopnEntry {
  std::size_t index = 0;     // position in top_kernels[]
  std::optional<long> rank;  // the profiler's rank, when given (`roofline topn`: from 1)
  std::string name;
  // `roofline topn`'s reading of a `_Z…` name (docs/method.md §18.3); "" if none, and how it was
  // read when no demangler read it
  std::string demangled;
  std::string demangle_note;
  std::string short_name;
  // As read: the value verbatim, copied into the artifact; null in a document `roofline topn`
  // built (it writes pct_gpu_time).
  nlohmann::json pct_gpu_time_raw;
  double pct_gpu_time = 0.0;
  std::optional<double> calls;
  std::optional<double> total_ms;
  std::optional<double> avg_us;
  std::vector<std::vector<std::int64_t>> shapes;  // operand dims; an unreadable operand is {}
  // docs/method.md §2.3: `shapes` written three levels deep holds up to 5 call signatures; they are
  // all here, and `shapes` is the first of them. Empty for the two-level (one signature) form.
  std::vector<std::vector<std::vector<std::int64_t>>> signatures;
  std::vector<std::string> dtypes;  // operand dtypes as spelled; the sorted set when dtypes_are_set
  // docs/method.md §2.3: the profiler's three-level `shapes` comes with `dtypes` as the sorted set
  // of the input types of every call, not one per operand.
  bool dtypes_are_set = false;
  std::string classification;
  std::string backend_guess;
  std::optional<bool> editable;
  std::string opt_hint;
  // docs/method.md §22, as `roofline topn` writes them: the CPU op that launched most of the calls
  // (`aten::mm`, `vllm::moe_forward`, ...) and its module path (the innermost two nn.Modules,
  // `Qwen2MLP.MergedColumnParallelLinear`); "" when not written or null.
  std::string op;
  std::string module;
  // The per-regime fields: `phase` (prefill | decode | both) is "" when the profile had no steps
  // or this kernel ran in none.
  std::string phase;
  std::vector<std::string> served_regimes;
  PerRegime<double> phase_calls_measured;
  PerRegime<double> calls_per_step;
  PerRegime<double> base_latency_ms;
  PerRegime<EstShape> est_shape;
  std::optional<double> est_calls;
  std::optional<double> serving_weighted_pct;
  std::vector<TopnInputQuant> input_quant;  // most launches first; empty when none ran
  // Never read from a file: set by the analysis on the entry it models one signature as — the
  // collective the call stack named for that signature's launches (docs/method.md §22.10).
  std::string collective;
};

// The sums over one part (context or generation) of one regime's steps, in `serving.sums`
// (docs/method.md §22); a figure is present when every step with the part wrote it.
struct TopnPartSums {
  std::optional<double> steps, requests, sum_q, sum_kv, sum_q2, sum_qkv;
  bool any() const { return steps && *steps > 0; }
};

// `serving`: the steps a trace's step annotations show (docs/method.md §22.7).
struct TopnServing {
  bool present = false;  // the document has a serving block
  std::optional<double> n_prefill_steps;
  std::optional<double> n_decode_steps;
  std::optional<double> decode_batch_captured;  // largest generation batch of a decode step
  std::optional<double> decode_batch_steady;    // most common one (ties: the larger)
  std::optional<bool> steady;                   // that batch covers >= 90% of decode steps
  // Measured from the step annotations (docs/method.md §22): `step_source`, `decode_batch` (mean
  // generation requests per step), `decode_context` (Σkv / requests of the generation parts),
  // `decode_from` (which steps those two come from), `prefill_tokens_per_step`, and
  // `sums.prefill.context|generation`, `sums.decode.generation`.
  std::string step_source;
  std::optional<double> decode_batch;
  std::optional<double> decode_context;
  std::string decode_from;
  std::optional<double> prefill_tokens_per_step;
  TopnPartSums prefill_context, prefill_generation, decode_generation;
  std::optional<double> unparsed_step_annotations;
  std::string unparsed_step_example;
  std::optional<double> steps(Regime r) const {
    return r == Regime::prefill ? n_prefill_steps : n_decode_steps;
  }
};

// `device`: the GPU the trace's deviceProperties name (docs/method.md §22.7). Every field may be
// absent.
struct TopnDevice {
  std::string name;
  std::string vendor;  // "AMD" | "NVIDIA" | ""
  std::string arch;    // gfx942, sm_90, … as written; "" when absent
  std::optional<double> cu_count;
  std::optional<double> memory_bytes;
  std::string source;  // "trace deviceProperties", "rocprofv3 agents"
  std::string note;    // how the entry was chosen, why no arch
};

// `graph_replay`: the trace's CUDA/HIP graph replays and how many of their launches were joined
// to a capture trace's launch (docs/method.md §22.7).
struct TopnGraphReplay {
  struct Reason {
    std::string reason;
    double replays = 0.0, launches = 0.0;
  };
  struct Unpaired {  // one replay no capture window matched
    std::int64_t correlation = 0;
    double launches = 0.0;
    std::optional<double> step_size;  // the step's graph size (tokens or requests), when known
    std::string reason;
  };
  std::optional<double> replays;      // *GraphLaunch calls with GPU events
  std::optional<double> launches;     // their GPU launches
  std::optional<double> with_shapes;  // of those, whose captured op had operand shapes
  bool capture_given = false;         // topn --capture
  std::optional<double> capture_windows;
  std::optional<double> paired;  // launches joined to a captured launch
  std::vector<Reason> unpaired_reasons;
  std::vector<Unpaired> unpaired_replays;  // the first ones
};

// profile_topN.json. Entries that could not be read at all are not here; their problems are.
struct TopnDocument {
  std::string source;
  std::optional<double> total_gpu_time_ms;
  std::optional<double> num_kernel_launches;
  std::optional<double> num_distinct_kernels;
  std::optional<TopnDevice> device;
  std::optional<double> world_size;  // the trace's distributedInfo.world_size
  TopnServing serving;
  std::optional<TopnGraphReplay> graph_replay;
  std::vector<TopnEntry> entries;
};

}  // namespace roofline::inputs
