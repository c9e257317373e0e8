// Step 4, classify (docs/method.md §7): op class from override, kernel-family table, name tokens,
// profiler hint.
#include <array>

#include <fmt/format.h>

#include "core/pattern.hpp"
#include "roofline/classify.hpp"

namespace roofline {
namespace {

using detail::icontains;

struct TokenGroup {
  OpClass op_class;
  std::array<std::string_view, 19> tokens;
};

// docs/method.md §7.1, in order: first matching token wins.
constexpr std::array<TokenGroup, 4> k_token_groups{{
    {OpClass::moe, {"moe", "expert", "fused_moe", "grouped_gemm"}},
    {OpClass::attn, {"attn", "attention", "paged", "fmha", "flash", "mla", "sdpa"}},
    {OpClass::gemm, {"gemm", "gemv", "matmul", "Cijk_", "hipblaslt", "linear"}},
    {OpClass::elementwise,
     {"norm", "rms", "silu", "gelu", "act", "quant", "rope", "add", "mul", "copy", "cast", "fill",
      "elementwise", "softmax", "reduce", "memcpy", "memset"}},
}};

// Collectives are matched right after the user's overrides (docs/method.md §8.14): their names also
// contain generic tokens ("reduce", "gather") that would otherwise model them as memory-bound
// elementwise ops. The family table's comm rows go first (they name the library), then these.
constexpr std::array<std::string_view, 15> k_collective_tokens{"allreduce",
                                                               "all_reduce",
                                                               "all_gather",
                                                               "allgather",
                                                               "reduce_scatter",
                                                               "reducescatter",
                                                               "nccl",
                                                               "rccl",
                                                               "alltoall",
                                                               "all_to_all",
                                                               "all2all",
                                                               "custom_ar",
                                                               "quickreduce",
                                                               "cross_device_reduce",
                                                               "allreduce_fusion"};

std::optional<Classification> match_rules(const TopNEntry& e, const std::vector<ClassRule>& rules,
                                          std::string_view source,
                                          std::optional<OpClass> only = std::nullopt) {
  for (const ClassRule& r : rules) {
    if (only && r.op_class != *only) continue;
    for (const std::string* field : {&e.name, &e.short_name}) {
      if (detail::pattern_matches(r.pattern, *field)) {
        Classification c;
        c.op_class = r.op_class;
        c.detail = r.detail;
        c.collective = r.op_class == OpClass::comm;
        c.rule = r.line > 0 ? fmt::format("{} line {}: '{}'", source, r.line, r.pattern)
                            : fmt::format("{} '{}'", source, r.pattern);
        if (!r.description.empty() && r.line > 0) c.rule += " (" + r.description + ")";
        return c;
      }
    }
  }
  return std::nullopt;
}

Classification classify_by_rules(const TopNEntry& e, const ClassRules& rules) {
  if (auto c = match_rules(e, rules.overrides, "--classify")) return *c;
  if (auto c = match_rules(e, rules.families, "kernel_classes.tsv", OpClass::comm)) return *c;
  for (std::string_view token : k_collective_tokens) {
    if (icontains(e.name, token) || icontains(e.short_name, token)) {
      Classification c;
      c.op_class = OpClass::comm;
      c.collective = true;
      c.rule = fmt::format("collective name token '{}'", token);
      return c;
    }
  }
  if (auto c = match_rules(e, rules.families, "kernel_classes.tsv")) return *c;
  for (const TokenGroup& group : k_token_groups) {
    for (std::string_view token : group.tokens) {
      if (token.empty()) continue;
      if (icontains(e.name, token) || icontains(e.short_name, token)) {
        Classification c;
        c.op_class = group.op_class;
        c.rule = fmt::format("name token '{}'", token);
        return c;
      }
    }
  }
  const std::string& p = e.classification;
  Classification c;
  if (p == "library_gemm")
    c.op_class = OpClass::gemm;
  else if (p == "library_attn")
    c.op_class = OpClass::attn;
  else if (p == "elementwise_overhead" || p == "reduction_norm" || p == "memory")
    c.op_class = OpClass::elementwise;
  if (c.op_class != OpClass::unknown) {
    c.rule = fmt::format("profiler classification '{}'", p);
    return c;
  }
  c.rule = p.empty()
               ? "no rule matched and no profiler classification"
               : fmt::format("no rule matched; profiler classification '{}' names no op class", p);
  return c;
}

}  // namespace

Classification classify(const TopNEntry& e, const ClassRules& rules) {
  Classification c = classify_by_rules(e, rules);
  c.notes.push_back(fmt::format("op class {} by {}{}", to_string(c.op_class), c.rule,
                                c.detail.empty() ? "" : fmt::format(" [{}]", to_string(c.detail))));
  return c;
}

}  // namespace roofline
