// A Chrome trace read in parts by parsers on several cores (chrome_split.hpp) gives what one parser
// gives: the same Top-N and workload, byte for byte — when a boundary is a real event start, when
// the guess falls inside a string (the parser before it reads on, the part it passed dropped),
// with launches and their ops, runtime calls and kernels on both sides of a boundary, with more
// parsers than cores, and for a JSON error after one.
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "roofline/cli/layer.hpp"
#include "roofline/topn/bytes/byte_source.hpp"
#include "roofline/topn/readers/chrome_split.hpp"
#include "test_helpers.hpp"
#include "topn_test_io.hpp"

namespace unit_chrome_split {
using namespace roofline::cli;
using namespace roofline::topn::detail;
namespace fs = std::filesystem;

namespace {

// A step of `n` launches: a python frame, an op, its runtime call and its kernel each, the step's
// annotation last (as vLLM's loop writes it); one kernel's long name ends in `}, {`, a decoy
// boundary.
std::string step_events(int step, int n, long& ext, double& t) {
  std::string out;
  const double begin = t;
  for (int i = 0; i < n; ++i, ++ext, t += 40.0) {
    const std::string kernel = i % 3 == 0   ? "gemm_kernel"
                               : i % 3 == 1 ? "norm" + std::string(600, 'x') + "}, {kernel"
                                            : "act_kernel";
    out += fmt::format(
        R"x({{"ph": "X", "cat": "python_function", "name": "vllm/layers/linear.py({}): forward", )x"
        R"("pid": 7, "tid": 7, "ts": {}, "dur": 30}},)"
        "\n  ",
        100 + i % 3, t);
    out += fmt::format(
        R"({{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 7, "tid": 7, "ts": {}, "dur": 25, )"
        R"("args": {{"External id": {}, "Input Dims": [[{}, 64], [64, 128]], "Input type": ["float", "float"], )"
        R"("Concrete Inputs": ["", "", "1"]}}}},)"
        "\n  ",
        t + 1, ext, step % 2 ? 8 : 512);
    out += fmt::format(
        R"({{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 7, "tid": 7, )"
        R"("ts": {}, "dur": 4, "args": {{"External id": {}, "correlation": {}}}}},)"
        "\n  ",
        t + 10, ext, ext + 100000);
    out += fmt::format(
        R"({{"ph": "X", "cat": "kernel", "name": "{}", "pid": 0, "tid": 7, "ts": {}, "dur": {}, )"
        R"("args": {{"External id": {}, "correlation": {}, "grid": [{}, 1, 1], "block": [128, 1, 1]}}}},)"
        "\n  ",
        kernel, t + 20, 1.5 + i % 7, ext, ext + 100000, 1 + i % 4);
  }
  const int tokens = step % 2 ? 0 : 512, requests = step % 2 ? 8 : 0;
  out += fmt::format(
      R"x({{"ph": "X", "cat": "user_annotation", "name": "execute_context_{}({})_generation_{}({})", )x"
      R"x("pid": 7, "tid": 7, "ts": {}, "dur": {}}})x",
      tokens ? 1 : 0, tokens, requests, requests, begin, t - begin);
  return out;
}

std::string big_trace(int steps, const std::string& tail_junk = "", std::size_t pad = 0) {
  std::string out =
      R"({"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "NVIDIA H200"}], "traceEvents": [)"
      "\n  ";
  long ext = 1;
  double t = 1000.0;
  for (int s = 0; s < steps; ++s) out += (s ? ",\n  " : "") + step_events(s, 12, ext, t);
  out += "\n  ]" + tail_junk + R"(, "traceName": "x)" + std::string(pad, 'y') +
         R"(.json", "distributedInfo": {"world_size": 2}})";
  return out;
}

struct TmpFile {
  fs::path path;
  explicit TmpFile(const std::string& text) {
    path = fs::temp_directory_path() / fmt::format("roofline_split_{}_{}.json", ::getpid(),
                                                   reinterpret_cast<std::uintptr_t>(this));
    std::ofstream(path, std::ios::binary) << text;
  }
  ~TmpFile() {
    std::error_code ec;
    fs::remove(path, ec);
  }
};

// The Top-N and workload texts of the file parsed by one parser, or in parts with the least split
// `min_bytes`, parts of about `part_bytes`; the parse's error in `error`.
std::string topn_text(const fs::path& path, std::uint64_t min_bytes, std::string& error,
                      std::uint64_t part_bytes = std::uint64_t{1} << 40, std::size_t workers = 0) {
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
  REQUIRE(f);
  FileReader reader(f.get());
  SplitSource split;
  split.path = path;
  split.size = fs::file_size(path);
  split.min_bytes = min_bytes;
  split.part_bytes = part_bytes;
  split.workers = workers;
  ChromeEvents ev;
  error =
      parse_chrome_trace([&reader](char* buf, std::size_t cap) { return reader.read(buf, cap); },
                         ev, min_bytes ? &split : nullptr);
  if (!error.empty()) return {};
  const TraceProfile p = aggregate_chrome_events(ev);
  TopnOptions o;
  o.top = 100;
  const TopnBuild b =
      build_topn(p, o, builtin_kernel_classes_rules(), builtin_kernel_backends_rules());
  return render_topn_json(b.topn) + render_workload_json(b);
}

}  // namespace

// Where the parts after the first would begin in `text`, about `part_bytes` each, and how many of
// those are decoys: the middle of a kernel name, not an event.
std::vector<std::uint64_t> boundaries(const fs::path& path, const std::string& text,
                                      std::uint64_t part_bytes, int& decoys) {
  SplitSource src;
  src.path = path;
  src.size = text.size();
  src.min_bytes = 1;
  src.part_bytes = part_bytes;
  SplitParts probe;
  const std::uint64_t from = text.find("\"traceEvents\": [") + 16;
  const ChromeEvents first;
  probe.start(src, from, "{[", first);
  decoys = 0;
  for (std::uint64_t at : probe.bounds()) decoys += text.compare(at - 4, 4, "x}, ") == 0 ? 1 : 0;
  return probe.bounds();
}

TEST_CASE("Chrome split: parts read by two parsers give one parser's Top-N, byte for byte",
          "[topn][split]") {
  int real = 0, decoyed = 0;
  // The boundaries move with the length: they land on events and inside kernel names. Two parts
  // (one boundary in the middle) and more (whichever parser is free reads the next).
  for (std::uint64_t parts : {2u, 3u, 5u, 16u}) {
    for (int k = 0; k < 10; ++k) {
      const std::string text = big_trace(30 + k % 3, "", static_cast<std::size_t>(k) * 331);
      const TmpFile file(text);
      const std::uint64_t part_bytes = text.size() / parts;
      int decoys = 0;
      const std::vector<std::uint64_t> at = boundaries(file.path, text, part_bytes, decoys);
      REQUIRE(!at.empty());
      CHECK(at.size() <= parts - 1);
      for (std::uint64_t b : at) CHECK(text[b] == '{');
      decoyed += decoys;
      real += static_cast<int>(at.size()) - decoys;
      std::string e1, e2;
      const std::string one = topn_text(file.path, 0, e1);
      REQUIRE(e1.empty());
      CHECK(one.find("\"world_size\": 2") != std::string::npos);  // a key after traceEvents
      CHECK(one.find("}, {kernel") != std::string::npos);
      INFO(parts << " parts, variant " << k << ", " << decoys << " decoy(s)");
      const std::string split = topn_text(file.path, 1, e2, part_bytes);
      CHECK(e2.empty());
      CHECK(split == one);
      // Parsers on more cores than this machine may have: three beside the first.
      CHECK(topn_text(file.path, 1, e2, part_bytes, 3) == one);
      CHECK(e2.empty());
      CHECK(topn_text(file.path, text.size(), e2, part_bytes) == one);  // too short: one parser
    }
  }
  CHECK(real > 0);
  CHECK(decoyed > 0);
}

// Read by one parser and in `parts` parts, `text` fails with the same message.
void same_error_in_parts(const std::string& text, std::initializer_list<std::uint64_t> parts) {
  const TmpFile file(text);
  std::string one;
  topn_text(file.path, 0, one);
  CHECK(!one.empty());
  for (std::uint64_t n : parts) {
    std::string split;
    topn_text(file.path, 1, split, text.size() / n);
    INFO(n << " parts");
    CHECK(split == one);
    topn_text(file.path, 1, split, text.size() / n, 3);
    CHECK(split == one);
  }
}

TEST_CASE("Chrome split: a JSON error after the boundary is the one parser's error",
          "[topn][split]") {
  same_error_in_parts(big_trace(40, R"(, "broken": [1, 2)"), {2u, 7u});
  // An event broken in the middle of the events, in a later part.
  std::string broken = big_trace(40);
  broken.replace(broken.find("cudaLaunchKernel", broken.size() * 2 / 3), 16, "cudaLaunch\"Kernel");
  same_error_in_parts(broken, {2u, 5u});
}

}  // namespace unit_chrome_split
