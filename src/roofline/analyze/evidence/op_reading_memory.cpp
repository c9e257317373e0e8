// The op table's memory-bound formulas (docs/method.md §23.4): activations, norms, rotary,
// gathers, copies, generic elementwise ops, quantization and routing — each recorded operand
// read or written once by its role, a table read only in the rows the index gathers; FLOPs ≈ the
// elements of the largest operand.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "roofline/analyze/evidence/op_reading_internal.hpp"
#include "roofline/base/units.hpp"

namespace roofline::analyze::op_detail {
namespace {

struct Traffic {
  double read = 0, written = 0, largest = 0;
  double first_in_bytes = 0, first_in_elems = 0;
  std::vector<Term> parts;
};

void add(Traffic& t, const Bound& b, bool read, bool written) {
  const double n = arg_elements(*b.arg), e = elem_bytes(*b.arg, 2.0);
  t.largest = std::max(t.largest, n);
  const std::string label = fmt::format("{} {}", to_string(b.spec->role),
                                        b.arg->dims.empty() ? "[list]" : dims_text(b.arg->dims));
  if (read) t.read += n * e;
  if (written) t.written += n * e;
  if (read || written)
    t.parts.push_back(
        part(label + (read && written ? " ×2" : ""), n * e * ((read ? 1 : 0) + (written ? 1 : 0))));
}

// The rows of `table` that `index` gathers: index elements × the table's row.
bool gathered_rows(Reader& r, Traffic& t) {
  const Bound *table = r.first(ArgRole::table), *index = r.first(ArgRole::index);
  if (!table) return true;
  if (!index || table->arg->dims.empty() || table->arg->dims[0] <= 0) {
    r.fail("a gathered table needs its index recorded");
    return false;
  }
  if (auto dim = r.number(ScalarName::dim); dim && *dim != 0) {
    r.fail(fmt::format("gathers along dim {}: only rows (dim 0) are read", format_g(*dim)));
    return false;
  }
  const double rows = arg_elements(*index->arg);
  const double row = elements(table->arg->dims) / static_cast<double>(table->arg->dims[0]);
  const double bytes = rows * row * elem_bytes(*table->arg, 2.0);
  t.read += bytes;
  t.largest = std::max(t.largest, rows * row);
  t.parts.push_back(
      part(fmt::format("{} rows of table {} gathered", format_g(rows), dims_text(table->arg->dims)),
           bytes));
  if (r.row.formula == OpFormula::gather && !r.first(ArgRole::out)) {  // written out
    t.written += bytes;
    t.parts.push_back(part("the gathered rows written", bytes));
  }
  return true;
}

// The output an op returns without recording it: the size of its largest (first, for a norm)
// input, at that input's dtype; none when an out or inout operand is recorded.
void implicit_output(Reader& r, Traffic& t) {
  if (r.first(ArgRole::out) || r.first(ArgRole::inout) || r.row.formula == OpFormula::gather)
    return;
  double elems = 0, bytes = 0;
  for (const Bound* b : r.with(ArgRole::in)) {
    const double n = arg_elements(*b->arg), e = elem_bytes(*b->arg, 2.0);
    if (r.row.formula == OpFormula::copy) {
      elems += n, bytes += n * e;  // a copy or concatenation writes what it read
    } else if (n > elems) {
      elems = n, bytes = n * e;
    }
    if (r.row.formula == OpFormula::norm || r.row.formula == OpFormula::glu) break;
  }
  if (r.row.formula == OpFormula::glu) elems /= 2, bytes /= 2;  // [T, 2I] -> [T, I]
  if (bytes <= 0) return;
  t.written += bytes;
  t.parts.push_back(part("output (returned, not recorded)", bytes));
}

bool integer_dtype(const std::string& spelling) {
  for (const char* s : {"long int", "long long int", "int", "unsigned int", "long unsigned int",
                        "unsigned long", "short int", "c10::Long", "c10::Int", "int64", "int32"})
    if (spelling == s) return true;
  return false;
}

// A generated kernel that takes an integer tensor may gather rows of a table through it (a rotary
// cos/sin cache by positions, an embedding by token ids): then that tensor is read only as far as
// the index reaches — index elements × one row. A table has more rows than the index has
// elements; of those, the largest is taken. The names do not say whether it is gathered, so both
// readings stand (docs/method.md §23.7).
void gathered_alternative(const OpCall& call, OpReading& out) {
  const OpArg *index = nullptr, *table = nullptr;
  double others = 0, table_bytes = 0;
  for (const OpArg& a : call.args)
    if (!a.dims.empty() && integer_dtype(a.dtype) &&
        (!index || arg_elements(a) > arg_elements(*index)))
      index = &a;
  if (!index || !(arg_elements(*index) > 0)) return;
  for (const OpArg& a : call.args) {
    const double bytes = arg_elements(a) * elem_bytes(a, 2.0);
    if (a.dims.size() >= 2 && !integer_dtype(a.dtype) &&
        static_cast<double>(a.dims[0]) > arg_elements(*index) && bytes > table_bytes) {
      table = &a;
      table_bytes = bytes;
    }
  }
  if (!table) return;
  for (const OpArg& a : call.args)
    if (!a.dims.empty() && &a != table) others += arg_elements(a) * elem_bytes(a, 2.0);
  const double row = table_bytes / static_cast<double>(table->dims[0]);
  const double rows = std::min(arg_elements(*index), static_cast<double>(table->dims[0]));
  out.label = "every argument moved whole";
  out.other = OtherReading{
      fmt::format("{} a table gathered by the integer argument {}", dims_text(table->dims),
                  dims_text(index->dims)),
      sum("bytes",
          {part("the other arguments", others),
           part(fmt::format("{} rows of {}", format_g(rows), dims_text(table->dims)), rows * row)}),
      out.flops_term};
}

}  // namespace

void read_memory(Reader& r) {
  Traffic t;
  for (const Bound& b : r.bound) {
    if (!b.arg || (b.arg->dims.empty() && b.arg->list.empty())) continue;
    switch (b.spec->role) {
      case ArgRole::out:
        add(t, b, false, true);
        break;
      case ArgRole::inout:
        add(t, b, true, true);
        break;
      case ArgRole::table:
      case ArgRole::workspace:
      case ArgRole::meta:
      case ArgRole::kv_cache:
        break;  // tables by their gathered rows; the rest never counted
      default:
        add(t, b, true, false);
    }
  }
  if (!gathered_rows(r, t)) return;
  implicit_output(r, t);
  if (t.read + t.written <= 0) return r.fail("no operand recorded with dims");
  const Bound* in = r.first(ArgRole::in);
  if (!in) in = r.first(ArgRole::inout);
  if (in) r.out.act_dtype = dtype_key(in->arg->dtype);
  if (const Bound* o = r.first(ArgRole::out)) r.out.out_dtype = dtype_key(o->arg->dtype);
  r.out.bytes_term = sum("bytes", std::move(t.parts));
  r.out.flops_term = term("flops", "≈ elements", t.largest, TermUnit::flops);
  r.out.bytes = r.out.bytes_term.value;
  r.out.flops = r.out.flops_term.value;
}

// A generated kernel recorded under its own name with its arguments (Inductor's
// `triton_{poi,red,per}_*`): its inputs and outputs are all among the recorded tensors, so each is
// moved once and nothing is added for an output it returns. A buffer updated in place is read and
// written but recorded once: the reading is then low by that buffer (noted).
void read_kernel_args(Reader& r) {
  Traffic t;
  std::string dtype;
  for (const OpArg& a : r.call.args) {
    if (a.dims.empty() && a.list.empty()) continue;
    const double n = arg_elements(a), e = elem_bytes(a, 2.0);
    if (!(n >= 0) || !std::isfinite(n * e)) return r.fail("an argument with negative or huge dims");
    t.largest = std::max(t.largest, n);
    t.read += n * e;
    t.parts.push_back(part(a.dims.empty() ? std::string("[list]") : dims_text(a.dims), n * e));
    if (dtype.empty()) dtype = dtype_key(a.dtype);
  }
  if (t.read <= 0) return r.fail("no argument recorded with dims");
  r.out.act_dtype = dtype;
  r.out.bytes_term = sum("bytes", std::move(t.parts));
  r.out.flops_term = term("flops", "≈ elements", t.largest, TermUnit::flops);
  r.out.bytes = r.out.bytes_term.value;
  r.out.flops = r.out.flops_term.value;
  gathered_alternative(r.call, r.out);
  r.out.notes.push_back(
      "the kernel's own arguments, each tensor moved once (its outputs are among them; a buffer "
      "updated in place is counted once, so the bytes are a lower bound there)");
}

}  // namespace roofline::analyze::op_detail
