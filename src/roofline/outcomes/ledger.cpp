// Ledger lines and the merge of new records into an existing ledger (docs/method.md §17.3), pure.
#include "roofline/outcomes/ledger.hpp"

#include <map>

#include <fmt/format.h>

#include "roofline/inputs/json_input.hpp"
#include "roofline/outcomes/util.hpp"

namespace roofline {

namespace {

// The lines of a text: split on '\n'; a final line without newline is a line too.
std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t nl = text.find('\n', start);
    const std::size_t end = nl == std::string_view::npos ? text.size() : nl;
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

bool blank(std::string_view line) {
  return line.find_first_not_of(" \t\r") == std::string_view::npos;
}

std::string clipped(std::string_view line) {
  std::string s(line.substr(0, 60));
  for (char& c : s)
    if (static_cast<unsigned char>(c) < 0x20) c = ' ';
  return line.size() > 60 ? s + "…" : s;
}

}  // namespace

std::string ledger_line(const LedgerRecord& record) {
  return ledger_record_json(record).dump(-1, ' ', false,
                                         nlohmann::ordered_json::error_handler_t::replace);
}

std::optional<std::array<std::string, 3>> ledger_line_key(std::string_view line, std::string& why) {
  std::string error;
  auto doc = detail::parse_json(line, "", outcomes_detail::k_max_line_depth, error);
  if (!doc) {
    why = error.rfind(": ", 0) == 0 ? error.substr(2) : error;
    return std::nullopt;
  }
  const auto key = doc->is_object() ? doc->find("key") : doc->end();
  if (!doc->is_object() || key == doc->end() || !key->is_array() || key->size() != 3 ||
      !(*key)[0].is_string() || !(*key)[1].is_string() || !(*key)[2].is_string()) {
    why = "not a ledger record (no key [run, kernel, source])";
    return std::nullopt;
  }
  return std::array<std::string, 3>{(*key)[0].get<std::string>(), (*key)[1].get<std::string>(),
                                    (*key)[2].get<std::string>()};
}

LedgerMerge merge_ledger(std::string_view old_text, const std::vector<LedgerRecord>& records,
                         const std::string& display) {
  LedgerMerge m;
  std::map<std::array<std::string, 3>, std::size_t> wanted;  // key -> index into records
  std::vector<std::string> lines;
  for (std::size_t i = 0; i < records.size(); ++i) {
    wanted.emplace(records[i].key(), i);  // a repeated key: the first record wins
    lines.push_back(ledger_line(records[i]));
  }
  std::vector<bool> written(records.size(), false);
  std::string out;
  const std::vector<std::string_view> old_lines = split_lines(old_text);
  for (std::size_t n = 0; n < old_lines.size(); ++n) {
    const std::string_view line = old_lines[n];
    std::string why;
    const auto key = blank(line) ? std::nullopt : ledger_line_key(line, why);
    const auto it = key ? wanted.find(*key) : wanted.end();
    if (it == wanted.end()) {
      if (!blank(line) && !key)
        m.problems.push_back(
            fmt::format("{}:{}: {} — line kept as it is: {}", display, n + 1, why, clipped(line)));
      if (key) ++m.kept;
      out.append(line);
      out.push_back('\n');
      continue;
    }
    if (written[it->second]) {
      ++m.dropped_duplicates;
      m.problems.push_back(
          fmt::format("{}:{}: a second record of key ({}, {}, {}): dropped, the "
                      "key's record is replaced once",
                      display, n + 1, (*key)[0], (*key)[1], (*key)[2]));
      continue;
    }
    written[it->second] = true;
    const std::string& fresh = lines[it->second];
    if (fresh == line)
      ++m.unchanged;
    else
      ++m.updated;
    out.append(fresh);
    out.push_back('\n');
  }
  for (std::size_t i = 0; i < records.size(); ++i) {
    if (written[i] || wanted.at(records[i].key()) != i) continue;
    written[i] = true;
    ++m.added;
    out.append(lines[i]);
    out.push_back('\n');
  }
  m.changed = out != old_text;
  m.text = std::move(out);
  return m;
}

}  // namespace roofline
