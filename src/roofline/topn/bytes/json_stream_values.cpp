// The values of JsonStream tokens: strings with their escapes undone, numbers converted.
#include <cfloat>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>

#include "roofline/topn/bytes/json_stream.hpp"
#include "roofline/topn/layer.hpp"

namespace roofline::topn::detail {
namespace {

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

// digits / 10^fraction for digits past 2^53 (a timestamp of 17 to 19 digits: 1000000000602.3329),
// correctly rounded or false. Where long double has a 64-bit significand (x87), the digits and
// 10^fraction (fraction <= 22) are exact in it and one division rounds the quotient to 64 bits;
// rounding that to a double's 53 gives the correctly rounded quotient unless it lies within one of
// its last bits of a point halfway between two doubles (its low 11 bits 0x3FF, 0x400 or 0x401):
// then false (from_chars reads it).
bool wide_decimal(std::uint64_t digits, std::size_t fraction, bool negative, double& out) {
#if (defined(__x86_64__) || defined(__i386__)) && LDBL_MANT_DIG == 64
  static constexpr long double k_pow10[] = {1e0L,  1e1L,  1e2L,  1e3L,  1e4L,  1e5L,  1e6L,  1e7L,
                                            1e8L,  1e9L,  1e10L, 1e11L, 1e12L, 1e13L, 1e14L, 1e15L,
                                            1e16L, 1e17L, 1e18L, 1e19L, 1e20L, 1e21L, 1e22L};
  const long double q = static_cast<long double>(digits) / k_pow10[fraction];
  std::uint64_t significand = 0;
  std::memcpy(&significand, &q, sizeof significand);  // x87: the 64-bit significand first
  const std::uint64_t low = significand & 0x7FF;
  if (low >= 0x3FF && low <= 0x401) return false;
  out = static_cast<double>(q);
  if (negative) out = -out;
  return true;
#else
  (void)digits;
  (void)fraction;
  (void)negative;
  (void)out;
  return false;
#endif
}

// digits / 10^fraction, negated when `negative`, exactly when the digits are at most 2^53 and
// the fraction at most 22 digits: both are then exact doubles and one division rounds correctly
// (Clinger's fast path) — what from_chars gives. A trace's timestamps (1000000000546.083: 16
// digits) fit. False otherwise.
bool exact_decimal(std::uint64_t digits, std::size_t fraction, bool negative, double& out) {
  static constexpr double k_pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                       1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                       1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  if (fraction > 22) return false;
  if (digits > (std::uint64_t{1} << 53)) return wide_decimal(digits, fraction, negative, out);
  out = static_cast<double>(digits) / k_pow10[fraction];
  if (negative) out = -out;
  return true;
}

// A plain decimal "[-]digits[.digits]" of at most 19 digits through exact_decimal. False for
// anything else (the caller uses from_chars).
bool fast_decimal(std::string_view s, double& out, bool& integral) {
  std::size_t i = s.size() > 0 && s[0] == '-' ? 1 : 0;
  const bool negative = i == 1;
  std::uint64_t digits = 0;
  std::size_t n_digits = 0, n_fraction = 0;
  bool point = false;
  for (; i < s.size(); ++i) {
    const char c = s[i];
    if (c >= '0' && c <= '9') {
      if (++n_digits > 19) return false;  // 19 digits cannot overflow 64 bits
      digits = digits * 10 + static_cast<std::uint64_t>(c - '0');
      if (point) ++n_fraction;
    } else if (c == '.' && !point) {
      point = true;
    } else {
      return false;
    }
  }
  if (n_digits == 0 || (point && n_fraction == 0)) return false;
  integral = n_fraction == 0;
  return exact_decimal(digits, n_fraction, negative, out);
}

}  // namespace

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
  if (num_.fast && exact_decimal(num_.digits, num_.fraction, num_.negative, out)) return true;
  const std::string_view s = raw();
  bool integral = false;
  if (fast_decimal(s, out, integral)) return true;
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
  if (num_.fast && num_.fraction == 0 &&
      num_.digits <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
    out = static_cast<std::int64_t>(num_.digits);
    if (num_.negative) out = -out;
    return true;
  }
  const std::string_view s = raw();
  double fast = 0.0;
  bool integral = false;
  // Past 2^53 a double is no exact integer: from_chars reads those.
  if (fast_decimal(s, fast, integral) && integral && std::fabs(fast) < 9007199254740992.0) {
    out = static_cast<std::int64_t>(fast);
    return true;
  }
  const auto r = std::from_chars(s.data(), s.data() + s.size(), out);
  if (r.ec == std::errc() && r.ptr == s.data() + s.size()) return true;
  double d = 0.0;  // 1.0, 1e3: integral values written as floats
  if (!as_double(d) || !std::isfinite(d) || d != std::floor(d) || std::fabs(d) > 9.0e18)
    return false;
  out = static_cast<std::int64_t>(d);
  return true;
}

}  // namespace roofline::topn::detail
