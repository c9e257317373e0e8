// Graph replays joined to capture traces (docs/method.md §22.7), on hand-written traces in memory:
// the capture windows read (sizes from the annotations or execution_details.json), the replays
// found by their *GraphLaunch (not by a missing External id), the join's choices and reasons.
#include <string>
#include <vector>

#include <fmt/format.h>

#include "roofline/cli/layer.hpp"
#include "roofline/inputs/load.hpp"
#include "roofline/topn/profile/graph_capture.hpp"
#include "test_helpers.hpp"
#include "topn_test_io.hpp"

namespace unit_capture_join {
using namespace roofline::cli;
using roofline::test::chunked;
using roofline::test::gzip;

namespace {

std::string ev(const std::string& cat, const std::string& name, double ts, double dur,
               const std::string& args, int pid = 7) {
  return fmt::format(
      R"({{"ph": "X", "cat": "{}", "name": "{}", "pid": {}, "tid": {}, "ts": {}, "dur": {}, "args": {}}})",
      cat, name, pid, pid == 7 ? 7 : 9, ts, dur, args);
}

std::string doc(const std::vector<std::string>& events) {
  std::string out = R"({"traceEvents": [)";
  for (std::size_t i = 0; i < events.size(); ++i) out += (i ? ",\n" : "\n") + events[i];
  return out + "\n]}";
}

// A window of size `m` (capture_<m>_DECODE unless `mark` is false) with one launch per kernel,
// the op an aten::mm [m, 64] x [64, n] with n = 100 + index; corr/ext ids from `base`.
std::vector<std::string> window(long m, const std::vector<std::string>& kernels, double t0,
                                long base, bool named = true, bool mark = true) {
  std::vector<std::string> out;
  if (mark)
    out.push_back(ev("user_annotation", fmt::format("capture_{}_DECODE", m), t0, 1000, "{}"));
  out.push_back(ev("cuda_runtime", "hipStreamBeginCapture", t0 + 1, 1,
                   fmt::format(R"({{"correlation": {}}})", base)));
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    const long id = base + 1 + static_cast<long>(i);
    out.push_back(ev("cpu_op", "aten::mm", t0 + 10 + 10 * static_cast<double>(i), 5,
                     fmt::format(R"({{"External id": {}, "Input Dims": [[{}, 64], [64, {}]], )"
                                 R"("Input type": ["c10::BFloat16", "c10::BFloat16"]}})",
                                 id, m, 100 + i)));
    out.push_back(
        ev("cuda_runtime", "hipLaunchKernel", t0 + 11 + 10 * static_cast<double>(i), 1,
           named ? fmt::format(R"({{"External id": {}, "correlation": {}, "kernel": "{}"}})", id,
                               id, kernels[i])
                 : fmt::format(R"({{"External id": {}, "correlation": {}}})", id, id)));
  }
  out.push_back(ev("cuda_runtime", "hipStreamEndCapture", t0 + 900, 1,
                   fmt::format(R"({{"correlation": {}}})", base + 999)));
  return out;
}

std::vector<std::string> concat(std::vector<std::vector<std::string>> parts) {
  std::vector<std::string> out;
  for (auto& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

CaptureSet read_capture(const std::string& text, const CaptureDetails& details = {},
                        const std::string& display = "cap.json") {
  CaptureSet set;
  std::vector<std::string> notes;
  const std::string error = read_capture_stream(chunked(text, 97), display, details, set, notes);
  INFO(error);
  REQUIRE(error.empty());
  return set;
}

// One replay: a hipGraphLaunch at `cpu_ts` (correlation `corr`) and its kernels on the GPU.
std::vector<std::string> replay(long corr, double cpu_ts, const std::vector<std::string>& kernels,
                                double gpu_ts) {
  std::vector<std::string> out = {ev("cuda_runtime", "hipGraphLaunch", cpu_ts, 5,
                                     fmt::format(R"({{"correlation": {}}})", corr))};
  for (std::size_t i = 0; i < kernels.size(); ++i)
    out.push_back(ev("kernel", kernels[i], gpu_ts + 10.0 * static_cast<double>(i), 5,
                     fmt::format(R"({{"correlation": {}, "device": 0}})", corr), 0));
  return out;
}

TraceProfile read_exec(const std::string& text, const CaptureSet* set) {
  TraceRead r = read_trace_stream(chunked(text, 131), "exec.json", set);
  INFO(r.error);
  REQUIRE(r.profile);
  return *r.profile;
}

const TraceKernel& kernel(const TraceProfile& p, const std::string& name) {
  for (const auto& k : p.kernels)
    if (k.name == name) return k;
  FAIL("no kernel " << name);
  return p.kernels.front();
}

}  // namespace

TEST_CASE("capture traces: windows with their sizes, launches, names and ops", "[topn][capture]") {
  const std::string text =
      doc(concat({window(8, {"a", "b"}, 0, 100), window(16, {"a", "b"}, 2000, 200),
                  window(32, {"a"}, 4000, 300, false, false)}));
  const CaptureSet set = read_capture(text);
  REQUIRE(set.windows.size() == 3);
  CHECK(set.windows[0].size.value() == 8);
  CHECK(set.windows[0].mode == "DECODE");
  CHECK(set.windows[1].size.value() == 16);
  CHECK_FALSE(set.windows[2].size);  // no annotation, no execution_details.json
  CHECK_FALSE(set.windows[2].named);
  REQUIRE(set.windows[0].launches.size() == 2);
  const CapturedLaunch& l = set.windows[0].launches[1];
  CHECK(set.texts.at(l.kernel) == "b");
  CHECK(set.texts.at(l.op) == "aten::mm");
  CHECK(set.shapes.at(l.shape).dims == std::vector<std::vector<std::int64_t>>{{8, 64}, {64, 101}});
  // gzip and one piece read the same
  const CaptureSet gz = read_capture(gzip(text));
  CHECK(gz.windows.size() == 3);
  // execution_details.json sizes a window no annotation names
  CaptureDetails details;
  details["cap.json"] = CaptureDetail{32, "FULL"};
  const CaptureSet sized = read_capture(text, details);
  CHECK(sized.windows[2].size.value() == 32);
  CHECK(sized.windows[2].mode == "FULL");
  CHECK(sized.windows[0].size.value() == 8);  // the annotation wins
}

TEST_CASE("capture traces: what is not one, and broken ones, say so in one line",
          "[topn][capture]") {
  CaptureSet set;
  std::vector<std::string> notes;
  const auto read = [&](const std::string& text) {
    return read_capture_stream(chunked(text, 50), "cap.json", {}, set, notes);
  };
  CHECK(
      read(doc({ev("kernel", "k", 1, 2, R"({"correlation": 1})", 0)})).find("no capture window") !=
      std::string::npos);
  const std::string good = doc(window(8, {"a"}, 0, 100));
  CHECK(read(good.substr(0, good.size() / 2)).find("truncated") != std::string::npos);
  CHECK(read("").find("empty") != std::string::npos);
  CHECK(read("a,b\n1,2\n").find("not a Chrome trace") != std::string::npos);
  const std::string gz = gzip(good);
  CHECK(read(gz.substr(0, gz.size() / 2)).find("gzip") != std::string::npos);
  CHECK(set.windows.empty());  // nothing of a broken file is kept
  // an unclosed window is dropped with a note
  std::vector<std::string> open = window(8, {"a"}, 0, 100);
  open.pop_back();
  CHECK(read(doc(concat({open, window(16, {"b"}, 2000, 200)}))).empty());
  CHECK(set.windows.size() == 1);
  std::string error;
  CHECK(parse_capture_details(R"([{"file": "a.json", "batch_size": 4}])", error)
            .at("a.json")
            .batch_size == 4);
  CHECK(error.empty());
  for (const char* bad : {"{}", "[1]", R"([{"file": "a"}])", R"([{"file": 1, "batch_size": 2}])",
                          R"([{"file": "a", "batch_size": -1}])", "[", ""}) {
    error.clear();
    CHECK(parse_capture_details(bad, error).empty());
    CHECK_FALSE(error.empty());
  }
}

TEST_CASE(
    "graph join: replays pair with the window of the smallest size >= the step, by name "
    "and order",
    "[topn][capture]") {
  const CaptureSet set =
      read_capture(doc(concat({window(8, {"a", "b"}, 0, 100), window(16, {"a", "b"}, 2000, 200)})));
  const std::string exec = doc(concat({
      {ev("user_annotation", "step[DECODE bs=5]", 0, 100, "{}"),
       ev("user_annotation", "step[DECODE bs=16]", 200, 100, "{}"),
       ev("user_annotation", "step[DECODE bs=17]", 400, 100, "{}")},
      replay(1, 10, {"a", "b"}, 1000),
      replay(2, 210, {"a", "b"}, 2000),
      replay(3, 410, {"a", "b"}, 3000),
      // an eager Triton launch without an External id is not a replay
      {ev("cuda_runtime", "hipModuleLaunchKernel", 420, 1, R"({"correlation": 9})"),
       ev("kernel", "triton_k", 3500, 5, R"({"correlation": 9})", 0)},
  }));
  const TraceProfile p = read_exec(exec, &set);
  CHECK(p.graph.replays == 3);
  CHECK(p.graph.launches == 6);
  CHECK(p.graph.paired == 4);
  CHECK(p.graph.with_shapes == 4);
  REQUIRE(p.graph.unpaired_reasons.size() == 1);
  CHECK(p.graph.unpaired_reasons.begin()->first ==
        "no window captured for a size >= 17 (captured sizes: 8, 16)");
  CHECK(p.graph.unpaired_examples.at(0).correlation == 3);
  const TraceKernel& b = kernel(p, "b");
  CHECK(b.replay_calls == 3);
  CHECK(b.replay_with_shapes == 2);
  // Two captured signatures, and the unpaired replay as a signature without dims (§22.8).
  REQUIRE(b.cases.size() == 3);
  for (const TraceCase& c : b.cases) {
    if (c.dims.empty()) {
      CHECK(c.replay);
      CHECK(c.count == 1);
      continue;
    }
    CHECK(c.dims[1][1] == 101);
    CHECK(c.rows.value() == (c.dims[0][0] == 8 ? 5 : 16));
  }
  CHECK(kernel(p, "triton_k").replay_calls == 0);
  // without captures: every replay unpaired, one reason
  const TraceProfile none = read_exec(exec, nullptr);
  CHECK(none.graph.paired == 0);
  CHECK_FALSE(none.graph.capture_given);
  CHECK(none.graph.unpaired_reasons.at("no capture trace given (--capture)").second == 6);
}

TEST_CASE(
    "graph join: nameless capture launches pair by launch count; without a step every "
    "window is a candidate",
    "[topn][capture]") {
  const CaptureSet set = read_capture(doc(concat(
      {window(4, {"x", "y"}, 0, 100, false), window(4, {"x", "y", "z"}, 2000, 200, false)})));
  const TraceProfile p =
      read_exec(doc(concat({replay(1, 10, {"p", "q", "r"}, 1000), replay(2, 20, {"p", "q"}, 2000),
                            replay(3, 30, {"p"}, 3000)})),
                &set);
  CHECK(p.graph.paired == 5);
  REQUIRE(p.graph.unpaired_reasons.size() == 1);
  CHECK(p.graph.unpaired_reasons.begin()->first.find("has 1 kernel launches (the capture "
                                                     "launches name no kernel)") !=
        std::string::npos);
  const TraceKernel& r = kernel(p, "r");
  REQUIRE(r.cases.size() == 1);
  CHECK(r.cases[0].dims[1][1] == 102);  // the third launch of the 3-launch window
}

TEST_CASE(
    "graph join: equal windows in capture order; a replayed and an eager launch of one "
    "signature share a case",
    "[topn][capture]") {
  const CaptureSet set =
      read_capture(doc(concat({window(8, {"a"}, 0, 100), window(8, {"a"}, 2000, 200)})));
  const std::string op = ev(
      "cpu_op", "aten::mm", 600, 5,
      R"({"External id": 77, "Input Dims": [[8, 64], [64, 100]], "Input type": ["c10::BFloat16", "c10::BFloat16"]})");
  const TraceProfile p = read_exec(
      doc(concat({replay(1, 10, {"a"}, 1000),
                  replay(2, 20, {"a"}, 2000),
                  replay(3, 30, {"a"}, 3000),
                  {op,
                   ev("cuda_runtime", "hipLaunchKernel", 601, 1,
                      R"({"External id": 77, "correlation": 50})"),
                   ev("kernel", "a", 4000, 5, R"({"External id": 77, "correlation": 50})", 0)}})),
      &set);
  CHECK(p.graph.paired == 3);
  const TraceKernel& a = kernel(p, "a");
  REQUIRE(a.cases.size() == 1);  // both windows' ops have the same dims here
  CHECK(a.cases[0].count == 4);  // 3 replayed + 1 eager
  CHECK(a.launchers.at({"aten::mm", ""}) == 4);
}

TEST_CASE(
    "launching op and module: the op with most calls, the innermost two nn.Modules without "
    "GraphModule and the model class",
    "[topn][capture]") {
  const auto module = [](const std::string& name, double ts, double dur) {
    return ev("python_function", "nn.Module: " + name, ts, dur, R"({"Python id": 1})");
  };
  const auto launch = [](long ext, const std::string& op, double ts, const std::string& k,
                         double gpu_ts) {
    return std::vector<std::string>{
        ev("cpu_op", op, ts, 2, fmt::format(R"({{"External id": {}}})", ext)),
        ev("cuda_runtime", "cudaLaunchKernel", ts + 0.5, 1,
           fmt::format(R"({{"External id": {}, "correlation": {}}})", ext, ext)),
        ev("kernel", k, gpu_ts, 5,
           fmt::format(R"({{"External id": {}, "correlation": {}}})", ext, ext), 0)};
  };
  const TraceProfile p = read_exec(
      doc(concat({{module("Qwen3ForCausalLM_0", 0, 1000), module("Qwen3Model_0", 1, 998),
                   module("Qwen3DecoderLayer_0", 2, 400), module("Qwen3Attention_0", 3, 100),
                   module("RowParallelLinear_0", 50, 40), module("Qwen2MLP_0", 200, 100),
                   module("RowParallelLinear_1", 250, 40), module("GraphModule_0", 500, 100),
                   module("LogitsProcessor_0", 1100, 50)},
                  launch(1, "aten::mm", 60, "o_kernel", 5000),      // attention's o_proj
                  launch(2, "aten::mm", 260, "down_kernel", 5010),  // the MLP's down
                  launch(3, "aten::addmm", 270, "down_kernel", 5020),
                  launch(4, "aten::mm", 280, "down_kernel", 5030),
                  launch(5, "aten::mm", 150, "norm_kernel", 5040),   // the decoder layer only
                  launch(6, "aten::mm", 550, "graph_kernel", 5050),  // GraphModule and the model
                  launch(7, "aten::mm", 1120, "head_kernel", 5060)})),
      nullptr);
  const TopnDocument d = build_topn(p, TopnOptions{}, {}, {}).topn;
  std::map<std::string, std::pair<std::string, std::string>> got;
  for (const TopnEntry& e : d.entries)
    got[e.name] = {e.op.empty() ? "-" : e.op, e.module.empty() ? "-" : e.module};
  CHECK(got["o_kernel"] ==
        std::pair<std::string, std::string>{"aten::mm", "Qwen3Attention.RowParallelLinear"});
  CHECK(got["down_kernel"] ==
        std::pair<std::string, std::string>{"aten::mm", "Qwen2MLP.RowParallelLinear"});
  CHECK(got["norm_kernel"] == std::pair<std::string, std::string>{"aten::mm", "Qwen3DecoderLayer"});
  CHECK(got["graph_kernel"] == std::pair<std::string, std::string>{"aten::mm", "-"});
  CHECK(got["head_kernel"] == std::pair<std::string, std::string>{"aten::mm", "LogitsProcessor"});
  // written and read back
  const Loaded<TopnDocument> t = parse_topn(render_topn_json(d), "profile_topN.json");
  REQUIRE(t.value);
  bool seen = false;
  for (const TopnEntry& e : t.value->entries)
    if (e.name == "down_kernel") {
      seen = true;
      CHECK(e.op == "aten::mm");
      CHECK(e.module == "Qwen2MLP.RowParallelLinear");
    }
  CHECK(seen);
}

}  // namespace unit_capture_join
