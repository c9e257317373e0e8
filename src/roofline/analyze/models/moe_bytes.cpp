// MoE (docs/method.md §8.5, §8.7): the activation bytes, the shared experts, and the candidates —
// experts_hit (the reported figure of a routing-aware kernel), every expert (a family that streams
// them all) and the dense batched GEMM over all E experts.
#include <fmt/format.h>

#include "roofline/analyze/layer.hpp"
#include "roofline/analyze/models/moe.hpp"

namespace roofline::analyze::detail {

Term moe_activation_bytes(const ModelInput& in, const MoeSetup& s) {
  const double M = s.M, H = s.H_act > 0 ? s.H_act : s.H, I = s.I, a = s.a, pairs = s.pairs,
               up = s.up();
  const double a_in = s.a_in > 0 ? s.a_in : a;
  // The input a launch reads at a_in (quantized just before it, docs/method.md §23.5), said once.
  const std::string in_at =
      a_in != a ? fmt::format(" (read at {} B: quantized before it)", format_g(a_in)) : "";
  // Per stage (one launch): gate/up reads the rows once and writes pairs·I (the activation fused
  // or not gated), else gate and up, pairs·2I; down reads pairs·I and writes the rows.
  // Rows expanded before the expert GEMMs (docs/method.md §22.5): the GEMMs see pairs rows of H.
  const bool expanded = s.rows_expanded;
  const double rows = expanded ? pairs : M;
  const char* rows_text = expanded ? "expanded rows pairs·H" : "tokens M·H";
  if (s.stage == MoeStage::stage1) {
    const double out = s.act_fused ? 1.0 : up;
    return term(
        "activation bytes",
        fmt::format("{} in{} + stage-1 out pairs·{}I{}", rows_text, in_at, out == 2.0 ? "2" : "",
                    s.act_fused && s.gated ? " (activation fused: gate·up not written)" : ""),
        rows * H * a_in + pairs * out * I * a);
  }
  if (s.stage == MoeStage::stage2) {
    const bool pairs_out = expanded || s.out_unreduced;
    return term("activation bytes",
                fmt::format("pairs·I in{} + {} out", in_at,
                            expanded    ? rows_text
                            : pairs_out ? "pairs·H (each routed row, reduced after it)"
                                        : rows_text),
                pairs * I * a_in + (pairs_out ? pairs : M) * H * a);
  }
  // Both stages: tokens in and out; the intermediates (pairs·2I written by stage 1, pairs·I read
  // by stage 2) count when they leave L2.
  const Term inter = part(s.gated ? "pairs·3I" : "pairs·2I", pairs * (up * a + a_in) * I);
  // L2 size, or -1 when unknown (a plain double: GCC's -Wmaybe-uninitialized misreads
  // std::optional here).
  const double l2 = in.ctx.peaks && in.ctx.peaks->l2_bytes ? in.ctx.peaks->l2_bytes.value() : -1.0;
  Term act = term("activation bytes", "", M * H * (a_in + a));
  if (in.cls.detail.moe.onchip) {
    act.formula = fmt::format(
        "tokens in + out 2·M·H{}; the inter-stage intermediates ({} = {}) stay on chip in this "
        "family's one launch and are not counted",
        in_at, inter.formula, shown(inter));
  } else if (l2 >= 0 && inter.value <= l2) {
    act.formula = fmt::format(
        "tokens in + out 2·M·H{}; inter-stage intermediates {} = {} fit in L2 ({}) and are not "
        "counted",
        in_at, inter.formula, shown(inter), fmt_bytes(l2));
  } else {
    act.value += inter.value;
    act.formula = fmt::format("tokens in + out 2·M·H{} + inter-stage intermediates {} = {}{}",
                              in_at, inter.formula, shown(inter),
                              l2 >= 0 ? " (larger than L2)" : " (L2 size unknown)");
  }
  return act;
}

SharedExperts moe_shared_experts(const ModelInput& in, const MoeSetup& s, WorkEstimate& work) {
  const ModelConfig& cfg = *in.ctx.config;
  SharedExperts out{part("shared expert weights", 0.0), part("shared expert FLOPs", 0.0)};
  out.flops.unit = TermUnit::flops;
  double shared_I = 0.0;
  std::string shared_key;
  if (cfg.shared_expert_intermediate) {
    shared_I = *cfg.shared_expert_intermediate;
    shared_key = "shared_expert_intermediate_size";
  } else if (cfg.shared_experts) {
    shared_I = *cfg.shared_experts * *cfg.moe_intermediate;
    shared_key =
        fmt::format("n_shared_experts {} × moe_intermediate", format_g(*cfg.shared_experts));
  }
  if (!(shared_I > 0)) return out;
  if (!in.cls.detail.moe.fused_shared) {
    work.notes.push_back(fmt::format(
        "shared expert ({} = {}): not counted here — this kernel family is not known to fuse "
        "it, so it runs as a separate dense GEMM entry",
        shared_key, format_g(shared_I)));
    return out;
  }
  // The stages' share of the shared expert's weights, as for a routed expert, sharded by tp.
  const double s_elems = (s.stage == MoeStage::stage1   ? s.up()
                          : s.stage == MoeStage::stage2 ? 1.0
                                                        : s.up() + 1.0) *
                         shared_I / in.tp * s.H;
  out.bytes.value = s_elems * s.w;
  out.flops.value = 2.0 * s.M * s_elems;
  work.notes.push_back(fmt::format(
      "shared expert ({} = {}, / tp {}): fused by this kernel family, counted in the unit: {} "
      "weights, {} FLOPs",
      shared_key, format_g(shared_I), format_g(in.tp), shown(out.bytes), shown(out.flops)));
  return out;
}

namespace {

// docs/method.md §8.5: the shapes show a dense batched GEMM over all E experts; its figure is
// reported, the routing-aware one (experts_hit of this GEMM's weights) is for comparison.
void batched_candidates(const MoeSetup& s, const BatchedShape& b, const Term& experts_hit,
                        WorkEstimate& work) {
  const Term bytes = term("reported bytes", "Bt·(M·K·a + K·N·w + M·N·a)",
                          b.batch * (b.m * b.k * s.a + b.k * b.n * s.w + b.m * b.n * s.a));
  const Term flops = term("flops", "2·Bt·M·N·K", 2.0 * b.batch * b.m * b.n * b.k, TermUnit::flops);
  work.weight_bytes = b.batch * b.k * b.n * s.w;
  work.moe->weight_elems_per_expert = b.k * b.n;
  work.moe->activation_bytes = bytes.value - work.weight_bytes;
  work.notes.push_back(fmt::format(
      "{}: batch = E, a dense evaluation of every expert (docs/method.md §8.5): {}, {}; the "
      "routing-aware figure (experts_hit of this GEMM's weights) is for comparison",
      b.how, render(bytes), render(flops)));
  const Term hit = term("experts_hit bytes", "experts_hit·K·N·w + activations",
                        experts_hit.value * b.k * b.n * s.w + (bytes.value - work.weight_bytes));
  add_candidate(work, "all experts (batched GEMM)", bytes, flops, true, CandidateKind::all_experts);
  add_candidate(work, "experts_hit", hit, flops, false, CandidateKind::experts_hit);
}

}  // namespace

void moe_candidates(const ModelInput& in, const MoeSetup& s, const Term& weight_elems,
                    const Term& experts_hit, const Term& activations, const SharedExperts& shared,
                    WorkEstimate& work) {
  const double we = weight_elems.value, w = s.w, act = activations.value;
  const double shared_bytes = shared.bytes.value;
  work.weight_bytes = experts_hit.value * we * w + shared_bytes;
  const std::optional<BatchedShape> batched = batched_shape(in.entry);
  if (batched && batched->batch == s.E) return batched_candidates(s, *batched, experts_hit, work);
  const bool fused = shared_bytes > 0;  // the family fuses the shared experts: in the unit
  const Term flops =
      term("flops", fused ? "2·pairs·weight_elems + 2·M·shared_elems" : "2·pairs·weight_elems",
           2.0 * s.pairs * we + shared.flops.value, TermUnit::flops);
  const Term hit = term("bytes",
                        fused ? "experts_hit·weight_elems·w + activations + shared weights"
                              : "experts_hit·weight_elems·w + activations",
                        experts_hit.value * we * w + act + shared_bytes);
  const Term all =
      term("all-expert model (E instead of experts_hit)", "", s.E * we * w + act + shared_bytes);
  const bool stream_all = in.cls.detail.moe.stream_all;
  const std::string reported =
      stream_all ? "the kernel-family table marks this kernel as streaming every expert: the "
                   "all-expert figure is reported, experts_hit is for comparison"
                 : "experts_hit is reported (routing-aware kernel); the all-expert figure is for "
                   "comparison and its gap is the 'stop reading unrouted experts' lever";
  work.notes.push_back(render_all({hit, all, flops}) + "; " + reported);
  if (stream_all) {
    work.weight_bytes = s.E * we * w + shared_bytes;
    add_candidate(work, "all experts", all, flops, true, CandidateKind::all_experts);
    add_candidate(work, "experts_hit", hit, flops, false, CandidateKind::experts_hit);
  } else {
    add_candidate(work, "experts_hit", hit, flops, true, CandidateKind::experts_hit);
    add_candidate(work, "all experts", all, flops, false, CandidateKind::all_experts);
  }
}

}  // namespace roofline::analyze::detail
