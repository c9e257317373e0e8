// Budgets, number formatting and text trimming shared by every layer (units.hpp).
#include "roofline/base/units.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>

#include <fmt/format.h>
#include "roofline/base/layer.hpp"

namespace roofline::base {

std::optional<double> byte_budget(const std::optional<double>& peak_bw_bytes_s, double t_unit_ms) {
  if (!peak_bw_bytes_s || !(*peak_bw_bytes_s > 0) || !(t_unit_ms > 0)) return std::nullopt;
  return *peak_bw_bytes_s * (t_unit_ms / 1000.0);
}

std::string format_bytes(double bytes, Digits digits) {
  struct Unit {
    double scale;
    const char* name;
    int brief, exact;  // decimals
  };
  // Notes never used terabytes: their figures stay in gigabytes so they compare at a glance.
  static constexpr std::array<Unit, 4> k_units{{
      {1e12, "TB", 2, -1},
      {1e9, "GB", 2, 3},
      {1e6, "MB", 1, 2},
      {1e3, "kB", 1, 2},
  }};
  const double a = std::fabs(bytes);
  for (const Unit& u : k_units) {
    const int decimals = digits == Digits::brief ? u.brief : u.exact;
    if (a >= u.scale && decimals >= 0)
      return fmt::format("{:.{}f} {}", bytes / u.scale, decimals, u.name);
  }
  return fmt::format("{:.0f} B", bytes);
}

std::string format_rate(double v, const char* unit) {
  const double a = std::fabs(v);
  if (a >= 1e15) return fmt::format("{:.3g} P{}", v / 1e15, unit);
  if (a >= 1e12) return fmt::format("{:.3g} T{}", v / 1e12, unit);
  if (a >= 1e9) return fmt::format("{:.3g} G{}", v / 1e9, unit);
  if (a >= 1e6) return fmt::format("{:.3g} M{}", v / 1e6, unit);
  return fmt::format("{:.3g} {}", v, unit);
}

std::string format_time_ms(double ms) {
  if (std::fabs(ms) < 1.0) return fmt::format("{:.3f} µs", ms * 1000.0);
  return fmt::format("{:.3f} ms", ms);
}

std::string format_pct(std::optional<double> r) {
  if (!r || !std::isfinite(*r)) return "—";
  return fmt::format("{:.1f}%", *r * 100.0);
}

std::string format_range(const std::string& lo, const std::string& hi) {
  return lo == hi ? lo : lo + " to " + hi;
}

std::string format_count(double v) {
  const double a = std::fabs(v);
  if (a >= 1e12) return fmt::format("{:.3g} T", v / 1e12);
  if (a >= 1e9) return fmt::format("{:.3g} G", v / 1e9);
  if (a >= 1e6) return fmt::format("{:.3g} M", v / 1e6);
  if (a >= 1e3) return fmt::format("{:.3g} k", v / 1e3);
  return fmt::format("{:.3g}", v);
}

std::string escape_for_message(std::string_view text, bool ascii_only) {
  std::string out;
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f || (ascii_only && u > 0x7f))
      out += fmt::format("\\x{:02x}", static_cast<unsigned>(u));
    else
      out += c;
  }
  return out;
}

std::string format_g(double v) {
  return fmt::format("{:.6g}", v);
}

std::string_view trim_view(std::string_view s) {
  std::size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

std::string trim(std::string_view s) {
  return std::string(trim_view(s));
}

std::string lower_ascii(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

}  // namespace roofline::base
