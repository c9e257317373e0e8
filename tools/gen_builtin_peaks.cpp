// Build-time generator: parses data/peaks.md with the same parser `--peaks FILE` uses and writes
// the sections as C++ statements for src/roofline/inputs/builtin_peaks.cpp. Any parse or check
// problem, or a check warning (a measured figure above the datasheet or below 0.3 of it, a section
// without a source), fails the build, so the shipped table is always sound. Published measured
// bf16/fp16 pairs that differ (check_peaks_bf16_fp16) are printed and accepted.
// Usage: gen_builtin_peaks PEAKS_MD OUT_INC
#include <cstdio>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "roofline/inputs/peaks.hpp"

namespace {

std::string hex(double v) {
  return fmt::format("{:a}", v);
}  // exact round trip

// A C++ string literal of `s`: quotes and backslashes escaped, control bytes as three-digit octal
// escapes (which, unlike \x, never swallow a following character).
std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20 || u == 0x7f) {
      out += fmt::format("\\{:03o}", u);
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string opt(const std::optional<double>& v) {
  return v ? hex(*v) : "std::nullopt";
}

// Every problem of the parsed table (check errors, then warnings as "warning: "); prints the
// accepted notes (differing measured bf16/fp16 pairs) to stderr.
std::vector<std::string> table_problems(const roofline::inputs::PeaksTable& table) {
  std::vector<std::string> problems;
  for (auto& p : roofline::inputs::check_peaks(table)) problems.push_back(p);
  for (auto& w : roofline::inputs::check_peaks_warnings(table)) problems.push_back("warning: " + w);
  for (auto& w : roofline::inputs::check_peaks_sources(table)) problems.push_back("warning: " + w);
  for (auto& w : roofline::inputs::check_peaks_bf16_fp16(table))
    std::fprintf(stderr, "gen_builtin_peaks: note: %s\n", w.c_str());
  return problems;
}

// The C++ statements that rebuild one section in builtin_peaks.cpp.
std::string section_statements(const roofline::inputs::PeaksSection& s) {
  std::string out = "{\n  PeaksSection s;\n";
  out += fmt::format("  s.gfx = {};\n  s.product = {};\n  s.line = {};\n", quoted(s.gfx),
                     quoted(s.product), s.line);
  out += fmt::format("  s.name = {};\n  s.source = {};\n", quoted(s.name), quoted(s.source));
  out += fmt::format("  s.cu = {};\n  s.memory_gib = {};\n  s.hbm_bw_bytes_s = {};\n", opt(s.cu),
                     opt(s.memory_gib), opt(s.hbm_bw_bytes_s));
  out +=
      fmt::format("  s.l2_bytes = {};\n  s.mall_bytes = {};\n", opt(s.l2_bytes), opt(s.mall_bytes));
  if (s.link)
    out += fmt::format("  s.link = LinkPeak{{{}, {}, {}}};\n", quoted(s.link->topology),
                       hex(s.link->bytes_s), hex(s.link->links));
  for (const auto& [key, value] : s.flops)
    out += fmt::format("  s.flops[DtypeKey::{}] = {};\n", key.str(), hex(value));  // peak keys
  for (const auto& name : s.device_names)
    out += fmt::format("  s.device_names.push_back({});\n", quoted(name));
  if (s.measured) {
    // docs/method.md §5.7: the measured block, its source text escaped like every string.
    out += "  s.measured = MeasuredPeaks{};\n";
    out += fmt::format("  s.measured->hbm_bw_bytes_s = {};\n", opt(s.measured->hbm_bw_bytes_s));
    for (const auto& [key, value] : s.measured->flops)
      out += fmt::format("  s.measured->flops[DtypeKey::{}] = {};\n", key.str(), hex(value));
    out += fmt::format("  s.measured->source = {};\n", quoted(s.measured->source));
  }
  return out + "  t.sections.push_back(std::move(s));\n}\n";
}

// Writes `text` to `path` through a temporary file and a rename; false when either fails.
bool write_replacing(const std::string& path, const std::string& text) {
  std::string tmp = path + ".tmp";
  std::ofstream o(tmp, std::ios::binary);
  o << text;
  o.close();
  return o && std::rename(tmp.c_str(), path.c_str()) == 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: gen_builtin_peaks PEAKS_MD OUT_INC\n");
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  if (!in) {
    std::fprintf(stderr, "gen_builtin_peaks: cannot read %s\n", argv[1]);
    return 1;
  }
  auto loaded = roofline::inputs::parse_peaks_md(text.str(), "data/peaks.md");
  std::vector<std::string> problems = loaded.errors;
  if (loaded.value)
    for (auto& p : table_problems(*loaded.value)) problems.push_back(p);
  if (!loaded.value || !problems.empty()) {
    for (const auto& p : problems) std::fprintf(stderr, "gen_builtin_peaks: %s\n", p.c_str());
    return 1;
  }
  std::string out = "// Generated from data/peaks.md by gen_builtin_peaks. Do not edit.\n";
  for (const auto& s : loaded.value->sections) out += section_statements(s);
  if (!write_replacing(argv[2], out)) {
    std::fprintf(stderr, "gen_builtin_peaks: cannot write %s\n", argv[2]);
    return 1;
  }
  return 0;
}
