#pragma once
// The linear plan (docs/method.md, kernels without shapes): every projection one step of the model
// runs — attention q/k/v (or fused qkv) and o, dense FFN gate/up (or fused gate_up) and down,
// MLA's q_a/q_b/kv_a/kv_b, shared experts, the router, lm_head — with its per-rank N and K and its
// launches per step, and the assignment of GEMM kernels that carry no shapes to those
// projections. Graph replays without a capture trace, rocprof and Nsight Systems CSVs give no
// operand shapes; the config fixes every projection's N and K and the step fixes M.

#include <cstddef>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "roofline/analyze/entry/projection.hpp"
#include "roofline/analyze/evidence/launch_geometry.hpp"
#include "roofline/analyze/layer.hpp"
#include "roofline/inputs/inputs.hpp"

namespace roofline::analyze {

// One way the model's projections can be launched: fused or split qkv, fused or split gate_up.
struct PlanVariant {
  std::string name;  // "fused qkv, fused gate_up"
  std::vector<Projection> projections;
};

struct ProjectionPlan {
  std::vector<PlanVariant> variants;  // empty when the config lacks a size (see `missing`)
  std::string missing;                // the config keys it needs and lacks ("" = none)
  std::string description;            // the projections of the first variant, for run notes
};

// The plan variants of `cfg` at tensor parallelism `tp`: every projection the config fixes, with
// the layer plan's layer counts as launches per step — per softmax-attention layer (a gated
// attention's q twice as wide), per Gated DeltaNet layer, per Mamba layer (mamba2 and the hybrid
// mixers; mamba1), per dense FFN, per MoE layer (router and shared experts), and lm_head. A
// projection whose size the config lacks is left out and named in `missing`.
ProjectionPlan projection_plan(const ModelConfig& cfg, double tp);

// The model's parameters as the config implies them (tp 1): the plan's projections, the routed
// experts, the embeddings (and an untied lm_head), the norms, and the linear-attention and
// state-space layers' short convolutions and per-head parameters; each part named for the notes.
struct ParameterCount {
  double total = 0;
  std::vector<std::pair<std::string, double>> parts;
  std::string missing;  // sizes the config lacks ("" = none)
};
ParameterCount parameter_count(const ModelConfig& cfg);

// A GEMM kernel without shapes, as the assignment sees it.
struct PlanKernel {
  std::string name;  // the entry's name, for notes
  std::optional<double> launches_per_step;
  double t_ms = 0.0;   // per launch
  std::string module;  // innermost modules of the launching op ("" = none)
};

// The figures the assignment needs for the step the kernels ran in.
struct PlanStep {
  double rows = 0;            // M of every projection but lm_head: the step's tokens (or batch)
  double requests = 0;        // M of lm_head
  bool prefill = false;       // pair by FLOPs (prefill) or by bytes (decode)
  double act_bytes = 2.0;     // bytes per activation element
  double weight_bytes = 2.0;  // bytes per weight element
  std::optional<double> peak_bw_bytes_s;  // the feasibility rule's roof
  std::optional<double> sm_count;  // a grid of this many blocks (or a multiple) is persistent
};

// What a kernel's launches say of its output (launch_geometry.hpp): its grid and the tile its
// name states; empty when either is unknown.
struct KernelGeometry {
  std::vector<std::int64_t> grid;
  // The grid read as work-items (docs/method.md §22.4): on a ROCm trace a launch through the
  // module API (Tensile's hipExtModuleLaunchKernel) records the global work size, grid.x /
  // block.x workgroups; empty where grid.x is no multiple of block.x or the trace is no ROCm one.
  std::vector<std::int64_t> grid_workitems;
  std::optional<GemmTile> tile;
  // The projections its place in the layer allows (layer_place.hpp), and which neighbours said so;
  // nullopt when its neighbours mark no place.
  std::optional<std::set<ProjectionKind>> place;
  std::string place_why;
};

// Bytes and FLOPs of one projection at `m` rows: M·K·a + K·N·w + M·N·a and 2·M·N·K.
double projection_bytes(const Projection& p, double m, double act_bytes, double weight_bytes);
double projection_flops(const Projection& p, double m);

// Assigns each kernel (all GEMM kernels of one step without shapes) to a projection: first by
// launches per step (a projection is a candidate when its per-step count equals the kernel's),
// then by module path where every kernel of a group has one, else jointly — the plan variant whose
// projection count equals the group's kernel count, kernels by per-launch time paired with
// projections by bytes (decode) or FLOPs (prefill), each pair checked by the feasibility rule.
// A time tie within 5 %, several fitting variants, or an infeasible pair leaves the kernels
// unassigned with every candidate listed. Parallel to `kernels`.
// `geometry` (parallel to `kernels`, or empty) goes first: a kernel whose grid and place in the
// layer leave exactly one of its candidates — the grid over its tile where it speaks, the place
// where its neighbours mark one, at least one of them — is that projection, the others of its
// group share what is left; a pairing the joint rule makes that a grid or a place contradicts is
// no assignment.
std::vector<ProjectionAssignment> assign_projections(
    const std::vector<PlanKernel>& kernels, const ProjectionPlan& plan, const PlanStep& step,
    const std::vector<KernelGeometry>& geometry = {});

// docs/method.md §22.4, one kernel serving several projections: with the step's rows known, a
// kernel (or one signature of it) whose grid over its tile fits projections of the plan — those its
// module path and its place allow — is the one of them launched as often a step, or, where its
// launches a step are the sum of several fitting projections' counts (out_proj, o_proj and down at
// one grid: their N is the hidden size), exactly that set: `parts` (the `projection` its most
// launched one). A projection may serve two signatures (kv_b called twice a layer). Kernels the
// grid does not decide (no tile, a persistent grid, no fit, several sets) are left as they were.
void assign_by_signature(const std::vector<PlanKernel>& kernels, const ProjectionPlan& plan,
                         const PlanStep& step, const std::vector<KernelGeometry>& geometry,
                         std::vector<ProjectionAssignment>& out);

// The projection kinds a module path allows (the layer classes of vLLM and SGLang inside a model's
// blocks: `DeepseekV2AttentionMLA.RowParallelLinear` is o, `Qwen2MLP.MergedColumnParallelLinear`
// gate_up or the shared experts'); nullopt when the path says nothing.
std::optional<std::set<ProjectionKind>> kinds_from_module(const std::string& module);

// docs/method.md §22.4, rows from the grid: where no figure gives the step's rows, a kernel whose
// launches per step, place in the layer and grid over its tile leave exactly one projection is
// that projection, its rows M the hull of those the grid admits (grid_rows), the top cut where
// the weights and activations would move more bytes than the measured time allows at the
// datasheet bandwidth. `m` the top (taken), `m_lo` the bottom. A kernel left with none or
// several says why in `problem`. Parallel to `kernels`.
std::vector<ProjectionAssignment> assign_by_grid_rows(const std::vector<PlanKernel>& kernels,
                                                      const ProjectionPlan& plan,
                                                      const PlanStep& step,
                                                      const std::vector<KernelGeometry>& geometry);

}  // namespace roofline::analyze
