// data/op_table.tsv -> OpRow list (docs/method.md §23.1; see the file's header).
#include <algorithm>
#include <array>
#include <charconv>
#include <map>
#include <utility>

#include <fmt/format.h>

#include "roofline/base/text.hpp"
#include "roofline/inputs/op_table.hpp"

namespace roofline::inputs {
namespace {

template <class E, std::size_t N>
using Names = std::array<std::pair<E, const char*>, N>;

constexpr Names<ArgRole, 16> k_roles{{{ArgRole::in, "in"},
                                      {ArgRole::out, "out"},
                                      {ArgRole::inout, "inout"},
                                      {ArgRole::weight, "weight"},
                                      {ArgRole::bias, "bias"},
                                      {ArgRole::scale, "scale"},
                                      {ArgRole::index, "index"},
                                      {ArgRole::logits, "logits"},
                                      {ArgRole::q, "q"},
                                      {ArgRole::k, "k"},
                                      {ArgRole::v, "v"},
                                      {ArgRole::kv_cache, "kv_cache"},
                                      {ArgRole::table, "table"},
                                      {ArgRole::workspace, "workspace"},
                                      {ArgRole::meta, "meta"},
                                      {ArgRole::cu_seqlens_q, "cu_seqlens_q"}}};

constexpr Names<ArgLayout, 18> k_layouts{{{ArgLayout::any, "any"},
                                          {ArgLayout::MK, "MK"},
                                          {ArgLayout::MK2, "MK2"},
                                          {ArgLayout::KN, "KN"},
                                          {ArgLayout::NK, "NK"},
                                          {ArgLayout::NK2, "NK2"},
                                          {ArgLayout::MN, "MN"},
                                          {ArgLayout::BMK, "BMK"},
                                          {ArgLayout::BKN, "BKN"},
                                          {ArgLayout::BNK, "BNK"},
                                          {ArgLayout::BMN, "BMN"},
                                          {ArgLayout::N, "N"},
                                          {ArgLayout::THD, "THD"},
                                          {ArgLayout::BSHD, "BSHD"},
                                          {ArgLayout::BHSD, "BHSD"},
                                          {ArgLayout::paged, "paged"},
                                          {ArgLayout::NCHW, "NCHW"},
                                          {ArgLayout::KCRS, "KCRS"}}};

constexpr Names<OpFormula, 15> k_formulas{{{OpFormula::gemm, "gemm"},
                                           {OpFormula::bmm, "bmm"},
                                           {OpFormula::attention, "attention"},
                                           {OpFormula::kv_write, "kv_write"},
                                           {OpFormula::moe, "moe"},
                                           {OpFormula::glu, "glu"},
                                           {OpFormula::norm, "norm"},
                                           {OpFormula::rotary, "rotary"},
                                           {OpFormula::gather, "gather"},
                                           {OpFormula::copy, "copy"},
                                           {OpFormula::elementwise, "elementwise"},
                                           {OpFormula::quant, "quant"},
                                           {OpFormula::routing, "routing"},
                                           {OpFormula::conv, "conv"},
                                           {OpFormula::kernel_args, "kernel_args"}}};

constexpr Names<ScalarName, 11> k_scalars{{{ScalarName::max_seqlen_q, "max_seqlen_q"},
                                           {ScalarName::max_seqlen_k, "max_seqlen_k"},
                                           {ScalarName::causal, "causal"},
                                           {ScalarName::scale, "scale"},
                                           {ScalarName::window_left, "window_left"},
                                           {ScalarName::window_right, "window_right"},
                                           {ScalarName::dim, "dim"},
                                           {ScalarName::stride, "stride"},
                                           {ScalarName::padding, "padding"},
                                           {ScalarName::dilation, "dilation"},
                                           {ScalarName::groups, "groups"}}};

template <class E, std::size_t N>
const char* name_of(const Names<E, N>& names, E value) {
  for (const auto& [v, n] : names)
    if (v == value) return n;
  return "";
}

template <class E, std::size_t N>
std::optional<E> value_of(const Names<E, N>& names, std::string_view text) {
  for (const auto& [v, n] : names)
    if (text == n) return v;
  return std::nullopt;
}

// The comma-separated items of a column ('-' = none).
std::vector<std::string_view> items(std::string_view column) {
  std::vector<std::string_view> out;
  if (column == "-") return out;
  std::size_t at = 0;
  while (at <= column.size()) {
    const std::size_t comma = std::min(column.find(',', at), column.size());
    out.push_back(column.substr(at, comma - at));
    at = comma + 1;
  }
  return out;
}

std::optional<std::size_t> position(std::string_view text) {
  std::size_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty() || v > 64)
    return std::nullopt;
  return v;
}

// `pos:role[:layout]`; the error names what is wrong.
std::optional<OpArgSpec> arg_spec(std::string_view item, std::string& error) {
  const std::size_t c1 = item.find(':');
  const std::size_t c2 = c1 == std::string_view::npos ? c1 : item.find(':', c1 + 1);
  const auto pos = position(item.substr(0, c1));
  const std::string_view role_text =
      c1 == std::string_view::npos ? std::string_view() : item.substr(c1 + 1, c2 - c1 - 1);
  const auto role = value_of(k_roles, role_text);
  const auto layout = c2 == std::string_view::npos ? std::optional<ArgLayout>(ArgLayout::any)
                                                   : value_of(k_layouts, item.substr(c2 + 1));
  if (!pos || !role || !layout) {
    error = fmt::format("operand '{}' is not pos:role[:layout] with a known role and layout", item);
    return std::nullopt;
  }
  return OpArgSpec{*pos, *role, *layout};
}

std::optional<OpScalarSpec> scalar_spec(std::string_view item, std::string& error) {
  const std::size_t at = item.find('@');
  const auto name = value_of(k_scalars, item.substr(0, at));
  const auto pos = at == std::string_view::npos ? std::nullopt : position(item.substr(at + 1));
  if (!name || !pos) {
    error = fmt::format("scalar '{}' is not name@pos with a known name", item);
    return std::nullopt;
  }
  return OpScalarSpec{*name, *pos};
}

bool has(const OpRow& r, ArgRole role, std::initializer_list<ArgLayout> layouts) {
  return std::any_of(r.args.begin(), r.args.end(), [&](const OpArgSpec& a) {
    return a.role == role && std::find(layouts.begin(), layouts.end(), a.layout) != layouts.end();
  });
}

// What a formula needs to read its operands; "" when the row gives it.
std::string formula_needs(const OpRow& r) {
  using L = ArgLayout;
  switch (r.formula) {
    case OpFormula::gemm:
      return has(r, ArgRole::in, {L::MK, L::MK2}) && has(r, ArgRole::weight, {L::KN, L::NK, L::NK2})
                 ? ""
                 : "gemm needs an in:MK (or MK2) and a weight:KN, NK (or NK2) operand";
    case OpFormula::bmm:
      return has(r, ArgRole::in, {L::BMK}) && has(r, ArgRole::weight, {L::BKN, L::BNK})
                 ? ""
                 : "bmm needs an in:BMK and a weight:BKN or weight:BNK operand";
    case OpFormula::attention:
      return has(r, ArgRole::q, {L::THD, L::BSHD, L::BHSD}) &&
                     has(r, ArgRole::k, {L::THD, L::BSHD, L::BHSD, L::paged}) &&
                     has(r, ArgRole::v, {L::THD, L::BSHD, L::BHSD, L::paged})
                 ? ""
                 : "attention needs q (THD, BSHD or BHSD), k and v operands";
    case OpFormula::kv_write:
      return has(r, ArgRole::k, {L::THD}) && has(r, ArgRole::v, {L::THD})
                 ? ""
                 : "kv_write needs the new tokens' k:THD and v:THD";
    case OpFormula::conv:
      return has(r, ArgRole::in, {L::NCHW}) && has(r, ArgRole::weight, {L::KCRS})
                 ? ""
                 : "conv needs an in:NCHW and a weight:KCRS operand";
    default:
      return "";
  }
}

// The columns after the op, read into `row`; "" or what is wrong.
std::string read_row(std::string_view line, std::size_t at, OpRow& row) {
  const std::string_view cls = next_word(line, at), formula = next_word(line, at);
  const std::string_view operands = next_word(line, at), scalars = next_word(line, at);
  if (scalars.empty()) return "expected 'op class formula operands scalars'";
  const auto c = parse_op_class(cls);
  const auto f = value_of(k_formulas, formula);
  if (!c) return fmt::format("unknown class '{}'", cls);
  if (!f) return fmt::format("unknown formula '{}'", formula);
  row.op_class = *c;
  row.formula = *f;
  std::string error;
  for (std::string_view item : items(operands)) {
    auto a = arg_spec(item, error);
    if (!a) return error;
    if (!row.args.empty() && row.args.back().position >= a->position)
      return fmt::format("operand '{}': positions must ascend, each once", item);
    row.args.push_back(*a);
  }
  for (std::string_view item : items(scalars)) {
    auto s = scalar_spec(item, error);
    if (!s) return error;
    for (const OpArgSpec& a : row.args)
      if (a.position == s->position)
        return fmt::format("scalar '{}' sits at an operand's position", item);
    row.scalars.push_back(*s);
  }
  if (!rest_of_line(line, at).empty()) return "unexpected text after the scalars column";
  return formula_needs(row);
}

}  // namespace

const char* to_string(ArgRole r) {
  return name_of(k_roles, r);
}
const char* to_string(ArgLayout l) {
  return name_of(k_layouts, l);
}
const char* to_string(OpFormula f) {
  return name_of(k_formulas, f);
}
const char* to_string(ScalarName s) {
  return name_of(k_scalars, s);
}

Loaded<std::vector<OpRow>> parse_op_table(std::string_view text, const std::string& display_name) {
  Loaded<std::vector<OpRow>> out;
  std::vector<OpRow> rows;
  std::map<std::string, int> seen;
  for (const TableLine& l : table_lines(text)) {
    std::size_t at = 0;
    const std::string_view op = next_word(l.text, at);
    if (op.empty() || op[0] == '#') continue;
    OpRow row;
    row.op = std::string(op);
    row.line = l.number;
    std::string problem = read_row(l.text, at, row);
    if (problem.empty())
      if (auto [it, fresh] = seen.emplace(row.op, l.number); !fresh)
        problem = fmt::format("op '{}' repeats line {}", row.op, it->second);
    if (!problem.empty()) {
      out.errors.push_back(fmt::format("{}:{}: {}", display_name, l.number, problem));
      continue;
    }
    rows.push_back(std::move(row));
  }
  out.value = std::move(rows);
  return out;
}

const OpRow* find_op_row(const std::vector<OpRow>& table, std::string_view op) {
  const OpRow* best = nullptr;
  for (const OpRow& r : table) {
    if (r.op == op) return &r;
    if (r.op.size() >= 2 && r.op.back() == '*') {
      const std::string_view prefix = std::string_view(r.op).substr(0, r.op.size() - 1);
      if (op.substr(0, prefix.size()) == prefix && (!best || best->op.size() < r.op.size()))
        best = &r;
    }
  }
  return best;
}

}  // namespace roofline::inputs
