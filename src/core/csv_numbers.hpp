#pragma once
// Private to the counter ingest: numbers from CSV fields, without allocation. Integers (ids,
// nanosecond timestamps, most counter values) are read eight digits at a time; anything else
// goes through std::from_chars.

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "core/csv_stream.hpp"

namespace roofline::detail {

inline std::string_view trimmed(const CsvField& f) {
  std::string_view v = f.raw();
  while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.remove_prefix(1);
  while (!v.empty() && (v.back() == ' ' || v.back() == '\t')) v.remove_suffix(1);
  return v;
}

// 1..8 ASCII digits at p as a number, eight bytes at a time (SWAR); false unless all are
// digits. Reads 8 bytes from p: CsvStream fields are followed by k_csv_field_slack readable
// bytes.
inline bool digits8(const char* p, std::size_t n, std::uint64_t& out) {
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
inline bool parse_digits(std::string_view v, std::uint64_t& out) {
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

// Counter values are mostly integers: those skip the general floating-point parser.
inline bool parse_number(const CsvField& f, double& out) {
  const std::string_view v = trimmed(f);
  std::uint64_t n = 0;
  if (parse_digits(v, n)) {
    out = static_cast<double>(n);
    return true;
  }
  if (v.empty()) return false;
  const auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
  return ec == std::errc{} && p == v.data() + v.size() && std::isfinite(out);
}

}  // namespace roofline::detail
