// data/kernel_backends.tsv -> BackendRule list (who builds a kernel family; see the file's header).
#include <algorithm>
#include <array>

#include <fmt/format.h>

#include "roofline/base/text.hpp"
#include "roofline/inputs/kernel_backends.hpp"
#include "roofline/inputs/layer.hpp"
#include "roofline/inputs/pattern.hpp"

namespace roofline::inputs {
namespace {

constexpr std::array<std::string_view, 8> k_classifications{
    "library_gemm",         "library_attn",   "triton", "fused_custom",
    "elementwise_overhead", "reduction_norm", "memory", "other"};

}  // namespace

Loaded<std::vector<BackendRule>> parse_kernel_backends(std::string_view text,
                                                       const std::string& display_name) {
  Loaded<std::vector<BackendRule>> out;
  std::vector<BackendRule> rules;
  for (const TableLine& l : table_lines(text)) {
    const std::string_view line = l.text;
    std::size_t at = 0;
    const std::string_view pattern = next_word(line, at);
    if (pattern.empty() || pattern[0] == '#') continue;
    const std::string_view backend = next_word(line, at);
    const std::string_view editable = next_word(line, at);
    const std::string_view classification = next_word(line, at);
    const std::string_view hint = rest_of_line(line, at);
    BackendRule r;
    r.pattern = std::string(pattern);
    r.backend = std::string(backend);
    r.hint = std::string(hint);
    r.line = l.number;
    r.tokens = pattern_length(r.pattern);
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
                      display_name, l.number, line));
      continue;
    }
    if (classification != "-") r.classification = std::string(classification);
    rules.push_back(std::move(r));
  }
  out.value = std::move(rules);
  return out;
}

}  // namespace roofline::inputs
