// The number readers under the counter ingest (csv_numbers.hpp): the exact fast path for
// decimals must return the double std::strtod returns, bit for bit, for everything it accepts,
// and must leave everything else to the general parser.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "roofline/inputs/csv_numbers.hpp"

namespace unit_csv_numbers {
using roofline::inputs::detail::CsvField;
using roofline::inputs::detail::parse_decimal_fast;
using roofline::inputs::detail::parse_number;

namespace {

// The text with the slack a CsvStream buffer guarantees after every field (digits, so a
// parser that reads past the end would see plausible bytes, not a convenient terminator).
struct Padded {
  std::string buf;
  explicit Padded(const std::string& text) : buf(text + std::string(64, '7')) {}
  std::string_view view(std::size_t n) const { return {buf.data(), n}; }
};

std::uint64_t bits(double d) {
  std::uint64_t b = 0;
  std::memcpy(&b, &d, sizeof b);
  return b;
}

// parse_number on `text` equals strtod bit for bit; returns whether the fast path took it. The
// comparison is plain code and only a mismatch reaches Catch (with the text and both values):
// the random sweep below checks half a million numbers, and a Catch assertion with its message
// on each would cost most of the suite's unit-test time.
bool same_as_strtod(const std::string& text) {
  const Padded p(text);
  double fast = 0.0;
  const bool took = parse_decimal_fast(p.view(text.size()), fast);
  double any = 0.0;
  const CsvField f{p.buf.data(), text.size(), false, false};
  const bool parsed = parse_number(f, any);
  const double want = std::strtod(text.c_str(), nullptr);
  if (!parsed || bits(any) != bits(want) || (took && bits(fast) != bits(want))) {
    INFO(text << ": strtod " << want << ", parse_number " << (parsed ? "" : "(declined) ") << any
              << ", fast path " << (took ? "" : "(declined) ") << fast);
    CHECK(parsed);
    CHECK(bits(any) == bits(want));
    if (took) CHECK(bits(fast) == bits(want));
  }
  return took;
}

std::string printed(const char* format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

}  // namespace

TEST_CASE("numbers: the decimal fast path equals strtod on the forms profilers print",
          "[csv][numbers]") {
  std::mt19937_64 rng(20250611);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::size_t fast = 0, total = 0;
  for (int i = 0; i < 60000; ++i) {
    // Magnitudes from 1e-12 to 1e16, as counters and derived metrics span them.
    const double v = std::pow(10.0, -12.0 + 28.0 * unit(rng)) * (1.0 + unit(rng));
    for (const char* format : {"%.6f", "%.8e", "%.17g", "%.3f", "%.0f", "%.2f", "%.15e"}) {
      ++total;
      fast += same_as_strtod(printed(format, v)) ? 1u : 0u;
    }
    // Integer counts printed as %f (rocprofv3), fractions of 32-byte requests in KiB.
    const auto n = static_cast<double>(rng() >> (rng() % 60));
    total += 2;
    fast += same_as_strtod(printed("%.6f", n)) ? 1u : 0u;
    fast +=
        same_as_strtod(printed("%.6f", static_cast<double>(rng() % 400000000) / 32.0)) ? 1u : 0u;
  }
  // Most of them take the fast path (a broken fast path that declined everything would pass
  // the equality checks above).
  CHECK(fast > total / 2);
}

TEST_CASE("numbers: edges of the fast path", "[csv][numbers]") {
  for (const char* text : {"0",
                           "-0",
                           "0.000000",
                           "-0.0",
                           "16384.000000",
                           "13.271172",
                           "4.34259040e-02",
                           "1e22",
                           "1e23",
                           "9007199254740992",
                           "9007199254740993",
                           "9007199254740993.0",
                           "900719925474099.3",
                           "0.1",
                           "0.3",
                           "1.7976931348623157e308",
                           "2.2250738585072014e-308",
                           "4.9e-324",
                           "123456789012345678901234567890",
                           "1234567890123456789",
                           "18446744073709551615",
                           "0.000000000000000000000000000001",
                           "1.5E3",
                           "2.5e+02",
                           "5.",
                           ".5",
                           "00012.5000",
                           "1e-22",
                           "1e-23",
                           "8.589973e9",
                           "1e0005",
                           "3.0e-0"}) {
    INFO(text);
    same_as_strtod(text);
  }
  // Exact where a naive "digits times a power of ten" would round twice.
  double d = 0.0;
  CHECK(parse_decimal_fast(Padded("0.3").view(3), d));
  CHECK(d == 0.3);
  CHECK(parse_decimal_fast(Padded("4.34259040e-02").view(14), d));
  CHECK(d == 4.34259040e-02);
  // Declined: beyond 2^53 with a non-zero power of ten, or exponents past 22.
  CHECK_FALSE(parse_decimal_fast(Padded("9007199254740993.5").view(18), d));
  CHECK_FALSE(parse_decimal_fast(Padded("1e23").view(4), d));
}

TEST_CASE("numbers: what is not a number stays not a number", "[csv][numbers]") {
  for (const char* text :
       {"",     "-",   ".",    "e5",  "1e",  "1e+",  "--1",   "+1",  "1..2", "1.2.3",
        "0x10", "1,5", "12a4", "nan", "inf", "-inf", "1e999", "1 2", "1/2",  "n/a"}) {
    INFO(text);
    const std::string s = text;
    const Padded p(s);
    double d = 0.0;
    CHECK_FALSE(parse_decimal_fast(p.view(s.size()), d));
    CHECK_FALSE(parse_number(CsvField{p.buf.data(), s.size(), false, false}, d));
  }
}

}  // namespace unit_csv_numbers
