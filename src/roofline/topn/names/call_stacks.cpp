// The call stack of a launch (docs/method.md §22.10): the grammar of a `python_function` frame's
// name.
#include "roofline/topn/names/call_stacks.hpp"

#include <algorithm>
#include <tuple>

namespace roofline::topn::detail {
namespace {

// `file(line): function` -> the file's base name, its folder path and the function; false when
// the name is not a frame of that form (`<built-in method …>`, `nn.Module: …`).
bool split_frame(std::string_view name, std::string_view& folder, std::string_view& file,
                 std::string_view& function) {
  const std::size_t colon = name.find("): ");
  if (colon == std::string_view::npos || colon == 0) return false;
  const std::size_t open = name.rfind('(', colon);
  if (open == std::string_view::npos || open == 0 || open + 1 >= colon) return false;
  for (std::size_t i = open + 1; i < colon; ++i)
    if (name[i] < '0' || name[i] > '9') return false;
  const std::string_view path = name.substr(0, open);
  const std::size_t slash = path.rfind('/');
  folder = slash == std::string_view::npos ? std::string_view() : path.substr(0, slash + 1);
  file = slash == std::string_view::npos ? path : path.substr(slash + 1);
  function = name.substr(colon + 3);
  return !function.empty() && !file.empty();
}

// The function's name lower-cased without underscores, its first 127 characters:
// `tensor_model_parallel_all_reduce` -> `tensormodelparallelallreduce`, so `all_reduce`,
// `allreduce` and `AllReduce` read alike (no allocation: every python frame of a trace is read).
std::string_view squeezed(std::string_view s, char (&buf)[128]) {
  std::size_t n = 0;
  for (char c : s) {
    if (c == '_') continue;
    if (n + 1 == sizeof buf) break;
    buf[n++] = c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
  }
  return {buf, n};
}

// The `_`-separated words of a function name, lower-cased.
bool has_word(std::string_view function, std::string_view word) {
  std::size_t at = 0;
  while (at <= function.size()) {
    const std::size_t end = std::min(function.find('_', at), function.size());
    const std::string_view w = function.substr(at, end - at);
    if (w.size() == word.size() && std::equal(w.begin(), w.end(), word.begin(), [](char a, char b) {
          return (a >= 'A' && a <= 'Z' ? static_cast<char>(a - 'A' + 'a') : a) == b;
        }))
      return true;
    at = end + 1;
  }
  return false;
}

// The serving or kernel library a frame's file belongs to, by its package directory; nullptr for
// torch, Triton and everything else (dispatch layers and user code say nothing of the owner).
const char* library_of(std::string_view folder) {
  struct Package {
    std::string_view dir;
    const char* name;
  };
  static constexpr Package k_packages[] = {{"aiter/", "aiter"},
                                           {"sgl_kernel/", "sglang"},
                                           {"sglang/", "sglang"},
                                           {"vllm_flash_attn/", "vllm"},
                                           {"vllm/", "vllm"},
                                           {"flashinfer/", "flashinfer"},
                                           {"flash_attn/", "flash-attn"},
                                           {"triton_kernels/", "triton_kernels"},
                                           {"deep_gemm/", "deep_gemm"},
                                           {"tensorrt_llm/", "tensorrt-llm"},
                                           {"xformers/", "xformers"},
                                           {"lmdeploy/", "lmdeploy"}};
  for (const Package& p : k_packages) {
    const std::size_t at = folder.find(p.dir);
    if (at != std::string_view::npos && (at == 0 || folder[at - 1] == '/')) return p.name;
  }
  return nullptr;
}

const char* collective_of(std::string_view function) {
  char buf[128];
  const std::string_view s = squeezed(function, buf);
  if (s.find("reducescatter") != std::string::npos) return "reduce_scatter";
  if (s.find("allreduce") != std::string::npos) return "all_reduce";
  if (s.find("allgather") != std::string::npos) return "all_gather";
  if (s.find("alltoall") != std::string::npos || s.find("all2all") != std::string::npos)
    return "all_to_all";
  if (s.find("broadcast") != std::string::npos) return "broadcast";
  return nullptr;
}

}  // namespace

FrameWords frame_words(std::string_view name) {
  std::string_view folder, file, function;
  if (!split_frame(name, folder, file, function)) return {};
  if (const char* c = collective_of(function)) return {FrameRole::collective, c};
  // A forward of one mode: the function says both that it is a forward and which mode.
  if (has_word(function, "forward")) {
    if (has_word(function, "extend") || has_word(function, "prefill"))
      return {FrameRole::prefill, std::string(function)};
    if (has_word(function, "decode")) return {FrameRole::decode, std::string(function)};
  }
  // SGLang replays graphs captured for decode batches only in its cuda_graph_runner (its
  // piecewise runner, which serves prefills, is another file).
  if (function == "replay" && file.find("cuda_graph_runner") != std::string_view::npos &&
      file.find("piecewise") == std::string_view::npos)
    return {FrameRole::decode, "cuda_graph_runner replay"};
  if (folder.size() >= 8 &&
      (folder.find("/models/") != std::string_view::npos || folder.rfind("models/", 0) == 0))
    return {FrameRole::model_call, std::string(file) + ": " + std::string(function)};
  if (const char* lib = library_of(folder)) return {FrameRole::library, lib};
  return {};
}

}  // namespace roofline::topn::detail
