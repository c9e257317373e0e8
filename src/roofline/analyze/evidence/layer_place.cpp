// The order of a step (docs/method.md §22.4): a shapeless GEMM's place in its layer from the
// kernels beside it.
#include "roofline/analyze/evidence/layer_place.hpp"

#include <algorithm>
#include <initializer_list>
#include <string_view>

#include <fmt/format.h>

#include "roofline/base/units.hpp"

namespace roofline::analyze {
namespace {

using K = ProjectionKind;

// A neighbour's role, from its class as the shipped tables name it ("elementwise:add_norm+rows").
enum class Role { none, norm, add_norm, act_and_mul, router_softmax, attention, mixer, attn_prep };

Role role_of(const CaseNeighbour& n) {
  const std::string_view c = n.cls;
  const auto is = [&](std::string_view p) {
    return c.substr(0, p.size()) == p && (c.size() == p.size() || c[p.size()] == '+');
  };
  if (is("elementwise:norm")) return Role::norm;
  if (is("elementwise:add_norm")) return Role::add_norm;
  if (is("elementwise:act_and_mul")) return Role::act_and_mul;
  if (is("elementwise:softmax")) return Role::router_softmax;
  if (is("elementwise:rope") || is("elementwise:kv_write")) return Role::attn_prep;
  if (c.substr(0, 4) == "attn" && c != "attn:decode_reduce" && c != "attn:indexer")
    return Role::attention;
  if (c == "attn:decode_reduce") return Role::attention;  // the split-KV combine ends attention
  if (c.substr(0, 11) == "linear_attn" || c.substr(0, 3) == "ssm") return Role::mixer;
  return Role::none;
}

std::set<K> kinds(std::initializer_list<K> ks) {
  return std::set<K>(ks);
}

// What a kernel right before the GEMM says of it.
std::optional<std::pair<std::set<K>, const char*>> after_role(Role r) {
  switch (r) {
    case Role::norm:  // the layer's input projections; a gated norm feeds a mixer's out_proj
    case Role::add_norm:
      return std::pair{kinds({K::qkv,
                              K::q,
                              K::k,
                              K::v,
                              K::q_a,
                              K::q_b,
                              K::kv_a,
                              K::kv_b,
                              K::qkv_a,
                              K::gate_up,
                              K::gate,
                              K::up,
                              K::shared_gate_up,
                              K::router,
                              K::la_qkvz,
                              K::la_ba,
                              K::ssm_in,
                              K::lm_head,
                              K::la_out,
                              K::ssm_out}),
                       "reads a normalized hidden state"};
    case Role::attention:  // its output projection (MLA: the value up-projection first)
      return std::pair{kinds({K::o, K::kv_b}), "reads attention's output"};
    case Role::mixer:  // Mamba-1's x_proj reads its convolution's output
      return std::pair{kinds({K::la_out, K::ssm_out, K::ssm_x}), "reads the mixer's output"};
    case Role::act_and_mul:
      return std::pair{kinds({K::down, K::shared_down}), "reads the activation's output"};
    default:
      return std::nullopt;
  }
}

// What a kernel right after the GEMM says of it.
std::optional<std::pair<std::set<K>, const char*>> before_role(Role r) {
  switch (r) {
    case Role::act_and_mul:
      return std::pair{kinds({K::gate_up, K::gate, K::up, K::shared_gate_up}),
                       "feeds an activation-and-multiply"};
    case Role::router_softmax:  // the router's top-k, or the sampler's softmax after lm_head
      return std::pair{kinds({K::router, K::lm_head}),
                       "feeds a softmax (the router's or the sampler's)"};
    case Role::add_norm:  // written into the residual stream
      return std::pair{kinds({K::o, K::down, K::shared_down, K::la_out, K::ssm_out}),
                       "is added into the residual stream"};
    case Role::attn_prep:
    case Role::attention:
      return std::pair{
          kinds({K::qkv, K::q, K::k, K::v, K::q_a, K::q_b, K::kv_a, K::kv_b, K::qkv_a}),
          "feeds attention"};
    case Role::mixer:
      return std::pair{kinds({K::la_qkvz, K::la_ba, K::ssm_in, K::ssm_x, K::ssm_dt}),
                       "feeds the mixer"};
    default:
      return std::nullopt;
  }
}

}  // namespace

std::optional<LayerPlace> layer_place(const CaseNeighbour* before, const CaseNeighbour* after) {
  std::optional<LayerPlace> place;
  const auto narrow = [&](const std::optional<std::pair<std::set<K>, const char*>>& said,
                          const CaseNeighbour& n, const char* side) {
    if (!said) return;
    const std::string why = fmt::format("{} {} ({}): it {}", side, n.kernel, n.cls, said->second);
    if (!place) {
      place = LayerPlace{said->first, why};
      return;
    }
    std::set<K> both;
    std::set_intersection(place->allowed.begin(), place->allowed.end(), said->first.begin(),
                          said->first.end(), std::inserter(both, both.begin()));
    place->allowed = std::move(both);
    place->why += "; " + why;
  };
  if (before) narrow(after_role(role_of(*before)), *before, "after");
  if (after) narrow(before_role(role_of(*after)), *after, "before");
  return place;
}

namespace {

std::string per_block_text(const CaseNeighbour& n) {
  return n.rows_per_block ? fmt::format("{} rows a block", format_g(*n.rows_per_block))
                          : std::string("one block per row");
}

NeighbourRows rows_of(const CaseNeighbour& n) {
  const double top = *n.rows, r = n.rows_per_block.value_or(1.0);
  return NeighbourRows{std::max(1.0, top - r + 1.0), top};
}

}  // namespace

std::optional<NeighbourRows> neighbour_rows(const CaseNeighbour* before, const CaseNeighbour* after,
                                            std::string& why) {
  if (before && before->rows) {
    const Role r = role_of(*before);
    if (r == Role::norm || r == Role::add_norm) {
      why = fmt::format("grid.x of {} before it: {}, its output this GEMM's input", before->kernel,
                        per_block_text(*before));
      return rows_of(*before);
    }
  }
  if (after && after->rows && role_of(*after) == Role::act_and_mul) {
    why = fmt::format("grid.x of {} after it: {}, its input this GEMM's output", after->kernel,
                      per_block_text(*after));
    return rows_of(*after);
  }
  return std::nullopt;
}

}  // namespace roofline::analyze
