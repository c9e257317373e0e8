#pragma once
// The outcome ledger (docs/method.md §17.3): JSON Lines, one record per (run, kernel, source).

#include <array>
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "roofline/outcomes/outcomes.hpp"

namespace roofline {

// The compact one-line form of a record (no newline), as the ledger stores it.
std::string ledger_line(const LedgerRecord& record);

// The key of a ledger line; nullopt with `why` set when the line is not JSON or not a record.
std::optional<std::array<std::string, 3>> ledger_line_key(std::string_view line, std::string& why);

struct LedgerMerge {
  std::string text;  // the new ledger
  std::size_t added = 0, updated = 0, unchanged = 0, kept = 0, dropped_duplicates = 0;
  std::vector<std::string> problems;  // "F:LINE: ..." for every line kept that is not a record
  bool changed = false;               // text differs from the old ledger
};

// Merges `records` into the ledger text `old_text` (pure). A record replaces the first line of
// its key in place (later lines of that key are dropped); records of new keys are appended in
// the given order; every other line — records of other keys, blank lines, lines that are not
// JSON or not records (each reported) — is kept byte for byte. Merging the same records twice
// gives the same text. `display` names the ledger in problems.
LedgerMerge merge_ledger(std::string_view old_text, const std::vector<LedgerRecord>& records,
                         const std::string& display);

struct LedgerUpdate {
  bool ok = false;
  std::string error;  // why the ledger was not written (the old one is then untouched)
  LedgerMerge merge;
};

// Merges `records` into the ledger file `path` while holding an exclusive flock on
// `path` + ".lock": read, merge, write whole through write_atomic (temp file + rename). Two
// writers never lose each other's records and a crash leaves the old ledger. A ledger that
// exists but cannot be read is never overwritten.
LedgerUpdate update_ledger(const std::filesystem::path& path,
                           const std::vector<LedgerRecord>& records, const std::string& display);

struct LedgerRead {
  bool found = false;
  std::vector<LedgerRecord> records;
  std::vector<std::string> problems;  // "F:LINE: ..." per line that is not a usable record
};
// Reads every record of a ledger (no lock needed: the ledger is only ever replaced whole).
LedgerRead read_ledger(const std::filesystem::path& path, const std::string& display);

}  // namespace roofline
