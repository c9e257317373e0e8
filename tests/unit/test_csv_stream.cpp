// The private CSV row reader under the counter ingest: the fast path (quote-parity masks) and
// the lenient scan must split every row the same way, whatever the buffer size.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "roofline/inputs/csv_fast.hpp"
#include "roofline/inputs/csv_stream.hpp"

namespace unit_csv_stream {
using roofline::inputs::ChunkReader;
using roofline::inputs::detail::CsvRow;
using roofline::inputs::detail::CsvStream;
using roofline::inputs::detail::field_text;

namespace {

// Every row as "line|field|field|..." (fields unescaped), plus its flags. With `want`, only
// those columns: "line|count|field|...", "-" for a column the row does not have.
std::vector<std::string> rows(const std::string& text, std::size_t buffer, bool lenient,
                              std::size_t max_row = 1 << 20, std::string_view isa = {},
                              const std::vector<std::size_t>& want = {}, std::size_t reuse = 0,
                              std::size_t* reused = nullptr) {
  std::size_t pos = 0;
  ChunkReader read = [&](char* buf, std::size_t cap) {
    const std::size_t n = std::min({std::size_t{3}, cap, text.size() - pos});
    std::copy_n(text.data() + pos, n, buf);
    pos += n;
    return n;
  };
  CsvStream csv(read, buffer, max_row, lenient, isa);
  csv.want(want);
  csv.reuse_prefix(reuse);
  std::vector<std::string> out;
  CsvRow row;
  while (csv.next(row)) {
    if (reused != nullptr && row.prefix_reused) ++*reused;
    std::string s = std::to_string(row.line);
    if (!want.empty()) {
      s += '|';
      s += std::to_string(row.field_count);
      for (auto c : want) {
        s += '|';
        s += c < row.field_count ? field_text(row[c]) : std::string("-");
      }
      out.push_back(s);
      continue;
    }
    for (const auto& f : row.fields()) {
      s += '|';
      s += field_text(f);
    }
    if (row.field_count != row.stored) s += "|count=";
    if (row.oversized) s += "|oversized";
    if (row.unterminated) s += "|unterminated";
    out.push_back(s);
  }
  return out;
}

// Every fast-path variant this CPU runs (SSE2 always).
std::vector<std::string> isas() {
  std::vector<std::string> out;
  for (const auto& k : roofline::inputs::detail::supported_fast_kernels()) out.emplace_back(k.isa);
  return out;
}

}  // namespace

TEST_CASE("csv: fields, quotes, CRLF, blank lines and line numbers", "[csv]") {
  const std::string text =
      "\xEF\xBB\xBF"
      "a,\"b,c\",\"say \"\"hi\"\"\"\r\n"
      "\n"
      "\"multi\nline\",2,\r\n"
      "x\"y,\"z\"junk,  w  \n"
      "last,\"\"";
  const std::vector<std::string> want = {
      "1|a|b,c|say \"hi\"",
      "3|multi\nline|2|",
      "5|x\"y|z|w",
      "6|last|",
  };
  for (bool lenient : {false, true})
    for (const auto& isa : isas())
      for (std::size_t buffer : {1u, 5u, 16u, 64u, 4096u}) {
        INFO("lenient " << lenient << " " << isa << " buffer " << buffer);
        CHECK(rows(text, buffer, lenient, 1 << 20, isa) == want);
        CHECK(rows(text, buffer, lenient, 1 << 20, isa, {0, 2}) ==
              std::vector<std::string>{"1|3|a|say \"hi\"", "3|3|multi\nline|", "5|3|x\"y|w",
                                       "6|2|last|-"});
      }
}

TEST_CASE("csv: an unterminated quote and an over-long row are flagged, later rows survive",
          "[csv]") {
  CHECK(rows("a,b\n\"open,c\nd", 8, false) ==
        std::vector<std::string>{"1|a|b", "2|open,c\nd|unterminated"});
  std::string long_row = "1,";
  long_row.append(100, 'x');
  long_row += "\n\"q\n";
  long_row.append(50, 'y');
  long_row += "\",2\nok,3\n";
  for (bool lenient : {false, true}) {
    const auto got = rows(long_row, 8, lenient, 32);
    REQUIRE(got.size() == 3);
    CHECK(got[0] == "1|oversized");
    CHECK(got[1] == "2|oversized");  // its quoted newline ends no row
    CHECK(got[2] == "4|ok|3");
  }
}

TEST_CASE("csv: the fast path and the lenient scan agree on a long mixed text", "[csv]") {
  std::string text;
  for (int i = 0; i < 300; ++i) {
    text += std::to_string(i);
    text += ",\"void k<int, ";
    text += std::to_string(i % 7);
    text += ">(float*, int)\",";
    if (i % 11 == 0) text += "\"with \"\"quotes\"\"\",";
    if (i % 13 == 0) text += "\"two\nlines\",";
    if (i % 17 == 0) text += "stray\"quote,";
    text.append(static_cast<std::size_t>(i % 70), 'v');
    text += i % 5 == 0 ? "\r\n" : "\n";
  }
  const auto lenient = rows(text, 4096, true);
  REQUIRE(lenient.size() == 300);
  const std::vector<std::size_t> want{0, 1, 3, 5};
  const auto lenient_want = rows(text, 4096, true, 1 << 20, {}, want);
  CHECK(lenient_want[0] == "1|6|0|void k<int, 0>(float*, int)|two\nlines|");
  CHECK(lenient_want[1] == "3|3|1|void k<int, 1>(float*, int)|-|-");
  for (const auto& isa : isas())
    for (std::size_t buffer : {7u, 64u, 65u, 200u, 1u << 16}) {
      INFO(isa << " buffer " << buffer);
      CHECK(rows(text, buffer, false, 1 << 20, isa) == lenient);
      CHECK(rows(text, buffer, false, 1 << 20, isa, want) == lenient_want);  // sparse rows
    }
}

TEST_CASE("csv: a row repeating the previous row's prefix reads the same with reuse_prefix",
          "[csv]") {
  // Dispatch-like rows: fields 0-3 repeat within a dispatch, 4-6 change, plus rows that break
  // the pattern (a quoted newline or a doubled quote after the prefix, a row ending right after
  // the prefix, a doubled quote inside the prefix, CRLF, a stray quote, a short row).
  std::string text;
  for (int d = 0; d < 120; ++d) {
    std::string prefix = std::to_string(d) + ",\"Agent 1\",4242,\"void k<int, ";
    prefix += std::to_string(d % 5);
    prefix += d % 23 == 0 ? ", \"\"tag\"\">(float*)\"," : ">(float*, int)\",";
    for (int c = 0; c < 9; ++c) {
      text += prefix;
      if (d % 17 == 0 && c == 4) {
        text += "\n";  // ends right after the prefix: one empty field more
        continue;
      }
      text += c == 3 && d % 11 == 0 ? "\"two\nlines\"," : "\"COUNTER_" + std::to_string(c) + "\",";
      text +=
          c == 5 && d % 13 == 0 ? "\"say \"\"hi\"\"\"," : std::to_string(d * 9 + c) + ".500000,";
      if (c == 6 && d % 19 == 0) text += "stray\"quote,";
      text += std::to_string(1000 + d) + "," + std::to_string(2000 + d);
      text += d % 7 == 0 ? "\r\n" : "\n";
    }
  }
  text += "0,\"Agent 1\",4242,\"void k<int, 0>(float*, int)\",\"LAST\"";  // no final newline
  const auto lenient = rows(text, 4096, true);
  REQUIRE(lenient.size() == 120 * 9 + 1);
  const std::vector<std::size_t> want{0, 3, 4, 5, 7};
  const auto lenient_want = rows(text, 4096, true, 1 << 20, {}, want);
  for (const auto& isa : isas())
    for (std::size_t buffer : {7u, 64u, 65u, 200u, 1u << 16}) {
      INFO(isa << " buffer " << buffer);
      std::size_t reused_all = 0, reused_want = 0;
      CHECK(rows(text, buffer, false, 1 << 20, isa, {}, 4, &reused_all) == lenient);
      CHECK(rows(text, buffer, false, 1 << 20, isa, want, 4, &reused_want) == lenient_want);
      if (buffer >= 200) {  // the prefix is actually reused (most rows of each dispatch)
        CHECK(reused_all > 120 * 6);
        CHECK(reused_want > 120 * 6);
      }
    }
  // The reuse only ever moves fields of identical bytes: a lenient-only stream ignores it.
  std::size_t none = 0;
  CHECK(rows(text, 4096, true, 1 << 20, {}, want, 4, &none) == lenient_want);
  CHECK(none == 0);
}

}  // namespace unit_csv_stream
