// Step 4, classify (docs/method.md §7): op class from override, kernel-family table, launching op,
// name tokens, profiler hint; every pattern by the token rule of §7.2.
#include <array>
#include <string_view>

#include <fmt/format.h>

#include "roofline/classify/classify.hpp"
#include "roofline/classify/layer.hpp"
#include "roofline/classify/name_dtypes.hpp"
#include "roofline/inputs/kernel_classes.hpp"
#include "roofline/inputs/pattern.hpp"

namespace roofline::classify {
namespace {

struct TokenGroup {
  OpClass op_class;
  std::array<std::string_view, 17> tokens;
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

// docs/method.md §7.1: side work a GEMM, MoE or attention op launches besides its own (a split-K
// reduction, a memset, a bias epilogue, MoE routing): a kernel no family row names, with one of
// these tokens and no MoE, attention or GEMM name token, is this elementwise kind, not the op's
// class.
struct HelperToken {
  std::string_view token;
  ElementwiseKind kind;
};
constexpr std::array<HelperToken, 19> k_helper_tokens{{
    {"reduce", ElementwiseKind::reduce},   {"combine", ElementwiseKind::reduce},
    {"finalize", ElementwiseKind::reduce}, {"epilogue", ElementwiseKind::unnamed},
    {"memset", ElementwiseKind::fill},     {"fill", ElementwiseKind::fill},
    {"memcpy", ElementwiseKind::copy},     {"copy", ElementwiseKind::copy},
    {"cast", ElementwiseKind::cast},       {"quant", ElementwiseKind::quant},
    {"norm", ElementwiseKind::norm},       {"routing", ElementwiseKind::index},
    {"sort", ElementwiseKind::index},      {"align", ElementwiseKind::index},
    {"scatter", ElementwiseKind::index},   {"gather", ElementwiseKind::index},
    {"permute", ElementwiseKind::index},   {"topk", ElementwiseKind::softmax},
    {"softmax", ElementwiseKind::softmax},
}};
// Under an attention op these name the split-KV reduction (docs/method.md §8.11): the attention
// family's decode_reduce, not elementwise work.
constexpr std::array<std::string_view, 3> k_attn_reduce_tokens{"reduce", "combine", "merge"};

// The mangled name too where its demangled form lost the template arguments (read from the `_Z`
// prefix only): a family named inside them (`cutlass::Kernel<…MoeFCGemm…>`) is still seen.
bool any_matches(const TopnEntry& e, std::string_view pattern) {
  const bool lost_templates = !e.demangled.empty() && e.name.rfind("_Z", 0) == 0 &&
                              e.demangled.find('<') == std::string::npos;
  const std::string& name = detail::matched_name(e);
  if (!name.empty() && pattern_matches(pattern, name)) return true;
  // The short name, unless it is the name itself (often: a name without namespace or template).
  if (!e.short_name.empty() && e.short_name != name && pattern_matches(pattern, e.short_name))
    return true;
  return lost_templates && pattern_matches(pattern, e.name);
}

Classification from_rule(const ClassRule& r, std::string_view source) {
  Classification c;
  c.op_class = r.op_class;
  c.detail = r.detail;
  c.collective = r.op_class == OpClass::comm;
  c.rule = r.line > 0 ? fmt::format("{} line {}: '{}'", source, r.line, r.pattern)
                      : fmt::format("{} '{}'", source, r.pattern);
  if (!r.description.empty() && r.line > 0) c.rule += " (" + r.description + ")";
  return c;
}

// The user's overrides, in the order given: the first that matches wins.
std::optional<Classification> first_override(const TopnEntry& e, const ClassRules& rules) {
  for (const ClassRule& r : rules.overrides)
    if (any_matches(e, r.pattern)) return from_rule(r, "--classify");
  return std::nullopt;
}

// The family table's comm rows (`comm`) or its other rows: the longest matching pattern wins.
std::optional<Classification> family(const TopnEntry& e, const ClassRules& rules, bool comm) {
  const std::span<const ClassRule> f = rules.families;
  const ClassRule* r = longest_match(
      f.data(), f.data() + f.size(), {detail::matched_name(e), e.short_name},
      [comm](const ClassRule& rule) { return (rule.op_class == OpClass::comm) == comm; });
  if (!r) return std::nullopt;
  return from_rule(*r, "kernel_classes.tsv");
}

// Inductor's generated pointwise and reduction kernels (`triton_{poi,red,per}_*`, docs/method.md
// §7.2) are elementwise work whatever ops their fused body names (`moe_forward`, `all_reduce`,
// `attention`): only the elementwise rows may refine their kind.
bool inductor_elementwise(const TopnEntry& e) {
  for (std::string_view n : {std::string_view(e.name), std::string_view(e.short_name)})
    for (std::string_view p : {"triton_poi_", "triton_red_", "triton_per_", "triton_for_"})
      if (n.substr(0, p.size()) == p) return true;
  return false;
}

std::optional<Classification> inductor_family(const TopnEntry& e, const ClassRules& rules) {
  const std::span<const ClassRule> f = rules.families;
  const ClassRule* r =
      longest_match(f.data(), f.data() + f.size(), {detail::matched_name(e), e.short_name},
                    [](const ClassRule& rule) { return rule.op_class == OpClass::elementwise; });
  if (!r) return std::nullopt;
  return from_rule(*r, "kernel_classes.tsv");
}

std::optional<Classification> collective_token(const TopnEntry& e) {
  for (std::string_view token : k_collective_tokens)
    if (any_matches(e, token)) {
      Classification c;
      c.op_class = OpClass::comm;
      c.collective = true;
      c.rule = fmt::format("collective name token '{}'", token);
      return c;
    }
  return std::nullopt;
}

// A MoE, attention or GEMM name token: the kernel does its op's own work.
bool names_main_work(const TopnEntry& e) {
  for (std::size_t g = 0; g + 1 < k_token_groups.size(); ++g)
    for (std::string_view token : k_token_groups[g].tokens)
      if (!token.empty() && any_matches(e, token)) return true;
  return false;
}

// A helper kernel of its launching op (docs/method.md §7.1): the class it keeps, or nullopt when
// the kernel does the op's own work. `where` names the op's table row.
std::optional<Classification> helper_of_op(const TopnEntry& e, const ClassRule& op,
                                           const std::string& where) {
  Classification c;
  if (op.op_class == OpClass::attn)
    for (std::string_view t : k_attn_reduce_tokens)
      if (any_matches(e, t)) {
        c.op_class = OpClass::attn;
        c.detail.attn = AttnVariant::decode_reduce;
        c.rule =
            fmt::format("name token '{}' under the attention op '{}' ({}): the split-KV reduction",
                        t, e.op, where);
        return c;
      }
  const bool main_class =
      op.op_class == OpClass::gemm || op.op_class == OpClass::moe || op.op_class == OpClass::attn;
  if (!main_class || names_main_work(e)) return std::nullopt;
  for (const HelperToken& h : k_helper_tokens)
    if (any_matches(e, h.token)) {
      c.op_class = OpClass::elementwise;
      c.detail.elementwise = h.kind;
      c.rule = fmt::format(
          "name token '{}' of a helper kernel of the launching op '{}' ({}: {}): side work, "
          "not the op's own",
          h.token, e.op, where, to_string(op.op_class));
      return c;
    }
  return std::nullopt;
}

// docs/method.md §7.1 rule 5: the op that launched the kernel, by data/kernel_ops.tsv.
std::optional<Classification> launching_op(const TopnEntry& e, const ClassRules& rules) {
  if (e.op.empty()) return std::nullopt;
  const std::vector<ClassRule>& ops = rules.ops ? *rules.ops : builtin_kernel_ops_rules();
  const ClassRule* r = longest_match(ops.data(), ops.data() + ops.size(), {e.op},
                                     [](const ClassRule&) { return true; });
  if (!r) return std::nullopt;
  const std::string where = fmt::format("kernel_ops.tsv line {}: '{}'", r->line, r->pattern);
  if (auto helper = helper_of_op(e, *r, where)) return helper;
  Classification c = from_rule(*r, "");
  c.rule = fmt::format("launching op '{}' ({}{})", e.op, where,
                       r->description.empty() ? "" : ", " + r->description);
  return c;
}

std::optional<Classification> name_token(const TopnEntry& e) {
  for (const TokenGroup& group : k_token_groups)
    for (std::string_view token : group.tokens) {
      if (token.empty() || !any_matches(e, token)) continue;
      Classification c;
      c.op_class = group.op_class;
      c.rule = fmt::format("name token '{}'", token);
      return c;
    }
  return std::nullopt;
}

Classification by_profiler(const TopnEntry& e) {
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

Classification classify_by_rules(const TopnEntry& e, const ClassRules& rules) {
  if (auto c = first_override(e, rules)) return *c;
  if (inductor_elementwise(e))
    if (auto c = inductor_family(e, rules)) return *c;
  if (auto c = family(e, rules, true)) return *c;
  if (auto c = collective_token(e)) return *c;
  if (auto c = family(e, rules, false)) return *c;
  if (auto c = launching_op(e, rules)) return *c;
  if (auto c = name_token(e)) return *c;
  return by_profiler(e);
}

}  // namespace

Classification classify(const TopnEntry& e, const ClassRules& rules) {
  Classification c = classify_by_rules(e, rules);
  c.notes.push_back(fmt::format("op class {} by {}{}", to_string(c.op_class), c.rule,
                                c.detail.empty() ? "" : fmt::format(" [{}]", to_string(c.detail))));
  detail::read_name_dtypes(e, c);
  return c;
}

}  // namespace roofline::classify
