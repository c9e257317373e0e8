// The streaming JSON tokenizer (json_stream.hpp).
#include "topn/json_stream.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <cstring>

#include <fmt/format.h>

namespace roofline::detail {
namespace {

constexpr std::size_t k_initial_buffer = std::size_t{1} << 20;

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

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

// The JSON number grammar, plus Python's non-finite literals.
bool valid_number(std::string_view s) {
  if (s == "NaN" || s == "Infinity" || s == "-Infinity") return true;
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

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool read_hex4(std::string_view s, std::size_t at, unsigned& out) {
  if (at + 4 > s.size()) return false;
  out = 0;
  for (std::size_t k = 0; k < 4; ++k) {
    const int h = hex_value(s[at + k]);
    if (h < 0) return false;
    out = out * 16 + static_cast<unsigned>(h);
  }
  return true;
}

void append_utf8(std::string& out, unsigned cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
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
    const char* p = base + i;
    const char* e = base + end_;
    const auto* q = static_cast<const char*>(std::memchr(p, '"', static_cast<std::size_t>(e - p)));
    const char* stop = q ? q : e;
    const auto* b =
        static_cast<const char*>(std::memchr(p, '\\', static_cast<std::size_t>(stop - p)));
    if (b) {
      escaped_ = true;
      if (b + 1 < e) {
        i = static_cast<std::size_t>(b - base) + 2;
        continue;
      }
      i = static_cast<std::size_t>(b - base);  // the escape's second byte is not read yet
    } else if (q) {
      tok_ = start + 1;
      tok_len_ = static_cast<std::size_t>(q - base) - tok_;
      pos_ = static_cast<std::size_t>(q - base) + 1;
      return true;
    } else {
      i = end_;
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
  if (t == "true" || t == "false") {
    kind = JsonToken::boolean;
  } else if (t == "null") {
    kind = JsonToken::null;
  } else if (!valid_number(t)) {
    return fail(fmt::format("unexpected '{}'", t.substr(0, 40)));
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
    return fail(fmt::format("unexpected '{}' where a value was expected", c));
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
        return fail(
            fmt::format("expected ',' or '{}', got '{}'", stack_.back() == '{' ? '}' : ']', c));
      case State::key_or_end:
        if (c == '}') return close(c);
        [[fallthrough]];
      case State::key:
        if (c != '"') return fail(fmt::format("expected an object key, got '{}'", c));
        if (!scan_string()) return JsonToken::error;
        state_ = State::colon;
        if (pos_ < end_ && buf_[pos_] == ':') {  // the usual "key": — no extra round trip
          ++pos_;
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
        const char* p = base + pos_;
        const char* e = base + end_;
        const auto* q =
            static_cast<const char*>(std::memchr(p, '"', static_cast<std::size_t>(e - p)));
        const char* stop = q ? q : e;
        const auto* b =
            static_cast<const char*>(std::memchr(p, '\\', static_cast<std::size_t>(stop - p)));
        if (b) {
          pos_ = static_cast<std::size_t>(b - base) + 1;
          escape = true;
        } else if (q) {
          pos_ = static_cast<std::size_t>(q - base) + 1;
          in_string = false;
        } else {
          pos_ = end_;
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
            return fail(fmt::format("unexpected '{}'", c));
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

void JsonStream::append_text(std::string& out) const {
  const std::string_view s = raw();
  if (!escaped_) {
    out.append(s);
    return;
  }
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\' || i + 1 == s.size()) {
      out += s[i];
      continue;
    }
    const char e = s[++i];
    switch (e) {
      case 'n':
        out += '\n';
        break;
      case 't':
        out += '\t';
        break;
      case 'r':
        out += '\r';
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'u': {
        unsigned cp = 0, lo = 0;
        if (!read_hex4(s, i + 1, cp)) {
          out += "\\u";
          break;
        }
        i += 4;
        if (cp >= 0xD800 && cp < 0xDC00 && i + 2 < s.size() && s[i + 1] == '\\' &&
            s[i + 2] == 'u' && read_hex4(s, i + 3, lo) && lo >= 0xDC00 && lo < 0xE000) {
          cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          i += 6;
        } else if (cp >= 0xD800 && cp < 0xE000) {
          cp = 0xFFFD;  // a lone surrogate
        }
        append_utf8(out, cp);
        break;
      }
      default:
        out += e;
        break;  // \" \\ \/ and anything else: the character itself
    }
  }
}

bool JsonStream::as_double(double& out) const {
  const std::string_view s = raw();
  if (s == "NaN") {
    out = std::nan("");
    return true;
  }
  if (s == "Infinity" || s == "-Infinity") {
    out = s[0] == '-' ? -HUGE_VAL : HUGE_VAL;
    return true;
  }
  const auto r = std::from_chars(s.data(), s.data() + s.size(), out);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

bool JsonStream::as_int(std::int64_t& out) const {
  const std::string_view s = raw();
  const auto r = std::from_chars(s.data(), s.data() + s.size(), out);
  if (r.ec == std::errc() && r.ptr == s.data() + s.size()) return true;
  double d = 0.0;  // 1.0, 1e3: integral values written as floats
  if (!as_double(d) || !std::isfinite(d) || d != std::floor(d) || std::fabs(d) > 9.0e18)
    return false;
  out = static_cast<std::int64_t>(d);
  return true;
}

}  // namespace roofline::detail
