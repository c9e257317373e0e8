// data/kernel_backends.tsv -> BackendRule list (who builds a kernel family; see the file's header).
#include <algorithm>
#include <array>

#include <fmt/format.h>

#include "roofline/kernel_backends.hpp"

namespace roofline {
namespace {

constexpr std::array<std::string_view, 8> k_classifications{
    "library_gemm",         "library_attn",   "triton", "fused_custom",
    "elementwise_overhead", "reduction_norm", "memory", "other"};

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r';
}

// The next whitespace-separated word of `line` from `at`; advances `at`.
std::string_view word(std::string_view line, std::size_t& at) {
  while (at < line.size() && is_space(line[at])) ++at;
  const std::size_t begin = at;
  while (at < line.size() && !is_space(line[at])) ++at;
  return line.substr(begin, at - begin);
}

}  // namespace

Loaded<std::vector<BackendRule>> parse_kernel_backends(std::string_view text,
                                                       const std::string& display_name) {
  Loaded<std::vector<BackendRule>> out;
  std::vector<BackendRule> rules;
  int lineno = 0;
  for (std::size_t pos = 0; pos < text.size();) {
    std::size_t eol = text.find('\n', pos);
    if (eol == std::string_view::npos) eol = text.size();
    const std::string_view line = text.substr(pos, eol - pos);
    pos = eol + 1;
    ++lineno;
    std::size_t at = 0;
    const std::string_view pattern = word(line, at);
    if (pattern.empty() || pattern[0] == '#') continue;
    const std::string_view backend = word(line, at);
    const std::string_view editable = word(line, at);
    const std::string_view classification = word(line, at);
    while (at < line.size() && is_space(line[at])) ++at;
    std::string_view hint = line.substr(at);
    while (!hint.empty() && is_space(hint.back())) hint.remove_suffix(1);
    BackendRule r;
    r.pattern = std::string(pattern);
    r.backend = std::string(backend);
    r.hint = std::string(hint);
    r.line = lineno;
    if (editable == "yes")
      r.editable = true;
    else if (editable == "no")
      r.editable = false;
    const bool class_ok =
        classification == "-" || std::find(k_classifications.begin(), k_classifications.end(),
                                           classification) != k_classifications.end();
    if (backend.empty() || !(editable == "yes" || editable == "no" || editable == "?") ||
        !class_ok) {
      out.errors.push_back(
          fmt::format("{}:{}: expected 'pattern backend yes|no|? classification|- hint', got '{}'",
                      display_name, lineno, line));
      continue;
    }
    if (classification != "-") r.classification = std::string(classification);
    rules.push_back(std::move(r));
  }
  out.value = std::move(rules);
  return out;
}

}  // namespace roofline
