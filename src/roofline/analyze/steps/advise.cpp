// Step 11, advise (docs/method.md §14): route annotation, shippability gate, concrete
// byte-reduction levers.
#include "roofline/analyze/steps/advise.hpp"

#include <array>

#include <map>

#include <fmt/format.h>

#include "roofline/analyze/entry/head_entry.hpp"
#include "roofline/analyze/evidence/owner.hpp"
#include "roofline/analyze/layer.hpp"
#include "roofline/analyze/models/models.hpp"
#include "roofline/inputs/pattern.hpp"

namespace roofline::analyze {
namespace {

using detail::fmt_bytes;

std::string table_route(const HeadEntry& e) {
  const Verdict& v = e.verdict;
  if (!e.work.modeled) return "no byte model: nothing to route on";
  if (v.dispatch_bound && v.in_graph_replay)
    return "fusion (a short kernel in a captured graph: its ramp and tail, not a CPU launch, "
           "are the cost)";
  if (v.dispatch_bound)
    return "fusion / graph capture (dispatch-bound: the launch, not the kernel, is the cost)";
  if (v.suspect) return "measure it: stage C counters (the byte/FLOP model is refuted by the time)";
  const bool latency = v.bound == Bound::latency;
  if (e.cls.op_class == OpClass::comm && v.headroom != Headroom::unknown) {
    if (latency)
      return "collective latency (synchronisation / hops, not bandwidth): one-shot vs two-shot "
             "choice, fuse the all-reduce with the following norm, fewer collectives per layer, "
             "overlap with compute";
    return v.headroom == Headroom::saturated
               ? "saturated link: fewer bytes on the wire (quantized all-reduce codecs)"
               : "collective tuning: algorithm and channel choice for this message size";
  }
  switch (v.headroom) {
    case Headroom::underperforming:
      return latency ? "kernel work; lever occupancy / dependency chain / fusion / split-K"
                     : "kernel tuning, top priority";
    case Headroom::moderate:
      return latency ? "kernel work; lever occupancy / dependency chain / fusion / split-K"
                     : "kernel tuning (moderate headroom)";
    case Headroom::saturated:
      if (latency) return "fewer bytes (e.g. fp8 KV) or fusion; more tuning will not help";
      if (v.bound == Bound::compute)
        return "algorithmic track: fewer FLOPs (lower-precision math, skipped work); tuning has "
               "nothing left";
      return "byte-reduction / algorithmic track — never dropped";
    case Headroom::unknown:
      break;
  }
  return "no verdict";
}

// Ops worth fusing with each class, by name token.
std::vector<std::string_view> fusion_partners(OpClass cls) {
  switch (cls) {
    case OpClass::moe:
      // Not the routing (top-k, align, sorting): it sets up indices, no activations pass.
      return {"act_and_mul", "silu_and_mul", "moe_sum", "quant"};
    case OpClass::gemm:
      return {"norm", "act_and_mul", "silu_and_mul", "quant", "rotary", "rope"};
    case OpClass::attn:
      return {
          "rotary",          "rope", "reshape_and_cache", "concat_and_cache", "_fwd_kernel_stage2",
          "reduce_segments", "quant"};
    case OpClass::elementwise:
      return {"norm", "quant", "act_and_mul", "silu_and_mul", "rotary"};
    case OpClass::linear_attn:
    case OpClass::ssm:
      return {"causal_conv1d", "norm", "gating"};
    case OpClass::comm:
      return {"rms_norm", "rmsnorm", "add_norm"};
    case OpClass::unknown:
      return {};
  }
  return {};
}

// Whether a neighbour of class `cls` (as the Top-N spells it, "elementwise:add_norm+rows") is one a
// kernel of class `self` fuses with: an elementwise op beside a matrix kernel, the norm after a
// collective, attention's rotary, cache write and split-KV reduction.
bool fusable(OpClass self, std::string_view cls) {
  // A kernel that passes no data on (a fill, zeroing, index or routing setup) has no
  // intermediate to keep on chip.
  if (cls.substr(0, 16) == "elementwise:fill" || cls.substr(0, 17) == "elementwise:index")
    return false;
  const bool elementwise = cls.substr(0, 11) == "elementwise";
  switch (self) {
    case OpClass::gemm:
    case OpClass::moe:
    case OpClass::linear_attn:
    case OpClass::ssm:
    case OpClass::elementwise:
      return elementwise;
    case OpClass::attn:
      return cls.substr(0, 16) == "elementwise:rope" ||
             cls.substr(0, 20) == "elementwise:kv_write" || cls == "attn:decode_reduce";
    case OpClass::comm:
      return cls.substr(0, 16) == "elementwise:norm" || cls.substr(0, 20) == "elementwise:add_norm";
    case OpClass::unknown:
      return false;
  }
  return false;
}

// docs/method.md §10.4: the fusion partners are the kernels the trace launched right beside this
// one on its stream (per signature, `topn`'s neighbours), the two beside most of its launches.
// nullopt when the trace recorded no neighbours for it (a Top-N without signatures).
std::optional<std::vector<FusionPartner>> trace_partners(const HeadEntry& e,
                                                         const TopnDocument& topn) {
  const ProbeKernel* w = e.evidence.workload;
  std::vector<FusionPartner> all;
  bool recorded = false;
  if (!w) return std::nullopt;
  for (const ProbeCase& c : w->cases) {
    if (!c.signature) continue;
    for (const std::pair<const std::optional<CaseNeighbour>*, const char*>& at :
         {std::pair{&c.signature->before, "before"}, std::pair{&c.signature->after, "after"}}) {
      const std::optional<CaseNeighbour>& n = *at.first;
      const std::string side = at.second;
      if (!n) continue;
      recorded = true;
      if (!fusable(e.cls.op_class, n->cls)) continue;
      const std::string& full = n->name.empty() ? n->kernel : n->name;
      auto it = std::find_if(all.begin(), all.end(), [&](const FusionPartner& p) {
        return p.kernel == full && p.side == side;
      });
      if (it == all.end())
        it = all.insert(all.end(), FusionPartner{full, n->kernel, side, n->cls, 0.0, {}, {}, {}});
      it->launches += n->launches;
    }
  }
  if (!recorded) return std::nullopt;
  std::stable_sort(all.begin(), all.end(), [](const FusionPartner& a, const FusionPartner& b) {
    return a.launches > b.launches;
  });
  if (all.size() > 2) all.resize(2);
  for (FusionPartner& p : all) {
    const TopnEntry* named = nullptr;
    std::size_t seen = 0;
    for (const TopnEntry& t : topn.entries)
      if (t.name == p.kernel ||
          (p.kernel == p.display &&
           (t.short_name == p.display || t.short_name.rfind(p.display + " #", 0) == 0)))
        named = &t, ++seen;
    if (seen == 1) p.pct_gpu_time = named->pct_gpu_time;
  }
  return all;
}

// docs/method.md §10.4: the most a fusion with `p` wins end to end. The intermediate is at most
// the entry's activation traffic A = bytes − weights − KV per unit; fused, its round trip 2·A
// (one write, one read) no longer crosses HBM: at most 2·A / roof of time per unit, so
// gain ≤ pct · (2·A / roof) / t_unit, and never more than the two kernels' shares together.
void bound_fusion_gain(FusionPartner& p, const HeadEntry& e, const ResolvedPeaks& peaks) {
  const WorkEstimate& w = e.work;
  if (!w.modeled || w.comm || !peaks.hbm_bw_bytes_s || !(*peaks.hbm_bw_bytes_s > 0) ||
      !(w.t_unit_ms > 0))
    return;
  const double activation = w.bytes - w.weight_bytes - w.kv_bytes;
  if (!(activation > 0)) return;
  p.round_trip_bytes_max = 2.0 * activation;
  const double saved_ms = *p.round_trip_bytes_max / *peaks.hbm_bw_bytes_s * 1e3;
  double gain = e.pct_gpu_time * std::min(1.0, saved_ms / w.t_unit_ms);
  if (p.pct_gpu_time) gain = std::min(gain, e.pct_gpu_time + *p.pct_gpu_time);
  p.e2e_gain_pct_max = gain;
}

// What a closed kernel offers in place of absorbing its neighbour: the library's own fused
// epilogue where it has one for an op after it, else an open kernel that does both.
std::string closed_fusion(const HeadEntry& e, const FusionPartner& p) {
  const std::string& b = e.backend;
  const std::string& side = p.side;
  // The BLAS epilogues apply a pointwise op to the output tile (bias, ReLU/GELU, a cast); a norm,
  // a gated activation, rotary or a cache write needs more than one output element.
  // Inductor names its reductions triton_red_ / triton_per_ (pointwise kernels triton_poi_).
  const bool reduction =
      p.display.rfind("triton_red_", 0) == 0 || p.display.rfind("triton_per_", 0) == 0;
  const bool pointwise =
      !reduction && (p.cls == "elementwise" || p.cls.rfind("elementwise+", 0) == 0 ||
                     p.cls.rfind("elementwise:cast", 0) == 0);
  if (e.cls.op_class == OpClass::comm)
    return "one open fused all-reduce + norm kernel (the serving stack's allreduce-fusion op, "
           "where it has one for this collective)";
  if (side == "after" && pointwise && (b == "cublas" || b == "cublaslt"))
    return "cuBLASLt's fused epilogue (CUBLASLT_EPILOGUE_*: bias, ReLU/GELU) where the op is one "
           "it has, else one open fused kernel (a CUTLASS or Triton GEMM with the op in its "
           "epilogue)";
  if (side == "after" && pointwise && (b == "hipblaslt" || b == "rocblas"))
    return "hipBLASLt's fused epilogue (HIPBLASLT_EPILOGUE_*: bias, ReLU/GELU) where the op is "
           "one it has, else one open fused kernel (a CK or Triton GEMM with the op in its "
           "epilogue)";
  if (side.empty()) return "one open fused kernel that does both";
  return side == "after" ? "one open fused kernel (the op in the new kernel's epilogue)"
                         : "one open fused kernel (the op in the new kernel's prologue)";
}

// The lever's verb: an open kernel absorbs its neighbour; a closed one (data/kernel_backends.tsv
// says its code is not the project's) cannot, so the pair is replaced (docs/method.md §14.2).
std::string fusion_action(const HeadEntry& e, const FusionPartner& p, const std::string& where) {
  if (e.editable && !*e.editable)
    return fmt::format("replace this closed kernel and '{}' ({}) with {}", p.display, where,
                       closed_fusion(e, p));
  return fmt::format("fuse '{}' ({}) into this kernel", p.display, where);
}

// Lever 1: fuse the kernels beside it in the trace; where the trace recorded no order, an op of a
// fusable kind that appears in the Top-N (at most two), said to be unchecked.
void levers_fuse(std::vector<std::string>& out, const HeadEntry& e, const TopnDocument& topn,
                 const ResolvedPeaks& peaks, std::vector<FusionPartner>& partners) {
  if (auto traced = trace_partners(e, topn)) {
    partners = std::move(*traced);
    for (FusionPartner& p : partners) {
      bound_fusion_gain(p, e, peaks);
      out.push_back(fmt::format(
          "{}: the intermediate's HBM round trip disappears{}",
          fusion_action(
              e, p,
              fmt::format("launched right {} it on its stream, beside {} of its "
                          "launches{}",
                          p.side, format_g(p.launches),
                          p.pct_gpu_time ? fmt::format("; {}% of GPU time", *p.pct_gpu_time) : "")),
          p.e2e_gain_pct_max
              ? fmt::format(" — its round trip is at most {} per unit (twice the entry's "
                            "activation traffic, its {} less weights and KV cache), {:.3g} µs on "
                            "the {} memory roof: up to +{:.3g}% end to end",
                            fmt_bytes(*p.round_trip_bytes_max), fmt_bytes(e.work.bytes),
                            *p.round_trip_bytes_max / *peaks.hbm_bw_bytes_s * 1e6,
                            format_rate(*peaks.hbm_bw_bytes_s, "B/s"), *p.e2e_gain_pct_max)
              : ""));
    }
    return;
  }
  int fused = 0;
  for (const TopnEntry& other : topn.entries) {
    if (other.index == e.topn_index || fused >= 2) continue;
    for (std::string_view token : fusion_partners(e.cls.op_class)) {
      if (icontains(other.name, token) || icontains(other.short_name, token)) {
        const FusionPartner p{other.name, other.short_name, "", "", 0.0, {}, {}, {}};
        out.push_back(fmt::format(
            "{} if it runs beside it: its HBM round trip of the activations disappears",
            fusion_action(e, p,
                          fmt::format("{}% of GPU time; the Top-N records no launch order to "
                                      "check",
                                      other.pct_gpu_time))));
        ++fused;
        break;
      }
    }
  }
}

// Lever 2: stop reading unrouted experts: the all-expert figure is reported (the family streams
// every expert), or it is feasible, so the time would allow streaming them all
// (docs/method.md §8.7).
void levers_unrouted_experts(std::vector<std::string>& out, const WorkEstimate& w) {
  if (!w.moe || w.candidates.size() < 2) return;
  const Candidate* all = nullptr;
  const Candidate* hit = nullptr;
  for (const auto& c : w.candidates) {
    if (c.kind == CandidateKind::all_experts) all = &c;
    if (c.kind == CandidateKind::experts_hit) hit = &c;
  }
  const bool reported = all && all == &w.candidates[w.chosen];
  if (all && hit && (reported || all->feasible.value_or(false)) && all->bytes > hit->bytes)
    out.push_back(fmt::format(
        "stop reading unrouted experts: {} all {:.0f} experts ({}); reading only the ~{:.1f} "
        "experts the batch routes to moves {} ({:.0f}% fewer bytes)",
        reported ? "this kernel streams" : "the measured time fits streaming", w.moe->experts,
        fmt_bytes(all->bytes), w.moe->experts_hit, fmt_bytes(hit->bytes),
        100.0 * (1.0 - hit->bytes / all->bytes)));
}

// Lever 3a: lower-precision weights of a GEMM or MoE (lossy): fp8 from 16/32-bit, mxfp4 from
// 8-bit where the part has an fp4 peak.
void levers_weights(std::vector<std::string>& out, const HeadEntry& e, const ResolvedPeaks& peaks) {
  const WorkEstimate& w = e.work;
  const bool has_fp4 = peaks.flops.count(DtypeKey::fp4) > 0;
  if (!((e.cls.op_class == OpClass::gemm || e.cls.op_class == OpClass::moe) && w.weight_bytes > 0))
    return;
  const double weights =
      w.moe && w.candidates[w.chosen].kind == CandidateKind::all_experts
          ? w.moe->experts * w.moe->weight_elems_per_expert * w.moe->weight_bytes_per_elem
          : w.weight_bytes;
  if (w.weight_dtype == DtypeKey::bf16 || w.weight_dtype == DtypeKey::fp16 ||
      w.weight_dtype == DtypeKey::fp32) {
    // docs/method.md §23.8: a saving claimed on weights the trace does not show is conditional.
    const std::string doubt =
        w.dtype_doubt.empty()
            ? std::string()
            : fmt::format(
                  " — only if the weights are the {} assumed ({}): already fp8 weights "
                  "would save nothing",
                  w.weight_dtype, w.dtype_doubt);
    out.push_back(fmt::format(
        "fp8 weights: {} of weights per unit become {} ({:.0f}% of this kernel's bytes saved; "
        "lossy: must pass the accuracy gate){}",
        fmt_bytes(weights), fmt_bytes(weights / (w.weight_dtype == DtypeKey::fp32 ? 4.0 : 2.0)),
        100.0 * (weights - weights / (w.weight_dtype == DtypeKey::fp32 ? 4.0 : 2.0)) / w.bytes,
        doubt));
  } else if ((w.weight_dtype == DtypeKey::fp8 || w.weight_dtype == DtypeKey::int8) && has_fp4) {
    out.push_back(fmt::format(
        "mxfp4 weights: {} of weights per unit become {} ({:.0f}% of this kernel's bytes saved; "
        "lossy: must pass the accuracy gate)",
        fmt_bytes(weights), fmt_bytes(weights / 2.0), 100.0 * weights / 2.0 / w.bytes));
  }
}

// Lever 3b: lower-precision KV cache, recurrent state or wire bytes (lossy).
void levers_state(std::vector<std::string>& out, const HeadEntry& e) {
  const WorkEstimate& w = e.work;
  if (e.cls.op_class == OpClass::attn && w.kv_bytes > 0 &&
      (w.kv_dtype == DtypeKey::bf16 || w.kv_dtype == DtypeKey::fp16)) {
    out.push_back(fmt::format(
        "fp8 KV cache: {} of K/V per launch becomes {} (lossy: must pass the accuracy gate)",
        fmt_bytes(w.kv_bytes), fmt_bytes(w.kv_bytes / 2.0)));
  }
  if ((e.cls.op_class == OpClass::linear_attn || e.cls.op_class == OpClass::ssm) &&
      w.kv_dtype == DtypeKey::fp32 && w.kv_bytes > 0)
    out.push_back(fmt::format(
        "bf16 recurrent state: the fp32 state read and written each step halves ({} per launch "
        "today; lossy: must pass the accuracy gate)",
        fmt_bytes(w.kv_bytes)));
  if (e.cls.op_class == OpClass::comm && w.comm && w.comm->codec >= 1.0)
    out.push_back(fmt::format(
        "quantized all-reduce (QuickReduce Q8/Q6/Q4 codecs: 2176, 1664 or 1152 of every 4096 "
        "bytes on the wire): {} per launch becomes as little as {} (lossy: accuracy gate)",
        fmt_bytes(w.comm->link_bytes), fmt_bytes(w.comm->link_bytes * 1152.0 / 4096.0)));
}

// The concrete byte-reduction levers of a saturated entry, in order: fusion, unrouted experts,
// lower precision, layout.
std::vector<std::string> levers_for(const HeadEntry& e, const TopnDocument& topn,
                                    const ResolvedPeaks& peaks,
                                    std::vector<FusionPartner>& partners) {
  std::vector<std::string> out;
  const WorkEstimate& w = e.work;
  levers_fuse(out, e, topn, peaks, partners);
  levers_unrouted_experts(out, w);
  levers_weights(out, e, peaks);
  levers_state(out, e);
  // 4. Layout / L2 reuse where the model shows re-read traffic.
  if (e.cls.op_class == OpClass::moe && w.moe && w.moe->stage == MoeStage::both &&
      w.unit_launches >= 2)
    out.push_back(
        "single-launch MoE (both stages in one kernel): keeps the gate/up intermediate on chip and "
        "drops one launch per layer");
  return out;
}

// Whose code the kernel is (evidence/owner.hpp: the launch, then the family table): the project
// to change it in, or the closed library whose host-side levers are all there is.
std::string editability(const HeadEntry& e) {
  if (!e.editable) return {};
  if (e.backend == "pytorch" && e.owner.empty())
    return "; editable: PyTorch's own source (a native kernel: rebuild PyTorch with the change, or "
           "fuse the op away with torch.compile or a custom op)";
  const std::string who = owner_phrase(e);
  if (*e.editable)  // named only where the family table or the Top-N says whose source it is
    return who.empty() || who == "unknown"
               ? std::string()
               : fmt::format(
                     "; editable: open source in {} (change the kernel and rebuild, or "
                     "tune its launch)",
                     who);
  return fmt::format(
      "; not editable ({}: a precompiled library or hand assembly): host-side levers only — "
      "dispatch choice, tuning DB, backend swap",
      who.empty() ? "its library" : who);
}

}  // namespace

Advice advise(const HeadEntry& e, const TopnDocument& topn, const ResolvedPeaks& peaks) {
  Advice a;
  std::string base = table_route(e);
  const bool unknown = e.verdict.headroom == Headroom::unknown;
  if (unknown || e.grade.confidence == Confidence::low) {
    const std::string why =
        !unknown ? fmt::format("confidence low: stage {} estimate", to_string(e.stage))
        : e.grade.confidence == Confidence::low && e.work.modeled ? "no verdict, confidence low"
                                                                  : "no verdict";
    a.route = fmt::format("fall back to pct_gpu_time order ({}); indicated: {}", why, base);
  } else {
    a.route = base;
  }
  a.route += editability(e);
  if (e.verdict.headroom == Headroom::saturated) a.levers = levers_for(e, topn, peaks, a.partners);
  return a;
}

}  // namespace roofline::analyze
