#pragma once
// Messages said once per cause (docs/method.md §16.4): the run's diagnostics grouped by what they
// say, each group naming the entries it covers, for stderr, the terminal and the report alike.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "roofline/analyze/analysis.hpp"
#include "roofline/render/layer.hpp"

namespace roofline::render {

struct MessageGroup {
  Diagnostic first;                  // its severity, level and text (the first of its cause)
  std::vector<std::size_t> entries;  // the entries it covers (indices), empty: not an entry's
};

// Every diagnostic once per cause — the same severity, level, topic and text — in the order the
// run first said each.
std::vector<MessageGroup> message_groups(const Analysis& a);

// "a, b and c" — the display names of `entries`, at most `shown` of them and then "k more";
// `in_table`: each a Markdown code span fit for a table cell.
std::string entry_list(const Analysis& a, const std::vector<std::size_t>& entries,
                       std::size_t shown = 6, bool in_table = false);

// What a group is about: the entries it covers by display name, else the subject degraded[]
// gives (the raw kernel names stay in the artifact's degraded[]).
std::string group_subject(const Analysis& a, const MessageGroup& g, bool in_table = false);

// A skill error's line: an entry's by its display name, several entries' named once.
std::string group_error_text(const Analysis& a, const MessageGroup& g);

// The earlier entry (index) whose problem says what entry `i`'s says, if one does: entry `i`'s
// surfaces point to it instead of saying the message again.
std::optional<std::size_t> same_cause_as(const Analysis& a, std::size_t i);

// "entry 3 (gemm · gemvx)": the pointer entry `i`'s verdict gives instead of its problem's text,
// "" when its problem is said at entry `i` itself.
std::string same_cause_text(const Analysis& a, std::size_t i);

}  // namespace roofline::render
