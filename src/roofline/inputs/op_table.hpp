#pragma once
// The op table (docs/method.md §23.1, data/op_table.tsv): what a launching CPU op does with each
// argument it records — the operand's role, its layout, the op's class and the formula its bytes
// and FLOPs follow — and where it records the scalars that change the work. The trace's own
// argument lists are read through it (the reader is roofline/op_reading.hpp).

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "roofline/base/vocabulary.hpp"
#include "roofline/inputs/layer.hpp"
#include "roofline/inputs/load.hpp"

namespace roofline::inputs {

// The part an argument plays. Counted in full: in, out, inout (read and written), weight, bias,
// scale, index, logits, q, k, v. Counted as far as the tokens in flight reach: kv_cache (a paged
// pool) and table (an embedding table or a rotary cos/sin cache: the rows gathered). Never
// counted: workspace, meta (sequence offsets, block tables: a few bytes). cu_seqlens_q (the
// sequence offsets of the queries, B + 1 entries) says how many sequences the launch runs.
enum class ArgRole {
  in,
  out,
  inout,
  weight,
  bias,
  scale,
  index,
  logits,
  q,
  k,
  v,
  kv_cache,
  table,
  workspace,
  meta,
  cu_seqlens_q,
};

// How an operand's dims are read. Matrices: MK (rows × inner, leading dims flattened into the
// rows), KN and NK (a weight stored [K, N] or [N, K]), MN (an output), BMK/BKN/BNK/BMN (batched),
// N (a vector). Attention: THD (tokens, heads, head dim), BSHD, BHSD, paged ([blocks, block size,
// heads, head dim]). Convolution: NCHW (input), KCRS (filter). any: elements only. MK2 and NK2:
// packed 4-bit values, two per byte along K, so the dims show K/2 (an fp4 GEMM's operands).
enum class ArgLayout {
  any,
  MK,
  MK2,
  KN,
  NK,
  NK2,
  MN,
  BMK,
  BKN,
  BNK,
  BMN,
  N,
  THD,
  BSHD,
  BHSD,
  paged,
  NCHW,
  KCRS
};

// The formula an op's bytes and FLOPs follow (docs/method.md §23.2).
enum class OpFormula {
  gemm,         // 2·M·N·K, every counted operand once, the output written once
  bmm,          // 2·Bt·M·N·K
  attention,    // 2·H_q·pairs·(d_qk + d_v); Q, O and the keys and values read
  kv_write,     // the new tokens' K and V read and written into the pool: no FLOPs
  moe,          // the MoE layer's op: hidden states and router logits only (the class model)
  glu,          // act(gate)·up: [T, 2I] in, [T, I] out
  norm,         // x (and a residual) in, the normed x out
  rotary,       // q and k rotated in place, the cos/sin rows of the positions read
  gather,       // rows of a table gathered by an index
  copy,         // the inputs read, the output written
  elementwise,  // the recorded inputs read, an output the size of the largest written
  quant,        // the input read, the quantized output and its scales written
  routing,      // the router logits read, top-k weights and ids written
  conv,         // implicit GEMM: 2·N·K·(C/g)·R·S·P·Q
  kernel_args,  // a generated kernel's own arguments: each recorded tensor read or written once
};

// The scalars (Concrete Inputs) an op records that change its work.
enum class ScalarName {
  max_seqlen_q,
  max_seqlen_k,
  causal,
  scale,
  window_left,
  window_right,
  dim,
  stride,
  padding,
  dilation,
  groups,
};

struct OpArgSpec {
  std::size_t position = 0;  // in the recorded argument list, from 0
  ArgRole role = ArgRole::in;
  ArgLayout layout = ArgLayout::any;
};

struct OpScalarSpec {
  ScalarName name = ScalarName::causal;
  std::size_t position = 0;
};

// One row of data/op_table.tsv.
struct OpRow {
  std::string op;  // exact op name ("aten::mm"); a trailing '*' matches any rest ("vllm::foo*")
  OpClass op_class = OpClass::unknown;
  OpFormula formula = OpFormula::elementwise;
  std::vector<OpArgSpec> args;  // by position, ascending
  std::vector<OpScalarSpec> scalars;
  int line = 0;
};

const char* to_string(ArgRole r);
const char* to_string(ArgLayout l);
const char* to_string(OpFormula f);
const char* to_string(ScalarName s);

// One row per non-comment line: `op class formula operands scalars`, whitespace separated;
// operands `pos:role[:layout],…` or '-', scalars `name@pos,…` or '-'. A row with a value outside
// the closed sets, a position given twice, a layout the formula cannot read or an op named twice
// is an error naming its line and is skipped.
Loaded<std::vector<OpRow>> parse_op_table(std::string_view text, const std::string& display_name);

// The shipped table (data/op_table.tsv), parsed once; the build checked it.
const std::vector<OpRow>& builtin_op_table();

// The row for an op name: an exact name first, else the longest row ending in '*' whose prefix
// the name starts with; null when none.
const OpRow* find_op_row(const std::vector<OpRow>& table, std::string_view op);

}  // namespace roofline::inputs
