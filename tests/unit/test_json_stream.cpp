// topn/json_stream.hpp: the streaming JSON tokenizer behind `roofline topn`.
#include <charconv>
#include <random>
#include <string>
#include <vector>

#include "roofline/topn/bytes/json_stream.hpp"
#include "test_helpers.hpp"
#include "topn_test_io.hpp"

namespace unit_json_stream {
using roofline::test::chunked;
using roofline::topn::detail::JsonStream;
using roofline::topn::detail::JsonToken;

namespace {

// Every token as "kind:text", or "error" (then the stream's message is in `error`).
std::vector<std::string> tokens(const std::string& text, std::size_t chunk,
                                std::string* error = nullptr, std::size_t max_token = 1 << 20) {
  JsonStream js(chunked(text, chunk), max_token, 64);
  std::vector<std::string> out;
  for (int guard = 0; guard < 10000; ++guard) {
    const JsonToken t = js.next();
    switch (t) {
      case JsonToken::begin_object:
        out.push_back("{");
        break;
      case JsonToken::end_object:
        out.push_back("}");
        break;
      case JsonToken::begin_array:
        out.push_back("[");
        break;
      case JsonToken::end_array:
        out.push_back("]");
        break;
      case JsonToken::key: {
        std::string s;
        js.append_text(s);
        out.push_back("k:" + s);
        break;
      }
      case JsonToken::string: {
        std::string s;
        js.append_text(s);
        out.push_back("s:" + s);
        break;
      }
      case JsonToken::number:
        out.push_back("n:" + std::string(js.raw()));
        break;
      case JsonToken::boolean:
        out.push_back("b:" + std::string(js.raw()));
        break;
      case JsonToken::null:
        out.push_back("null");
        break;
      case JsonToken::end:
        return out;
      case JsonToken::error:
        if (error) *error = js.error();
        out.push_back("error");
        return out;
    }
  }
  return out;
}

}  // namespace

TEST_CASE("JsonStream: tokens of a document, whatever the chunk size", "[topn][json]") {
  const std::string doc =
      R"( {"a": [1, -2.5e3, true, false, null], "b\"q": {"c": "x\\y\u00e9\ud83d\ude00"}, "d": []} )";
  const std::vector<std::string> want = {"{",
                                         "k:a",
                                         "[",
                                         "n:1",
                                         "n:-2.5e3",
                                         "b:true",
                                         "b:false",
                                         "null",
                                         "]",
                                         "k:b\"q",
                                         "{",
                                         "k:c",
                                         "s:x\\y\xC3\xA9\xF0\x9F\x98\x80",
                                         "}",
                                         "k:d",
                                         "[",
                                         "]",
                                         "}"};
  for (std::size_t chunk : {1u, 2u, 3u, 7u, 64u, 4096u}) {
    INFO("chunk " << chunk);
    CHECK(tokens(doc, chunk) == want);
  }
}

TEST_CASE("JsonStream: numbers convert, Python's non-finite literals are numbers", "[topn][json]") {
  const std::string doc = R"([12345678901, 1.5, NaN, -Infinity, 2e2])";
  JsonStream js(chunked(doc, 5));
  CHECK(js.next() == JsonToken::begin_array);
  std::int64_t i = 0;
  double d = 0;
  CHECK(js.next() == JsonToken::number);
  CHECK(js.as_int(i));
  CHECK(i == 12345678901);
  CHECK(js.next() == JsonToken::number);
  CHECK(js.as_double(d));
  CHECK(d == 1.5);
  CHECK_FALSE(js.as_int(i));  // not integral
  CHECK(js.next() == JsonToken::number);
  CHECK(js.as_double(d));
  CHECK(std::isnan(d));
  CHECK(js.next() == JsonToken::number);
  CHECK(js.as_double(d));
  CHECK(d == -HUGE_VAL);
  CHECK(js.next() == JsonToken::number);
  CHECK(js.as_int(i));  // 2e2 is the integer 200
  CHECK(i == 200);
  CHECK(js.next() == JsonToken::end_array);
  CHECK(js.next() == JsonToken::end);
}

TEST_CASE("JsonStream: a string longer than the buffer's first size survives refills",
          "[topn][json]") {
  const std::string long_name(3 << 20, 'k');  // 3 MiB: the 1 MiB buffer must grow
  const std::string doc = "{\"name\": \"" + long_name + "\", \"n\": 1}";
  auto t = tokens(doc, 65536, nullptr, std::size_t{8} << 20);
  REQUIRE(t.size() == 6);
  CHECK(t[2] == "s:" + long_name);
  std::string error;
  t = tokens(doc, 65536, &error, std::size_t{2} << 20);  // over the token limit
  CHECK(t.back() == "error");
  CHECK(error.find("longer than") != std::string::npos);
}

TEST_CASE("JsonStream: malformed and truncated documents are errors with a reason",
          "[topn][json]") {
  struct Case {
    std::string doc, reason;
  };
  const std::vector<Case> cases = {
      {R"({"a": 1,})", "expected an object key"},
      {R"({"a" 1})", "expected ':'"},
      {R"([1 2])", "expected ','"},
      {R"({"a": [1, 2})", "expected ','"},
      {R"({"a": "unterminated)", "truncated"},
      {R"({"traceEvents": [{"ph": "X")", "truncated"},
      {R"([1, 2)", "truncated"},
      {R"([tru])", "unexpected 'tru'"},
      {R"([01])", "unexpected '01'"},
      {R"({} {})", "after the end"},
      {R"([,1])", "unexpected ','"},
      {"[1 \x01]", "got '\\x01'"},  // a control byte is shown escaped, the message one line
      {"", "truncated"},
  };
  for (const Case& c : cases) {
    for (std::size_t chunk : {1u, 4096u}) {
      INFO(c.doc << " chunk " << chunk);
      std::string error;
      auto t = tokens(c.doc, chunk, &error);
      REQUIRE(!t.empty());
      CHECK(t.back() == "error");
      CHECK(error.find(c.reason) != std::string::npos);
      CHECK(error.find("byte") != std::string::npos);
    }
  }
}

TEST_CASE("JsonStream: nesting deeper than the limit is refused without recursion",
          "[topn][json]") {
  std::string deep(200000, '[');  // far beyond any stack a recursive parser could use
  std::string error;
  auto t = tokens(deep, 4096, &error);
  CHECK(t.back() == "error");
  CHECK(error.find("nested deeper than 64") != std::string::npos);
}

TEST_CASE("JsonStream: skip_value consumes a whole value", "[topn][json]") {
  const std::string doc = R"({"skip": {"x": [1, {"y": [[], {}]}, "}"]}, "keep": 7})";
  JsonStream js(chunked(doc, 3));
  CHECK(js.next() == JsonToken::begin_object);
  CHECK(js.next() == JsonToken::key);
  CHECK(js.skip_value() == JsonToken::end_object);
  CHECK(js.next() == JsonToken::key);
  CHECK(js.raw() == "keep");
  CHECK(js.next() == JsonToken::number);
  CHECK(js.raw() == "7");
  CHECK(js.next() == JsonToken::end_object);
  CHECK(js.next() == JsonToken::end);
}

TEST_CASE("JsonStream: decimals of 17 to 19 digits convert as from_chars does", "[topn][json]") {
  // Past 2^53 the digits are no exact double: the quotient is rounded in extended precision, and
  // the values that land near a point halfway between two doubles are left to from_chars. Random
  // decimals, and the halfway points themselves (odd multiples of half an ulp, with and without
  // a fraction of zeros), against from_chars.
  std::mt19937_64 rng(47);
  std::vector<std::string> texts;
  for (int n = 0; n < 20000; ++n) {
    const std::uint64_t digits =
        (std::uint64_t{1} << 53) + rng() % (std::uint64_t{9999999999999999999u} - (1ull << 53));
    std::string t = std::to_string(digits);
    const std::size_t fraction = rng() % t.size();
    if (fraction > 0) t.insert(t.size() - fraction, ".");
    if (t.front() == '.') t.insert(0, "0");
    texts.push_back((n % 3 == 0 ? "-" : "") + t);
  }
  for (int shift = 0; shift < 10; ++shift)
    for (int n = 0; n < 200; ++n) {
      const std::uint64_t ulp = std::uint64_t{2} << shift;  // of the doubles in [2^(54+shift), ..)
      const std::uint64_t base = (std::uint64_t{1} << (54 + shift)) + (rng() % (1u << 20)) * ulp;
      const std::string mid = std::to_string(base + ulp / 2);
      texts.push_back(mid);
      texts.push_back(mid + ".000");
      texts.push_back(std::to_string(base + ulp / 2 + 1));
    }
  std::string doc = "[";
  for (const std::string& t : texts) doc += t + ", ";
  doc += "0]";
  JsonStream js(chunked(doc, 4096));
  REQUIRE(js.next() == JsonToken::begin_array);
  std::size_t differ = 0;
  for (const std::string& t : texts) {
    REQUIRE(js.next() == JsonToken::number);
    double got = 0, want = 0;
    REQUIRE(js.as_double(got));
    std::from_chars(t.data(), t.data() + t.size(), want);
    if (got != want) {
      ++differ;
      INFO(t);
      CHECK(got == want);
    }
  }
  CHECK(differ == 0);
}

TEST_CASE("JsonStream: next_small_uint reads what next() would, or leaves it", "[topn][json]") {
  // Each value: read by next_small_uint (its value), or left for next() (-1), which then reads
  // it as a number (or fails: "01").
  const std::string doc =
      R"({"a": 807, "b": 0, "c": 12.5, "d": 123e4, "e": -5, "f": 1234567890123456789,)"
      R"( "g":  42, "h": [3, 4], "i": "7"})";
  const std::vector<std::int64_t> want = {807, 0, -1, -1, -1, -1};
  for (std::size_t chunk : {1u, 2u, 3u, 4096u}) {
    INFO("chunk " << chunk);
    JsonStream js(chunked(doc, chunk));
    REQUIRE(js.next() == JsonToken::begin_object);
    std::int64_t v = 0;
    CHECK_FALSE(js.next_small_uint(v));  // a key is expected
    for (std::int64_t w : want) {
      REQUIRE(js.next() == JsonToken::key);
      // Where the read stopped inside a number, the small read declines; next() reads it whole.
      if (w >= 0 && js.next_small_uint(v)) {
        CHECK(v == w);
        continue;
      }
      REQUIRE(js.next() == JsonToken::number);
      if (w >= 0) CHECK(js.as_int(v));
      if (w >= 0) CHECK(v == w);
    }
    REQUIRE(js.next() == JsonToken::key);  // "g": after two spaces, next() reads it
    if (!js.next_small_uint(v)) {
      REQUIRE(js.next() == JsonToken::number);
      CHECK(js.as_int(v));
    }
    CHECK(v == 42);
    REQUIRE(js.next() == JsonToken::key);
    REQUIRE(js.next() == JsonToken::begin_array);
    for (std::int64_t w : {3, 4}) {
      if (!js.next_small_uint(v)) {
        REQUIRE(js.next() == JsonToken::number);
        CHECK(js.as_int(v));
      }
      CHECK(v == w);
    }
    CHECK(js.next() == JsonToken::end_array);
    REQUIRE(js.next() == JsonToken::key);
    CHECK_FALSE(js.next_small_uint(v));  // a string
    CHECK(js.next() == JsonToken::string);
    CHECK(js.next() == JsonToken::end_object);
    CHECK(js.next() == JsonToken::end);
  }
  // A leading zero stands alone: "01" is not read as 1, and next() says why.
  const std::string leading_zero = R"({"a": 01})";
  JsonStream bad(chunked(leading_zero, 4096));
  REQUIRE(bad.next() == JsonToken::begin_object);
  REQUIRE(bad.next() == JsonToken::key);
  std::int64_t v = 0;
  CHECK_FALSE(bad.next_small_uint(v));
  CHECK(bad.next() == JsonToken::error);
}

TEST_CASE("JsonStream: skip_value passes a number over as bytes, at any read boundary",
          "[topn][json]") {
  const std::string doc = R"({"a": -12.5e+3, "b": 7,"c":1e9}  )";
  for (std::size_t chunk : {1u, 2u, 5u, 4096u}) {
    INFO("chunk " << chunk);
    JsonStream js(chunked(doc, chunk));
    CHECK(js.next() == JsonToken::begin_object);
    CHECK(js.next() == JsonToken::key);
    CHECK(js.skip_value() == JsonToken::number);
    CHECK(js.next() == JsonToken::key);
    CHECK(js.raw() == "b");
    CHECK(js.skip_value() == JsonToken::number);
    CHECK(js.next() == JsonToken::key);
    CHECK(js.skip_value() == JsonToken::number);
    CHECK(js.raw() == "1e9");
    CHECK(js.next() == JsonToken::end_object);
    CHECK(js.next() == JsonToken::end);
  }
  // A byte no number holds is an error, skipped or not; a truncated document too.
  for (const std::string bad : {R"({"a": 12x, "b": 1})", R"({"a": 12)", R"({"a": -})"}) {
    INFO(bad);
    JsonStream js(chunked(bad, 4096));
    CHECK(js.next() == JsonToken::begin_object);
    CHECK(js.next() == JsonToken::key);
    const JsonToken t = js.skip_value();
    CHECK((t == JsonToken::error || js.next() == JsonToken::error));
    CHECK_FALSE(js.error().empty());
  }
}

TEST_CASE("JsonStream: skip_container over long values, strings holding brackets and escapes",
          "[topn][json]") {
  // Long enough for the 64-byte block scan, with blocks that hold a backslash (read byte by
  // byte), strings that hold brackets and quotes, and a string across a block boundary.
  std::string skipped = R"({"a": [)";
  for (int i = 0; i < 40; ++i)
    skipped += R"({"k": "x]}[{ \"q\\\" ]", "n": [1, [2, {"d": "yyyyyyyyyyyyyyyyyyyyyyyyyyyy"}]]},)";
  skipped += R"("}\\"]})";
  const std::string doc = R"({"skip": )" + skipped + R"(, "keep": 7})";
  for (std::size_t chunk : {1u, 7u, 64u, 100u, 4096u}) {
    INFO("chunk " << chunk);
    JsonStream js(chunked(doc, chunk));
    CHECK(js.next() == JsonToken::begin_object);
    CHECK(js.next() == JsonToken::key);
    CHECK(js.skip_value() == JsonToken::end_object);
    CHECK(js.next() == JsonToken::key);
    CHECK(js.raw() == "keep");
    CHECK(js.next() == JsonToken::number);
    CHECK(js.next() == JsonToken::end_object);
    CHECK(js.next() == JsonToken::end);
  }
  const std::string bad = R"({"skip": {"a": [)" + std::string(100, ' ') + R"(}]}})";
  JsonStream js(chunked(bad, 4096));
  CHECK(js.next() == JsonToken::begin_object);
  CHECK(js.next() == JsonToken::key);
  CHECK(js.skip_value() == JsonToken::error);
  CHECK(js.error() ==
        "invalid JSON at byte " + std::to_string(bad.find('}') + 1) + ": unexpected '}'");
}

TEST_CASE("JsonStream: numbers read in one pass convert as from_chars does", "[topn][json]") {
  const std::string doc =
      "[1000000000546.083, -0, 9007199254740992, 9007199254740993, 1234567890123456789, "
      "-9223372036854775807, 0.1, 1.0, 12345678901234567890, 12345678.25, 8765432, 98765432]";
  for (std::size_t chunk : {3u, 4096u}) {
    JsonStream js(chunked(doc, chunk));
    CHECK(js.next() == JsonToken::begin_array);
    double d = 0;
    std::int64_t i = 0;
    // The next token is a number that reads as the double `want` / the integer `want`.
    auto next_double = [&](double want) {
      CHECK(js.next() == JsonToken::number);
      CHECK(js.as_double(d));
      CHECK(d == want);
    };
    auto next_int = [&](std::int64_t want) {
      CHECK(js.next() == JsonToken::number);
      CHECK(js.as_int(i));
      CHECK(i == want);
    };
    next_double(1000000000546.083);
    next_int(0);
    next_double(9007199254740992.0);
    next_double(9007199254740992.0);  // past 2^53: rounded by from_chars
    CHECK(js.as_int(i));
    CHECK(i == 9007199254740993);
    next_int(1234567890123456789);
    next_int(-9223372036854775807);
    next_double(0.1);
    CHECK_FALSE(js.as_int(i));  // 0.1: not integral
    next_int(1);
    CHECK(js.next() == JsonToken::number);  // 20 digits: not an int64
    CHECK_FALSE(js.as_int(i));
    CHECK(js.as_double(d));
    CHECK(d == 12345678901234567890.0);
    next_double(12345678.25);  // eight digits read at once, then the point
    next_int(8765432);         // seven: read digit by digit
    next_int(98765432);        // eight, then the bracket
    CHECK(js.next() == JsonToken::end_array);
  }
}

}  // namespace unit_json_stream
