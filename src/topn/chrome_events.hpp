#pragma once
// Private to src/topn: what the Chrome-trace pass keeps of each event — a few fixed-size records
// (tens of bytes per event, against hundreds in the file) and the interned names and call
// signatures they point to. aggregate_chrome_events() joins them into a TraceProfile.

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "roofline/topn.hpp"
#include "topn/trace_device.hpp"

namespace roofline::detail {

// A string table: each distinct text stored once, addressed by a dense index.
class Interner {
 public:
  std::uint32_t intern(std::string_view text);
  const std::string& at(std::uint32_t id) const { return texts_[id]; }
  std::size_t size() const { return texts_.size(); }

 private:
  std::deque<std::string> texts_;  // stable addresses for the map's keys
  std::unordered_map<std::string_view, std::uint32_t> ids_;
};

// A GPU activity: kernel, memcpy or memset (40 bytes: a trace holds millions).
struct GpuEventRec {
  double ts_us = 0.0;
  double dur_us = 0.0;
  std::int64_t link = -1;    // External id; the correlation id when `by_correlation`; -1: none
  std::uint32_t name = 0;    // Interner id
  std::int32_t device = -1;  // the event's pid (the GPU), -1 when not a number
  GpuEventKind kind = GpuEventKind::kernel;
  bool by_correlation = false;  // no External id: join through the runtime launch
};

// What a launching CPU op contributes to a call case (interned: many ops share one).
struct OpShape {
  std::vector<std::vector<std::int64_t>> dims;  // non-empty operand dims
  std::vector<std::string> dtypes;              // their input types, aligned with dims
  std::vector<std::string> tensor_types;        // distinct tensor input types, sorted
};

struct ExternalShape {
  std::int64_t external_id = 0;
  std::uint32_t shape = 0;  // index into ChromeEvents::shapes
};

struct Correlation {
  std::int64_t correlation = 0;
  std::int64_t external_id = 0;
};

// One `gpu_user_annotation` step span.
struct StepSpan {
  std::int32_t device = -1;
  double begin_us = 0.0, end_us = 0.0;
  bool prefill = false;
  double rows = 0.0;  // context tokens + generation batch
  std::int64_t batch = 0;
};

// Deques, not vectors: they grow without a reallocation that briefly holds two copies.
struct ChromeEvents {
  Interner names;
  std::deque<GpuEventRec> gpu;
  std::vector<OpShape> shapes;
  std::unordered_map<std::string, std::uint32_t> shape_ids;  // serialized OpShape -> index
  std::deque<ExternalShape> op_shapes;                       // cpu ops, in file order
  std::deque<Correlation> launches;  // runtime launch calls: correlation -> External id
  std::vector<StepSpan> steps;
  TraceMeta meta;  // the top-level deviceProperties, version keys, distributedInfo
};

struct Operand {
  std::size_t arg = 0;  // position in the op's argument list (indexes Input type)
  std::vector<std::int64_t> dims;
};

// What an event is, by its `cat` (older traces spell "Kernel", "Memcpy", "Memset", "Operator").
enum class Category { none, kernel, memcpy, memset, cpu_op, launch, step, ignored };

// The fields of one event that matter, reused from event to event (chrome_trace.cpp fills it,
// finish_event reduces it to a record).
struct EventScratch {
  Category category = Category::none;
  std::string ph, cat, name;
  double ts = 0.0, dur = 0.0;
  bool has_ts = false, has_dur = false;
  std::int64_t pid = -1;
  std::int64_t external_id = -1, correlation = -1;
  bool has_dims = false;
  std::vector<Operand> operands;
  std::size_t n_operands = 0;  // operands in use (the vector keeps its capacity)
  std::vector<std::string> types;
  std::size_t n_types = 0;
  std::string key;  // serialized OpShape

  void reset() {
    category = Category::none;
    ph.clear();
    cat.clear();
    name.clear();
    has_ts = has_dur = has_dims = false;
    pid = external_id = correlation = -1;
    n_operands = n_types = 0;
  }
  Operand& new_operand(std::size_t arg) {
    if (n_operands == operands.size()) operands.emplace_back();
    Operand& op = operands[n_operands++];
    op.arg = arg;
    op.dims.clear();
    return op;
  }
};

// What an event's `cat` makes it.
Category category_of(std::string_view cat);
// Reduces a complete event to its record in `out` (GPU activity, op shape, launch, step span).
void finish_event(EventScratch& s, ChromeEvents& out);

// Parses a step annotation name `execute_…context_<nreq>(<ntok>)…generation_<batch>(…)`;
// nullopt when the name is not one.
std::optional<StepSpan> parse_step_name(std::string_view name);

// Joins GPU events to their launching ops and steps and sums them per kernel name.
TraceProfile aggregate_chrome_events(ChromeEvents& events);

// Streams a Chrome trace (JSON object with traceEvents, or a bare event array) into `out`.
// Returns "" or a one-line description of what is wrong with the document.
std::string parse_chrome_trace(const ByteReader& read, ChromeEvents& out);

}  // namespace roofline::detail
