#pragma once
// Kernel identity across rounds and outcome files (docs/method.md §17.1, §17.2): which kernel of
// one list is the same kernel as one of another, one to one, by the one kernel-name matcher
// (match.hpp).

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "roofline/base/vocabulary.hpp"

namespace roofline {

// A kernel as a list names it: the full name and, where known, the profiler's short name.
struct KernelRef {
  std::string name;
  std::string short_name;
};

struct KernelPair {
  MatchKind kind = MatchKind::none;
  std::optional<std::size_t> index;  // into `to`
};

// For each kernel of `from`, the kernel of `to` it is, by match_kernel_names. Pairs are made level
// by level (every exact match before any normalized one, and so on) and a `to` kernel is taken at
// most once (earlier `from` kernels first), so the result is one-to-one and deterministic.
std::vector<KernelPair> pair_kernels(const std::vector<KernelRef>& from,
                                     const std::vector<KernelRef>& to);

}  // namespace roofline
