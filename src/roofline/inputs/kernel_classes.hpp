#pragma once
// The data-driven table of well-known kernel families (data/kernel_classes.tsv), the table of
// launching ops (data/kernel_ops.tsv) and the `--classify PATTERN=CLASS[:detail]` override
// spelling.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "roofline/inputs/load.hpp"
#include "roofline/base/vocabulary.hpp"

namespace roofline {

// One rule per non-comment line: `pattern  class[:detail]  description...` (whitespace separated).
Loaded<std::vector<ClassRule>> parse_kernel_classes(std::string_view text,
                                                    const std::string& display_name);

// The shipped table, parsed once.
const std::vector<ClassRule>& builtin_kernel_classes_rules();

// The launching-op table (data/kernel_ops.tsv, docs/method.md §7.1): `op-pattern class[:detail]
// description...`, the grammar of kernel_classes.tsv, its patterns matched against the CPU op that
// launched the kernel (`aten::mm`, `vllm::moe_forward`, `c10d::allreduce_`).
Loaded<std::vector<ClassRule>> parse_kernel_ops(std::string_view text,
                                                const std::string& display_name);
// The shipped op table, parsed once; the build checked it.
const std::vector<ClassRule>& builtin_kernel_ops_rules();

// The detail of a rule of class `cls` (class_detail.hpp), "" = none; nullopt with `error` naming
// the value and what the class accepts. The one parser of the detail language.
std::optional<ClassDetail> parse_class_detail(OpClass cls, std::string_view text,
                                              std::string& error);
// What `cls` accepts after the colon, for messages: "stage1, stage2 or both, optionally ...".
std::string accepted_details(OpClass cls);

// Parses `PATTERN=CLASS[:detail]`; on failure returns nullopt and sets `error` (an unknown class,
// or a detail the class does not accept, named with what it accepts).
std::optional<ClassRule> parse_classify_override(std::string_view spec, std::string& error);

}  // namespace roofline
