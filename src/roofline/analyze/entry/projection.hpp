#pragma once
// A projection of the config's linear plan (docs/method.md §22.4), and what plan_shapeless_gemms
// assigned a kernel without shapes.
#include <optional>
#include <string>
#include <vector>

#include "roofline/analyze/layer.hpp"

namespace roofline::analyze {

enum class ProjectionKind {
  qkv,
  q,
  k,
  v,
  o,  // attention (per softmax-attention layer)
  q_a,
  q_b,
  kv_a,
  kv_b,   // MLA low-rank projections (o is shared with the above)
  qkv_a,  // MLA's q_a and kv_a fused (SGLang's fused_qkv_a_proj_with_mqa, vLLM's fused_qkv_a_proj)
  gate_up,
  gate,
  up,
  down,  // dense FFN (per dense layer)
  shared_gate_up,
  shared_down,  // shared experts (per MoE layer)
  router,       // MoE router (per MoE layer)
  lm_head,      // logits (once per step; its rows are the step's requests)
  la_qkvz,      // Gated DeltaNet in_proj_qkvz: q, k, v and the output gate z
  la_ba,        // Gated DeltaNet in_proj_ba: the per-head beta and alpha
  la_out,       // Gated DeltaNet out_proj (per linear-attention layer)
  ssm_in,       // Mamba in_proj: x and z (mamba2 also B, C and dt)
  ssm_x,        // Mamba-1 x_proj: dt_rank + 2·d_state
  ssm_dt,       // Mamba-1 dt_proj
  ssm_out,      // Mamba out_proj (per state-space layer)
};
const char* to_string(ProjectionKind k);
// A projection as people name it: `q_proj`, `down_proj`; the router, lm_head and the linear-
// attention and state-space modules as their models name them (`in_proj_qkvz`, `x_proj`).
std::string projection_label(ProjectionKind k);

// One projection of the plan: y[M, N] = x[M, K] · W[K, N] on one rank.
struct Projection {
  ProjectionKind kind = ProjectionKind::qkv;
  double n = 0, k = 0;             // per rank (column-parallel N / tp, row-parallel K / tp)
  double per_step = 0;             // launches per step: the layers carrying it (1 for lm_head)
  std::string sharding;            // "column-parallel: N = 6144 / tp 1", for notes
  bool rows_are_requests = false;  // lm_head: the step's requests, not its tokens
};

// What the assignment decided for one kernel.
struct ProjectionAssignment {
  std::optional<Projection> projection;  // set: the kernel is this projection
  double m = 0;                          // its rows
  // Set where no step figure gives the rows and the grid bounds them (assign_by_grid_rows): `m`
  // is the most rows the grid (and the measured time) allow, `m_lo` the fewest — a band of two
  // readings (docs/method.md §10.8, source `grid_rows`); `rows_why` the arithmetic.
  std::optional<double> m_lo;
  std::string rows_why;
  // Set where the kernel (one signature of it) serves several projections at one grid, its
  // launches a step their counts' sum (assign_by_signature): each part its own projection.
  std::vector<Projection> parts;
  std::vector<double> part_m;          // each part's rows (lm_head's are the step's requests)
  std::vector<Projection> candidates;  // every projection it could be
  std::string how;                     // "by launches per step: ...", "jointly: ..."
  std::string problem;                 // set when no projection is assigned (L2 reason)
};

}  // namespace roofline::analyze
