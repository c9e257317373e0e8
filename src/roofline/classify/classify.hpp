#pragma once
// Step 4 of the method, classify: which kind of work a kernel does, from its name. Its own layer
// (roofline_classify, on the inputs layer) so that `roofline topn` classifies kernels without
// the rest of the pipeline.

#include <string>
#include <vector>

#include "roofline/base/vocabulary.hpp"
#include "roofline/classify/layer.hpp"
#include "roofline/inputs/inputs.hpp"

namespace roofline::classify {

struct Classification {
  OpClass op_class = OpClass::unknown;
  ClassDetail detail;  // the rule's detail, typed (class_detail.hpp); empty from name tokens
  std::string rule;    // which rule decided, for notes
  bool collective = false;
  // The weight operand's dtype as the kernel's name spells it (docs/method.md §7.5: "fp8" for a
  // cuBLASLt nvjet_*qq* kernel or a CUTLASS float_e4m3_t GEMM); "" when the name says nothing.
  std::string operand_dtype;
  // The activation operand's dtype where the name spells it ("fp8" for cuBLASLt qq, "fp8" for an
  // mxfp4 × fp8 CUTLASS GEMM); "" when the name does not say.
  std::string activation_dtype;
  // Block-scale bytes per weight value the name's block-scaled type implies (1/16 for nvfp4's one
  // ue4m3 per 16 values, 1/32 for mx's one ue8m0 per 32); 0 when none.
  double weight_scale_bytes = 0.0;
  // The same for the activation operand where the name's type scales it in blocks (CK's A/B
  // block-scaled GEMMs: one float per ScaleBlockM × ScaleBlockK values); 0 when none.
  double activation_scale_bytes = 0.0;
  // A GEMM's or expert GEMM's template naming one 16-bit float element type and no narrower one
  // (`cutlass::bfloat16_t`, `__nv_bfloat16`, `cutlass_80_…_bf16_…`): "bf16" or "fp16", else "".
  // The weights' format is then the trace's word, not the config's (docs/method.md §23.8).
  std::string template_16bit;
  std::vector<std::string> notes;  // the class and the rule that decided it, what the name says
};
// docs/method.md §7.1: `--classify` (first match), the family table's comm rows, collective name
// tokens, its other rows (longest match), the launching op (data/kernel_ops.tsv; a helper kernel
// keeps its own class), name tokens, the profiler's classification. Patterns are matched against
// the entry's demangled name (else its raw name, the join key) and short name by the token rule
// (§7.2).
Classification classify(const TopnEntry& entry, const ClassRules& rules);

}  // namespace roofline::classify
