// Launches resolved as read (launch_reads.cpp): where a trace writes each launch's frames, op and
// runtime call one after the other, the calls take what their ops and call stacks give them as they
// are read, their kernels take that from them whenever they come, and the CPU side is let go — and
// the Top-N is the one the joins over everything give, byte for byte. Checked on clean traces (the
// resolving must happen, and keep little) and on random traces whose order breaks what it counts on
// in every way we know (events swapped, frames and ops arriving late, an op's id again, kernels
// before their calls or after later events, module spans, GPU events with an op and no call, ops
// that launch twice or never, calls whose kernel never comes), read by one parser and in parts.
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "roofline/cli/layer.hpp"
#include "roofline/topn/bytes/byte_source.hpp"
#include "roofline/topn/readers/chrome_split.hpp"
#include "test_helpers.hpp"
#include "topn_test_io.hpp"

namespace unit_launch_reads {
using namespace roofline::cli;
using namespace roofline::topn::detail;
namespace fs = std::filesystem;

namespace {

const char* const k_frames[] = {
    "sglang/srt/layers/linear.py(10): forward",
    "sglang/srt/models/deepseek_v2.py(200): forward_normal_prepare",
    "vllm/distributed/communication_op.py(14): tensor_model_parallel_all_reduce",
    "aiter/ops/gemm_op_a8w8.py(5): gemm_a8w8",
    "sglang/srt/model_executor/model_runner.py(100): forward_decode",
};
const char* const k_kernels[] = {"gemm_kernel", "norm_kernel", "act_kernel",
                                 "Cijk_Ailk_Bljk_BBS_BH_MT128x128x64", "rcclGenericKernel"};

// What the random traces may do wrong: each a probability.
struct Disorder {
  double swap = 0.0;          // two neighbouring events trade places
  double late_frame = 0.0;    // a frame moves later in the file
  double again = 0.0;         // an op's External id comes again later
  double kernel_first = 0.0;  // a kernel written before its call
  double module = 0.0;        // an nn.Module span around a launch
  double copy = 0.0;          // a memcpy with its op's External id and no call
  double twice = 0.0;         // an op that launches two kernels
  double cpu_only = 0.0;      // an op that launches nothing
  double no_kernel = 0.0;     // a call whose kernel never comes
  double late_kernel =
      0.0;              // a kernel written after the next launch's events (a trace sorted by time)
  double nested = 0.5;  // frames nested two deep
  bool forward = true;  // frames include an engine's forward (a step: never let go)
  bool two_threads = true;  // every third launch from a second thread
};

class TraceWriter {
 public:
  TraceWriter(std::uint32_t seed, const Disorder& d) : rng_(seed), d_(d) {}

  std::string trace(int launches) {
    for (int i = 0; i < launches; ++i) launch(d_.two_threads && i % 3 == 2 ? 9 : 7);
    step_marks();
    disorder();
    std::string out =
        R"({"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "NVIDIA H200"}], "traceEvents": [)"
        "\n  ";
    for (std::size_t i = 0; i < events_.size(); ++i) out += (i ? ",\n  " : "") + events_[i];
    return out + "\n  ]}";
  }

 private:
  bool chance(double p) { return std::uniform_real_distribution<double>(0.0, 1.0)(rng_) < p; }
  int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }

  void frame(int tid, double ts, double dur, const char* name) {
    events_.push_back(fmt::format(
        R"({{"ph": "X", "cat": "python_function", "name": "{}", "pid": 7, "tid": {}, "ts": {}, "dur": {}}})",
        name, tid, ts, dur));
  }
  void op(int tid, double ts, long ext, int rows) {
    events_.push_back(fmt::format(
        R"({{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 7, "tid": {}, "ts": {}, "dur": 20, )"
        R"("args": {{"External id": {}, "Input Dims": [[{}, 64], [64, 128]], "Input type": ["float", "float"], )"
        R"("Concrete Inputs": ["", "", "{}"]}}}})",
        tid, ts, ext, rows, rows % 3));
  }
  std::string call(int tid, double ts, long ext, long corr) {
    return fmt::format(
        R"({{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 7, "tid": {}, )"
        R"("ts": {}, "dur": 2, "args": {{"External id": {}, "correlation": {}}}}})",
        tid, ts, ext, corr);
  }
  std::string kernel(long ext, long corr) {
    const std::string e = fmt::format(
        R"({{"ph": "X", "cat": "kernel", "name": "{}", "pid": 0, "tid": 7, "ts": {}, "dur": {}, )"
        R"("args": {{"External id": {}, "correlation": {}, "grid": [{}, 1, 1], "block": [128, 1, 1]}}}})",
        k_kernels[pick(5)], gpu_, 1.0 + pick(9), ext, corr, 1 + pick(3));
    gpu_ += 12.0;
    return e;
  }
  // A call and its kernel (the kernel first, later, or never, as the disorder says).
  void launched(int tid, double ts, long ext) {
    const long corr = ++corr_;
    const std::string c = call(tid, ts, ext, corr), k = kernel(ext, corr);
    if (chance(d_.no_kernel)) {
      events_.push_back(c);
    } else if (chance(d_.late_kernel)) {
      events_.push_back(c);
      late_.push_back(k);
    } else if (chance(d_.kernel_first)) {
      events_.push_back(k);
      events_.push_back(c);
    } else {
      events_.push_back(c);
      events_.push_back(k);
    }
  }

  void launch(int tid) {
    const std::vector<std::string> late = std::move(late_);  // the last launch's late kernels
    late_.clear();
    double& t = cursor_[tid == 7 ? 0 : 1];
    const double begin = t;
    const bool module = chance(d_.module);
    if (module)
      events_.push_back(fmt::format(
          R"({{"ph": "X", "cat": "python_function", "name": "nn.Module: Linear_{}", "pid": 7, "tid": {}, "ts": {}, "dur": 30}})",
          pick(3), tid, t));
    const int depth = pick(2) + (chance(d_.nested) ? 1 : 0);
    for (int k = 0; k < depth; ++k)
      frame(tid, t + 0.25 * k, 30.0 - 0.5 * k, k_frames[pick(d_.forward ? 5 : 4)]);
    const long ext = ++ext_;
    const int rows = 8 << pick(4);
    op(tid, t + 1, ext, rows);
    if (chance(d_.cpu_only)) op(tid, t + 2, ++ext_, rows);
    launched(tid, t + 5, ext);
    if (chance(d_.twice)) launched(tid, t + 7, ext);
    if (chance(d_.copy)) {
      const long copy_ext = ++ext_;
      op(tid, t + 9, copy_ext, rows);
      events_.push_back(fmt::format(
          R"x({{"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy DtoH (Device -> Pinned)", "pid": 0, "tid": 7, "ts": {}, "dur": 2, "args": {{"External id": {}, "device": 0}}}})x",
          gpu_, copy_ext));
      gpu_ += 4.0;
    }
    t = begin + 40.0;
    events_.insert(events_.end(), late.begin(), late.end());
  }

  void step_marks() {
    events_.insert(events_.end(), late_.begin(), late_.end());
    late_.clear();
    // One CPU step over all launches of thread 7, and its GPU span: written last, as vLLM does.
    events_.push_back(fmt::format(
        R"x({{"ph": "X", "cat": "user_annotation", "name": "execute_context_0(0)_generation_8(8)", "pid": 7, "tid": 7, "ts": 999, "dur": {}}})x",
        cursor_[0] - 999 + 40));
    events_.push_back(fmt::format(
        R"x({{"ph": "X", "cat": "gpu_user_annotation", "name": "execute_context_0(0)_generation_8(8)", "pid": 0, "tid": 7, "ts": 999, "dur": {}}})x",
        gpu_ - 999 + 40));
  }

  void disorder() {
    const std::size_t n = events_.size();
    for (std::size_t i = 0; i + 1 < n; ++i)
      if (chance(d_.swap)) std::swap(events_[i], events_[i + 1]);
    for (std::size_t i = 0; i + 1 < n; ++i) {
      const bool is_frame = events_[i].find("python_function") != std::string::npos;
      const bool is_op = events_[i].find("cpu_op") != std::string::npos;
      if ((is_frame && chance(d_.late_frame)) || (is_op && chance(d_.again))) {
        const std::string e = events_[i];
        const std::size_t to = i + 1 + static_cast<std::size_t>(pick(static_cast<int>(n - i - 1)));
        if (is_frame) events_.erase(events_.begin() + static_cast<std::ptrdiff_t>(i));
        events_.insert(events_.begin() + static_cast<std::ptrdiff_t>(to), e);
      }
    }
  }

  std::mt19937 rng_;
  Disorder d_;
  std::vector<std::string> events_, late_;
  double cursor_[2] = {1000.0, 1013.0};
  double gpu_ = 1000.0;
  long ext_ = 100, corr_ = 5000;
};

std::string rendered(const TraceRead& r) {
  if (!r.profile) return "error: " + r.error;
  TopnOptions o;
  o.top = 100;
  const TopnBuild b =
      build_topn(*r.profile, o, builtin_kernel_classes_rules(), builtin_kernel_backends_rules());
  return render_topn_json(b.topn) + render_workload_json(b);
}

// The Top-N of `text` read as a rereadable stream: launches resolved as read (read again when the
// order breaks), or everything held.
std::string read_text(const std::string& text, bool hold_everything) {
  const auto reopen = [&text] { return roofline::test::chunked(text, 777); };
  return rendered(read_trace_rereadable(reopen, "t.json", nullptr, hold_everything));
}

struct TmpFile {
  fs::path path;
  explicit TmpFile(const std::string& text) {
    path = fs::temp_directory_path() / fmt::format("roofline_reads_{}_{}.json", ::getpid(),
                                                   reinterpret_cast<std::uintptr_t>(this));
    std::ofstream(path, std::ios::binary) << text;
  }
  ~TmpFile() {
    std::error_code ec;
    fs::remove(path, ec);
  }
};

// `text` read in parts of about `part_bytes` by two parsers, launches resolved as read; what the
// records say of it in `ev` (nothing read again: `ev.order_broke` says whether it must be).
std::string read_in_parts(const std::string& text, std::uint64_t part_bytes, ChromeEvents& ev) {
  const TmpFile file(text);
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(file.path.c_str(), "rb"),
                                                    &std::fclose);
  REQUIRE(f);
  FileReader reader(f.get());
  SplitSource split;
  split.path = file.path;
  split.size = fs::file_size(file.path);
  split.min_bytes = 1;
  split.part_bytes = part_bytes;
  split.workers = 1;
  ev.resolve_as_read = true;
  const std::string error = parse_chrome_trace(
      [&reader](char* buf, std::size_t cap) { return reader.read(buf, cap); }, ev, &split);
  if (!error.empty()) return "error: " + error;
  TraceRead r;
  r.profile = aggregate_chrome_events(ev);
  return rendered(r);
}

}  // namespace

TEST_CASE("Launches resolved as read: a clean trace keeps almost none of its CPU side",
          "[topn][launch_reads]") {
  Disorder clean;
  clean.nested = 0.0;
  clean.forward = false;
  clean.two_threads = false;
  const std::string text = TraceWriter(7, clean).trace(300);
  ChromeEvents ev;
  ev.resolve_as_read = true;
  const auto reader = roofline::test::chunked(text, 4096);
  REQUIRE(parse_chrome_trace(reader, ev).empty());
  CHECK_FALSE(ev.order_broke);
  CHECK(ev.resolved == 300);  // every launch
  CHECK(ev.ops.size() <= 2);  // the last op of each thread may still be held
  CHECK(ev.frames.size() <= 2);
  CHECK(ev.origins.size() < 300);  // launches share their origins
  // and the Top-N is the one of everything held
  CHECK(read_text(text, false) == read_text(text, true));
}

TEST_CASE("Launches resolved as read: kernels written after the next launch (sorted by time)",
          "[topn][launch_reads]") {
  Disorder d;
  d.nested = 0.0;
  d.forward = false;
  d.two_threads = false;
  d.late_kernel = 1.0;
  const std::string text = TraceWriter(5, d).trace(300);
  ChromeEvents ev;
  ev.resolve_as_read = true;
  REQUIRE(parse_chrome_trace(roofline::test::chunked(text, 4096), ev).empty());
  CHECK_FALSE(ev.order_broke);
  CHECK(ev.resolved == 300);  // each kernel takes what its call was given
  CHECK(ev.ops.size() <= 2);
  CHECK(ev.frames.size() <= 2);
  CHECK(read_text(text, false) == read_text(text, true));
}

TEST_CASE("Launches resolved as read: two threads, nested frames, forward frames",
          "[topn][launch_reads]") {
  Disorder d;
  d.nested = 1.0;
  const std::string text = TraceWriter(11, d).trace(200);
  ChromeEvents ev;
  ev.resolve_as_read = true;
  REQUIRE(parse_chrome_trace(roofline::test::chunked(text, 4096), ev).empty());
  CHECK_FALSE(ev.order_broke);
  CHECK(ev.resolved == 200);
  CHECK(ev.ops.size() <= 2);
  // A frame is let go only while it is the last one kept: another thread's frame kept after it
  // holds it (and an engine's forward frame is a step, always kept).
  CHECK(ev.frames.size() < 2 * 200);
  CHECK(read_text(text, false) == read_text(text, true));
}

TEST_CASE("Launches resolved as read: what breaks the order is seen, and the Top-N is the same",
          "[topn][launch_reads]") {
  const std::vector<std::pair<const char*, Disorder>> cases = {
      {"neighbours swapped", {.swap = 0.05}},
      {"frames late", {.late_frame = 0.05}},
      {"an op's id again", {.again = 0.03}},
      {"kernels before their calls", {.kernel_first = 0.1}},
      {"module spans", {.module = 0.2}},
      {"copies by their op", {.copy = 0.2}},
      {"ops launching twice or never", {.twice = 0.2, .cpu_only = 0.2}},
      {"calls with no kernel", {.no_kernel = 0.05}},
      {"kernels late and first", {.kernel_first = 0.05, .late_kernel = 0.3}},
      {"all of them",
       {.swap = 0.02,
        .late_frame = 0.02,
        .again = 0.02,
        .kernel_first = 0.05,
        .module = 0.1,
        .copy = 0.1,
        .twice = 0.1,
        .cpu_only = 0.1,
        .no_kernel = 0.05,
        .late_kernel = 0.1}},
  };
  for (const auto& [what, disorder] : cases)
    for (std::uint32_t seed = 1; seed <= 12; ++seed) {
      INFO(what << ", seed " << seed);
      const std::string text = TraceWriter(seed, disorder).trace(120);
      const std::string held = read_text(text, true);
      CHECK(read_text(text, false) == held);
      // In parts: where nothing broke, the parts' records joined give the same Top-N.
      ChromeEvents ev;
      const std::string parts = read_in_parts(text, 1500 + seed * 97, ev);
      if (!ev.order_broke) CHECK(parts == held);
    }
}

TEST_CASE("Launches resolved as read: read in parts, at every boundary", "[topn][launch_reads]") {
  Disorder d;
  d.nested = 0.5;
  d.copy = 0.1;
  d.twice = 0.1;
  d.cpu_only = 0.1;
  const std::string text = TraceWriter(3, d).trace(150);
  const std::string held = read_text(text, true);
  int resolved_runs = 0;
  for (std::uint64_t part = 700; part < 9000; part += 331) {
    INFO("parts of " << part << " bytes");
    ChromeEvents ev;
    const std::string parts = read_in_parts(text, part, ev);
    if (ev.order_broke) continue;
    ++resolved_runs;
    CHECK(ev.resolved > 0);
    CHECK(parts == held);
  }
  CHECK(resolved_runs > 10);  // a boundary between a launch's frame and its op is no break
}

}  // namespace unit_launch_reads
