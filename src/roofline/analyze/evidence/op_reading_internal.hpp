#pragma once
// Shared pieces of the op-table reader (docs/method.md §23). Internal to op_reading*.cpp.

#include <optional>
#include <string>
#include <vector>

#include "roofline/analyze/evidence/op_reading.hpp"

namespace roofline::analyze::op_detail {

// One operand of the row with the argument the call recorded for it (null: not recorded).
struct Bound {
  const OpArgSpec* spec = nullptr;
  const OpArg* arg = nullptr;
};

struct Reader {
  const OpCall& call;
  const OpRow& row;
  std::vector<Bound> bound;
  OpReading& out;

  // The recorded operands of a role, in position order (those with dims or a list only).
  std::vector<const Bound*> with(ArgRole role) const;
  const Bound* first(ArgRole role) const;
  // The Concrete Inputs text of a scalar; nullopt when the row does not record it or the call
  // carries no text for it.
  std::optional<std::string> scalar(ScalarName name) const;
  std::optional<double> number(ScalarName name) const;
  std::optional<bool> flag(ScalarName name) const;
  // Stops the reading with a reason that names the op.
  void fail(const std::string& why) const;
};

double elements(const std::vector<std::int64_t>& dims);
// Elements of an argument: its dims, or the sum over its tensor list.
double arg_elements(const OpArg& a);
// Bytes per element of the argument's dtype (`fallback` when unknown).
double elem_bytes(const OpArg& a, double fallback);
// The canonical key of a recorded spelling ("" when unknown).
std::string dtype_key(const std::string& spelling);
std::string dims_text(const std::vector<std::int64_t>& dims);

void read_gemm(Reader& r);
void read_bmm(Reader& r);
void read_conv(Reader& r);
void read_attention(Reader& r);
void read_kv_write(Reader& r);
void read_memory(Reader& r);  // glu, norm, rotary, gather, copy, elementwise, quant, routing
void read_kernel_args(Reader& r);

}  // namespace roofline::analyze::op_detail
