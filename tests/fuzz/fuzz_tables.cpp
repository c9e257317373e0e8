// libFuzzer target: the parsers of the shipped tables and of `--classify` on arbitrary bytes
// (parse_kernel_classes with its detail language, parse_kernel_ops, parse_kernel_backends,
// parse_target_eff and its checks and lookup, parse_op_table and its lookup,
// parse_classify_override). Must never crash, hang or
// throw; a parsed table always comes back (bad rows are skipped with a message naming the line).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "roofline/inputs/kernel_backends.hpp"
#include "roofline/inputs/kernel_classes.hpp"
#include "roofline/inputs/op_table.hpp"
#include "roofline/inputs/target_eff.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto classes = roofline::inputs::parse_kernel_classes(text, "kernel_classes.tsv");
  if (!classes.value) __builtin_trap();
  for (const roofline::inputs::ClassRule& r : *classes.value) (void)to_string(r.detail);
  auto ops = roofline::inputs::parse_kernel_ops(text, "kernel_ops.tsv");
  if (!ops.value) __builtin_trap();
  for (const roofline::inputs::ClassRule& r : *ops.value) (void)to_string(r.detail);
  if (!roofline::inputs::parse_kernel_backends(text, "kernel_backends.tsv").value) __builtin_trap();
  auto eff = roofline::inputs::parse_target_eff(text, "target_eff.tsv");
  if (!eff.value) __builtin_trap();
  (void)roofline::inputs::check_target_eff(*eff.value, {"r9700"});
  (void)roofline::inputs::target_eff_prior(*eff.value, roofline::inputs::OpClass::moe, "r9700");
  auto op_rows = roofline::inputs::parse_op_table(text, "op_table.tsv");
  if (!op_rows.value) __builtin_trap();
  for (const roofline::inputs::OpRow& r : *op_rows.value) {
    (void)roofline::inputs::to_string(r.formula);
    (void)roofline::inputs::find_op_row(*op_rows.value, r.op);
  }
  std::string error;
  const std::string_view first_line = text.substr(0, text.find('\n'));
  (void)roofline::inputs::parse_classify_override(first_line, error);
  return 0;
}
