#pragma once
// Private to the counter ingest: numbers from CSV fields, without allocation. Integers (ids,
// nanosecond timestamps) are read eight digits at a time; decimals as profilers print them
// (`16384.000000`, `13.271172`, `4.34259040e-02`) take an exact fast path (Clinger's: a value
// m·10^e with m ≤ 2^53 and |e| ≤ 22 is one correctly rounded multiply or divide of two exact
// doubles, so it is the double std::strtod returns); anything else goes through std::from_chars.

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "roofline/inputs/csv_stream.hpp"

namespace roofline::detail {

inline std::string_view trimmed(const CsvField& f) {
  std::string_view v = f.raw();
  if (v.empty() || (v.front() > ' ' && v.back() > ' ')) return v;  // nearly always
  while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.remove_prefix(1);
  while (!v.empty() && (v.back() == ' ' || v.back() == '\t')) v.remove_suffix(1);
  return v;
}

// 1..8 ASCII digits at p as a number, eight bytes at a time (SWAR); false unless all are
// digits. Reads 8 bytes from p: CsvStream fields are followed by k_csv_field_slack readable
// bytes.
[[gnu::always_inline]] inline bool digits8(const char* p, std::size_t n, std::uint64_t& out) {
  if constexpr (std::endian::native != std::endian::little) {
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const auto d = static_cast<unsigned>(p[i] - '0');
      if (d > 9) return false;
      v = v * 10 + d;
    }
    out = v;
    return true;
  }
  std::uint64_t v = 0;
  std::memcpy(&v, p, 8);
  v <<= 8 * (8 - n);  // the digits to the high bytes (the last digit is the most significant)
  if (n < 8) v |= 0x3030303030303030ull >> (8 * n);  // leading '0's
  const std::uint64_t hi = 0xF0F0F0F0F0F0F0F0ull;
  if (((v & hi) | (((v + 0x0606060606060606ull) & hi) >> 4)) != 0x3333333333333333ull) return false;
  v -= 0x3030303030303030ull;
  v = v * 10 + (v >> 8);  // pairs of digits
  v = (((v & 0x000000FF000000FFull) * (100 + (1000000ull << 32))) +
       (((v >> 16) & 0x000000FF000000FFull) * (1 + (10000ull << 32)))) >>
      32;
  out = v;
  return true;
}

// Ids, nanosecond timestamps, integer counters: at most 19 digits, so no overflow.
[[gnu::always_inline]] inline bool parse_digits(std::string_view v, std::uint64_t& out) {
  if (v.empty() || v.size() > 19) return false;
  const std::size_t head = v.size() % 8 == 0 ? 8 : v.size() % 8;
  std::uint64_t n = 0, part = 0;
  if (!digits8(v.data(), head, n)) return false;
  for (std::size_t i = head; i < v.size(); i += 8) {
    if (!digits8(v.data() + i, 8, part)) return false;
    n = n * 100000000 + part;
  }
  out = n;
  return true;
}

inline bool parse_u64(const CsvField& f, std::uint64_t& out) {
  return parse_digits(trimmed(f), out);
}

// The length of the run of ASCII digits at p, at most `max`, eight bytes at a time. Reads up to
// 8 bytes past p + max (the field slack).
inline std::size_t digit_run(const char* p, std::size_t max) {
  if constexpr (std::endian::native != std::endian::little) {
    std::size_t n = 0;
    while (n < max && static_cast<unsigned>(p[n] - '0') <= 9) ++n;
    return n;
  }
  const std::uint64_t hi = 0xF0F0F0F0F0F0F0F0ull, threes = 0x3030303030303030ull;
  for (std::size_t n = 0; n < max; n += 8) {
    std::uint64_t w = 0;
    std::memcpy(&w, p + n, 8);
    // A digit byte is 0x30..0x39: high nibble 3, and still 3 after adding 6. A carry out of a
    // non-digit byte can only disturb the bytes after it, never the first non-digit's bit.
    const std::uint64_t bad = ((w & hi) ^ threes) | (((w + 0x0606060606060606ull) & hi) ^ threes);
    if (bad != 0) {
      const std::size_t k = n + static_cast<std::size_t>(std::countr_zero(bad)) / 8;
      return k < max ? k : max;
    }
  }
  return max;
}

// Decimal text ([-] digits [. digits] [e|E [+-] digits], digits on at least one side of the
// point) as a double, only when it is exactly m·10^e with m ≤ 2^53 and |e| ≤ 22 once leading
// zeros and the fraction's trailing zeros are dropped (or e = 0 and m < 10^19): then the result
// is the correctly rounded one, the double std::strtod returns. False for anything else,
// including valid numbers outside that range (the caller falls back to std::from_chars). Reads
// up to 8 bytes past the text (CsvStream's field slack).
inline bool parse_decimal_fast(std::string_view v, double& out) {
  static constexpr double k_pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                       1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                       1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  const char* p = v.data();
  const char* const end = p + v.size();
  const bool neg = p < end && *p == '-';  // no '+': std::from_chars takes none either
  p += neg ? 1 : 0;
  const char* ib = p;
  const char* ie = p + digit_run(p, static_cast<std::size_t>(end - p));
  const char* fb = ie;
  const char* fe = ie;
  if (ie < end && *ie == '.') {
    fb = ie + 1;
    fe = fb + digit_run(fb, static_cast<std::size_t>(end - fb));
  }
  if (ib == ie && fb == fe) return false;  // no digits
  int e10 = 0;
  if (fe < end) {
    if ((*fe != 'e' && *fe != 'E') || end - fe < 2) return false;
    p = fe + 1;
    const bool eneg = *p == '-';
    p += *p == '-' || *p == '+' ? 1 : 0;
    const std::size_t ne = digit_run(p, static_cast<std::size_t>(end - p));
    if (ne == 0 || ne > 3 || p + ne != end) return false;
    for (std::size_t i = 0; i < ne; ++i) e10 = e10 * 10 + (p[i] - '0');
    e10 = eneg ? -e10 : e10;
  }
  std::size_t ni = static_cast<std::size_t>(ie - ib), nf = static_cast<std::size_t>(fe - fb);
  if (ni + nf > 19) {  // maybe fewer digits without the zeros around them
    while (ib < ie && *ib == '0') ++ib;
    while (fe > fb && fe[-1] == '0') --fe;
    ni = static_cast<std::size_t>(ie - ib);
    nf = static_cast<std::size_t>(fe - fb);
    if (ni + nf > 19) return false;  // else m < 10^19 < 2^64
  }
  std::uint64_t m = 0, frac = 0;
  if (ni > 0 && !parse_digits({ib, ni}, m)) return false;
  if (nf > 0) {
    if (!parse_digits({fb, nf}, frac)) return false;
    m = m * static_cast<std::uint64_t>(k_pow10[nf]) + frac;  // 10^nf, nf <= 19, is exact
  }
  e10 -= static_cast<int>(nf);
  double r = 0.0;
  if (e10 == 0) {
    r = static_cast<double>(m);  // one rounding of an exact integer
  } else if (m <= (std::uint64_t{1} << 53) && e10 >= -22 && e10 <= 22) {
    const double dm = static_cast<double>(m);
    r = e10 > 0 ? dm * k_pow10[e10] : dm / k_pow10[-e10];
  } else {
    return false;
  }
  out = neg ? -r : r;
  return true;
}

// A counter value: decimals on the exact fast path, the rest through std::from_chars; false
// for anything but a finite number.
inline bool parse_number(const CsvField& f, double& out) {
  const std::string_view v = trimmed(f);
  if (parse_decimal_fast(v, out)) return true;
  if (v.empty()) return false;
  const auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
  return ec == std::errc{} && p == v.data() + v.size() && std::isfinite(out);
}

}  // namespace roofline::detail
