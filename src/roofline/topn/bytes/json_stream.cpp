// The streaming JSON tokenizer (json_stream.hpp).
#include "roofline/topn/bytes/json_stream.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <fmt/format.h>

#include "roofline/base/units.hpp"
#include "roofline/topn/layer.hpp"

namespace roofline::topn::detail {
namespace {

// The buffer starts small and doubles while the input keeps filling it, up to the read size of a
// long trace: a file of a few kilobytes (a head sniffed, a fuzz input) costs no megabyte to
// allocate and zero, a long trace is read 256 KiB at a time (what was read is still in the core's
// cache when the parser reaches it: a megabyte at a time was 5 % slower).
constexpr std::size_t k_initial_buffer = std::size_t{1} << 16;
constexpr std::size_t k_read_buffer = std::size_t{1} << 18;

// Byte classes, one table lookup per byte on the hot paths.
enum : std::uint8_t { k_other, k_space, k_punct, k_quote, k_open, k_close };

constexpr std::array<std::uint8_t, 256> k_class = [] {
  std::array<std::uint8_t, 256> t{};
  for (char c : {' ', '\n', '\r', '\t'}) t[static_cast<unsigned char>(c)] = k_space;
  t[static_cast<unsigned char>(',')] = t[static_cast<unsigned char>(':')] = k_punct;
  t[static_cast<unsigned char>('"')] = k_quote;
  t[static_cast<unsigned char>('[')] = t[static_cast<unsigned char>('{')] = k_open;
  t[static_cast<unsigned char>(']')] = t[static_cast<unsigned char>('}')] = k_close;
  return t;
}();

bool is_ws(char c) {
  return k_class[static_cast<unsigned char>(c)] == k_space;
}

// The first byte at or after `i` in [i, e) of b that is not JSON whitespace, or e (the bounds in
// locals: the loop reloads nothing).
std::size_t skip_spaces(const char* b, std::size_t i, std::size_t e) {
  while (i < e && is_ws(b[i])) ++i;
  return i;
}

bool is_delim(char c) {
  return k_class[static_cast<unsigned char>(c)] != k_other;
}

// The first '"' or '\\' in [p, e), or e: sixteen bytes at a time with SSE2, then eight at a
// time (a byte equal to either has a zero in its XOR with a broadcast of that byte; the lowest
// flagged byte is the first match), then byte by byte. Cheaper than two memchr calls on the short
// strings of a trace.
[[gnu::always_inline]] inline const char* find_quote_or_backslash(const char* p, const char* e) {
#if defined(__SSE2__)
  // Sixteen bytes at a time first: kernel names run to hundreds of bytes.
  while (e - p >= 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const int hit = _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')),
                                                   _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))));
    if (hit) return p + std::countr_zero(static_cast<unsigned>(hit));
    p += 16;
  }
#endif
  if constexpr (std::endian::native == std::endian::little) {
    constexpr std::uint64_t k_ones = 0x0101010101010101ULL, k_highs = 0x8080808080808080ULL;
    while (e - p >= 8) {
      std::uint64_t w = 0;
      std::memcpy(&w, p, 8);
      const std::uint64_t q = w ^ (k_ones * '"');
      const std::uint64_t b = w ^ (k_ones * '\\');
      const std::uint64_t hit = ((q - k_ones) & ~q & k_highs) | ((b - k_ones) & ~b & k_highs);
      if (hit) return p + (std::countr_zero(hit) >> 3);
      p += 8;
    }
  }
  while (p < e && *p != '"' && *p != '\\') ++p;
  return p;
}

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

// A byte a JSON number may hold after its first.
constexpr std::array<bool, 256> k_number_byte = [] {
  std::array<bool, 256> t{};
  for (char c : std::string_view("0123456789.eE+-")) t[static_cast<unsigned char>(c)] = true;
  return t;
}();

bool is_number_byte(char c) {
  return k_number_byte[static_cast<unsigned char>(c)];
}

// The eight bytes at p as a number when all are digits (one test and three multiplications on
// the word: each step joins neighbouring groups of digits), else false.
bool eight_digits(const char* p, std::uint64_t& out) {
  if constexpr (std::endian::native != std::endian::little) {
    return false;
  } else {
    std::uint64_t v = 0;
    std::memcpy(&v, p, 8);
    constexpr std::uint64_t k_high = 0xF0F0F0F0F0F0F0F0ULL;
    // '0'..'9' are 0x30..0x39: the high nibble 3, and adding 6 does not carry into it.
    if ((v & k_high) != 0x3030303030303030ULL ||
        ((v + 0x0606060606060606ULL) & k_high) != 0x3030303030303030ULL)
      return false;
    v -= 0x3030303030303030ULL;
    v = v * 10 + (v >> 8);  // pairs: the first digit is the lowest byte
    v = ((v & 0x000000FF000000FFULL) * (100 + (1000000ULL << 32)) +
         ((v >> 16) & 0x000000FF000000FFULL) * (1 + (10000ULL << 32))) >>
        32;
    out = v;
    return true;
  }
}

// The JSON number grammar, plus Python's non-finite literals.
bool valid_number(std::string_view s) {
  if (!s.empty() && (s[0] == 'N' || s[0] == 'I' || (s[0] == '-' && s.size() > 1 && s[1] == 'I')))
    return s == "NaN" || s == "Infinity" || s == "-Infinity";
  std::size_t i = 0;
  const std::size_t n = s.size();
  if (i < n && s[i] == '-') ++i;
  if (i == n) return false;
  if (s[i] == '0') {
    ++i;
  } else if (is_digit(s[i])) {
    while (i < n && is_digit(s[i])) ++i;
  } else {
    return false;
  }
  if (i < n && s[i] == '.') {
    ++i;
    if (i == n || !is_digit(s[i])) return false;
    while (i < n && is_digit(s[i])) ++i;
  }
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < n && (s[i] == '+' || s[i] == '-')) ++i;
    if (i == n || !is_digit(s[i])) return false;
    while (i < n && is_digit(s[i])) ++i;
  }
  return i == n;
}

}  // namespace

JsonStream::JsonStream(ByteReader read, std::size_t max_token_bytes, std::size_t max_depth)
    : read_(std::move(read)),
      buf_(std::min(k_initial_buffer, max_token_bytes)),
      max_token_(max_token_bytes),
      max_depth_(max_depth) {}

// Drops the bytes before `keep` (setting it to 0) and reads more; false at the end of input.
bool JsonStream::more(std::size_t& keep) {
  if (eof_) return false;
  const bool filled = end_ == buf_.size();  // the input is at least as long as the buffer
  if (keep > 0) {
    std::memmove(buf_.data(), buf_.data() + keep, end_ - keep);
    end_ -= keep;
    pos_ -= keep;
    dropped_ += keep;
    tok_ = 0;
    keep = 0;
  }
  if (end_ == buf_.size()) {
    if (buf_.size() >= max_token_) {
      error_ = fmt::format("a JSON token at byte {} is longer than {} bytes", dropped_, max_token_);
      return false;
    }
    buf_.resize(std::min(buf_.size() * 2, max_token_));
  } else if (filled && buf_.size() < k_read_buffer) {
    buf_.resize(std::min({buf_.size() * 2, k_read_buffer, max_token_}));
  }
  const std::size_t n = read_(buf_.data() + end_, buf_.size() - end_);
  if (n == 0) {
    eof_ = true;
    return false;
  }
  end_ += n;
  return true;
}

void JsonStream::skip_ws() {
  for (;;) {
    pos_ = skip_spaces(buf_.data(), pos_, end_);
    if (pos_ < end_) return;
    std::size_t keep = pos_;
    if (!more(keep)) return;
  }
}

void JsonStream::resume_at(std::uint64_t at, std::string_view open) {
  dropped_ = at;
  stack_.assign(open.begin(), open.end());
  state_ = State::value;
}

std::uint64_t JsonStream::next_value_offset() {
  skip_ws();
  if (state_ == State::comma_or_end && pos_ < end_ && buf_[pos_] == ',' && !stack_.empty()) {
    ++pos_;
    state_ = stack_.back() == '{' ? State::key : State::value;
    skip_ws();
  }
  return offset();
}

JsonToken JsonStream::fail(const char* what) {
  return fail(std::string(what));
}

// "<before>'<c>'<after>", the byte escaped for the message.
JsonToken JsonStream::fail_at(const char* before, char c, const char* after) {
  return fail(fmt::format("{}'{}'{}", before, escape_for_message({&c, 1}, true), after));
}

JsonToken JsonStream::fail_depth() {
  return fail(fmt::format("nested deeper than {} levels", max_depth_));
}

JsonToken JsonStream::end_of_input() {
  if (state_ == State::done && stack_.empty()) return JsonToken::end;
  return fail("unexpected end of input (the file is truncated)");
}

JsonToken JsonStream::fail(std::string what) {
  if (error_.empty()) error_ = fmt::format("invalid JSON at byte {}: {}", offset(), what);
  state_ = State::done;
  eof_ = true;
  pos_ = end_;
  return JsonToken::error;
}

// Scans the string whose opening quote is at pos_; on success tok_/tok_len_ hold its content.
inline bool JsonStream::scan_string() {
  // Nearly every string ends in the bytes read, with no escape: found with no call (and so with
  // no registers saved for one); the rest read by scan_string_rest.
#if defined(__SSE2__)
  const char* const base = buf_.data();
  const char* const e = base + end_;
  for (const char* p = base + pos_ + 1; e - p >= 16; p += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const int hit = _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')),
                                                   _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))));
    if (!hit) continue;
    const char* const end = p + std::countr_zero(static_cast<unsigned>(hit));
    if (*end != '"') break;  // an escape
    escaped_ = false;
    num_.fast = false;
    tok_ = pos_ + 1;
    tok_len_ = static_cast<std::size_t>(end - base) - tok_;
    pos_ = static_cast<std::size_t>(end - base) + 1;
    return true;
  }
#endif
  return scan_string_rest();
}

bool JsonStream::scan_string_rest() {
  std::size_t start = pos_;  // the opening quote
  std::size_t i = start + 1;
  escaped_ = false;
  num_.fast = false;
  for (;;) {
    const char* base = buf_.data();
    const char* e = base + end_;
    const char* hit = find_quote_or_backslash(base + i, e);
    if (hit == e) {
      i = end_;
    } else if (*hit == '"') {
      tok_ = start + 1;
      tok_len_ = static_cast<std::size_t>(hit - base) - tok_;
      pos_ = static_cast<std::size_t>(hit - base) + 1;
      return true;
    } else {
      escaped_ = true;
      if (hit + 1 < e) {
        i = static_cast<std::size_t>(hit - base) + 2;
        continue;
      }
      i = static_cast<std::size_t>(hit - base);  // the escape's second byte is not read yet
    }
    const std::size_t rel = i - start;
    if (!more(start)) {
      if (error_.empty()) fail("unexpected end of input inside a string (the file is truncated)");
      return false;
    }
    i = start + rel;
  }
}

// A plain number "[-]digits[.digits]" of at most 19 digits that ends inside the buffer (nearly
// every number of a trace), read in one pass: its end, its validity and its value (as_double and
// as_int then read no text). False, nothing consumed, for anything else: scan_bare reads it.
bool JsonStream::scan_plain_number() {
  const char* const b = buf_.data();
  std::size_t i = pos_ + (b[pos_] == '-' ? 1 : 0);
  const std::size_t first = i;
  std::uint64_t digits = 0;  // wraps past 19 digits: not used then
  for (std::uint64_t eight = 0; end_ - i >= 8 && eight_digits(b + i, eight); i += 8)
    digits = digits * 100000000 + eight;  // a timestamp's first eight digits at once
  while (i < end_ && is_digit(b[i]))
    digits = digits * 10 + static_cast<std::uint64_t>(b[i++] - '0');
  const std::size_t n_int = i - first;
  if (n_int == 0 || (n_int > 1 && b[first] == '0')) return false;
  std::size_t n_fraction = 0;
  if (i < end_ && b[i] == '.') {
    const std::size_t from = ++i;
    while (i < end_ && is_digit(b[i]))
      digits = digits * 10 + static_cast<std::uint64_t>(b[i++] - '0');
    n_fraction = i - from;
    if (n_fraction == 0) return false;
  }
  if (n_int + n_fraction > 19 || i >= end_ || !is_delim(b[i])) return false;
  num_ = {digits, static_cast<std::uint32_t>(n_fraction), b[pos_] == '-', true};
  tok_ = pos_;
  tok_len_ = i - pos_;
  pos_ = i;
  after_value();
  return true;
}

// A number or literal: everything up to the next delimiter.
JsonToken JsonStream::scan_bare() {
  num_.fast = false;
  std::size_t start = pos_;
  std::size_t i = pos_;
  for (;;) {
    while (i < end_ && !is_delim(buf_[i])) ++i;
    if (i < end_) break;
    const std::size_t rel = i - start;
    if (!more(start)) {
      if (!error_.empty()) return fail(error_);
      if (!stack_.empty()) return fail("unexpected end of input (the file is truncated)");
      i = start + rel;
      break;  // the document may end right after a top-level number
    }
    i = start + rel;
  }
  tok_ = start;
  tok_len_ = i - start;
  pos_ = i;
  const std::string_view t = raw();
  JsonToken kind = JsonToken::number;
  const char first = t.empty() ? '\0' : t[0];
  if ((first == 't' || first == 'f') && (t == "true" || t == "false")) {
    kind = JsonToken::boolean;
  } else if (first == 'n' && t == "null") {
    kind = JsonToken::null;
  } else if (!valid_number(t)) {
    return fail(fmt::format("unexpected '{}'", escape_for_message(t.substr(0, 40), true)));
  }
  after_value();
  return kind;
}

JsonToken JsonStream::close(char c) {
  ++pos_;
  stack_.pop_back();
  after_value();
  return c == '}' ? JsonToken::end_object : JsonToken::end_array;
}

JsonToken JsonStream::open(char c) {
  if (stack_.size() >= max_depth_) return fail_depth();
  ++pos_;
  stack_.push_back(c);
  state_ = c == '{' ? State::key_or_end : State::value_or_end;
  return c == '{' ? JsonToken::begin_object : JsonToken::begin_array;
}

inline JsonToken JsonStream::value(char c) {
  if (c == '{' || c == '[') return open(c);
  if (c == '"') return next_string();
  if (c == ',' || c == ':' || c == ']' || c == '}')
    return fail_at("unexpected ", c, " where a value was expected");
  if ((c == '-' || is_digit(c)) && scan_plain_number()) return JsonToken::number;
  return scan_bare();
}

JsonToken JsonStream::next_key() {
  if (!scan_string()) return JsonToken::error;
  state_ = State::colon;
  if (pos_ < end_ && buf_[pos_] == ':') {  // the usual "key": — no extra round trip
    ++pos_;
    if (pos_ < end_ && buf_[pos_] == ' ') ++pos_;
    state_ = State::value;
  }
  return JsonToken::key;
}

JsonToken JsonStream::next_string() {
  if (!scan_string()) return JsonToken::error;
  after_value();
  return JsonToken::string;
}

JsonToken JsonStream::next_token() {
  // What next() leaves: the tokens after whitespace (a new line of a trace) and the brackets,
  // read here with no more than a call each; the rest by the general path.
  if (error_.empty()) {
    std::size_t i = pos_;
    while (i < end_ && is_ws(buf_[i])) ++i;
    if (i < end_) {
      pos_ = i;
      const char c = buf_[i];
      switch (state_) {
        case State::key_or_end:
          if (c == '}') return close(c);
          [[fallthrough]];
        case State::key:
          if (c == '"') return next_key();
          break;
        case State::value_or_end:
          if (c == ']') return close(c);
          [[fallthrough]];
        case State::value:
          if (c == '{' || c == '[') return open(c);
          if (c == '"') return next_string();
          break;
        case State::comma_or_end:
          if ((c == '}' && stack_.back() == '{') || (c == ']' && stack_.back() == '['))
            return close(c);
          break;
        default:
          break;
      }
    }
  }
  return next_general();
}

JsonToken JsonStream::next_general() {
  if (!error_.empty()) return JsonToken::error;
  for (;;) {
    if (pos_ >= end_ || is_ws(buf_[pos_])) {  // most tokens start right where the last ended
      skip_ws();
      if (!error_.empty()) return fail(error_);
      if (pos_ >= end_) return end_of_input();
    }
    const char c = buf_[pos_];
    switch (state_) {
      case State::done:
        return fail("unexpected data after the end of the document");
      case State::colon:
        if (c != ':') return fail("expected ':' after an object key");
        ++pos_;
        state_ = State::value;
        continue;
      case State::comma_or_end:
        if (c == ',') {
          ++pos_;
          state_ = stack_.back() == '{' ? State::key : State::value;
          continue;
        }
        if ((c == '}' && stack_.back() == '{') || (c == ']' && stack_.back() == '['))
          return close(c);
        return fail_at(
            stack_.back() == '{' ? "expected ',' or '}', got " : "expected ',' or ']', got ", c,
            "");
      case State::key_or_end:
        if (c == '}') return close(c);
        [[fallthrough]];
      case State::key:
        if (c != '"') return fail_at("expected an object key, got ", c, "");
        return next_key();
      case State::value_or_end:
        if (c == ']') return close(c);
        [[fallthrough]];
      case State::value:
        return value(c);
    }
  }
}

// One bracket met while skipping, outside any string, pos_ already past it: pushed, or popped
// against its opener. The container's end token once the depth is back at `target`, error on a
// mismatch, nullopt to go on.
std::optional<JsonToken> JsonStream::skip_bracket(char c, std::size_t target) {
  if (k_class[static_cast<unsigned char>(c)] == k_open) {
    if (stack_.size() >= max_depth_) return fail_depth();
    stack_.push_back(c);
    return std::nullopt;
  }
  if (stack_.size() <= target || stack_.back() != (c == '}' ? '{' : '['))
    return fail_at("unexpected ", c, "");
  stack_.pop_back();
  if (stack_.size() > target) return std::nullopt;
  after_value();
  return c == '}' ? JsonToken::end_object : JsonToken::end_array;
}

// Skips [pos_, limit) byte by byte: strings with find_quote_or_backslash, brackets matched.
std::optional<JsonToken> JsonStream::skip_bytes(std::size_t limit, std::size_t target,
                                                SkipState& st) {
  while (pos_ < limit) {
    if (st.escape) {
      st.escape = false;
      ++pos_;
    } else if (st.in_string) {
      const char* hit = find_quote_or_backslash(buf_.data() + pos_, buf_.data() + limit);
      pos_ = static_cast<std::size_t>(hit - buf_.data());
      if (pos_ == limit) break;
      ++pos_;
      if (*hit == '"')
        st.in_string = false;
      else
        st.escape = true;
    } else {
      const char c = buf_[pos_++];
      const std::uint8_t k = k_class[static_cast<unsigned char>(c)];
      if (k == k_quote) st.in_string = true;
      if (k == k_open || k == k_close)
        if (auto r = skip_bracket(c, target)) return r;
    }
  }
  return std::nullopt;
}

#if defined(__SSE2__)
namespace {

// Bit i set where p[i] is one of the 16 bytes at p equal to `c`.
std::uint64_t eq16(__m128i v, char c) {
  return static_cast<std::uint16_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(c))));
}

// The 64 bytes at p as bit masks: quotes, backslashes, openers ([ {) and closers (] }), the two
// of each told apart by one bit (0x20), so one comparison of the byte with 0x20 set finds both.
struct BlockMasks {
  std::uint64_t quote = 0, backslash = 0, open = 0, close = 0;
  explicit BlockMasks(const char* p) {
    for (int k = 0; k < 4; ++k) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * k));
      const __m128i folded = _mm_or_si128(v, _mm_set1_epi8(0x20));
      quote |= eq16(v, '"') << (16 * k);
      backslash |= eq16(v, '\\') << (16 * k);
      open |= eq16(folded, '{') << (16 * k);
      close |= eq16(folded, '}') << (16 * k);
    }
  }
};

// Bit i: the parity of the bits 0..i of x (with quotes: inside a string, its opening quote too).
std::uint64_t prefix_xor(std::uint64_t x) {
  for (int shift = 1; shift < 64; shift *= 2) x ^= x << shift;
  return x;
}

}  // namespace

// Skips whole 64-byte blocks at a time (the strings in them found by one prefix parity of their
// quotes, the brackets outside strings matched one by one); stops before a block with a
// backslash (skip_bytes reads that one) or less than a block from the end of the data.
std::optional<JsonToken> JsonStream::skip_blocks(std::size_t target, SkipState& st) {
  while (!st.escape && end_ - pos_ >= 64) {
    const BlockMasks m(buf_.data() + pos_);
    if (m.backslash) return std::nullopt;
    const std::uint64_t inside = prefix_xor(m.quote) ^ (st.in_string ? ~std::uint64_t{0} : 0);
    std::uint64_t brackets = (m.open | m.close) & ~inside;
    const std::size_t base = pos_;
    while (brackets) {
      const int bit = std::countr_zero(brackets);
      brackets &= brackets - 1;
      pos_ = base + static_cast<std::size_t>(bit) + 1;
      if (auto r = skip_bracket(buf_[pos_ - 1], target)) return r;
    }
    st.in_string = (inside >> 63) != 0;
    pos_ = base + 64;
  }
  return std::nullopt;
}
#else
std::optional<JsonToken> JsonStream::skip_blocks(std::size_t, SkipState&) {
  return std::nullopt;
}
#endif

// A raw scan: brackets matched and strings skipped, the tokens in between not classified —
// skipped values (most of a trace's bytes) cost little more than reading them.
JsonToken JsonStream::skip_container() {
  if (stack_.empty()) return fail("skip_container outside a container");
  const std::size_t target = stack_.size() - 1;  // the depth once this container closes
  SkipState st;
  for (;;) {
    while (pos_ < end_) {
      if (auto r = skip_blocks(target, st)) return *r;
      if (auto r = skip_bytes(std::min(end_, pos_ + 64), target, st)) return *r;
    }
    std::size_t keep = pos_;
    if (!more(keep))
      return fail(error_.empty() ? "unexpected end of input (the file is truncated)" : error_);
  }
}

JsonToken JsonStream::skip_value() {
  // A number where a value is expected, read as bytes up to its delimiter: checked for the bytes
  // a number holds and its last being a digit only, like the text skip_container passes over
  // (most skipped values of a trace are numbers: a kernel's registers, occupancy, queue ids).
  if (state_ == State::value && pos_ < end_ && (is_digit(buf_[pos_]) || buf_[pos_] == '-')) {
    std::size_t i = pos_ + 1;
    while (i < end_ && is_number_byte(buf_[i])) ++i;
    if (i < end_ && is_delim(buf_[i]) && is_digit(buf_[i - 1])) {  // a number ends on a digit
      num_.fast = false;
      tok_ = pos_;
      tok_len_ = i - pos_;
      pos_ = i;
      after_value();
      return JsonToken::number;
    }
  }
  const JsonToken t = next();
  if (t == JsonToken::begin_object || t == JsonToken::begin_array) return skip_container();
  if (t == JsonToken::end || t == JsonToken::key || t == JsonToken::end_object ||
      t == JsonToken::end_array)
    return fail("expected a value");
  return t;
}

}  // namespace roofline::topn::detail
