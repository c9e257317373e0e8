#pragma once
// Private to src/topn: a pull tokenizer for JSON documents of any size. It reads through a
// ByteReader into a buffer that holds only the token being read (it grows to the longest token,
// up to a limit), validates the grammar as it goes and never recurses, so memory is independent
// of the document size and nesting cannot exhaust the stack. Python's NaN / Infinity /
// -Infinity literals are read as numbers.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "roofline/topn/bytes/byte_reader.hpp"
#include "roofline/topn/layer.hpp"

namespace roofline::topn::detail {

enum class JsonToken : std::uint8_t {
  begin_object,
  end_object,
  begin_array,
  end_array,
  key,      // an object key; raw() is its text
  string,   // a string value; raw() is its text
  number,   // raw() is its text
  boolean,  // raw() is "true" or "false"
  null,
  end,    // the document ended cleanly
  error,  // see error(); every later call returns error again
};

class JsonStream {
 public:
  explicit JsonStream(ByteReader read, std::size_t max_token_bytes = std::size_t{64} << 20,
                      std::size_t max_depth = 100000);

  // The next token. Keys and strings are returned without their quotes, escapes not undone.
  // The usual tokens — a key, a string or a plain number right where the last token ended — are
  // read without the general path's dispatch (a token costs tens of instructions: its call and
  // state dispatch were a fifth of them).
  [[gnu::always_inline]] JsonToken next() {
    if (pos_ < end_ && error_.empty()) [[likely]] {
      const char c = buf_[pos_];
      if (c == '"' && (state_ == State::key || state_ == State::key_or_end)) return next_key();
      if (state_ == State::value || (state_ == State::value_or_end && c != ']')) {
        if ((c == '-' || (c >= '0' && c <= '9')) && scan_plain_number()) return JsonToken::number;
        if (c == '"') return next_string();
      }
    }
    return next_token();
  }
  // Where a value is expected and a non-negative integer of at most 18 digits (an id, a size, a
  // dim) starts right there and ends in the bytes read: reads it as next() would have, into
  // `out`, and returns true. Otherwise false, nothing read (read the value with next()).
  [[gnu::always_inline]] bool next_small_uint(std::int64_t& out) {
    const char* const b = buf_.data();
    std::size_t i = pos_;
    if (!(state_ == State::value || state_ == State::value_or_end) || i >= end_ ||
        static_cast<unsigned char>(b[i] - '0') > 9 || !error_.empty())
      return false;
    std::uint64_t v = static_cast<std::uint64_t>(b[i++] - '0');
    if (v != 0)  // a leading zero stands alone
      while (i < end_ && static_cast<unsigned char>(b[i] - '0') <= 9 && i - pos_ < 18)
        v = v * 10 + static_cast<std::uint64_t>(b[i++] - '0');
    if (i >= end_ || !ends_number(b[i])) return false;  // a fraction, an exponent, more digits
    num_ = {v, 0, false, true};
    tok_ = pos_;
    tok_len_ = i - pos_;
    pos_ = i;
    after_value();
    out = static_cast<std::int64_t>(v);
    return true;
  }

  // The text of the last key, string, number or literal; valid until the next call.
  std::string_view raw() const { return {buf_.data() + tok_, tok_len_}; }
  // True when the last key or string holds a backslash escape (use text() to undo it).
  bool escaped() const { return escaped_; }
  // The last key or string with its escapes undone (\uXXXX to UTF-8), appended to `out`.
  void append_text(std::string& out) const;
  // The last number token as a double / as an integer (false when it is not one).
  bool as_double(double& out) const;
  bool as_int(std::int64_t& out) const;

  // After next() returned begin_object or begin_array: consumes up to its matching end.
  // Returns that end token, or error. Skipped text is checked for matching brackets and closed
  // strings only (a truncated document is always an error; commas inside are not checked).
  JsonToken skip_container();
  // Consumes one whole value where a value is expected. Returns its last token, or error. A
  // number is checked for the bytes a number holds only (as skip_container checks what it skips).
  JsonToken skip_value();

  const std::string& error() const { return error_; }
  std::uint64_t offset() const { return dropped_ + pos_; }  // bytes consumed so far

  // Reads a document from its middle: the reader starts at byte `at` of the document, where a
  // value inside the containers `open` begins ('{' or '[' per level, outermost first). Offsets
  // (and error messages) then count from the document's start. Call before the first next().
  void resume_at(std::uint64_t at, std::string_view open);
  // Where the next value or end token begins (whitespace and a pending ',' consumed, as next()
  // would), or the end of the input.
  std::uint64_t next_value_offset();

 private:
  enum class State : std::uint8_t {
    value,
    value_or_end,
    key_or_end,
    key,
    colon,
    comma_or_end,
    done
  };
  JsonToken next_token();  // after whitespace, the brackets; else next_general()
  [[gnu::noinline]] JsonToken next_general();  // the general path
  JsonToken open(char c);                      // a '{' or '[' at pos_ where a value is expected
  // A byte that may follow a number: whitespace or punctuation (not a digit, '.', 'e', a letter).
  static bool ends_number(char c) {
    return c == ',' || c == '}' || c == ']' || c == ' ' || c == '\n' || c == '\r' || c == '\t' ||
           c == ':' || c == '"' || c == '[' || c == '{';
  }
  JsonToken next_key();     // a key at pos_
  JsonToken next_string();  // a string value at pos_
  bool more(std::size_t& keep);
  void skip_ws();
  // The error paths, kept out of the hot functions (no message is built on their stack frames).
  [[gnu::cold, gnu::noinline]] JsonToken fail(std::string what);
  [[gnu::cold, gnu::noinline]] JsonToken fail(const char* what);
  [[gnu::cold, gnu::noinline]] JsonToken fail_at(const char* before, char c, const char* after);
  [[gnu::cold, gnu::noinline]] JsonToken fail_depth();
  // At the end of the input: the end of the document, or an error (truncated).
  [[gnu::noinline]] JsonToken end_of_input();
  JsonToken close(char c);
  [[gnu::always_inline]] inline JsonToken value(char c);
  [[gnu::always_inline]] inline bool scan_string();
  [[gnu::noinline]] bool scan_string_rest();  // a string with escapes, or past the bytes read
  bool scan_plain_number();
  JsonToken scan_bare();
  // Where skip_container is: inside a string, right after its backslash.
  struct SkipState {
    bool in_string = false, escape = false;
  };
  std::optional<JsonToken> skip_bracket(char c, std::size_t target);
  std::optional<JsonToken> skip_bytes(std::size_t limit, std::size_t target, SkipState& st);
  std::optional<JsonToken> skip_blocks(std::size_t target, SkipState& st);
  [[gnu::always_inline]] void after_value() {
    if (stack_.empty()) {
      state_ = State::done;
    } else if (pos_ < end_ && buf_[pos_] == ',') {  // the usual value, — consumed right away
      ++pos_;
      if (pos_ < end_ && buf_[pos_] == ' ') ++pos_;  // and the one space usually after it
      state_ = stack_.back() == '{' ? State::key : State::value;
    } else {
      state_ = State::comma_or_end;
    }
  }

  ByteReader read_;
  std::vector<char> buf_;
  std::size_t pos_ = 0, end_ = 0;  // unread data is [pos_, end_)
  std::uint64_t dropped_ = 0;      // bytes discarded from the front of the buffer
  std::size_t tok_ = 0, tok_len_ = 0;
  bool escaped_ = false;
  // The last number as scan_plain_number read it: its digits as one integer, how many of them
  // follow the point, its sign; `fast` false when it was not read so (as_* then read its text).
  struct PlainNumber {
    std::uint64_t digits = 0;
    std::uint32_t fraction = 0;
    bool negative = false, fast = false;
  } num_;
  bool eof_ = false;
  std::size_t max_token_, max_depth_;
  State state_ = State::value;
  std::vector<char> stack_;  // '{' or '[' per open container
  std::string error_;
};

}  // namespace roofline::topn::detail
