#pragma once
// Whose code a kernel is (docs/method.md §14.2): the launch first — the compiled op that launched
// it and the Python package on its call stack — then the name's grammar (data/kernel_backends.tsv).
// A closed kernel stays closed whoever calls it, and PyTorch's native kernels stay PyTorch's; an
// open kernel is the copy of the project the launch names.

#include <string>

namespace roofline::analyze {

struct HeadEntry;

struct LaunchOwner {
  std::string project;    // "aiter", "sglang", ... ("" when the launch says nothing)
  std::string from;       // where it was read, for notes ("the call stack: …", "op `aiter::…`")
  bool compiled = false;  // read from a compiled op's namespace or the call stack (whose source
                          // holds the op), not only from the framework op that wrapped it
};

// What the launch says of the owner: a compiled op's namespace (`_C::`, `sgl_kernel::`,
// `aiter::`), else the package most of its launches' call stacks name, else the framework op that
// wrapped it (`vllm::`, `sglang_profiler::`), which says who launched it but not whose kernel.
LaunchOwner launch_owner(const HeadEntry& e);

// Sets `e.owner` and returns the note that says how, or "" where the launch changes nothing: an
// open, non-PyTorch family whose launch names its project, or a name several projects ship.
std::string place_owner(HeadEntry& e);

// Whose source the kernel is, for people: the owner the launch named ("aiter", "SGLang's Triton
// kernels"), else the family's project ("vLLM (csrc custom op)"), or the projects that each ship a
// kernel of its name.
std::string owner_phrase(const HeadEntry& e);

}  // namespace roofline::analyze
