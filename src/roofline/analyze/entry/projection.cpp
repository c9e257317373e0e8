// The names of the projections (docs/method.md §22.4).
#include "roofline/analyze/entry/projection.hpp"

namespace roofline::analyze {

std::string projection_label(ProjectionKind k) {
  switch (k) {
    case ProjectionKind::router:
    case ProjectionKind::lm_head:
      return to_string(k);
    case ProjectionKind::la_qkvz:
      return "in_proj_qkvz";
    case ProjectionKind::la_ba:
      return "in_proj_ba";
    case ProjectionKind::la_out:
    case ProjectionKind::ssm_out:
      return "out_proj";
    case ProjectionKind::ssm_in:
      return "in_proj";
    case ProjectionKind::ssm_x:
      return "x_proj";
    case ProjectionKind::ssm_dt:
      return "dt_proj";
    case ProjectionKind::qkv_a:
      return "fused_qkv_a_proj";
    default:
      return std::string(to_string(k)) + "_proj";
  }
}

const char* to_string(ProjectionKind k) {
  switch (k) {
    case ProjectionKind::qkv:
      return "qkv";
    case ProjectionKind::q:
      return "q";
    case ProjectionKind::k:
      return "k";
    case ProjectionKind::v:
      return "v";
    case ProjectionKind::o:
      return "o";
    case ProjectionKind::q_a:
      return "q_a";
    case ProjectionKind::q_b:
      return "q_b";
    case ProjectionKind::kv_a:
      return "kv_a";
    case ProjectionKind::kv_b:
      return "kv_b";
    case ProjectionKind::qkv_a:
      return "qkv_a";
    case ProjectionKind::gate_up:
      return "gate_up";
    case ProjectionKind::gate:
      return "gate";
    case ProjectionKind::up:
      return "up";
    case ProjectionKind::down:
      return "down";
    case ProjectionKind::shared_gate_up:
      return "shared_gate_up";
    case ProjectionKind::shared_down:
      return "shared_down";
    case ProjectionKind::router:
      return "router";
    case ProjectionKind::lm_head:
      return "lm_head";
    case ProjectionKind::la_qkvz:
      return "la_qkvz";
    case ProjectionKind::la_ba:
      return "la_ba";
    case ProjectionKind::la_out:
      return "la_out";
    case ProjectionKind::ssm_in:
      return "ssm_in";
    case ProjectionKind::ssm_x:
      return "ssm_x";
    case ProjectionKind::ssm_dt:
      return "ssm_dt";
    case ProjectionKind::ssm_out:
      return "ssm_out";
  }
  return "qkv";
}

}  // namespace roofline::analyze
