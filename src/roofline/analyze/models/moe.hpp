#pragma once
// The pieces of the MoE byte model (docs/method.md §8.5, §8.7), private to model_moe*.cpp: the unit
// (model_moe_unit.cpp), the stage and the expert weights (model_moe.cpp), the activations, the
// shared experts and the candidates (model_moe_bytes.cpp).

#include <string>

#include "roofline/analyze/layer.hpp"
#include "roofline/analyze/models/models.hpp"

namespace roofline::analyze::detail {

// What every piece reads: the config's shape of the layer and the stage the kernel runs.
struct MoeSetup {
  double E = 0, top_k = 0, H = 0;
  double I = 0;      // moe_intermediate / tp
  double M = 0;      // rows in flight
  double pairs = 0;  // M · top_k (token, expert) pairs
  MoeStage stage = MoeStage::both;
  bool stage_named = false;  // by the family table or the kernel name
  bool gated = true;         // 3·I·H per expert (gate, up, down); false: 2·I·H
  std::string gated_why;
  // Stage 1 with the activation in the same launch (an activation token in the name): it writes
  // pairs·I, not the 2·pairs·I of gate and up.
  bool act_fused = false;
  // TRT-LLM's CUTLASS MoE runner (fused_moe::run_global, MoeFCGemm) expands the tokens' rows to
  // [M·top_k, H] before its expert GEMMs (expandInputRowsKernel) and reduces them after
  // (finalizeMoeRouting): stage 1 reads and stage 2 writes pairs·H, not M·H.
  bool rows_expanded = false;
  // The Triton fused_moe_kernel's down launch writes each (token, expert) row, [M·top_k, H], for
  // moe_sum to reduce after it: stage 2 writes pairs·H.
  bool out_unreduced = false;
  // The hidden size of the token activations: the config's H, or the captured rows' padded width
  // (x [8192, 3072] for hidden_size 2880), with why.
  double H_act = 0;
  std::string H_act_why;
  double w = 0, a = 0;  // bytes per weight / activation element
  // Bytes per element of the input each launch reads: `a`, or the format it was quantized to
  // just before the kernel (docs/method.md §23.5: fp8 under W8A8).
  double a_in = 0;
  // Stage-1 outputs per intermediate unit: 2 gated (gate and up), 1 not.
  double up() const { return gated ? 2.0 : 1.0; }
};

// The logical unit: k launches of one MoE layer under one kernel name when launches per step over
// the MoE layers is an integer k >= 2 and the name does not fix the stage; notes say which.
void moe_unit(const ModelInput& in, const MoeSetup& s, WorkEstimate& work);

// The shared experts a family fuses into the launch (docs/method.md §8.7); zero terms otherwise.
struct SharedExperts {
  Term bytes, flops;
};

// Activation bytes of the unit: token input and output, and the inter-stage intermediates when
// they leave L2. The formula is the term's text.
Term moe_activation_bytes(const ModelInput& in, const MoeSetup& s);
// The shared experts (notes say whether they are counted).
SharedExperts moe_shared_experts(const ModelInput& in, const MoeSetup& s, WorkEstimate& work);
// The byte/FLOP candidates (experts_hit, all experts, or the dense batched GEMM over all E
// experts), their notes and the MoE facts' weight and activation figures.
void moe_candidates(const ModelInput& in, const MoeSetup& s, const Term& weight_elems,
                    const Term& experts_hit, const Term& activations, const SharedExperts& shared,
                    WorkEstimate& work);

}  // namespace roofline::analyze::detail
