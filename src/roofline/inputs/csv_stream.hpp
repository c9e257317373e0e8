#pragma once
// Private to the counter ingest: a streaming CSV row reader (RFC 4180 quoting, lenient like
// Python's csv module) over a ChunkReader, in a fixed buffer that only grows to hold one row.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "roofline/inputs/counters.hpp"
#include "roofline/inputs/layer.hpp"

namespace roofline::inputs::detail {

// At least this many bytes after the end of any field's data are readable (the buffer's padding),
// so a parser may load 8 bytes at once.
inline constexpr std::size_t k_csv_field_slack = 64;

struct CsvField {
  const char* data = nullptr;  // content: inside the quotes for a quoted field, "" not undone
  std::size_t size = 0;
  bool quoted = false;
  bool escaped = false;  // holds a doubled quote; use unescape() for the text
  std::string_view raw() const { return {data, size}; }
};

// The text of a field: doubled quotes undone, surrounding spaces trimmed.
std::string field_text(const CsvField& f);

// Fields kept per row; a longer row is still counted (field_count) and read to its end.
inline constexpr std::size_t k_csv_max_fields = 1024;

struct CsvRow {
  std::vector<CsvField> store = std::vector<CsvField>(k_csv_max_fields);  // allocated once
  std::size_t stored = 0;       // the first min(field_count, k_csv_max_fields) fields...
  bool sparse = false;          // ...or, when true, only the columns given to want()
  std::size_t field_count = 0;  // all fields of the row
  std::uint64_t line = 0;       // 1-based physical line the row starts on
  bool oversized = false;       // longer than max_row_bytes: skipped, no fields
  bool unterminated = false;    // a quoted field still open at the end of the input
  bool prefix_reused = false;   // its first reuse_prefix() fields are the saved prefix's...
  bool prefix_saved = false;    // ...which this row's bytes became
  std::span<const CsvField> fields() const { return {store.data(), stored}; }
  const CsvField& operator[](std::size_t i) const { return store[i]; }
};

class CsvStream {
 public:
  // `lenient_only` skips the fast path, `isa` picks its variant ("sse2", "avx2", "avx512bw";
  // default the widest this CPU runs): tests compare them.
  CsvStream(const ChunkReader& read, std::size_t buffer_bytes, std::size_t max_row_bytes,
            bool lenient_only = false, std::string_view isa = {});
  ~CsvStream();
  CsvStream(const CsvStream&) = delete;
  CsvStream& operator=(const CsvStream&) = delete;
  // Reads the next non-blank row into `row`; false at the end of the input. The fields point
  // into the buffer and stay valid until the next call. A UTF-8 BOM and CR before LF are dropped.
  bool next(CsvRow& row);
  bool empty_input() const { return total_ == 0; }
  // Before the first next(): lines at the start of the input that begin with `prefix` are
  // dropped whole, whatever they hold (a profiler's "==PROF==" messages before the CSV header),
  // and counted; line numbers still count them.
  void skip_lines_starting_with(std::string prefix) { skip_prefix_ = std::move(prefix); }
  std::uint64_t skipped_lines() const { return skipped_lines_; }
  // From now on rows need only these columns (each < k_csv_max_fields): a row may come back
  // sparse, with only them set. Empty: every field again.
  void want(std::vector<std::size_t> columns);
  // From now on a row whose bytes up to its field `columns` (its first `columns` fields and
  // their separators) are byte for byte those of the last row read in full is not scanned
  // there: those fields are that row's, moved to this one, and only the rest is scanned. Rows
  // that repeat a long prefix (rocprofv3: every counter row of a dispatch repeats the dispatch's
  // fields) then cost a compare instead of a scan. 0 (the default) turns it off.
  void reuse_prefix(std::size_t columns);

 private:
  enum class Scan { complete, incomplete, malformed };
  Scan scan_fast(CsvRow& row);
  Scan scan_rest(CsvRow& row);
  // The bytes at begin_ start with the saved prefix (all of it is in the buffer).
  bool prefix_matches() const {
    const std::size_t n = prefix_.size();
    return prefix_valid_ && end_ - begin_ >= n &&
           std::memcmp(buf_.data() + begin_, prefix_.data(), n) == 0;
  }
  void save_prefix(CsvRow& row, std::size_t row_begin);
  Scan scan_lenient(CsvRow& row, std::size_t start, std::size_t first_col);
  void fill();
  bool make_room();
  void skip_oversized(CsvRow& row);
  void skip_message_lines();
  void reset_fast();

  const ChunkReader& read_;
  std::vector<char> buf_;  // cap_ bytes of data plus padding for the 64-byte block loads
  std::size_t read_cap_;   // the read size asked for; cap_ grows toward it
  std::size_t cap_;
  std::size_t max_row_;
  std::size_t begin_ = 0, end_ = 0;  // unconsumed data
  bool eof_ = false, started_ = false;
  bool fast_stale_ = false;  // the fast path's block state must be reloaded at begin_
  std::string skip_prefix_;
  std::uint64_t skipped_lines_ = 0;
  std::uint64_t line_ = 1;
  std::uint64_t total_ = 0;
  bool lenient_only_;
  std::vector<std::size_t> want_;  // sorted; includes reuse_ when sparse
  std::size_t want_rest_ = 0;      // index in want_ of the first column >= reuse_
  std::size_t reuse_ = 0;          // reuse_prefix()
  // The last row read in full from its start by the fast path: its bytes up to field reuse_ and
  // the fields among them that a row needs (offsets from the row start).
  struct SavedField {
    std::size_t col, offset, size;
    bool quoted, escaped;
  };
  std::string prefix_;
  std::vector<SavedField> prefix_fields_;
  bool prefix_valid_ = false;
  // The fast path's block state (csv_fast.hpp), kept between rows.
  struct Fast;
  std::unique_ptr<Fast> fast_;
};

}  // namespace roofline::inputs::detail
