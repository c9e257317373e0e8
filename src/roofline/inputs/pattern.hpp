#pragma once
#include <algorithm>
#include <array>
#include <cstddef>
#include <initializer_list>
#include <string_view>
#include "roofline/inputs/layer.hpp"

namespace roofline::inputs {

// docs/method.md §7.2: a kernel name is read as identifier tokens. A token is a run of letters and
// digits, split further at camel-case humps (`swiGlu` = swi|Glu, `KVCache` = KV|Cache) and between
// letters and digits (`sm90` = sm|90); every other character (`_`, `:`, `<`, `>`, `(`, `,`, space,
// ...) separates tokens. True when position `i` of `s` starts or ends a token, or touches a
// separator; 0 and s.size() always are.
bool token_boundary(std::string_view s, std::size_t i);

// The token rule of docs/method.md §7.2, case-insensitive. A pattern without wildcards matches a
// stretch of `text` that starts and ends on token boundaries (never inside a word: `gemm` does not
// match `fbgemm_gpu`, but matches `LLGemm1`, `gemm_a8w8`). `?` matches any one character, `*` any
// run of characters. A leading `*` lets the match start anywhere, a trailing `*` end anywhere; the
// text after an inner `*` starts on a token boundary again. A pattern of stars alone matches
// everything.
bool pattern_matches(std::string_view pattern, std::string_view text);

// How long a pattern is, for "the longest match wins" (docs/method.md §7.2): the number of tokens
// in its literal text (wildcards separate tokens). `FmhaBatchPrefillWithPagedKVCache` is 7,
// `BatchPrefillWithPagedKVCache` 6, `nvjet_*` 1, `*` 0.
int pattern_length(std::string_view pattern);

// The rule of `rules` (each with a `pattern`) that matches one of `texts` (at most four) with the
// longest pattern; ties go to the earlier rule. `keep(rule)` filters the rules tried. nullptr:
// none.
template <class Rule, class Keep>
const Rule* longest_match(const Rule* first, const Rule* last,
                          std::initializer_list<std::string_view> texts, Keep keep) {
  // Each distinct text is matched once: a kernel's short name is often its whole name.
  std::array<std::string_view, 4> distinct;
  std::size_t n = 0;
  for (std::string_view t : texts)
    if (!t.empty() && n < distinct.size() &&
        std::find(distinct.begin(), distinct.begin() + n, t) == distinct.begin() + n)
      distinct[n++] = t;
  const Rule* best = nullptr;
  int best_length = -1;
  for (const Rule* r = first; r != last; ++r) {
    if (!keep(*r)) continue;
    int length = -1;
    if constexpr (requires { r->tokens; }) length = r->tokens;  // counted when the table was read
    if (length < 0) length = pattern_length(r->pattern);
    if (length <= best_length) continue;
    for (std::size_t i = 0; i < n; ++i)
      if (pattern_matches(r->pattern, distinct[i])) {
        best = r;
        best_length = length;
        break;
      }
  }
  return best;
}

// Case-insensitive substring test.
bool icontains(std::string_view hay, std::string_view needle);

}  // namespace roofline::inputs
