#pragma once
// The one kernel-name matcher: how a Top-N entry finds its probe kernels (stage B), its counter
// kernels (stage C), and its counterpart in another round or outcome file. One normalisation, one
// rule, for every input.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "roofline/analyze/layer.hpp"
#include "roofline/base/vocabulary.hpp"

namespace roofline::analyze {

// The canonical form two spellings of one kernel share (docs/method.md §11.1: a PyTorch trace and
// Nsight Compute spell one kernel differently): case-folded; the argument list, " [clone .kd]" and
// ".kd" decorations, a leading "void " or '_', every namespace, class or module qualifier
// (`at::native::`, `(anonymous namespace)::`, `<unnamed>::`, `torch.ops.`), parameter lists and
// C-style casts inside template arguments, and all whitespace removed — except the scope of a
// local lambda, kept as `f()::lambda#3::operator()::` (the function names the lambda);
// Itanium-mangled names demangled; integer-literal suffixes (`1ul`) dropped; `true`/`false` as
// `1`/`0`; `{lambda()#3}` and `[lambda() (instance 3)]` both `lambda#3`.
std::string canonical_kernel_name(std::string_view name);

// The canonical name without its template arguments: what several kernels may share
// ("elementwise_kernel").
std::string canonical_short_name(std::string_view name);

// One kernel as an input names it: its full spellings (a Top-N name; a probe's target and label; a
// counter file's kernel name) and the short name the source gives, if any.
struct KernelNames {
  std::vector<std::string> full;
  std::string short_name;  // "" = derived from the first full spelling
};

struct NameMatch {
  MatchKind kind = MatchKind::none;
  std::vector<std::size_t> candidates;  // indices into the candidate list, ascending
};

// For each query, the candidates that are the same kernel, at the best level found:
//  1. exact: a full spelling equals one of the candidate's;
//  2. normalized: canonical forms equal;
//  3. substring: one canonical form contains the other on identifier boundaries, the shorter at
//     least k_min_match_chars long;
//  4. short_name: the queries' short names, only when exactly one query and one candidate kernel
//     (one canonical name) carry it.
// Every candidate at the best level is returned (per-process files of one kernel combine). A
// candidate matched exactly or by normalization is not offered to another query's levels 3-4.
std::vector<NameMatch> match_kernel_names(const std::vector<KernelNames>& queries,
                                          const std::vector<KernelNames>& candidates);

// The shortest canonical name a substring match accepts: "add" or "copy" would match half a
// profile.
inline constexpr std::size_t k_min_match_chars = 6;

}  // namespace roofline::analyze
