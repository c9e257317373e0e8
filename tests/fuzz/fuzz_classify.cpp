// libFuzzer target: the classification order and the token rule (docs/method.md §7.1, §7.2) on
// arbitrary tables and names. Input: `FAMILIES [--8<-- NAMES [--8<-- OPS]]` (parts joined by the
// line `--8<--`; without one the whole input is both the family table and the names). FAMILIES
// is parsed as data/kernel_classes.tsv, OPS as data/kernel_ops.tsv (the shipped one when absent);
// each NAMES line is `kernel-name[<TAB>launching-op]`, classified with the parsed tables and with
// the shipped ones. Nothing may crash, hang or throw, and:
//   - a pattern without wildcards matches its own text, so as an override it decides;
//   - wrapped in stars it still matches (a leading/trailing `*` only relaxes the anchoring);
//   - every result names the rule that decided;
//   - a GEMM tile read from a name has every extent at least 8, a row-per-block count at least 1
//     with its grammar named (name_geometry.hpp).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "roofline/classify/classify.hpp"
#include "roofline/classify/name_geometry.hpp"
#include "roofline/inputs/kernel_classes.hpp"

namespace {

constexpr std::size_t k_max_rules = 128;
constexpr std::size_t k_max_names = 16;
constexpr std::size_t k_max_name_bytes = 2048;

std::vector<std::string_view> split_parts(std::string_view text) {
  std::vector<std::string_view> parts;
  constexpr std::string_view sep = "\n--8<--\n";
  for (std::size_t at = 0;;) {
    const std::size_t next = text.find(sep, at);
    parts.push_back(text.substr(at, next == std::string_view::npos ? next : next - at));
    if (next == std::string_view::npos || parts.size() == 3) break;
    at = next + sep.size();
  }
  return parts;
}

roofline::classify::TopnEntry entry_of(std::string_view line) {
  roofline::classify::TopnEntry e;
  const std::size_t tab = line.find('\t');
  e.name = std::string(line.substr(0, std::min(tab, k_max_name_bytes)));
  if (tab != std::string_view::npos) e.op = std::string(line.substr(tab + 1, k_max_name_bytes));
  e.short_name = e.name;
  return e;
}

void check(const roofline::classify::Classification& c) {
  if (c.rule.empty() || c.notes.empty()) __builtin_trap();
}

void check_geometry(std::string_view name) {
  if (const auto t = roofline::classify::name_tile(name))
    if (!(t->m >= 8 && t->n >= 8 && t->k >= 8) || t->form.empty()) __builtin_trap();
  std::string why;
  if (const auto r = roofline::classify::rows_per_block(name, why))
    if (!(*r >= 1) || why.empty()) __builtin_trap();
}

// The override invariants of the token rule for one rule's pattern.
void check_self_match(const roofline::classify::ClassRule& rule) {
  const std::string& p = rule.pattern;
  if (p.empty() || p.size() > k_max_name_bytes) return;
  if (p.find_first_of("*?") != std::string::npos) return;
  roofline::classify::ClassRules rules;
  rules.overrides = {rule};
  roofline::classify::TopnEntry e;
  e.name = p;
  if (roofline::classify::classify(e, rules).rule.rfind("--classify", 0) != 0) __builtin_trap();
  rules.overrides.front().pattern = "*" + p + "*";
  e.name = "x" + p + "y";
  if (roofline::classify::classify(e, rules).rule.rfind("--classify", 0) != 0) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::vector<std::string_view> parts = split_parts(text);
  auto families = roofline::classify::parse_kernel_classes(parts[0], "kernel_classes.tsv");
  if (!families.value) __builtin_trap();
  if (families.value->size() > k_max_rules) families.value->resize(k_max_rules);
  std::optional<std::vector<roofline::classify::ClassRule>> ops;
  if (parts.size() == 3) {
    auto loaded = roofline::classify::parse_kernel_ops(parts[2], "kernel_ops.tsv");
    if (!loaded.value) __builtin_trap();
    ops = std::move(loaded.value);
    if (ops->size() > k_max_rules) ops->resize(k_max_rules);
  }
  roofline::classify::ClassRules parsed;
  parsed.families = *families.value;
  parsed.ops = ops ? &*ops : nullptr;
  // The shipped tables once for the whole campaign, not copied per input.
  static const roofline::classify::ClassRules shipped = [] {
    roofline::classify::ClassRules r;
    r.families = roofline::classify::builtin_kernel_classes_rules();
    return r;
  }();

  const std::string_view names = parts.size() > 1 ? parts[1] : parts[0];
  std::size_t count = 0;
  for (std::size_t at = 0; at <= names.size() && count < k_max_names; ++count) {
    const std::size_t end = std::min(names.find('\n', at), names.size());
    const roofline::classify::TopnEntry e = entry_of(names.substr(at, end - at));
    at = end + 1;
    check(roofline::classify::classify(e, parsed));
    check(roofline::classify::classify(e, shipped));
    check_geometry(e.name);
  }
  for (std::size_t i = 0; i < families.value->size() && i < 16; ++i)
    check_self_match((*families.value)[i]);
  return 0;
}
