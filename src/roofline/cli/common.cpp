// Exit codes, usage errors and option checks shared by the subcommands.
#include "roofline/cli/common.hpp"

#include <cmath>
#include <cstdio>
#include <limits>

#include <fmt/format.h>

#include "roofline/inputs/load.hpp"
#include "roofline/inputs/peaks.hpp"

namespace roofline::cli {

void err_line(const std::string& msg) {
  std::fprintf(stderr, "roofline: %s\n", msg.c_str());
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
