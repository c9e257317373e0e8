#pragma once
// Private to src/topn: what the Chrome-trace pass keeps of each event — a few fixed-size records
// (tens of bytes per event, against hundreds in the file) and the interned names and call
// signatures they point to. aggregate_chrome_events() joins them into a TraceProfile.

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <deque>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "roofline/topn/bytes/byte_reader.hpp"
#include "roofline/topn/layer.hpp"
#include "roofline/topn/names/call_stacks.hpp"
#include "roofline/topn/names/names.hpp"
#include "roofline/topn/names/step_annotations.hpp"
#include "roofline/topn/profile/graph_capture.hpp"
#include "roofline/topn/profile/trace_profile.hpp"
#include "roofline/topn/readers/record_arena.hpp"
#include "roofline/topn/readers/trace_device.hpp"

namespace roofline::topn::detail {

// A string table: each distinct text stored once, addressed by a dense index.
class Interner {
 public:
  std::uint32_t intern(std::string_view text);
  std::optional<std::uint32_t> find(std::string_view text) const;
  const std::string& at(std::uint32_t id) const { return texts_[id]; }
  std::size_t size() const { return texts_.size(); }

 private:
  std::deque<std::string> texts_;  // stable addresses for the map's keys
  std::unordered_map<std::string_view, std::uint32_t> ids_;
};

// What a runtime (`cuda_runtime` / `cuda_driver`) event is, by its name.
enum class RuntimeKind : std::uint8_t {
  other,          // kept only when it carries both ids (an unknown launch spelling)
  launch,         // *LaunchKernel*, cuLaunchKernel(Ex), ...
  graph_launch,   // hipGraphLaunch / cudaGraphLaunch: a replay
  memcpy,         // *Memcpy*
  memset,         // *Memset*
  begin_capture,  // *StreamBeginCapture*
  end_capture     // *StreamEndCapture*
};
RuntimeKind runtime_kind_of(std::string_view name);

// A GPU activity: kernel, memcpy or memset (48 bytes: a trace holds millions), with the runtime
// call that launched it when that call was read first (as PyTorch writes them): the call is then
// kept here, not as a RuntimeRec of its own, and its correlation id is needed no more. A launch
// whose op and call stack were read just before it is resolved as read (launch_reads.cpp): it
// keeps what they gave it (its origin, an id of ChromeEvents::origins) in place of its External
// id, and they can be let go.
inline constexpr std::uint32_t k_max_lanes = 1u << 26;
struct GpuEventRec {
  double ts_us = 0.0;
  double dur_us = 0.0;
  // Its own External id, else its runtime call's; -1: none. Resolved as read: the origin's id and
  // how long before the runtime call its op began.
  std::int64_t external_id = -1;
  std::uint32_t name = 0;                // Interner id
  std::uint32_t geometry = 0xFFFFFFFFu;  // ChromeEvents::geometries id of (grid, block); none
  std::int32_t launch_thread = -1;       // its runtime call's thread; -1: not joined as it was read
  // ChromeEvents::lanes id: the event's pid (the GPU) and tid (the stream).
  std::uint32_t lane : 26 = 0;
  GpuEventKind kind : 2 = GpuEventKind::kernel;
  RuntimeKind launch_kind : 3 = RuntimeKind::other;
  bool resolved : 1 = false;

  // The runtime launch's correlation id (-1: none, or joined as read).
  std::int64_t correlation() const { return launch_thread < 0 ? call_ : -1; }
  // Its runtime call's start (joined as read: launch_thread >= 0).
  double launch_ts_us() const { return std::bit_cast<double>(call_); }
  void set_correlation(std::int64_t id) { call_ = id; }
  void set_launch(std::int32_t thread, double call_ts_us, RuntimeKind kind_of_call) {
    launch_thread = thread;
    launch_kind = kind_of_call;
    call_ = std::bit_cast<std::int64_t>(call_ts_us);
  }
  // Resolved as read: its ChromeEvents::origins id, and its op's start (exact: `lead`, the op's
  // start before the call's, is kept only where a float holds it exactly).
  void set_resolved(std::uint32_t origin_id, float lead_us) {
    resolved = true;
    external_id = static_cast<std::int64_t>(
        (std::uint64_t{std::bit_cast<std::uint32_t>(lead_us)} << 32) | origin_id);
  }
  std::uint32_t origin() const {
    return static_cast<std::uint32_t>(static_cast<std::uint64_t>(external_id) & 0xFFFFFFFFu);
  }
  float lead_us() const {
    return std::bit_cast<float>(
        static_cast<std::uint32_t>(static_cast<std::uint64_t>(external_id) >> 32));
  }
  double op_ts_us() const { return launch_ts_us() - static_cast<double>(lead_us()); }

 private:
  std::int64_t call_ = -1;  // the correlation id until the call is joined, then its start's bits
};

static_assert(sizeof(GpuEventRec) == 48, "a trace holds millions: keep it six words");

inline constexpr std::uint32_t k_no_id = 0xFFFFFFFFu;

// What a launching CPU op contributes to a call case (interned: many ops share one).
struct OpShape {
  std::vector<std::vector<std::int64_t>> dims;  // non-empty operand dims
  std::vector<std::string> dtypes;              // their input types, aligned with dims
  std::vector<std::string> tensor_types;        // distinct tensor input types, sorted
  // The op's scalars that change its work (docs/method.md §22.8): (argument position, text as
  // recorded in `Concrete Inputs`) — flags such as `causal`, attention window sizes.
  std::vector<std::pair<std::size_t, std::string>> key_scalars;
};

// A numeric scalar of an op that varies launch by launch without changing the work's shape
// (a growing max_seqlen_k, Inductor's xnumel, a fill value): kept per launch, not a key.
struct OpScalar {
  std::uint32_t arg = 0;
  double value = 0.0;
};

// A cpu_op with an External id: what a launch joined to it gets (interned ids; 32 bytes).
struct OpRec {
  std::int64_t external_id = 0;
  double ts_us = 0.0;
  std::uint32_t shape = k_no_id;  // index into ChromeEvents::shapes; k_no_id: no operand shapes
  std::uint32_t name = k_no_id;   // ChromeEvents::labels id of the op's name
  std::int32_t thread = -1;       // ChromeEvents::threads index
  // Its varying numeric scalars: ChromeEvents::scalar_sets id, k_no_id none.
  std::uint32_t scalars = k_no_id;
};

// A run of ChromeEvents::scalars, shared by the ops that recorded the same values.
struct ScalarSet {
  std::uint32_t begin = 0, size = 0;
};

// A runtime call: kept in ChromeEvents::runtime when no GPU event joined it as it was read (a
// call that launched more than one, a graph launch; a capture trace keeps them all).
struct RuntimeRec {
  std::int64_t correlation = -1;
  std::int64_t external_id = -1;
  double ts_us = 0.0;
  std::int32_t thread = -1;
  std::uint32_t kernel = k_no_id;  // labels id of args.kernel (ROCm names the kernel)
  RuntimeKind kind = RuntimeKind::other;
  // A call waiting for its GPU event, resolved as read (launch_reads.cpp): its origin
  // (ChromeEvents::origins id, k_no_id: not resolved) and its op's start before its own.
  std::uint32_t origin = k_no_id;
  float lead_us = 0.0f;
};

// A `python_function` span named `nn.Module: <Name>_<k>` (the name without `_<k>`).
struct ModuleSpan {
  double begin_us = 0.0, end_us = 0.0;
  std::int32_t thread = -1;
  std::uint32_t name = k_no_id;  // labels id
};

// A kept frame: its extent on its thread, its role and what it says (an id of the labels table,
// below 2^29: a trace's distinct labels are far fewer). 24 bytes.
inline constexpr std::uint32_t k_says_mask = (1u << 29) - 1;
struct StackFrame {
  double begin_us = 0.0, end_us = 0.0;
  std::int32_t thread = -1;
  std::uint32_t says : 29 = 0;
  FrameRole role : 3 = FrameRole::none;
};

// A `capture_<size>_<mode>` user annotation (the graph-capture phase).
struct CaptureMark {
  double begin_us = 0.0, end_us = 0.0;
  std::int32_t thread = -1;
  std::int64_t size = 0;
  std::string mode;
};

// One step annotation span, CPU (`user_annotation`, on a thread) or GPU (`gpu_user_annotation`,
// on a device). `prefill`, `rows` and `batch` are what `name` gives (kept for the callers that
// need only these).
struct StepSpan {
  std::int32_t device = -1;  // GPU spans: the device (pid)
  std::int32_t thread = -1;  // CPU spans: the thread
  bool gpu = true;
  double begin_us = 0.0, end_us = 0.0;
  bool prefill = false;
  double rows = 0.0;       // the step's GEMM rows: tokens in prefill, requests in decode
  std::int64_t batch = 0;  // generation (decode) requests
  StepName name;
  bool rows_known = true;  // false for a forward-mode frame of the call stack: no figures
};

// What a python_function name is, worked out once per distinct name (a trace repeats its frames
// launch after launch, and reading a name's grammar is most of a with-stack trace's cost): an
// nn.Module span (`module`: its name's labels id), a frame whose words say something (its role
// and `says`, a labels id), or neither (skipped).
struct FrameName {
  FrameRole role = FrameRole::none;
  std::uint32_t says = 0xFFFFFFFFu;
  std::uint32_t module = 0xFFFFFFFFu;
  bool kept() const { return role != FrameRole::none || module != 0xFFFFFFFFu; }
};

// What the kept frames enclosing one launch say: labels ids, k_no_id where none does.
struct LaunchStack {
  std::uint32_t collective = 0xFFFFFFFFu;  // the innermost collective frame
  std::uint32_t call_site = 0xFFFFFFFFu;   // the innermost frame of the model's file
  std::uint32_t library = 0xFFFFFFFFu;     // the innermost library frame's package
  FrameRole forward = FrameRole::none;     // the innermost forward-mode frame
  // Adds what `f`, the next enclosing frame outwards, says where no inner frame said it.
  void add_outer(const StackFrame& f) {
    switch (f.role) {
      case FrameRole::collective:
        if (collective == 0xFFFFFFFFu) collective = f.says;
        break;
      case FrameRole::model_call:
        if (call_site == 0xFFFFFFFFu) call_site = f.says;
        break;
      case FrameRole::library:
        if (library == 0xFFFFFFFFu) library = f.says;
        break;
      case FrameRole::prefill:
      case FrameRole::decode:
        if (forward == FrameRole::none) forward = f.role;
        break;
      case FrameRole::none:
        break;
    }
  }
};

// What a launch resolved as read got from its op and call stack (interned: launches repeat them).
// `op` is the op's name (labels id), k_no_id: no op; no module span was on its thread.
struct ResolvedOrigin {
  std::uint32_t shape = 0xFFFFFFFFu, op = 0xFFFFFFFFu, scalars = 0xFFFFFFFFu;
  std::uint32_t collective = 0xFFFFFFFFu, call_site = 0xFFFFFFFFu, library = 0xFFFFFFFFu;
};

struct OriginHash {
  std::size_t operator()(const std::array<std::uint32_t, 6>& k) const {
    std::uint64_t h = 0x9E3779B97F4A7C15ULL;
    for (std::uint32_t v : k) {
      h = (h ^ v) * 0xFF51AFD7ED558CCDULL;
      h ^= h >> 32;
    }
    return static_cast<std::size_t>(h);
  }
};

// Per thread, what resolving launches as read must know to be sure it answered what the joins
// over everything would (launch_reads.cpp): the times it resolved, the extent of the frames and
// module spans read, the frames it let go.
struct ThreadReads {
  double resolved_min = std::numeric_limits<double>::infinity();   // earliest op or call resolved
  double resolved_max = -std::numeric_limits<double>::infinity();  // latest call resolved
  // The python frames (whose words say something) and module spans read: the earliest begin, the
  // latest begin; the first frame's extent; the latest end of a module span.
  double spans_begin = std::numeric_limits<double>::infinity();
  double spans_begin_max = -std::numeric_limits<double>::infinity();
  double first_begin = std::numeric_limits<double>::infinity(), first_end = 0.0;
  double modules_end = -std::numeric_limits<double>::infinity();
  double dropped_end = -std::numeric_limits<double>::infinity();  // frames let go end by then
  // The runtime calls and ops read: the earliest and latest start.
  double seen_min = std::numeric_limits<double>::infinity();
  double seen_max = -std::numeric_limits<double>::infinity();
  bool modules = false;  // a module span was read: no launch on the thread is resolved as read
  bool resolved_any() const { return resolved_max > -std::numeric_limits<double>::infinity(); }
};

// Per thread, the kept frames still open while frames arrive in the order StackIndex sorts them
// (begin, longest first), as PyTorch writes them: a frame that says what its nearest enclosing
// kept frame says, in the same role, changes no launch's stack and is not kept.
struct FrameNesting {
  std::vector<std::uint32_t> open;  // ChromeEvents::frames indexes, outermost first
  double last_begin = 0.0, last_end = 0.0;
  bool ordered = true;    // false once a frame came out of order: every frame is kept
  bool improper = false;  // two kept frames overlapped without nesting: nothing resolved as read
};

struct GeometryHash {
  std::size_t operator()(const std::array<std::int64_t, 6>& g) const {
    std::uint64_t h = 0x9E3779B97F4A7C15ULL;
    for (std::int64_t v : g) {
      h = (h ^ static_cast<std::uint64_t>(v)) * 0xFF51AFD7ED558CCDULL;
      h ^= h >> 32;
    }
    return static_cast<std::size_t>(h);
  }
};

// The per-event lists are RecordLists: they grow without a copy that briefly holds two; the
// largest are RecordChains, a list per part of a file read in parts (chrome_split.hpp).
struct ChromeEvents {
  Interner names;                     // GPU activity names
  Interner labels;                    // op names, module names, capture-launch kernel names
  Interner geometries;                // "grid;block" of kernel launches ("1,1,1;128,1,1")
  RecordList<OpScalar> scalars;       // the ops' varying scalars, in runs
  RecordList<ScalarSet> scalar_sets;  // OpRec::scalars ids: runs of `scalars`
  // Per op name (labels id): the scalar set of its last op, k_no_id none.
  std::vector<std::uint32_t> last_scalars;
  RecordChain<GpuEventRec> gpu;
  std::vector<OpShape> shapes;
  std::unordered_map<std::uint64_t, std::uint32_t> shape_ids;  // hash of its fields -> first shape
  std::vector<std::uint32_t> shape_next;  // per shape, the next with the same hash; k_no_id none
  // Kernel launch geometries by their six numbers (the ids `geometries` gives their text).
  std::unordered_map<std::array<std::int64_t, 6>, std::uint32_t, GeometryHash> geometry_ids;
  RecordChain<OpRec> ops;          // cpu ops, in file order
  RecordList<RuntimeRec> runtime;  // graph launches, capture begin/end, calls not joined as read
  // Runtime calls that launch one GPU event (a kernel, a copy, a fill), by correlation id, until
  // that event is read and takes them; those left at the end go to `runtime`. A trace writes a
  // call shortly before its activity: this holds the calls in flight, not the trace's.
  std::unordered_map<std::int64_t, RuntimeRec> pending_runtime;
  // The (device, stream) pairs of the GPU events, in first appearance (GpuEventRec::lane); the
  // first is (-1, -1), the pair of an event that names neither (or of one past k_max_lanes).
  std::vector<std::pair<std::int32_t, std::int32_t>> lanes{{-1, -1}};
  std::unordered_map<std::uint64_t, std::uint32_t> lane_ids{{~std::uint64_t{0}, 0}};
  std::uint32_t lane_of(std::int32_t device, std::int32_t stream);
  std::uint64_t last_lane_key = ~std::uint64_t{0};
  std::uint32_t last_lane = 0;
  std::int32_t device_of(const GpuEventRec& g) const { return lanes[g.lane].first; }
  std::int32_t stream_of(const GpuEventRec& g) const { return lanes[g.lane].second; }
  bool keep_runtime = false;  // a capture trace: every call kept in `runtime` (its windows)
  // The last calls taken, for a second GPU event of one call (a multi-device launch).
  std::vector<RuntimeRec> taken_runtime;
  std::size_t taken_next = 0;
  std::vector<StepSpan> steps;
  TraceMeta meta;  // the top-level deviceProperties, version keys, distributedInfo
  RecordChain<ModuleSpan> modules;
  RecordChain<StackFrame> frames;  // the python frames whose words say something (call_stacks.hpp)
  Interner frame_texts;            // python_function names seen, and what each is
  std::vector<FrameName> frame_names;
  std::vector<FrameNesting> frame_nesting;  // per thread index
  const FrameName& frame_name(std::string_view name);
  std::vector<CaptureMark> capture_marks;
  double unparsed_steps = 0.0;  // names that start like a step but do not parse
  std::string unparsed_example;
  // Launches resolved as read (launch_reads.cpp): on when the file can be read again should the
  // order the resolving counts on break (`order_broke`: read it again holding everything).
  bool resolve_as_read = false;
  bool order_broke = false;
  std::vector<ResolvedOrigin> origins;
  std::unordered_map<std::array<std::uint32_t, 6>, std::uint32_t, OriginHash> origin_ids;
  std::uint32_t intern_origin(const ResolvedOrigin& o);
  std::vector<ThreadReads> thread_reads;  // per thread index
  ThreadReads& reads_of(std::int32_t thread) {
    const auto t = static_cast<std::size_t>(thread);
    if (thread_reads.size() <= t) thread_reads.resize(t + 1);
    return thread_reads[t];
  }
  // The ops' External ids: whether they came in increasing order, their range, the range of those
  // resolved launches took; the ops let go (runs of consecutive ids, sorted).
  bool ops_increasing = true;
  std::int64_t min_op_ext = std::numeric_limits<std::int64_t>::max();
  std::int64_t max_op_ext = std::numeric_limits<std::int64_t>::min();
  std::int64_t min_resolved_ext = std::numeric_limits<std::int64_t>::max();
  std::int64_t max_resolved_ext = std::numeric_limits<std::int64_t>::min();
  std::vector<std::pair<std::int64_t, std::int64_t>> dropped_ops;
  bool tail_op_used = false;  // the last op read gave a launch resolved as read
  // The last frame kept: it encloses a call resolved as read; something read since it was kept
  // may need it after the parse (a launch not resolved, a call or an op read before it inside it);
  // an op has been read since.
  bool tail_frame_used = false, tail_frame_blocked = false, op_since_frame = false;
  std::size_t resolved = 0;  // launches resolved as read
  // Calls waiting for their GPU event that are not resolved (their GPU event will ask for their
  // call stack after the parse: no frame is let go meanwhile).
  std::int64_t unresolved_pending = 0;
  // The correlation ids of GPU events read before their call (a call of one of them is not
  // resolved: its GPU event will not take it); past 4 096, no call is resolved any more.
  std::unordered_set<std::int64_t> unjoined;
  bool unjoined_overflow = false;
  // Whether the op of External id `ext` was let go (a join asking for it must read again).
  bool op_dropped(std::int64_t ext) const;
  // A runtime call or an op read on `thread` at `ts_us` (one inside a frame let go: read again).
  void cpu_read(std::int32_t thread, double ts_us) {
    if (!resolve_as_read || thread < 0) return;
    ThreadReads& reads = reads_of(thread);
    if (ts_us < reads.dropped_end) order_broke = true;
    reads.seen_min = std::min(reads.seen_min, ts_us);
    reads.seen_max = std::max(reads.seen_max, ts_us);
  }
  std::vector<std::pair<std::int64_t, std::int64_t>> threads;  // (pid, tid) per thread index
  std::map<std::pair<std::int64_t, std::int64_t>, std::int32_t> thread_ids;
  std::int32_t thread_of(std::int64_t pid, std::int64_t tid);
};

struct Operand {
  std::size_t arg = 0;  // position in the op's argument list (indexes Input type)
  std::vector<std::int64_t> dims;
};

// What an event is, by its `cat` (older traces spell "Kernel", "Memcpy", "Memset", "Operator").
// `step` is a gpu_user_annotation, `annotation` a CPU user_annotation, `python` a python_function
// (nn.Module spans and the frames call_stacks.hpp reads are kept).
enum class Category {
  none,
  kernel,
  memcpy,
  memset,
  cpu_op,
  launch,
  step,
  annotation,
  python,
  ignored
};

// The parts of an op's shape gathered while it is interned (shape_intern.cpp), reused from event
// to event: no allocation once they have grown.
struct ShapeScratch {
  std::vector<std::uint32_t> used;                                // operands with dims
  std::vector<std::string_view> tensor_types;                     // distinct, sorted
  std::vector<std::pair<std::size_t, std::string_view>> scalars;  // the key scalars
};

inline constexpr std::size_t k_max_scalar_args = 256;  // scalars past this position are not read

// The fields of one event that matter, reused from event to event (chrome_trace.cpp fills it,
// finish_event reduces it to a record).
struct EventScratch {
  Category category = Category::none;
  std::string ph, cat, name;
  double ts = 0.0, dur = 0.0;
  bool has_ts = false, has_dur = false;
  std::int64_t pid = -1, tid = -1;
  bool has_name = false;
  std::string kernel;  // args.kernel of a runtime launch (ROCm)
  bool has_kernel = false;
  std::int64_t external_id = -1, correlation = -1;
  bool has_dims = false;
  std::vector<Operand> operands;
  std::size_t n_operands = 0;  // operands in use (the vector keeps its capacity)
  std::vector<std::string> types;
  std::size_t n_types = 0;
  std::vector<std::string> concrete;  // `Concrete Inputs`, one text per argument
  std::size_t n_concrete = 0;
  std::int64_t grid[3] = {0, 0, 0}, block[3] = {0, 0, 0};  // a kernel's launch geometry
  bool has_grid = false, has_block = false;
  ShapeScratch shape;

  void reset() {
    category = Category::none;
    ph.clear();
    cat.clear();
    name.clear();
    kernel.clear();
    has_ts = has_dur = has_dims = has_name = has_kernel = false;
    pid = tid = external_id = correlation = -1;
    n_operands = n_types = n_concrete = 0;
    has_grid = has_block = false;
  }
  Operand& new_operand(std::size_t arg) {
    if (n_operands == operands.size()) operands.emplace_back();
    Operand& op = operands[n_operands++];
    op.arg = arg;
    op.dims.clear();
    return op;
  }
};

// A cpu op's shapes from its scratch, interned: k_no_id when it has none.
std::uint32_t intern_event_shape(EventScratch& s, ChromeEvents& out);
// Interns a shape built elsewhere (a captured op's) under the key record_op gives the same dims,
// dtypes and tensor types, so eager and replayed launches of one signature share a case.
std::uint32_t intern_op_shape(ChromeEvents& out, const OpShape& shape);

// What an event's `cat` makes it.
Category category_of(std::string_view cat);
// Reduces a complete event to its record in `out` (GPU activity, op shape, launch, step span).
void finish_event(EventScratch& s, ChromeEvents& out);
// The GPU event `g` takes the runtime call of its correlation id when it was read before it.
void join_runtime(GpuEventRec& g, ChromeEvents& out);
// A runtime call of one GPU event, about to wait for it: it takes its op's and call stack's origin
// when the events before it leave no doubt what the joins over everything would give it; its GPU
// event takes the origin when it joins it (join_runtime).
void resolve_call(RuntimeRec& r, ChromeEvents& out);
// A GPU event read (joined to its call or not): one not resolved may ask for the last frame's
// extent after the parse; one read before its call keeps that call from being resolved.
void gpu_read(const GpuEventRec& g, ChromeEvents& out);
// A cpu op about to be kept: the last one is let go when a launch resolved as read took it.
void before_op(const OpRec& op, ChromeEvents& out);
// After the last event: the runtime calls no GPU event took, into `out.runtime`.
void finish_events(ChromeEvents& out);

// A step annotation name (any spelling of docs/method.md §22.7) as a span's figures; nullopt when
// the name is not a step or does not parse.
std::optional<StepSpan> parse_step_name(std::string_view name);

// True for a python_function name `nn.Module: <Name>_<k>`; `out` is then `<Name>`.
bool module_name_of(std::string_view name, std::string_view& out);

// A python_function span into `out`: an nn.Module span, or a frame whose words say something and
// that its nearest enclosing kept frame does not already say (python_frames.cpp).
void record_python_frame(const EventScratch& s, ChromeEvents& out);

// Streams a Chrome trace (gzip inflated, a UTF-8 BOM skipped) into `out`. Returns "" or a
// one-line description of what is wrong (a broken gzip stream wins over the JSON error it
// caused).
std::string parse_trace_events(const ByteReader& read, ChromeEvents& out);

struct SplitSource;

// Streams a Chrome trace (JSON object with traceEvents, or a bare event array) into `out`.
// Returns "" or a one-line description of what is wrong with the document. `split`: the stream
// is a plain file whose later events other parsers may read in parts at the same time
// (chrome_split.hpp).
std::string parse_chrome_trace(const ByteReader& read, ChromeEvents& out,
                               const SplitSource* split = nullptr);

}  // namespace roofline::topn::detail
