#pragma once
// Stage B input (docs/method.md §11): operand shapes captured by a probe while the workload ran.
// Two spellings are read: one probe file per process and target
// (`probe_<pid>_<target>.json`: {target, pid, total_calls, cases: [...]}) and the merged
// `per_shape_probe.json` ({schema: "per-shape-probe-v1", workload, kernels: [{target, label,
// probe_status, pct_gpu, cases: [...]}]}). A case is {dims, dtypes, arg_labels?, count,
// gpu_us_avg?, timed_count?}.
// The profiler's `profile_workload.json` (docs/method.md §2.7, `schema: "workload-v1"`) is read
// into the same structs: per kernel {name, calls, cases: [{dims, dtypes, count,
// baseline_latency_ms, regime?}]}, the latency becoming the case's gpu_us_avg over all its calls.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "roofline/base/vocabulary.hpp"
#include "roofline/inputs/layer.hpp"
#include "roofline/inputs/load.hpp"

namespace roofline::inputs {

// A recorded scalar of a signature's launching op (docs/method.md §22.8): a key (`value`, as the
// trace wrote it) or one that varies launch by launch (`min`, `mean`, `max`).
struct ProbeScalar {
  std::size_t arg = 0;
  std::string name;
  std::string value;
  std::optional<double> min, mean, max;
};

// The kernel launched just before or just after a signature on its stream, most often (docs/
// method.md §22.4): where in a layer the signature ran, and the rows a neighbour covers.
struct CaseNeighbour {
  std::string kernel;  // its short name
  std::string name;    // its full kernel name, as the trace spells it ("" in older files)
  std::string cls;     // its class as the shipped tables name it ("elementwise:add_norm+rows")
  std::vector<std::int64_t> grid, block;
  double launches = 0.0;       // of the signature's launches, those it stood beside
  std::optional<double> rows;  // its rows, where its family says (+rows: grid.x)
  // Rows one block covers where more than one (CK tile's 4-row norms): `rows` is then the grid's
  // top, and the rows lie in [rows − rows_per_block + 1, rows].
  std::optional<double> rows_per_block;
};

// What profile_workload.json says of a case beyond its dims (docs/method.md §22.8): the
// signature's op and geometry, its time statistics and the steps its launches fell in.
struct CaseSignature {
  std::string op, module;
  // What the call stack said of its launches (docs/method.md §22.10): the collective a frame names
  // and the call site in the model's own file; "" none.
  std::string collective, call_site;
  std::string library;  // the serving or kernel library whose Python made the launches ("aiter")
  std::vector<ProbeScalar> scalars;  // keys
  std::vector<ProbeScalar> ranges;   // varying
  std::vector<std::int64_t> grid, block;
  std::optional<double> total_us, mean_us, median_us, min_us, max_us;
  double prefill = 0.0, decode = 0.0, mixed = 0.0;  // launches by step kind
  std::optional<double> step_count;                 // the steps its launches fell in
  double inherited = 0.0;
  bool replay = false;
  // The rank of its first launch among the kernel's signatures (0 = first), when written.
  std::optional<double> order;
  std::optional<CaseNeighbour> before, after;
};

struct ProbeCase {
  std::vector<std::vector<std::int64_t>> dims;  // operand dims; an unreadable operand is {}
  std::vector<std::string> dtypes;
  std::vector<std::string> arg_labels;
  double count = 1.0;                      // calls with this shape (the weight)
  std::optional<double> gpu_us_avg;        // measured per-call latency of this shape, µs
  std::optional<double> timed_count;       // calls behind gpu_us_avg
  std::optional<Regime> regime;            // workload cases: the regime the profiler attributed
  std::optional<CaseSignature> signature;  // workload cases written by `roofline topn`
  // Set by the analysis, never read from a file: the projection the config's linear plan assigned
  // this shapeless signature ("o_proj"), whose dims then stand in `dims` (docs/method.md §22.4).
  std::string planned;
};

struct ProbeKernel {
  std::string target;        // what the probe wrapped (kernel or op name)
  std::string label;         // merged files: the Top-N label it was captured for
  std::string probe_status;  // merged files: "ok", "failed", ... ("" when not given)
  std::optional<double> pct_gpu;
  std::optional<double> total_calls;
  std::string source;  // file as named in messages
  std::vector<ProbeCase> cases;
};

struct ProbeSet {
  std::vector<ProbeKernel> kernels;
};

// Parses one probe file of either spelling. Unreadable cases are reported and skipped.
Loaded<ProbeSet> parse_probes(std::string_view text, const std::string& display_name,
                              const InputLimits& limits = {});

// Parses profile_workload.json: each kernel becomes a ProbeKernel whose target is the Top-N name.
// Unreadable kernels and cases are reported and skipped.
Loaded<ProbeSet> parse_workload(std::string_view text, const std::string& display_name,
                                const InputLimits& limits = {});

}  // namespace roofline::inputs
