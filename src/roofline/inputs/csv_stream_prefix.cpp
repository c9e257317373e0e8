// The CsvStream work savers: the columns a caller needs (want), a row's repeated leading fields
// taken from the previous row instead of re-scanned (reuse_prefix), and profiler messages before
// the header dropped (skip_lines_starting_with). The scanning itself is in csv_stream.cpp.
#include <algorithm>
#include <cstring>

#include "roofline/inputs/csv_stream.hpp"

namespace roofline::detail {

void CsvStream::want(std::vector<std::size_t> columns) {
  if (!columns.empty() && reuse_ > 0) columns.push_back(reuse_);  // where the prefix ends
  std::sort(columns.begin(), columns.end());
  columns.erase(std::unique(columns.begin(), columns.end()), columns.end());
  if (!columns.empty() && columns.back() >= k_csv_max_fields) columns.clear();
  want_ = std::move(columns);
  want_rest_ = static_cast<std::size_t>(std::lower_bound(want_.begin(), want_.end(), reuse_) -
                                        want_.begin());
  prefix_valid_ = false;  // a saved prefix may lack newly wanted fields
}

void CsvStream::reuse_prefix(std::size_t columns) {
  reuse_ = columns < k_csv_max_fields ? columns : 0;
  std::vector<std::size_t> w = want_;
  want(std::move(w));
}

// After a row read in full by the fast path: keep its bytes up to field reuse_ and the needed
// fields among them. Identical bytes split into identical fields (a row always starts outside
// quotes at a field start), and these passed the fast path, so they hold no line break.
void CsvStream::save_prefix(CsvRow& row, std::size_t row_begin) {
  prefix_valid_ = false;
  if (reuse_ == 0 || row.field_count <= reuse_ || (!row.sparse && row.stored <= reuse_)) return;
  const char* base = buf_.data() + row_begin;
  const CsvField& at = row[reuse_];  // stored: reuse_ is wanted, or every field is stored
  const auto end = static_cast<std::size_t>(at.data - base) - (at.quoted ? 1 : 0);
  prefix_.assign(base, end);
  prefix_fields_.clear();
  auto keep = [&](std::size_t col) {
    const CsvField& f = row[col];
    prefix_fields_.push_back(
        {col, static_cast<std::size_t>(f.data - base), f.size, f.quoted, f.escaped});
  };
  if (row.sparse) {
    for (std::size_t i = 0; i < want_rest_; ++i) keep(want_[i]);
  } else {
    for (std::size_t c = 0; c < reuse_; ++c) keep(c);
  }
  prefix_valid_ = true;
  row.prefix_saved = true;
}

// The lines before the first row that start with skip_prefix_, each dropped to its newline
// (a line longer than the buffer is dropped a buffer at a time).
void CsvStream::skip_message_lines() {
  const std::size_t n = skip_prefix_.size();
  for (;;) {
    while (end_ - begin_ < n && !eof_) {
      if (!make_room()) return;
      fill();
    }
    if (end_ - begin_ < n || std::memcmp(buf_.data() + begin_, skip_prefix_.data(), n) != 0) return;
    for (;;) {
      const void* nl = std::memchr(buf_.data() + begin_, '\n', end_ - begin_);
      if (nl != nullptr) {
        begin_ = static_cast<std::size_t>(static_cast<const char*>(nl) - buf_.data()) + 1;
        break;
      }
      begin_ = end_;
      if (eof_) break;
      fill();
    }
    ++line_;
    ++skipped_lines_;
  }
}

}  // namespace roofline::detail
