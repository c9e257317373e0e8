// Whose code a kernel is (docs/method.md §14.2): the launch first, then the name's grammar.
#include "roofline/analyze/evidence/owner.hpp"

#include <algorithm>
#include <map>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "roofline/analyze/entry/head_entry.hpp"

namespace roofline::analyze {
namespace {

struct Word {
  std::string_view word;
  std::string_view project;
};

// The namespaces of compiled ops: the kernels such an op launches are built from its project's
// source (vLLM's csrc extensions and its FlashAttention fork, sgl-kernel, aiter's and FlashInfer's
// torch ops).
constexpr Word k_compiled_ops[] = {{"_C", "vllm"},
                                   {"_C_cache_ops", "vllm"},
                                   {"_moe_C", "vllm"},
                                   {"_rocm_C", "vllm"},
                                   {"_vllm_fa2_C", "vllm-flash-attn"},
                                   {"_vllm_fa3_C", "vllm-flash-attn"},
                                   {"_C_custom_ar", "vllm"},
                                   {"sgl_kernel", "sglang"},
                                   {"aiter", "aiter"},
                                   {"flashinfer", "flashinfer"},
                                   {"trtllm", "tensorrt-llm"},
                                   {"flash_attn", "flash-attn"},
                                   {"_flash_attn", "flash-attn"}};
// Framework ops: a dispatch layer (an attention op picks its backend at run time, a profiler
// annotation wraps whatever ran), so they say who launched the kernel, not whose it is.
constexpr Word k_framework_ops[] = {
    {"vllm", "vllm"}, {"sglang", "sglang"}, {"sglang_profiler", "sglang"}};

// Functions one project's Python API registers, as a framework op's annotation spells them
// (SGLang's profiler names the function it wrapped: `sglang_profiler::attention_paged_attention_
// ragged_100`): aiter/ops/attention.py registers `paged_attention_ragged` and `pa_fwd_asm`
// (ROCm/aiter, MIT); vLLM's ROCm op of the same kernel is `_rocm_C::paged_attention`.
constexpr Word k_api_functions[] = {{"paged_attention_ragged", "aiter"}, {"pa_fwd_asm", "aiter"}};

// Whether `words` holds `w` between underscores (or the ends).
bool has_words(std::string_view words, std::string_view w) {
  for (std::size_t at = words.find(w); at != std::string_view::npos; at = words.find(w, at + 1)) {
    const std::size_t end = at + w.size();
    if ((at == 0 || words[at - 1] == '_' || words[at - 1] == ':') &&
        (end == words.size() || words[end] == '_' || words[end] == '.'))
      return true;
  }
  return false;
}

// Families whose kernels a project instantiates from a generator or template library: the copy
// that ran is the launching project's.
constexpr std::string_view k_generic[] = {"triton", "composable_kernel", "cutlass"};

std::string_view find_word(const Word* begin, const Word* end, std::string_view word) {
  const Word* it = std::find_if(begin, end, [&](const Word& w) { return w.word == word; });
  return it == end ? std::string_view() : it->project;
}

std::vector<std::string> owners_of(const std::string& backend) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while (at <= backend.size()) {
    const std::size_t bar = std::min(backend.find('|', at), backend.size());
    if (bar > at) out.push_back(backend.substr(at, bar - at));
    at = bar + 1;
  }
  return out;
}

bool generic(const std::string& backend) {
  return std::find(std::begin(k_generic), std::end(k_generic), backend) != std::end(k_generic);
}

// The package most of the entry's launches' call stacks name (`topn`'s per-signature library),
// when more than half of its launches name it.
LaunchOwner stack_owner(const HeadEntry& e) {
  if (!e.evidence.workload) return {};
  std::map<std::string, double> by;
  double all = 0.0;
  for (const ProbeCase& c : e.evidence.workload->cases) {
    all += c.count;
    if (c.signature && !c.signature->library.empty()) by[c.signature->library] += c.count;
  }
  const auto best = std::max_element(
      by.begin(), by.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
  if (best == by.end() || !(best->second > 0.5 * all)) return {};
  return {best->first,
          fmt::format("the call stack: {:g} of its {:g} launches ran under {}'s Python",
                      best->second, all, best->first),
          true};
}

}  // namespace

LaunchOwner launch_owner(const HeadEntry& e) {
  const std::size_t colons = e.op.find("::");
  const std::string_view ns =
      colons == std::string::npos ? std::string_view() : std::string_view(e.op).substr(0, colons);
  if (const std::string_view p =
          find_word(std::begin(k_compiled_ops), std::end(k_compiled_ops), ns);
      !p.empty())
    return {std::string(p), fmt::format("its compiled op `{}`", e.op), true};
  if (LaunchOwner s = stack_owner(e); !s.project.empty()) return s;
  for (const Word& w : k_api_functions)
    if (!ns.empty() && has_words(std::string_view(e.op).substr(colons + 2), w.word))
      return {std::string(w.project),
              fmt::format("the op `{}`, which wraps {}'s `{}`", e.op, w.project, w.word), true};
  if (const std::string_view p =
          find_word(std::begin(k_framework_ops), std::end(k_framework_ops), ns);
      !p.empty())
    return {std::string(p), fmt::format("the framework op `{}` that launched it", e.op), false};
  return {};
}

std::string place_owner(HeadEntry& e) {
  // A closed kernel is closed whoever calls it; PyTorch's native kernels are PyTorch's; an entry
  // the table does not know says nothing of whose source it is.
  if (!e.editable || !*e.editable || e.backend.empty() || e.backend == "pytorch") return {};
  const std::vector<std::string> named = owners_of(e.backend);
  const LaunchOwner l = launch_owner(e);
  // A framework op says whose Python launched the kernel: enough for a family every project
  // instantiates itself (Triton, CK, CUTLASS), not to pick between two projects' copies.
  if (l.project.empty() || (!l.compiled && !generic(e.backend))) {
    if (named.size() < 2) return {};
    return fmt::format(
        "owner: a kernel of this name ships with {} (data/kernel_backends.tsv); {}, so which "
        "copy ran is not known",
        fmt::join(named, " and "),
        l.project.empty()
            ? std::string("the launch names no project")
            : fmt::format("{} says whose Python launched it, not whose copy ran", l.from));
  }
  e.owner = l.project;
  if (named.size() == 1 && named.front() == l.project) return {};  // the name and launch agree
  return fmt::format("owner: {}, from {} (the name's grammar says {})", l.project, l.from,
                     fmt::join(named, " or "));
}

namespace {

std::string describe(const std::string& backend) {
  static const std::map<std::string, std::string, std::less<>> k_projects{
      {"vllm", "vLLM (csrc custom op)"},
      {"vllm-flash-attn", "vLLM's FlashAttention fork (vllm-flash-attn)"},
      {"sglang", "SGLang (sgl-kernel)"},
      {"flash-attn", "FlashAttention"},
      {"flashinfer", "FlashInfer"},
      {"triton", "Triton, in the serving stack's Python"},
      {"triton_kernels", "triton_kernels (Triton)"},
      {"torch-inductor", "the torch.compile graph (Inductor-generated Triton)"},
      {"composable_kernel", "Composable Kernel, as the project builds it"},
      {"cutlass", "CUTLASS, as the framework builds it"},
      {"aiter", "aiter"},
      {"deep_gemm", "DeepGEMM"},
      {"cublas", "cuBLAS"},
      {"cublaslt", "cuBLASLt"},
      {"hipblaslt", "hipBLASLt (Tensile)"},
      {"rocblas", "rocBLAS (Tensile)"},
      {"cudnn", "cuDNN"},
      {"miopen", "MIOpen"},
      {"nccl", "NCCL"},
      {"rccl", "RCCL"},
      {"tensorrt-llm", "TensorRT-LLM's precompiled kernels"},
      {"pytorch", "PyTorch's native kernels"},
      {"runtime", "the CUDA/HIP runtime"}};
  const auto it = k_projects.find(backend);
  return it != k_projects.end() ? it->second : backend;
}

std::string short_name(const std::string& project) {
  static const std::map<std::string, std::string, std::less<>> k_short{
      {"vllm", "vLLM"},
      {"sglang", "SGLang"},
      {"flashinfer", "FlashInfer"},
      {"flash-attn", "FlashAttention"},
      {"tensorrt-llm", "TensorRT-LLM"},
      {"deep_gemm", "DeepGEMM"},
      {"triton_kernels", "triton_kernels"},
      {"lmdeploy", "LMDeploy"},
      {"xformers", "xFormers"}};
  const auto it = k_short.find(project);
  return it != k_short.end() ? it->second : project;
}

}  // namespace

std::string owner_phrase(const HeadEntry& e) {
  const std::vector<std::string> named = owners_of(e.backend);
  if (!e.owner.empty() && generic(e.backend)) {
    const std::string kind = e.backend == "triton"              ? "Triton kernels"
                             : e.backend == "composable_kernel" ? "Composable Kernel instances"
                                                                : "CUTLASS instances";
    return fmt::format("{}'s {}", short_name(e.owner), kind);
  }
  if (!e.owner.empty()) return describe(e.owner);
  if (named.size() >= 2) {
    std::vector<std::string> names;
    for (const std::string& n : named) names.push_back(short_name(n));
    return fmt::format("{} (each ships a kernel of this name; which copy ran is not known)",
                       fmt::join(names, " or "));
  }
  return describe(e.backend);
}

}  // namespace roofline::analyze
