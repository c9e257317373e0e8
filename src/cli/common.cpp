// Exit codes, usage errors and option checks shared by the subcommands.
#include "cli/common.hpp"

#include <cmath>
#include <cstdio>
#include <limits>

#include <fmt/format.h>

#include "roofline/load.hpp"
#include "roofline/peaks.hpp"

namespace roofline::cli {

void err_line(const std::string& msg) {
  std::fprintf(stderr, "roofline: %s\n", msg.c_str());
}

CLI::Validator finite_range(double lo, double hi) {
  const std::string want = std::isinf(hi) ? fmt::format("a finite number >= {:g}", lo)
                                          : fmt::format("a number between {:g} and {:g}", lo, hi);
  return CLI::Validator(
      [lo, hi, want](std::string& s) -> std::string {
        try {
          std::size_t used = 0;
          double v = std::stod(s, &used);
          if (used == s.size() && std::isfinite(v) && v >= lo && v <= hi) return {};
        } catch (...) {
        }
        return fmt::format("'{}' is not {}", s, want);
      },
      std::isinf(hi) ? fmt::format("NUMBER>={:g}", lo)
                     : fmt::format("NUMBER in [{:g}, {:g}]", lo, hi));
}

CLI::Validator non_negative() {
  return finite_range(0.0, std::numeric_limits<double>::infinity());
}

CLI::Validator positive() {
  return CLI::Validator(
      [](std::string& s) -> std::string {
        try {
          std::size_t used = 0;
          double v = std::stod(s, &used);
          if (used == s.size() && std::isfinite(v) && v > 0) return {};
        } catch (...) {
        }
        return fmt::format("'{}' is not a positive number", s);
      },
      "NUMBER>0");
}

CLI::Validator whole_number(long long lo, long long hi) {
  return CLI::Validator(
      [lo, hi](std::string& s) -> std::string {
        try {
          std::size_t used = 0;
          const long long v = std::stoll(s, &used);
          if (used == s.size() && v >= lo && v <= hi) return {};
        } catch (...) {
        }
        return fmt::format("'{}' is not a whole number from {} to {}", s, lo, hi);
      },
      fmt::format("INT in [{}, {}]", lo, hi));
}

const PeaksTable& load_peaks_or_throw(const std::string& file, PeaksTable& storage) {
  if (file.empty()) return builtin_peaks();
  FileText text = read_text_file(file, k_max_json_bytes);
  if (!text.found) throw UsageError(fmt::format("--peaks {}: file not found", file));
  if (!text.error.empty()) throw UsageError(fmt::format("--peaks {}: {}", file, text.error));
  auto loaded = parse_peaks_md(text.text, file);
  for (const auto& e : loaded.errors) err_line("warning: " + e);
  storage = loaded.value.value_or(PeaksTable{});
  return storage;
}

}  // namespace roofline::cli
