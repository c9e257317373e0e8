// The op table's memory-bound formulas (docs/method.md §23.4): activations, norms, rotary,
// gathers, copies, generic elementwise ops, quantization and routing — each recorded operand
// read or written once by its role, a table read only in the rows the index gathers; FLOPs ≈ the
// elements of the largest operand.
#include <algorithm>

#include <fmt/format.h>

#include "roofline/analyze/models/op_reading_internal.hpp"
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

}  // namespace roofline::analyze::op_detail
