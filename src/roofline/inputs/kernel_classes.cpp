#include "roofline/inputs/kernel_classes.hpp"

#include <fmt/format.h>

#include "roofline/base/text.hpp"
#include "roofline/base/units.hpp"
#include "roofline/inputs/layer.hpp"
#include "roofline/inputs/pattern.hpp"

namespace roofline::inputs {
namespace {

// The value of the closed set `E` (values 1..last) whose spelling is `word`.
template <class E>
std::optional<E> spelled(std::string_view word, E last) {
  for (int i = 1; i <= static_cast<int>(last); ++i)
    if (word == to_string(static_cast<E>(i))) return static_cast<E>(i);
  return std::nullopt;
}

// "a, b or c" from the spellings of E's values 1..last.
template <class E>
std::string spellings(E last) {
  std::string out;
  for (int i = 1; i <= static_cast<int>(last); ++i)
    out += fmt::format("{}{}",
                       i == 1                        ? ""
                       : i == static_cast<int>(last) ? " or "
                                                     : ", ",
                       to_string(static_cast<E>(i)));
  return out;
}

// MoE: a stage and the +all / +shared / +onchip flags in any order, each at most once; +onchip
// only on both stages.
bool parse_moe_detail(std::string_view text, MoeDetail& moe) {
  std::size_t pos = 0;
  bool all = false, shared = false, onchip = false;
  while (pos <= text.size()) {
    const std::size_t end = std::min(text.find('+', pos), text.size());
    const std::string_view part = text.substr(pos, end - pos);
    pos = end + 1;
    if (part == "all" && !all) {
      all = moe.stream_all = true;
    } else if (part == "shared" && !shared) {
      shared = moe.fused_shared = true;
    } else if (part == "onchip" && !onchip) {
      onchip = moe.onchip = true;
    } else if (auto s = spelled(part, MoeStage::both); s && moe.stage == MoeStage::unnamed) {
      moe.stage = *s;
    } else {
      return false;
    }
  }
  return !moe.onchip || moe.stage == MoeStage::both;
}

// Linear attention and state-space layers share one role set; each class accepts its own.
bool state_role_fits(OpClass cls, StateRole r) {
  switch (r) {
    case StateRole::gdn:
    case StateRole::kda:
    case StateRole::lightning:
    case StateRole::conv:
    case StateRole::conv_prefill:
      return cls == OpClass::linear_attn;
    case StateRole::update:
    case StateRole::mamba1:
    case StateRole::mamba2:
      return cls == OpClass::ssm;
    case StateRole::prefill:
      return true;
    case StateRole::unnamed:
      break;
  }
  return false;
}

// "moe:stage1" -> (moe, stage1); nullopt for an unknown class (`error` left empty) or a detail the
// class does not accept (`error` says which and what it accepts).
std::optional<std::pair<OpClass, ClassDetail>> parse_class_spec(std::string_view spec,
                                                                std::string& error) {
  std::string s = lower_ascii(trim(spec));
  std::string detail_part;
  if (auto colon = s.find(':'); colon != std::string::npos) {
    detail_part = s.substr(colon + 1);
    s.erase(colon);
  }
  auto cls = parse_op_class(s);
  if (!cls) return std::nullopt;
  auto detail = parse_class_detail(*cls, detail_part, error);
  if (!detail) return std::nullopt;
  return std::pair{*cls, *detail};
}

}  // namespace

std::string accepted_details(OpClass cls) {
  switch (cls) {
    case OpClass::moe:
      return fmt::format("{}, optionally +all, +shared and (both only) +onchip (e.g. both+all)",
                         spellings(MoeStage::both));
    case OpClass::attn:
      return spellings(AttnVariant::indexer);
    case OpClass::linear_attn:
      return "gdn, kda, lightning, conv, prefill or conv_prefill";
    case OpClass::ssm:
      return "update, mamba1, mamba2 or prefill";
    case OpClass::comm:
      return spellings(CommAlgorithm::twoshot);
    case OpClass::elementwise:
      return spellings(ElementwiseKind::index) +
             ", optionally +rows (one block per row: grid.x is the rows)";
    case OpClass::unknown:
      return spellings(UnknownDetail::sampling);
    case OpClass::gemm:
      return spellings(GemmKind::conv);
  }
  return "no detail";
}

std::optional<ClassDetail> parse_class_detail(OpClass cls, std::string_view text,
                                              std::string& error) {
  ClassDetail d;
  if (text.empty()) return d;
  bool ok = false;
  switch (cls) {
    case OpClass::moe:
      ok = parse_moe_detail(text, d.moe);
      break;
    case OpClass::attn:
      if (auto v = spelled(text, AttnVariant::indexer)) ok = true, d.attn = *v;
      break;
    case OpClass::linear_attn:
    case OpClass::ssm:
      if (auto r = spelled(text, StateRole::mamba2); r && state_role_fits(cls, *r))
        ok = true, d.state = *r;
      break;
    case OpClass::comm:
      if (auto a = spelled(text, CommAlgorithm::twoshot)) ok = true, d.comm = *a;
      break;
    case OpClass::elementwise: {
      const std::size_t plus = text.find('+');
      const bool rows = plus != std::string_view::npos && text.substr(plus) == "+rows";
      if (auto k = spelled(text.substr(0, rows ? plus : text.size()), ElementwiseKind::index))
        ok = true, d.elementwise = *k, d.row_blocks = rows;
      break;
    }
    case OpClass::unknown:
      if (auto u = spelled(text, UnknownDetail::sampling)) ok = true, d.unknown = *u;
      break;
    case OpClass::gemm:
      if (auto k = spelled(text, GemmKind::conv)) ok = true, d.gemm = *k;
      break;
  }
  if (ok) return d;
  error = fmt::format("unknown detail '{}' for class {} (accepted: {})", text, to_string(cls),
                      accepted_details(cls));
  return std::nullopt;
}

namespace {

// One rule per non-comment line, `pattern class[:detail] description...`: the grammar of both
// kernel_classes.tsv and kernel_ops.tsv.
Loaded<std::vector<ClassRule>> parse_rule_table(std::string_view text,
                                                const std::string& display_name) {
  Loaded<std::vector<ClassRule>> out;
  std::vector<ClassRule> rules;
  for (const TableLine& line : table_lines(text)) {
    const std::string t = trim(line.text);
    if (t.empty() || t[0] == '#') continue;
    // pattern, class[:detail], then the rest of the line as the description
    std::size_t at = 0;
    const std::string pattern(next_word(t, at));
    const std::string spec(next_word(t, at));
    const std::string description(rest_of_line(t, at));
    std::string error;
    auto cls = parse_class_spec(spec, error);
    if (pattern.empty() || spec.empty() || !cls) {
      out.errors.push_back(
          fmt::format("{}:{}: expected 'pattern class[:detail] description'{}, got '{}'",
                      display_name, line.number, error.empty() ? "" : " (" + error + ")", t));
      continue;
    }
    rules.push_back(ClassRule{pattern, cls->first, cls->second, description, line.number,
                              pattern_length(pattern)});
  }
  out.value = std::move(rules);
  return out;
}

}  // namespace

Loaded<std::vector<ClassRule>> parse_kernel_classes(std::string_view text,
                                                    const std::string& display_name) {
  return parse_rule_table(text, display_name);
}

Loaded<std::vector<ClassRule>> parse_kernel_ops(std::string_view text,
                                                const std::string& display_name) {
  return parse_rule_table(text, display_name);
}

std::optional<ClassRule> parse_classify_override(std::string_view spec, std::string& error) {
  auto eq = spec.rfind('=');
  if (eq == std::string_view::npos || eq == 0) {
    error = fmt::format(
        "--classify '{}': expected PATTERN=CLASS (CLASS one of gemm, moe, attn, linear_attn, "
        "ssm, comm, elementwise, unknown; optionally CLASS:detail)",
        spec);
    return std::nullopt;
  }
  std::string why;
  auto cls = parse_class_spec(spec.substr(eq + 1), why);
  if (!cls) {
    error = !why.empty() ? fmt::format("--classify '{}': {}", spec, why)
                         : fmt::format(
                               "--classify '{}': unknown class '{}' (expected gemm, moe, attn, "
                               "linear_attn, ssm, comm, elementwise or unknown)",
                               spec, spec.substr(eq + 1));
    return std::nullopt;
  }
  return ClassRule{std::string(spec.substr(0, eq)), cls->first, cls->second, "--classify override",
                   0};
}

}  // namespace roofline::inputs
