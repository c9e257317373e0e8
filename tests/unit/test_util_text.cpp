// The shared util helpers: display_relative, the table-line reader, json_number.
#include <limits>

#include <catch2/catch.hpp>

#include "roofline/base/json_number.hpp"
#include "roofline/base/text.hpp"
#include "roofline/cli/layer.hpp"

namespace unit_util_text {
using namespace roofline::cli;

TEST_CASE("display_relative: inside the base is relative, outside is as given", "[util]") {
  CHECK(display_relative("/e/round_1/profile_topN.json", "/e") == "round_1/profile_topN.json");
  CHECK(display_relative("/e/counters.csv", "/e/") == "counters.csv");
  CHECK(display_relative("/other/x.csv", "/e") == "/other/x.csv");
  CHECK(display_relative("/e", "/e") == ".");
}

TEST_CASE("table_lines: numbered from 1, a final newline starts no empty line", "[util]") {
  const auto lines = table_lines("a b\n\n# c\nlast");
  REQUIRE(lines.size() == 4);
  CHECK(lines[0].number == 1);
  CHECK(lines[0].text == "a b");
  CHECK(lines[1].text.empty());
  CHECK(lines[3].number == 4);
  CHECK(lines[3].text == "last");
  CHECK(table_lines("one\n").size() == 1);
  CHECK(table_lines("").empty());
}

TEST_CASE("next_word / rest_of_line: words split on spaces, tabs and CR", "[util]") {
  const std::string_view line = "  *gemm*\tgemm:dense  the rest, with  spaces \r";
  std::size_t at = 0;
  CHECK(next_word(line, at) == "*gemm*");
  CHECK(next_word(line, at) == "gemm:dense");
  CHECK(rest_of_line(line, at) == "the rest, with  spaces");
  CHECK(next_word(line, at) == "the");
  std::size_t end = line.size();
  CHECK(next_word(line, end).empty());
  CHECK(rest_of_line(line, line.size() + 3).empty());
}

TEST_CASE("json_number: absent and non-finite numbers are null", "[util]") {
  CHECK(json_number(2.5).get<double>() == 2.5);
  CHECK(json_number(std::nullopt).is_null());
  CHECK(json_number(std::numeric_limits<double>::infinity()).is_null());
  CHECK(json_number(std::numeric_limits<double>::quiet_NaN()).is_null());
}

}  // namespace unit_util_text
