#pragma once
// The detail of a kernel-family rule (`class:detail` in data/kernel_classes.tsv and
// `--classify PATTERN=CLASS:detail`): a closed set per op class, parsed and validated once where
// the text is read (parse_class_detail, src/roofline/inputs/kernel_classes.cpp). The stages read
// the typed value; to_string gives back the table's spelling for notes.

#include <string>
#include "roofline/base/layer.hpp"

namespace roofline::base {

// Which expert GEMMs one MoE launch runs: gate+up (stage1), down (stage2) or both.
enum class MoeStage { unnamed, stage1, stage2, both };
struct MoeDetail {
  MoeStage stage = MoeStage::unnamed;
  bool stream_all = false;    // +all: the family streams every expert (the all-expert figure)
  bool fused_shared = false;  // +shared: the family fuses the shared experts into the launch
  // +onchip (both stages): the intermediate between the stages stays on chip — each block runs
  // its tokens through gate/up, the activation and down in one launch — and never reaches HBM.
  bool onchip = false;
  // Not a table spelling: the stage came from the entry's sibling kernel (docs/method.md §22.5).
  bool stage_from_sibling = false;
  friend bool operator==(const MoeDetail&, const MoeDetail&) = default;
};
// The attention variant; auto_regime (`auto`) and unnamed let the regime decide.
enum class AttnVariant {
  unnamed,
  decode,
  prefill,
  auto_regime,
  decode_reduce,
  mla_decode,
  indexer
};
// What a linear-attention (gdn, kda, lightning, conv, prefill, conv_prefill) or state-space
// (update, mamba1, mamba2, prefill) kernel does.
enum class StateRole {
  unnamed,
  gdn,
  kda,
  lightning,
  conv,
  conv_prefill,
  prefill,
  update,
  mamba1,
  mamba2
};
// An all-reduce's algorithm when the family fixes it (else read from the name).
enum class CommAlgorithm { unnamed, oneshot, twoshot };
// The elementwise kind; unnamed is a generic elementwise op.
enum class ElementwiseKind {
  unnamed,
  norm,
  add_norm,
  act_and_mul,
  rope,
  quant,
  kv_write,
  copy,
  cat,
  fill,
  cast,
  softmax,
  reduce,
  index
};
// An unknown-class rule may name what the kernel is (no byte model either way).
enum class UnknownDetail { unnamed, sampling };
// A GEMM-class kernel that is a convolution (implicit GEMM, docs/method.md §23.2): only its
// launching op's arguments give its work; its 4-D operands are never read as a dense GEMM.
enum class GemmKind { unnamed, conv };

// One rule's detail: only the member of the rule's class is ever set.
struct ClassDetail {
  MoeDetail moe;
  AttnVariant attn = AttnVariant::unnamed;
  StateRole state = StateRole::unnamed;
  CommAlgorithm comm = CommAlgorithm::unnamed;
  ElementwiseKind elementwise = ElementwiseKind::unnamed;
  UnknownDetail unknown = UnknownDetail::unnamed;
  GemmKind gemm = GemmKind::unnamed;
  // +rows (elementwise): the family launches one block per row of its [rows, width] operand, so
  // its grid's x extent is the rows (docs/method.md §22.4: a GEMM's rows from its neighbours).
  bool row_blocks = false;
  bool empty() const { return *this == ClassDetail{}; }
  friend bool operator==(const ClassDetail&, const ClassDetail&) = default;
};

// The table's spellings: "stage1", "decode", "auto", "conv_prefill", "oneshot", "add_norm",
// "sampling"; "" for unnamed.
const char* to_string(MoeStage s);
const char* to_string(AttnVariant v);
const char* to_string(StateRole r);
const char* to_string(CommAlgorithm a);
const char* to_string(ElementwiseKind k);
const char* to_string(UnknownDetail d);
const char* to_string(GemmKind k);
// The detail as the table writes it: "both+all+shared" (stage, then +all, then +shared), "decode",
// "add_norm+rows", "" when empty.
std::string to_string(const ClassDetail& d);

}  // namespace roofline::base
