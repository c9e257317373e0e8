// Streaming CSV rows. The fast path (csv_fast_core.inc) classifies 64 bytes at a time into bit
// masks of quotes, commas and newlines and turns the quote mask into an "inside quotes" mask
// with a prefix XOR, so only real separators remain: a field costs a few instructions however
// many commas a kernel name holds, and once the reader knows which columns it needs (want())
// the other fields are only counted. Rows with anything unusual (a quoted newline, a doubled
// quote, a quote opening anywhere but at a field start, bytes after a closing quote, an
// unterminated quote) are re-read by the lenient scan here, which treats stray quotes like
// Python's csv module does. Rows are re-scanned from their start only when a refill interrupts them
// (once per buffer), so the cost stays linear.
#include "roofline/inputs/csv_stream.hpp"

#include "roofline/inputs/csv_fast.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#include "roofline/inputs/layer.hpp"
#endif

namespace roofline::inputs::detail {
namespace {

constexpr std::size_t k_block = 64;
// The buffer starts here and doubles while the input keeps filling it, up to the read size the
// caller asked for: a small file (a fuzz input) costs no megabyte to allocate and zero.
constexpr std::size_t k_initial_buffer = std::size_t{1} << 16;
constexpr std::size_t k_npos = static_cast<std::size_t>(-1);

// Bit i set when p[i] is '"', ',' or '\n', for the lenient scan (64 bytes readable).
inline std::uint64_t special_mask(const char* p) {
  std::uint64_t m = 0;
#if defined(__SSE2__)
  for (unsigned i = 0; i < 4; ++i) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * i));
    const __m128i hit = _mm_or_si128(
        _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(v, _mm_set1_epi8(','))),
        _mm_cmpeq_epi8(v, _mm_set1_epi8('\n')));
    m |= std::uint64_t{static_cast<std::uint16_t>(_mm_movemask_epi8(hit))} << (16 * i);
  }
#else
  for (unsigned i = 0; i < k_block; ++i)
    if (p[i] == '"' || p[i] == ',' || p[i] == '\n') m |= std::uint64_t{1} << i;
#endif
  return m;
}

bool is_space(char c) {
  return c == ' ' || c == '\t';
}

// The lenient scan's walk over the data d[0, end): every quote, comma and newline in order,
// 64 bytes at a time, and the fields it finds, stored into `row`.
struct LenientWalk {
  const char* d;
  std::size_t end;
  bool eof;  // the data ends where the input does
  CsvRow& row;
  std::size_t blk;
  std::uint64_t mask = special_at(blk);
  std::uint64_t quoted_newlines = 0;

  std::uint64_t special_at(std::size_t at) const {
    if (at >= end) return 0;
    std::uint64_t m = special_mask(d + at);
    if (end - at < k_block) m &= (std::uint64_t{1} << (end - at)) - 1;
    return m;
  }
  // The offset of the next quote, comma or newline; k_npos at the end of the data.
  std::size_t next_special() {
    while (mask == 0) {
      blk += k_block;
      if (blk >= end) return k_npos;
      mask = special_at(blk);
    }
    const std::size_t at = blk + static_cast<std::size_t>(std::countr_zero(mask));
    mask &= mask - 1;
    return at;
  }
  void add(std::size_t from, std::size_t to, bool quoted, bool escaped) {
    ++row.field_count;
    if (row.stored < row.store.size())
      row.store[row.stored++] = CsvField{d + from, to - from, quoted, escaped};
  }
  void add_last(std::size_t from, std::size_t to) {  // unquoted, before the line end
    if (to > from && d[to - 1] == '\r') --to;
    add(from, to, false, false);
  }
};

// Where a field left the walk: the data ends inside the row before the input does (nothing is
// consumed), the row ends and the next one begins at `next`, or the row's next field starts at
// `next`.
struct FieldEnd {
  enum How { incomplete, row_end, next_field } how;
  std::size_t next = 0;
};

// A quoted field from its opening quote at `field`, to the separator after its closing quote
// (bytes between the two are dropped); unterminated, it runs to the end of the input.
FieldEnd quoted_field(LenientWalk& w, std::size_t field) {
  const char* d = w.d;
  w.next_special();  // the opening quote itself
  bool escaped = false;
  std::size_t close = k_npos;
  while (close == k_npos) {
    const std::size_t s = w.next_special();
    if (s == k_npos) {
      if (!w.eof) return {FieldEnd::incomplete};
      w.row.unterminated = true;
      w.add(field + 1, w.end, true, escaped);
      return {FieldEnd::row_end, w.end};
    }
    if (d[s] == '\n') ++w.quoted_newlines;
    if (d[s] != '"') continue;
    if (s + 1 == w.end && !w.eof) return {FieldEnd::incomplete};  // "" or the closing quote?
    if (s + 1 < w.end && d[s + 1] == '"') {
      escaped = true;
      w.next_special();
      continue;
    }
    close = s;
  }
  w.add(field + 1, close, true, escaped);
  for (;;) {
    const std::size_t s = w.next_special();
    if (s == k_npos) {
      if (!w.eof) return {FieldEnd::incomplete};
      return {FieldEnd::row_end, w.end};
    }
    if (d[s] == '\n') return {FieldEnd::row_end, s + 1};
    if (d[s] == ',') return {FieldEnd::next_field, s + 1};
  }
}

// An unquoted field from `field` to its comma or line end: a quote inside it is an ordinary byte.
FieldEnd unquoted_field(LenientWalk& w, std::size_t field) {
  for (;;) {
    const std::size_t s = w.next_special();
    if (s == k_npos) {
      if (!w.eof) return {FieldEnd::incomplete};
      w.add_last(field, w.end);
      return {FieldEnd::row_end, w.end};
    }
    if (w.d[s] == '"') continue;
    if (w.d[s] == '\n') {
      w.add_last(field, s);
      return {FieldEnd::row_end, s + 1};
    }
    w.add(field, s, false, false);
    return {FieldEnd::next_field, s + 1};
  }
}

}  // namespace

std::string field_text(const CsvField& f) {
  std::string_view v = f.raw();
  while (!v.empty() && is_space(v.front())) v.remove_prefix(1);
  while (!v.empty() && is_space(v.back())) v.remove_suffix(1);
  if (!f.escaped) return std::string(v);
  std::string out;
  out.reserve(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    out.push_back(v[i]);
    if (v[i] == '"' && i + 1 < v.size() && v[i + 1] == '"') ++i;
  }
  return out;
}

struct CsvStream::Fast {
  FastKernels kernels = fast_kernels();
  FastScan scan;  // its block state carries from one row to the next
};

CsvStream::CsvStream(const ChunkReader& read, std::size_t buffer_bytes, std::size_t max_row_bytes,
                     bool lenient_only, std::string_view isa)
    : read_(read),
      read_cap_(std::max<std::size_t>(buffer_bytes, 1)),
      cap_(std::min(read_cap_, k_initial_buffer)),
      max_row_(std::max(max_row_bytes, read_cap_)),
      lenient_only_(lenient_only),
      fast_(std::make_unique<Fast>()) {
  static_assert(k_block >= k_csv_field_slack);
  buf_.assign(cap_ + k_block, '\0');
  for (const auto& k : supported_fast_kernels())
    if (k.isa == isa) fast_->kernels = k;
}

CsvStream::~CsvStream() = default;

// A row always starts outside quotes, at a field start.
void CsvStream::reset_fast() {
  fast_stale_ = false;
  FastScan& s = fast_->scan;
  s.data = buf_.data();
  s.end = end_;
  s.eof = eof_;
  s.st = FastState{};
  fast_->kernels.load(s.st, s.data, begin_, end_);
}

// Moves the unconsumed bytes to the front, then reads until the buffer is full or the input
// ends (a reader may return fewer bytes than asked at any time).
void CsvStream::fill() {
  if (end_ == cap_ && cap_ < read_cap_) {  // the input outgrew the buffer: read more at a time
    cap_ = std::min(cap_ * 2, read_cap_);
    buf_.resize(cap_ + k_block, '\0');
  }
  if (begin_ > 0) {
    std::memmove(buf_.data(), buf_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  while (!eof_ && end_ < cap_) {
    const std::size_t got = read_(buf_.data() + end_, cap_ - end_);
    if (got == 0) eof_ = true;
    end_ += std::min(got, cap_ - end_);
    total_ += got;
  }
}

// Room for more of the current row: free the consumed prefix, or grow the buffer up to
// max_row_bytes. False when the row is longer than that.
bool CsvStream::make_room() {
  if (begin_ > 0 || end_ < cap_) return true;
  if (cap_ >= max_row_) return false;
  cap_ = std::min(cap_ * 2, max_row_);
  buf_.resize(cap_ + k_block, '\0');
  return true;
}

bool CsvStream::next(CsvRow& row) {
  if (!started_) {
    started_ = true;
    fill();
    const char* bom = "\xEF\xBB\xBF";  // the UTF-8 BOM, maybe cut by a tiny buffer
    while (end_ < 3 && !eof_ && std::memcmp(buf_.data(), bom, end_) == 0 && make_room()) fill();
    if (end_ >= 3 && std::memcmp(buf_.data(), bom, 3) == 0) begin_ = 3;
    if (!skip_prefix_.empty()) skip_message_lines();
    reset_fast();
  }
  for (;;) {
    if (begin_ >= end_) {
      if (eof_) return false;
      fill();
      reset_fast();
      continue;
    }
    const std::size_t row_begin = begin_;
    Scan r = Scan::malformed;
    if (!lenient_only_) {
      if (prefix_matches()) {
        r = scan_rest(row);
      } else {
        if (fast_stale_) reset_fast();
        r = scan_fast(row);
        if (r == Scan::complete && reuse_ > 0) save_prefix(row, row_begin);
      }
    }
    if (r == Scan::malformed) {
      r = scan_lenient(row, begin_, 0);
      if (r == Scan::complete) fast_stale_ = true;
    }
    if (r == Scan::complete) {
      // A blank line: one field and no bytes but the line end.
      std::size_t len = begin_ - row_begin;
      if (len > 0 && buf_[row_begin + len - 1] == '\n') --len;
      if (len > 0 && buf_[row_begin + len - 1] == '\r') --len;
      if (row.field_count != 1 || len != 0) return true;
      continue;
    }
    if (!make_room()) {
      skip_oversized(row);
      return true;
    }
    fill();
    reset_fast();
  }
}

// One row from begin_ on the fast path (csv_fast_core.inc).
CsvStream::Scan CsvStream::scan_fast(CsvRow& row) {
  FastScan& s = fast_->scan;  // data, end and eof were set by reset_fast()
  s.begin = begin_;
  s.fields = row.store.data();
  s.max_fields = row.store.size();
  s.want = want_.data();
  s.nwant = want_.size();
  const FastResult r = fast_->kernels.scan(s);
  if (r == FastResult::incomplete) return Scan::incomplete;
  if (r == FastResult::malformed) return Scan::malformed;
  row.sparse = !want_.empty();
  row.stored = row.sparse ? 0 : s.stored;
  row.field_count = s.field_count;
  row.line = line_;
  row.oversized = false;
  row.unterminated = false;
  row.prefix_reused = false;
  row.prefix_saved = false;
  begin_ = s.next_begin;
  ++line_;  // rows with quoted newlines take the lenient scan
  return Scan::complete;
}

// A row that starts with the saved prefix: the saved fields are moved onto this row and only
// the rest is read, from the field start of column reuse_, by the lenient scan (a short rest
// has a few separators; starting the block scanner there would cost more than walking them).
CsvStream::Scan CsvStream::scan_rest(CsvRow& row) {
  const std::size_t row_begin = begin_;
  const Scan r = scan_lenient(row, begin_ + prefix_.size(), reuse_);
  if (r != Scan::complete) return r;
  fast_stale_ = true;
  const char* base = buf_.data() + row_begin;
  for (const SavedField& f : prefix_fields_)
    row.store[f.col] = CsvField{base + f.offset, f.size, f.quoted, f.escaped};
  row.sparse = !want_.empty();
  row.prefix_reused = true;
  return r;
}

// One row from begin_ (or its rest, from `start`, the field start of column first_col), walking
// every quote, comma and newline in order: quotes only open a field at its start, so a stray one
// is an ordinary byte. Incomplete (nothing consumed) when the data ends inside the row before
// the input does; at the end of the input the row ends where the data does.
CsvStream::Scan CsvStream::scan_lenient(CsvRow& row, std::size_t start, std::size_t first_col) {
  row.stored = first_col;  // the fields before `start` are the caller's
  row.sparse = false;
  row.field_count = first_col;
  row.line = line_;
  row.oversized = false;
  row.unterminated = false;
  row.prefix_reused = false;
  row.prefix_saved = false;
  LenientWalk w{buf_.data(), end_, eof_, row, start};
  std::size_t field = start;
  for (;;) {
    const FieldEnd f =
        field < end_ && buf_[field] == '"' ? quoted_field(w, field) : unquoted_field(w, field);
    if (f.how == FieldEnd::incomplete) return Scan::incomplete;
    if (f.how == FieldEnd::row_end) {
      begin_ = f.next;
      line_ += 1 + w.quoted_newlines;
      return Scan::complete;
    }
    field = f.next;
  }
}

// A row longer than max_row_bytes: walk to its end one byte at a time (the quote state decides
// which newline ends it), discarding the buffer as it goes, and report it without fields.
void CsvStream::skip_oversized(CsvRow& row) {
  row.stored = 0;
  row.sparse = false;
  row.field_count = 0;
  row.line = line_;
  row.oversized = true;
  row.unterminated = false;
  row.prefix_reused = false;
  row.prefix_saved = false;
  enum class St { field_start, plain, quoted, quote_seen } st = St::field_start;
  std::uint64_t newlines = 0;
  std::size_t i = begin_;
  for (;;) {
    if (i == end_) {
      if (eof_) break;
      begin_ = end_ = i = 0;
      fill();
      continue;
    }
    const char c = buf_[i++];
    if (st == St::quoted) {
      if (c == '"') st = St::quote_seen;
      if (c == '\n') ++newlines;
      continue;
    }
    if (st == St::quote_seen && c == '"') {
      st = St::quoted;
      continue;
    }
    if (c == '\n') break;
    if (c == ',')
      st = St::field_start;
    else if (st == St::field_start && c == '"')
      st = St::quoted;
    else
      st = St::plain;
  }
  row.unterminated = st == St::quoted;
  begin_ = i;
  line_ += 1 + newlines;
  reset_fast();
}

}  // namespace roofline::inputs::detail
