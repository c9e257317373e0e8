// libFuzzer target: the parsers of the shipped tables and of `--classify` on arbitrary bytes
// (parse_kernel_classes with its detail language, parse_kernel_ops, parse_kernel_backends,
// parse_target_eff and its checks and lookup, parse_classify_override). Must never crash, hang or
// throw; a parsed table always comes back (bad rows are skipped with a message naming the line).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "roofline/inputs/kernel_backends.hpp"
#include "roofline/inputs/kernel_classes.hpp"
#include "roofline/inputs/target_eff.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto classes = roofline::parse_kernel_classes(text, "kernel_classes.tsv");
  if (!classes.value) __builtin_trap();
  for (const roofline::ClassRule& r : *classes.value) (void)to_string(r.detail);
  auto ops = roofline::parse_kernel_ops(text, "kernel_ops.tsv");
  if (!ops.value) __builtin_trap();
  for (const roofline::ClassRule& r : *ops.value) (void)to_string(r.detail);
  if (!roofline::parse_kernel_backends(text, "kernel_backends.tsv").value) __builtin_trap();
  auto eff = roofline::parse_target_eff(text, "target_eff.tsv");
  if (!eff.value) __builtin_trap();
  (void)roofline::check_target_eff(*eff.value, {"r9700"});
  (void)roofline::target_eff_prior(*eff.value, roofline::OpClass::moe, "r9700");
  std::string error;
  const std::string_view first_line = text.substr(0, text.find('\n'));
  (void)roofline::parse_classify_override(first_line, error);
  return 0;
}
