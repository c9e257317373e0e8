// read_trace_stream on rocprofv3 JSON (hand-written, in memory): dispatches summed per kernel,
// names from kernel_symbols as a list or a map, per process; broken and odd documents. And a JSON
// file that is not a trace at all: named as what it is (json_kind.cpp).
#include <string>
#include <vector>

#include <fmt/format.h>

#include "roofline/cli/layer.hpp"
#include "roofline/topn/readers/json_kind.hpp"
#include "test_helpers.hpp"
#include "topn_test_io.hpp"

namespace unit_rocprof_json {
using namespace roofline::cli;
using roofline::test::any_contains;
using roofline::test::chunked;
using roofline::test::gzip;
namespace detail = roofline::topn::detail;

namespace {

std::string dispatch(int kernel_id, long long start, long long dur) {
  return fmt::format(
      R"({{"size": 96, "kind": 11, "correlation_id": {{"internal": 1, "external": 0}},)"
      R"( "start_timestamp": {}, "end_timestamp": {}, "dispatch_info": {{"agent_id": {{"handle": 2}},)"
      R"( "kernel_id": {}, "workgroup_size": {{"x": 256, "y": 1, "z": 1}}}}}})",
      1733000000000000000LL + start, 1733000000000000000LL + start + dur, kernel_id);
}

std::string symbol(int kernel_id, const std::string& name) {
  return fmt::format(
      R"({{"size": 96, "kernel_id": {}, "code_object_id": 1, "kernel_name": "{}",)"
      R"( "formatted_kernel_name": "f_{}", "demangled_kernel_name": "d_{}", "truncated_kernel_name": "t"}})",
      kernel_id, name, name, name);
}

std::string process(const std::string& symbols, const std::string& dispatches) {
  return R"({"metadata": {"pid": 1}, "agents": [{"id": {"handle": 2}, "type": 2}], "kernel_symbols": )" +
         symbols + R"(, "buffer_records": {"names": [], "kernel_dispatch": [)" + dispatches + "]}}";
}

std::string doc(const std::vector<std::string>& processes) {
  std::string out = R"({"rocprofiler-sdk-tool": [)";
  for (std::size_t i = 0; i < processes.size(); ++i) out += (i ? ", " : "") + processes[i];
  return out + "]}\n";
}

TraceRead read(const std::string& text, std::size_t chunk = 4096) {
  return read_trace_stream(chunked(text, chunk), "r.json");
}

const TraceKernel* find(const TraceProfile& p, const std::string& name) {
  for (const auto& k : p.kernels)
    if (k.name == name) return &k;
  return nullptr;
}

}  // namespace

TEST_CASE("rocprofv3 JSON: dispatches summed per kernel name, ns to µs", "[topn][rocprof]") {
  const std::string text = doc({process("[" + symbol(1, "gemm") + ", " + symbol(2, "norm") + "]",
                                        dispatch(1, 0, 67160) + ", " + dispatch(2, 100000, 5000) +
                                            ", " + dispatch(1, 200000, 67000))});
  for (std::size_t chunk : {std::size_t{1}, std::size_t{7}, std::size_t{4096}}) {
    const TraceRead r = read(text, chunk);
    INFO(r.error);
    REQUIRE(r.profile);
    CHECK(r.profile->source == "rocprofv3");
    REQUIRE(r.profile->kernels.size() == 2);
    const TraceKernel* gemm = find(*r.profile, "gemm");
    REQUIRE(gemm);
    CHECK(gemm->calls == 2);
    CHECK(gemm->total_us == roofline::test::rel(134.16));
    CHECK(gemm->cases.empty());
    CHECK(find(*r.profile, "norm")->total_us == roofline::test::rel(5.0));
    CHECK(any_contains(r.notes, {"3 kernel dispatches of 2 kernels, 1 process"}));
  }
  const TraceRead gz = read_trace_stream(chunked(gzip(text), 5), "r.json.gz");
  REQUIRE(gz.profile);
  CHECK(gz.profile->kernels.size() == 2);
}

TEST_CASE("rocprofv3 JSON: kernel_symbols as a map, after the dispatches, ids per process",
          "[topn][rocprof]") {
  const std::string p1 = process("[" + symbol(1, "gemm") + "]", dispatch(1, 0, 1000));
  // the second process: buffer_records first, symbols a map keyed by id, id 1 another kernel
  const std::string p2 = R"({"buffer_records": {"kernel_dispatch": [)" + dispatch(1, 0, 2000) +
                         ", " + dispatch(7, 0, 3000) +
                         R"(]}, "kernel_symbols": {"1": {"kernel_name": "attn"}, "7": )" +
                         symbol(7, "gemm") + "}}";
  const TraceRead r = read(doc({p1, p2}));
  INFO(r.error);
  REQUIRE(r.profile);
  REQUIRE(r.profile->kernels.size() == 2);
  CHECK(find(*r.profile, "gemm")->calls == 2);  // id 1 of pid A, id 7 of pid B
  CHECK(find(*r.profile, "gemm")->total_us == roofline::test::rel(4.0));
  CHECK(find(*r.profile, "attn")->total_us == roofline::test::rel(2.0));
  CHECK(any_contains(r.notes, {"2 processes"}));
}

TEST_CASE("rocprofv3 JSON: the name is kernel_name, else demangled, formatted, truncated",
          "[topn][rocprof]") {
  const std::string syms =
      R"([{"kernel_id": 1, "kernel_name": "", "demangled_kernel_name": "", "formatted_kernel_name": "fmt"},)"
      R"( {"kernel_id": 2, "truncated_kernel_name": "trunc"}, {"kernel_id": 3, "kernel_name": "raw",)"
      R"( "demangled_kernel_name": "dem"}, {"kernel_name": "no id"}, {"kernel_id": 4}])";
  const TraceRead r =
      read(doc({process(syms, dispatch(1, 0, 10) + ", " + dispatch(2, 0, 10) + ", " +
                                  dispatch(3, 0, 10) + ", " + dispatch(4, 0, 10))}));
  REQUIRE(r.profile);
  CHECK(find(*r.profile, "fmt"));
  CHECK(find(*r.profile, "trunc"));
  CHECK(find(*r.profile, "raw"));
  CHECK(find(*r.profile, "kernel_id 4 (no kernel_symbols entry)"));
  CHECK(
      any_contains(r.notes, {"1 dispatch(es) name a kernel_id that kernel_symbols does not list"}));
}

TEST_CASE("rocprofv3 JSON: bad records are skipped and counted", "[topn][rocprof]") {
  const std::string bad =
      R"({"start_timestamp": 10, "end_timestamp": 5, "dispatch_info": {"kernel_id": 1}},)"
      R"( {"start_timestamp": 10, "dispatch_info": {"kernel_id": 1}},)"
      R"( {"start_timestamp": "10", "end_timestamp": 20, "dispatch_info": {"kernel_id": 1}},)"
      R"( {"start_timestamp": 10, "end_timestamp": 20},)"
      R"( {"start_timestamp": 10, "end_timestamp": 20, "dispatch_info": {"kernel_id": 1.5}},)"
      R"( 7, "x", [1], {"start_timestamp": 0, "end_timestamp": 40, "kernel_id": 1})";
  const TraceRead r =
      read(doc({process("[" + symbol(1, "k") + "]", bad + ", " + dispatch(1, 0, 10))}));
  INFO(r.error);
  REQUIRE(r.profile);
  const TraceKernel* k = find(*r.profile, "k");
  REQUIRE(k);
  CHECK(k->calls == 2);  // the flat record with its own kernel_id, and the good one
  CHECK(k->total_us == roofline::test::rel(0.05));
  CHECK(
      any_contains(r.notes, {"5 kernel dispatch record(s) skipped: 2 without kernel_id, 3 without "
                             "valid start/end timestamps"}));
}

TEST_CASE("rocprofv3 JSON: broken or empty documents say what is wrong", "[topn][rocprof]") {
  const std::string good = doc({process("[" + symbol(1, "k") + "]", dispatch(1, 0, 10))});
  const TraceRead cut = read(good.substr(0, good.size() / 2));
  CHECK_FALSE(cut.profile);
  CHECK(cut.error.find("r.json: rocprofv3 JSON: invalid JSON at byte") == 0);
  CHECK(cut.error.find("truncated") != std::string::npos);

  const TraceRead no_list = read(R"({"rocprofiler-sdk-tool": [{"kernel_symbols": []}]})");
  CHECK(
      no_list.error ==
      "r.json: rocprofv3 JSON without kernel_dispatch records: run rocprofv3 with --kernel-trace");
  const TraceRead none_usable = read(
      R"({"rocprofiler-sdk-tool": [{"buffer_records": {"kernel_dispatch": [{"start_timestamp": 1}]}}]})");
  CHECK(none_usable.error.find("none of its 1 kernel dispatches is usable") != std::string::npos);
  const TraceRead not_list = read(R"({"rocprofiler-sdk-tool": {"a": 1}})");
  CHECK(not_list.error ==
        "r.json: rocprofv3 JSON: rocprofiler-sdk-tool is not a list of process records");
  const TraceRead trailing = read(good + "x");
  CHECK_FALSE(trailing.profile);
  CHECK(trailing.error.find("rocprofv3 JSON:") != std::string::npos);
  // odd members are skipped, not errors
  const TraceRead odd = read(
      R"({"rocprofiler-sdk-tool": [7, "x", {"buffer_records": [1], "kernel_symbols": "s"},)" +
      process("{\"a\": [1]}", dispatch(1, 0, 10)).substr(0) + "], \"extra\": {\"k\": [1, 2]}}");
  INFO(odd.error);
  REQUIRE(odd.profile);
  CHECK(find(*odd.profile, "kernel_id 1 (no kernel_symbols entry)"));
}

TEST_CASE("not a trace: the file is named as what it is", "[topn][json_kind]") {
  const auto error = [](const std::string& text) {
    const TraceRead r = read_trace_stream(chunked(text, 3), "f.json");
    CHECK_FALSE(r.profile);
    return r.error;
  };
  CHECK(error(R"([{"file": "bs_32_rank0.json.gz", "batch_size": 32, "mode": "FULL"}])")
            .find("f.json: not a trace: an execution_details.json (TraceLens's") == 0);
  CHECK(error("[[0, 1000, 2000], [[0, 1048576], [0, 2097152], [4096, 0]]]")
            .find("not a trace: a PyTorch memory timeline") != std::string::npos);
  CHECK(error(R"({"source": "torch-trace", "top_kernels": []})").find("a Top-N") !=
        std::string::npos);
  CHECK(error(R"({"schema": "workload-v1", "source": "x", "kernels": []})")
            .find("a profile_workload.json") != std::string::npos);
  CHECK(error(R"({"architectures": ["Qwen3ForCausalLM"], "model_type": "qwen3"})")
            .find("a model config.json") != std::string::npos);
  CHECK(error(R"({"gfx": "gfx942", "tp": 1})").find("an env_report.json") != std::string::npos);
  CHECK(error(R"({"segments": [], "device_traces": []})").find("CUDA memory snapshot") !=
        std::string::npos);
  CHECK(error(R"({"skill": "x", "ranking_by_pct": []})").find("a profile_roofline.json") !=
        std::string::npos);
  CHECK(error(R"({"a": 1, "b": {"c": [1, 2]}, "d": "e"})") ==
        "f.json: not a trace: a JSON object with the keys \"a\", \"b\", \"d\" and no traceEvents "
        "(neither a PyTorch profiler trace nor a rocprofv3 JSON); give topn the profiler's trace "
        "itself");
  // a key with a newline (fuzz finding): the message stays one line
  const std::string newline_key = error("{\"a\nb\": 1, \"" + std::string(60, 'k') + "\": 2}");
  CHECK(newline_key.find('\n') == std::string::npos);
  CHECK(newline_key.find("\"a?b\", \"" + std::string(40, 'k') + "…\"") != std::string::npos);
  CHECK(error(R"(["a", "b"])").find("a JSON list of strings, not of profiler events") !=
        std::string::npos);
  CHECK(error(R"([{"name": "k", "x": 1}])")
            .find("a JSON list of objects with the keys \"name\", \"x\"") != std::string::npos);
  // a real trace without GPU events keeps the profiler advice
  CHECK(
      error(
          R"({"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "ts": 1, "dur": 2}]})")
          .find("no GPU activity in the trace") != std::string::npos);
  CHECK(error(R"([{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "ts": 1, "dur": 2}])")
            .find("no GPU activity in the trace") != std::string::npos);
  CHECK(error("[]").find("no GPU activity in the trace") != std::string::npos);
  // traceEvents beyond the first 4 KiB: still a trace
  CHECK(error(R"({"distributedInfo": {"pad": ")" + std::string(8000, 'x') +
              R"("}, "traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "ts": 1}]})")
            .find("no GPU activity in the trace") != std::string::npos);
  // broken JSON stays a JSON error
  CHECK(error(R"([{"file": "x", "batch_size": )").find("invalid JSON") != std::string::npos);
}

TEST_CASE("read_json_head: keys of the first bytes, up to where they end", "[topn][json_kind]") {
  const auto h = detail::read_json_head(R"({"a": [1, {"b": 2}], "rocprofiler-sdk-tool": [{"meta)");
  CHECK(h.top == '{');
  CHECK(h.keys == std::vector<std::string>{"a", "rocprofiler-sdk-tool"});
  CHECK(detail::is_rocprof_json(h));
  CHECK_FALSE(detail::looks_like_chrome_trace(h));
  const auto a = detail::read_json_head(R"([{"ph": "X", "cat": "kernel", "na)");
  CHECK(a.top == '[');
  CHECK(a.first == '{');
  CHECK(detail::looks_like_chrome_trace(a));
  CHECK(detail::read_json_head("not json").top == 0);
  CHECK(detail::read_json_head("").top == 0);
  std::string many = "{";
  for (int i = 0; i < 100; ++i) many += fmt::format("\"k{}\": {}, ", i, i);
  CHECK(detail::read_json_head(many).keys.size() == 32);
}

}  // namespace unit_rocprof_json
