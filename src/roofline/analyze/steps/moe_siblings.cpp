// Step 4, the MoE stage from sibling kernels (docs/method.md §22.5): two expert-GEMM kernels of one
// family that ran in the same steps, one fused with an activation, are gate/up and down.
#include <algorithm>

#include <fmt/format.h>

#include "roofline/analyze/entry/head_entry.hpp"
#include "roofline/analyze/evidence/name_tokens.hpp"
#include "roofline/analyze/layer.hpp"
#include "roofline/analyze/steps/classify_head.hpp"
#include "roofline/base/units.hpp"
#include "roofline/classify/classify.hpp"

namespace roofline::analyze {
namespace {

// The family a kernel's name belongs to: its first token ("matmul", "bmm", "fused", "ck").
std::string family(const TopnEntry& e) {
  const auto t = name_tokens(e.short_name.empty() ? e.name : e.short_name);
  return t.empty() ? std::string() : t.front();
}

// TRT-LLM's CUTLASS MoE runner, by its grammar: `fused_moe::run_global<…>` and
// `cutlass::Kernel<…MoeFCGemm…>` (vLLM launches both under one op, or none in a graph replay).
bool cutlass_moe_runner(const std::string& name) {
  return name.find("fused_moe::run_global") != std::string::npos ||
         name.find("MoeFCGemm") != std::string::npos;
}

// Two expert GEMMs of one MoE layer: the same family, or launched by the same MoE op, or both
// kernels of the CUTLASS MoE runner where no op was recorded (graph replays without a capture).
bool same_layer_op(const TopnEntry& a, const TopnEntry& b) {
  if (family(a) == family(b)) return true;
  if (!a.op.empty() || !b.op.empty()) return a.op == b.op;
  return cutlass_moe_runner(a.name) && cutlass_moe_runner(b.name);
}

bool same_steps(const TopnEntry& a, const TopnEntry& b) {
  if (a.served_regimes != b.served_regimes) return false;
  return a.calls && b.calls && *a.calls == *b.calls;
}

struct Expert {
  std::size_t topn_position;
  Classification cls;
  HeadEntry* head;
};

// A head entry's stage, taken from its one sibling (the other kernel of the pair).
void take_stage(Expert& self, const Expert& sibling, const TopnDocument& topn, bool fused) {
  if (!self.head) return;
  MoeDetail& moe = self.head->classified.detail.moe;
  const MoeStage stage = fused ? MoeStage::stage1 : MoeStage::stage2;
  const TopnEntry& other = topn.entries[sibling.topn_position];
  const std::string why = fmt::format(
      "MoE stage {} from its sibling '{}' of the same family or MoE op and the same launches ({} "
      "calls): "
      "the kernel fused with an activation (swiglu, silu, gelu, act) is gate/up, the other down",
      to_string(stage), other.short_name.empty() ? other.name : other.short_name,
      format_g(other.calls.value_or(0.0)));
  if (moe.stage == stage) {
    self.head->classified.notes.push_back(why + " (agrees with the class)");
    return;
  }
  moe.stage = stage;
  moe.stage_from_sibling = true;
  self.head->classified.notes.push_back(why);
}

}  // namespace

void moe_stages_from_siblings(std::vector<HeadEntry>& head, const TopnDocument& topn,
                              const ClassRules& rules) {
  std::vector<Expert> experts;
  for (std::size_t i = 0; i < topn.entries.size(); ++i) {
    TopNClass t = topn_class(head, topn, i, rules);
    const MoeStage stage = t.cls.detail.moe.stage;
    if (t.cls.op_class != OpClass::moe || stage == MoeStage::both || stage == MoeStage::stage2)
      continue;
    experts.push_back(Expert{i, std::move(t.cls), t.head});
  }
  for (std::size_t i = 0; i < experts.size(); ++i) {
    const TopnEntry& a = topn.entries[experts[i].topn_position];
    if (!fused_activation(a.name)) continue;
    // Its siblings: unfused kernels of the same family in the same steps; exactly one.
    std::vector<std::size_t> sib;
    for (std::size_t j = 0; j < experts.size(); ++j) {
      const TopnEntry& b = topn.entries[experts[j].topn_position];
      if (j != i && !fused_activation(b.name) && same_layer_op(a, b) && same_steps(a, b) &&
          experts[j].cls.detail.moe.stage != MoeStage::stage1)
        sib.push_back(j);
    }
    if (sib.size() != 1) continue;
    take_stage(experts[i], experts[sib[0]], topn, true);
    take_stage(experts[sib[0]], experts[i], topn, false);
  }
}

}  // namespace roofline::analyze
