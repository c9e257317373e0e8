// The op-table reader (docs/method.md §23): binds a call's recorded arguments to its row's
// operands, reads the scalars, and dispatches to the formula; GEMM, batched GEMM and convolution
// live here, attention and the KV-cache writes in op_reading_attention.cpp, the memory-bound
// formulas in op_reading_memory.cpp.
#include <algorithm>
#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

#include "roofline/analyze/evidence/op_reading_internal.hpp"
#include "roofline/base/units.hpp"
#include "roofline/inputs/dtype.hpp"

namespace roofline::analyze {
namespace op_detail {

std::vector<const Bound*> Reader::with(ArgRole role) const {
  std::vector<const Bound*> found;
  for (const Bound& b : bound)
    if (b.spec->role == role && b.arg && (!b.arg->dims.empty() || !b.arg->list.empty()))
      found.push_back(&b);
  return found;
}

const Bound* Reader::first(ArgRole role) const {
  const auto all = with(role);
  return all.empty() ? nullptr : all.front();
}

std::optional<std::string> Reader::scalar(ScalarName name) const {
  for (const OpScalarSpec& s : row.scalars) {
    if (s.name != name) continue;
    for (const auto& [pos, text] : call.scalars)
      if (pos == s.position && !text.empty()) return text;
    if (call.positional && s.position < call.args.size() && !call.args[s.position].scalar.empty())
      return call.args[s.position].scalar;
  }
  return std::nullopt;
}

std::optional<double> Reader::number(ScalarName name) const {
  const auto text = scalar(name);
  if (!text) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(text->c_str(), &end);
  if (end == text->c_str() || !std::isfinite(v)) return std::nullopt;
  return v;
}

std::optional<bool> Reader::flag(ScalarName name) const {
  const auto text = scalar(name);
  if (!text) return std::nullopt;
  if (*text == "True" || *text == "true" || *text == "1") return true;
  if (*text == "False" || *text == "false" || *text == "0") return false;
  return std::nullopt;
}

void Reader::fail(const std::string& why) const {
  if (out.why_not.empty()) out.why_not = fmt::format("op table, {}: {}", call.op, why);
}

double elements(const std::vector<std::int64_t>& dims) {
  if (dims.empty()) return 0.0;
  double n = 1.0;
  for (auto d : dims) n *= static_cast<double>(std::max<std::int64_t>(d, 0));
  return n;
}

double arg_elements(const OpArg& a) {
  if (!a.dims.empty()) return elements(a.dims);
  double n = 0.0;
  for (const auto& t : a.list) n += elements(t);
  return n;
}

double elem_bytes(const OpArg& a, double fallback) {
  return recorded_dtype_bytes(a.dtype).value_or(fallback);
}

std::string dtype_key(const std::string& spelling) {
  const auto d = parse_dtype(spelling);
  return d ? std::string(d->key.str()) : std::string();
}

std::string dims_text(const std::vector<std::int64_t>& dims) {
  std::string s = "[";
  for (std::size_t i = 0; i < dims.size(); ++i) s += fmt::format("{}{}", i ? ", " : "", dims[i]);
  return s + "]";
}

}  // namespace op_detail

namespace {

using op_detail::Bound;
using op_detail::Reader;

// The row's operands bound to the call's arguments: by position, or (not positional) the
// recorded tensors in order onto the operands in order.
bool bind(const OpCall& call, const OpRow& row, std::vector<Bound>& bound, std::string& why) {
  std::vector<const OpArg*> tensors;
  if (!call.positional)
    for (const OpArg& a : call.args)
      if (!a.dims.empty() || !a.list.empty()) tensors.push_back(&a);
  if (row.formula == OpFormula::kernel_args) return true;  // every recorded tensor, unbound
  if (!call.positional && tensors.size() > row.args.size()) {
    why = fmt::format("{} tensors recorded, the row names {} operands", tensors.size(),
                      row.args.size());
    return false;
  }
  for (std::size_t i = 0; i < row.args.size(); ++i) {
    const OpArgSpec& s = row.args[i];
    const OpArg* a = nullptr;
    if (call.positional && s.position < call.args.size()) a = &call.args[s.position];
    if (!call.positional && i < tensors.size()) a = tensors[i];
    bound.push_back(Bound{&s, a});
  }
  return true;
}

void dispatch(Reader& r) {
  using F = OpFormula;
  switch (r.row.formula) {
    case F::gemm:
      return op_detail::read_gemm(r);
    case F::bmm:
      return op_detail::read_bmm(r);
    case F::conv:
      return op_detail::read_conv(r);
    case F::attention:
      return op_detail::read_attention(r);
    case F::kv_write:
      return op_detail::read_kv_write(r);
    case F::kernel_args:
      return op_detail::read_kernel_args(r);
    case F::moe:
      return r.fail(
          "the MoE layer op records the hidden states and router logits only: its expert weights "
          "come from the MoE model");
    default:
      return op_detail::read_memory(r);
  }
}

}  // namespace

std::optional<double> recorded_dtype_bytes(const std::string& spelling) {
  // A packed container (`c10::Float4_e2m1fn_x2`): one recorded element is one byte of two values.
  if (spelling.size() > 3 && spelling.compare(spelling.size() - 3, 3, "_x2") == 0) return 1.0;
  if (auto d = parse_dtype(spelling)) return d->bytes;
  for (const char* s : {"long int", "long long int", "unsigned long", "long unsigned int"})
    if (spelling == s) return 8.0;
  if (spelling == "short int" || spelling == "unsigned short") return 2.0;
  if (spelling == "unsigned int") return 4.0;
  return std::nullopt;
}

OpReading read_op_call(const OpCall& call, const std::vector<OpRow>& table) {
  OpReading out;
  out.row = find_op_row(table, call.op);
  if (!out.row) {
    out.why_not = fmt::format("the op table lacks '{}': the rules without it apply", call.op);
    return out;
  }
  std::string why;
  Reader r{call, *out.row, {}, out};
  if (!bind(call, *out.row, r.bound, why)) {
    r.fail(why);
    return out;
  }
  dispatch(r);
  out.read = out.why_not.empty() && std::isfinite(out.bytes) && std::isfinite(out.flops) &&
             out.bytes >= 0 && out.flops >= 0;
  if (!out.read && out.why_not.empty()) r.fail("a negative or non-finite byte or FLOP count");
  if (out.read) {
    out.notes.insert(out.notes.begin(),
                     fmt::format("op table: '{}' ({} formula, data/op_table.tsv line {})", call.op,
                                 to_string(out.row->formula), out.row->line));
  }
  return out;
}

std::vector<GemmReading> recorded_gemms(const TopnEntry& e) {
  std::vector<GemmReading> out;
  if (e.op.empty()) return out;
  const OpRow* row = find_op_row(builtin_op_table(), e.op);
  if (!row || row->formula != OpFormula::gemm) return out;
  std::vector<std::vector<std::vector<std::int64_t>>> sigs = e.signatures;
  if (sigs.empty() && !e.shapes.empty()) sigs.push_back(e.shapes);
  for (const auto& sig : sigs) {
    OpCall call{e.op, {}, false, {}};
    for (const auto& dims : sig) call.args.push_back(OpArg{dims, {}, "c10::BFloat16", ""});
    const OpReading r = read_op_call(call);
    if (r.read && r.gemm) out.push_back(*r.gemm);
  }
  return out;
}

}  // namespace roofline::analyze
