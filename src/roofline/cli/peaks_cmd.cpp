// `roofline peaks`: list, show and check hardware peak tables.
#include "roofline/cli/peaks_cmd.hpp"

#include <cstdio>
#include <stdexcept>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include <algorithm>

#include "roofline/analyze/steps/resolve_peaks.hpp"
#include "roofline/cli/common.hpp"
#include "roofline/cli/given_env.hpp"
#include "roofline/cli/layer.hpp"
#include "roofline/inputs/embedded_data.hpp"
#include "roofline/inputs/load.hpp"
#include "roofline/inputs/peaks.hpp"
#include "roofline/inputs/peaks_alias.hpp"
#include "roofline/render/report.hpp"

namespace roofline::cli {

int run_peaks_list(const PeaksArgs& args) {
  PeaksTable storage;
  const std::string out = peaks_table_text(load_peaks_or_throw(args.file, storage));
  std::fwrite(out.data(), 1, out.size(), stdout);
  return k_exit_ok;
}

int run_peaks_show(const PeaksArgs& args) {
  PeaksTable storage;
  PeaksTable table = load_peaks_or_throw(args.file, storage);
  ResolvedPeaks p = resolve_peaks(table, args.gfx, args.product, DeviceProps{});
  // A product the product rules do not know, written as people write it (docs/method.md §22.9),
  // names its section when the part is of the gfx given.
  if (p.source == PeaksSource::none && !args.product.empty()) {
    const ProductMatch m = match_product(table, args.product);
    const bool same_arch =
        !m.sections.empty() &&
        std::all_of(m.sections.begin(), m.sections.end(),
                    [&](const PeaksSection* s) { return s->gfx == normalize_arch(args.gfx); });
    if (same_arch) {
      const GivenPart part = resolve_given_part(table, args.product);
      if (!part.note.empty()) err_line("note: " + part.note);
      p = resolve_peaks(table, args.gfx, part.product, DeviceProps{}, "", true);
    }
  }
  const std::string out =
      args.format == "json" ? json_text(peaks_json(p, PeaksFields::full)) : peaks_text(p);
  std::fwrite(out.data(), 1, out.size(), stdout);
  return k_exit_ok;
}

int run_peaks_check(const PeaksArgs& args) {
  std::string name = args.file.empty() ? "built-in peaks.md" : args.file;
  Loaded<PeaksTable> loaded;
  if (args.file.empty()) {
    loaded = parse_peaks_md(builtin_peaks_md(), name);
  } else {
    FileText text = read_text_file(args.file, k_max_json_bytes);
    if (!text.found) throw UsageError(fmt::format("peaks check {}: file not found", args.file));
    if (!text.error.empty())
      throw UsageError(fmt::format("peaks check {}: {}", args.file, text.error));
    loaded = parse_peaks_md(text.text, name);
  }
  std::vector<std::string> problems = loaded.errors;
  if (loaded.value)
    for (auto& p : check_peaks(*loaded.value)) problems.push_back(p);
  // docs/method.md §5.7: a measured figure above the datasheet or below 0.3 of it is a warning,
  // not a problem: the table is usable, and analyze keeps the datasheet figure for that axis.
  std::vector<std::string> warnings;
  if (loaded.value) {
    warnings = check_peaks_warnings(*loaded.value);
    for (auto& w : check_peaks_bf16_fp16(*loaded.value)) warnings.push_back(std::move(w));
    for (auto& w : check_peaks_sources(*loaded.value)) warnings.push_back(std::move(w));
  }
  for (const auto& p : problems) std::printf("%s\n", p.c_str());
  for (const auto& w : warnings) std::printf("warning: %s\n", w.c_str());
  const std::size_t sections = loaded.value ? loaded.value->sections.size() : 0;
  if (problems.empty()) {
    if (warnings.empty())
      std::printf("%s: ok (%zu sections)\n", name.c_str(), sections);
    else
      std::printf("%s: ok (%zu sections), %zu warning%s\n", name.c_str(), sections, warnings.size(),
                  warnings.size() == 1 ? "" : "s");
    return k_exit_ok;
  }
  std::printf("%s: %zu problem%s in %zu sections\n", name.c_str(), problems.size(),
              problems.size() == 1 ? "" : "s", sections);
  return k_exit_strict;
}

namespace {

// `text` as a parenthesised run of Python string literals, one per line of it: backslashes and
// quotes escaped, control bytes as \xNN (exactly two digits, never swallowing the next
// character); other bytes as they are (Python source is UTF-8).
std::string python_literal(std::string_view text) {
  std::string out = "(\n";
  std::string piece;
  const auto flush = [&] { out += "    \"" + piece + "\"\n"; };
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '\\' || c == '"') {
      piece += '\\';
      piece += c;
    } else if (c == '\n') {
      piece += "\\n";
      flush();
      piece.clear();
    } else if (u < 0x20 || u == 0x7f) {
      piece += fmt::format("\\x{:02x}", u);
    } else {
      piece += c;
    }
  }
  if (!piece.empty() || text.empty()) flush();
  return out + ")";
}

}  // namespace

std::string measure_script_text(std::string_view script, std::string_view peaks_md) {
  constexpr std::string_view placeholder = "BUILTIN_PEAKS_MD = None  # @ROOFLINE_BUILTIN_PEAKS@";
  const std::size_t at = script.find(placeholder);
  if (at == std::string_view::npos)
    throw std::logic_error("data/measure_peaks.py lacks its BUILTIN_PEAKS_MD placeholder line");
  std::string out(script.substr(0, at));
  out += fmt::format("BUILTIN_PEAKS_MD = {}  # the built-in peaks.md of roofline {}",
                     python_literal(peaks_md), ROOFLINE_VERSION);
  out += script.substr(at + placeholder.size());
  return out;
}

int run_peaks_measure_script() {
  const std::string out = measure_script_text(builtin_measure_peaks_py(), builtin_peaks_md());
  std::fwrite(out.data(), 1, out.size(), stdout);
  return k_exit_ok;
}

}  // namespace roofline::cli
