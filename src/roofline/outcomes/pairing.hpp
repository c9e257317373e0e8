#pragma once
// Kernel identity across rounds and outcome files (docs/method.md §17.1, §17.2): which kernel of
// one list is the same kernel as one of another, one to one — within one round by the one
// kernel-name matcher (match.hpp), across two rounds by what the kernels are (roles.hpp).

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "roofline/base/vocabulary.hpp"
#include "roofline/outcomes/layer.hpp"
#include "roofline/outcomes/roles.hpp"

namespace roofline::outcomes {

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

// How a kernel of round A found its counterpart in round B (docs/method.md §17.1).
enum class PairBasis {
  none,          // no counterpart: gone
  name,          // the same kernel: its name (exact, normalized or substring), roles agreeing
  role,          // renamed: a projection, module or GEMM weight in common, nothing disagreeing
  only_of_class  // renamed: the one kernel of its class that each round holds and the other lacks
};

struct RolePair {
  PairBasis basis = PairBasis::none;
  MatchKind name_match = MatchKind::none;  // basis name: exact | normalized | substring
  std::optional<std::size_t> index;        // into round B's kernels
  // Basis role, where B's kernel serves several weights (one kernel for two projections): the
  // one signature of it that reads this kernel's weight; each such signature pairs once.
  std::optional<std::size_t> signature;
  std::string reason;  // why these two are one kernel, or why none is
};

// The pairing as the compare artifact spells it: "exact", "normalized", "substring", "role",
// "only_of_class" or "none".
std::string pairing_label(const RolePair& p);

// Round A's head kernels `a` paired one to one with round B's kernels `b` (its whole Top-N), by
// role: first the same kernel by name, then a renamed kernel sharing a projection, module or
// weight (one of B's signatures each, where B's kernel reads several weights), then the only
// kernel of a class renamed between the rounds — never by short name, and
// never two kernels whose classes, roles or weights (or, renamed, modules) disagree. `a_rest`:
// round A's other Top-N kernels (a renamed kernel's rivals). `round_b` names round B in reasons.
std::vector<RolePair> pair_by_role(const std::vector<KernelRole>& a,
                                   const std::vector<KernelRole>& a_rest,
                                   const std::vector<KernelRole>& b, const std::string& round_b);

}  // namespace roofline::outcomes
