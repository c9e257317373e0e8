// Messages said once per cause (messages.hpp).
#include "roofline/render/messages.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "roofline/render/md_util.hpp"

namespace roofline::render {
namespace {

bool same_cause(const Diagnostic& a, const Diagnostic& b) {
  return a.severity == b.severity && a.level == b.level && a.topic == b.topic && a.text == b.text;
}

std::optional<std::size_t> entry_index(const Analysis& a, const Diagnostic& d) {
  if (d.topic != Topic::entry) return std::nullopt;
  for (std::size_t i = 0; i < a.entries.size(); ++i)
    if (a.entries[i].ranking_name == d.entry) return i;
  return std::nullopt;
}

}  // namespace

std::vector<MessageGroup> message_groups(const Analysis& a) {
  std::vector<MessageGroup> groups;
  for (const Diagnostic& d : a.diagnostics) {
    const std::optional<std::size_t> i = entry_index(a, d);
    auto it = std::find_if(groups.begin(), groups.end(), [&](const MessageGroup& g) {
      return i && !g.entries.empty() && same_cause(g.first, d);
    });
    if (it == groups.end()) {
      groups.push_back({d, {}});
      it = groups.end() - 1;
    }
    if (i) it->entries.push_back(*i);
  }
  return groups;
}

std::string entry_list(const Analysis& a, const std::vector<std::size_t>& entries,
                       std::size_t shown, bool in_table) {
  std::string out;
  const std::size_t n = std::min(entries.size(), shown);
  for (std::size_t k = 0; k < n; ++k) {
    const bool last = k + 1 == n && n == entries.size();
    const std::string name = shown_name(a.entries[entries[k]]);
    out += (k == 0 ? "" : last ? " and " : ", ") + (in_table ? md_code(name, true) : name);
  }
  if (entries.size() > n) out += fmt::format(" and {} more", entries.size() - n);
  return out;
}

std::string group_subject(const Analysis& a, const MessageGroup& g, bool in_table) {
  if (!g.entries.empty()) return entry_list(a, g.entries, 6, in_table);
  return in_table ? md_code(subject(g.first), true, k_table_name_chars) : subject(g.first);
}

std::string group_error_text(const Analysis& a, const MessageGroup& g) {
  if (g.entries.empty()) return skill_error_text(g.first);
  return fmt::format("{} {}: {}", g.entries.size() == 1 ? "entry" : "entries",
                     entry_list(a, g.entries), g.first.text);
}

std::string same_cause_text(const Analysis& a, std::size_t i) {
  const std::optional<std::size_t> k = same_cause_as(a, i);
  return k ? fmt::format("entry {} ({})", *k + 1, shown_name(a.entries[*k])) : std::string();
}

std::optional<std::size_t> same_cause_as(const Analysis& a, std::size_t i) {
  const auto& p = a.entries[i].grade.problem;
  if (!p || p->level == Level::L3) return std::nullopt;  // its verdict says the measurement
  for (std::size_t k = 0; k < i; ++k) {
    const auto& q = a.entries[k].grade.problem;
    if (q && q->level == p->level && q->reason == p->reason) return k;
  }
  return std::nullopt;
}

}  // namespace roofline::render
