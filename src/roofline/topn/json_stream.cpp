// The streaming JSON tokenizer (json_stream.hpp).
#include "roofline/topn/json_stream.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>

#include <fmt/format.h>

#include "roofline/base/units.hpp"
#include "roofline/topn/layer.hpp"

namespace roofline::topn::detail {
namespace {

// The buffer starts small and doubles while the input keeps filling it, up to the read size of a
// long trace: a file of a few kilobytes (a head sniffed, a fuzz input) costs no megabyte to
// allocate and zero, a long trace is still read a megabyte at a time.
constexpr std::size_t k_initial_buffer = std::size_t{1} << 16;
constexpr std::size_t k_read_buffer = std::size_t{1} << 20;

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

bool is_delim(char c) {
  return k_class[static_cast<unsigned char>(c)] != k_other;
}

// The first '"' or '\\' in [p, e), or e: eight bytes at a time (a byte equal to either has a
// zero in its XOR with a broadcast of that byte; the lowest flagged byte is the first match),
// then byte by byte. Cheaper than two memchr calls on the short strings of a trace.
const char* find_quote_or_backslash(const char* p, const char* e) {
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
    while (pos_ < end_ && is_ws(buf_[pos_])) ++pos_;
    if (pos_ < end_) return;
    std::size_t keep = pos_;
    if (!more(keep)) return;
  }
}

JsonToken JsonStream::fail(std::string what) {
  if (error_.empty()) error_ = fmt::format("invalid JSON at byte {}: {}", offset(), what);
  state_ = State::done;
  eof_ = true;
  pos_ = end_;
  return JsonToken::error;
}

// Scans the string whose opening quote is at pos_; on success tok_/tok_len_ hold its content.
bool JsonStream::scan_string() {
  std::size_t start = pos_;  // the opening quote
  std::size_t i = start + 1;
  escaped_ = false;
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

// A number or literal: everything up to the next delimiter.
JsonToken JsonStream::scan_bare() {
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

JsonToken JsonStream::value(char c) {
  if (c == '{' || c == '[') {
    if (stack_.size() >= max_depth_)
      return fail(fmt::format("nested deeper than {} levels", max_depth_));
    ++pos_;
    stack_.push_back(c);
    state_ = c == '{' ? State::key_or_end : State::value_or_end;
    return c == '{' ? JsonToken::begin_object : JsonToken::begin_array;
  }
  if (c == '"') {
    if (!scan_string()) return JsonToken::error;
    after_value();
    return JsonToken::string;
  }
  if (c == ',' || c == ':' || c == ']' || c == '}')
    return fail(fmt::format("unexpected '{}' where a value was expected",
                            escape_for_message({&c, 1}, true)));
  return scan_bare();
}

JsonToken JsonStream::next() {
  if (!error_.empty()) return JsonToken::error;
  for (;;) {
    skip_ws();
    if (!error_.empty()) return fail(error_);
    if (pos_ >= end_) {
      if (state_ == State::done && stack_.empty()) return JsonToken::end;
      return fail("unexpected end of input (the file is truncated)");
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
        return fail(fmt::format("expected ',' or '{}', got '{}'", stack_.back() == '{' ? '}' : ']',
                                escape_for_message({&c, 1}, true)));
      case State::key_or_end:
        if (c == '}') return close(c);
        [[fallthrough]];
      case State::key:
        if (c != '"')
          return fail(
              fmt::format("expected an object key, got '{}'", escape_for_message({&c, 1}, true)));
        if (!scan_string()) return JsonToken::error;
        state_ = State::colon;
        if (pos_ < end_ && buf_[pos_] == ':') {  // the usual "key": — no extra round trip
          ++pos_;
          if (pos_ < end_ && buf_[pos_] == ' ') ++pos_;
          state_ = State::value;
        }
        return JsonToken::key;
      case State::value_or_end:
        if (c == ']') return close(c);
        [[fallthrough]];
      case State::value:
        return value(c);
    }
  }
}

// A raw scan: brackets matched and strings skipped with memchr, the tokens in between not
// classified — skipped values (most of a trace's bytes) cost little more than reading them.
JsonToken JsonStream::skip_container() {
  if (stack_.empty()) return fail("skip_container outside a container");
  const std::size_t target = stack_.size() - 1;  // the depth once this container closes
  bool in_string = false, escape = false;
  for (;;) {
    while (pos_ < end_) {
      if (in_string) {
        if (escape) {
          escape = false;
          ++pos_;
          continue;
        }
        const char* base = buf_.data();
        const char* e = base + end_;
        const char* hit = find_quote_or_backslash(base + pos_, e);
        pos_ = static_cast<std::size_t>(hit - base);
        if (hit < e) {
          ++pos_;
          if (*hit == '"')
            in_string = false;
          else
            escape = true;
        }
        continue;
      }
      const char c = buf_[pos_++];
      switch (k_class[static_cast<unsigned char>(c)]) {
        case k_quote:
          in_string = true;
          break;
        case k_open:
          if (stack_.size() >= max_depth_)
            return fail(fmt::format("nested deeper than {} levels", max_depth_));
          stack_.push_back(c);
          break;
        case k_close:
          if (stack_.size() <= target || stack_.back() != (c == '}' ? '{' : '['))
            return fail(fmt::format("unexpected '{}'", escape_for_message({&c, 1}, true)));
          stack_.pop_back();
          if (stack_.size() == target) {
            after_value();
            return c == '}' ? JsonToken::end_object : JsonToken::end_array;
          }
          break;
        default:
          break;
      }
    }
    std::size_t keep = pos_;
    if (!more(keep))
      return fail(error_.empty() ? "unexpected end of input (the file is truncated)" : error_);
  }
}

JsonToken JsonStream::skip_value() {
  const JsonToken t = next();
  if (t == JsonToken::begin_object || t == JsonToken::begin_array) return skip_container();
  if (t == JsonToken::end || t == JsonToken::key || t == JsonToken::end_object ||
      t == JsonToken::end_array)
    return fail("expected a value");
  return t;
}

}  // namespace roofline::topn::detail
