#pragma once
// The one kernel-name matcher of compare and outcomes (OUTCOMES.md §1, §2): which kernel of one
// list is the same kernel as one of another list, across rounds and outcome files.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace roofline {

// A kernel as a list names it: the full name and, where known, the profiler's short name.
struct KernelRef {
  std::string name;
  std::string short_name;
};

enum class NameMatchKind { none, exact, normalized, short_name };
// "none" | "exact" | "normalized" | "short_name".
const char* to_string(NameMatchKind k);

struct NameMatch {
  NameMatchKind kind = NameMatchKind::none;
  std::optional<std::size_t> index;  // into `to`
};

// For each kernel of `from`, the kernel of `to` it is: the same name, else the same normalized
// name (counter-matching rules: clone suffixes, `.kd`, argument lists, `void `, spacing), else
// the same non-empty `short_name` when that short name occurs exactly once in `from` and once in
// `to`. Every pass runs over all of `from` before the next one, and a `to` kernel is taken at
// most once (earlier `from` kernels first), so the result is one-to-one and deterministic.
std::vector<NameMatch> match_kernel_names(const std::vector<KernelRef>& from,
                                          const std::vector<KernelRef>& to);

}  // namespace roofline
