// Pass display_names (docs/method.md §16.6): the name people know a kernel by — what it
// does (projection, module role or op), then a short kernel tag — on every surface. Pure.
#include "roofline/analyze/steps/display_names.hpp"

#include <algorithm>
#include <map>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "roofline/analyze/entry/head_entry.hpp"
#include "roofline/analyze/models/models.hpp"

namespace roofline::analyze {

namespace display_names_impl {  // named, not anonymous: unity batches share one translation unit

// The role a module's innermost class names, where it is a leaf layer ("" otherwise).
std::string module_role(std::string_view module) {
  const auto dot = module.rfind('.');
  const std::string_view leaf = dot == std::string_view::npos ? module : module.substr(dot + 1);
  const std::string_view parent = dot == std::string_view::npos ? "" : module.substr(0, dot);
  const bool in_attention = contains(parent, "Attention") || contains(parent, "Attn");
  if (leaf == "QKVParallelLinear") return "qkv_proj";
  if (leaf == "MergedColumnParallelLinear") return in_attention ? "" : "gate_up_proj";
  if (leaf == "RowParallelLinear")
    return in_attention ? "o_proj" : parent.empty() ? "" : "down_proj";
  if (leaf == "ReplicatedLinear" && (contains(parent, "MoE") || contains(parent, "Moe")))
    return "router";
  if (leaf == "LogitsProcessor" || leaf == "ParallelLMHead") return "lm_head";
  if (contains(leaf, "RMSNorm") || contains(leaf, "RmsNorm")) return "rms_norm";
  if (contains(leaf, "LayerNorm")) return "layer_norm";
  if (leaf == "RadixAttention" || leaf == "Attention") return "attention";
  if (contains(leaf, "RotaryEmbedding")) return "rope";
  if (leaf == "SiluAndMul" || leaf == "GeluAndMul") return "act_and_mul";
  if (leaf == "FusedMoE") return "experts";
  if (leaf == "VocabParallelEmbedding") return "embedding";
  return "";
}

// An op without its namespace and underscores, the common ones by what they do.
std::string op_role(std::string_view op) {
  if (op.empty() || starts_with(op, "triton_") || starts_with(op, "Torch-Compiled")) return "";
  if (const auto ns = op.rfind("::"); ns != std::string_view::npos) op.remove_prefix(ns + 2);
  while (!op.empty() && op.front() == '_') op.remove_prefix(1);
  while (!op.empty() && op.back() == '_') op.remove_suffix(1);
  if (contains(op, "rmsnorm") || contains(op, "rms_norm")) return "rms_norm";
  if (contains(op, "layer_norm")) return "layer_norm";
  if (contains(op, "rotary")) return "rope";
  if (contains(op, "moe")) return "moe";
  if (contains(op, "attention") || contains(op, "attn")) return "attention";
  if (op.size() > k_max_role) op = op.substr(0, k_max_role);  // ASCII: an op's identifier
  return std::string(op);
}

std::string projection_role(const HeadEntry& e) {
  if (!e.projection || !e.projection->projection) return "";
  if (e.planned_workload) {  // one projection per signature: each named, in the cases' order
    std::string roles;
    for (const ProbeCase& c : e.planned_workload->cases)
      if (!c.planned.empty() && roles.find(c.planned) == std::string::npos)
        roles += (roles.empty() ? "" : " / ") + c.planned;
    if (!roles.empty()) return roles;
  }
  return projection_label(e.projection->projection->kind);
}

}  // namespace display_names_impl

std::string kernel_role(const std::string& module, const std::string& op) {
  std::string role = display_names_impl::module_role(module);
  return role.empty() ? display_names_impl::op_role(op) : role;
}

// Without a projection, module or op (a graph replay, a Top-N without ops), what the kernel does
// by the class it was modelled under: "moe", "gemm", "conv", "attention", an elementwise kind.
std::string class_role(const Classification& c) {
  switch (c.op_class) {
    case OpClass::gemm:
      return c.detail.gemm == GemmKind::conv ? "conv" : "gemm";
    case OpClass::moe:
      return "moe";
    case OpClass::attn:
      return "attention";
    case OpClass::linear_attn:
    case OpClass::ssm:  // the layer it updates (gdn, kda, lightning, mamba1/2), else the class
      switch (c.detail.state) {
        case StateRole::gdn:
        case StateRole::kda:
        case StateRole::lightning:
        case StateRole::mamba1:
        case StateRole::mamba2:
          return to_string(c.detail.state);
        case StateRole::conv:
        case StateRole::conv_prefill:
          return "short conv";
        default:
          return c.op_class == OpClass::ssm ? "state space" : "linear attention";
      }
    case OpClass::comm:
      return "collective";
    case OpClass::elementwise:
      return to_string(c.detail.elementwise);
    case OpClass::unknown:
      break;
  }
  return "";
}

namespace display_names_impl {

// Collectives and copies by their kind, whatever module or op the trace put them under (a graph
// replay's launches can all sit under one module: an all-reduce is never "experts").
std::string kind_role(const HeadEntry& e) {
  if (e.cls.op_class == OpClass::comm) {
    std::string op = e.work.comm ? e.work.comm->op : std::string();
    if (op.empty()) op = detail::collective_op(e.name, e.short_name);
    return op.empty() ? "collective" : op;
  }
  if (e.cls.op_class == OpClass::elementwise &&
      (e.cls.detail.elementwise == ElementwiseKind::copy ||
       e.cls.detail.elementwise == ElementwiseKind::fill))
    return to_string(e.cls.detail.elementwise);
  return "";
}

// At most `max` characters: a list of projections keeps the ones that fit and counts the rest
// ("o_proj / down_proj +4"; at least its first), one word is cut.
std::string fit_role(const std::string& role, std::size_t max) {
  if (code_points(role) <= max) return role;
  std::vector<std::string> parts;
  for (std::size_t at = 0; at <= role.size();) {
    const std::size_t end = std::min(role.find(" / ", at), role.size());
    parts.push_back(role.substr(at, end - at));
    at = end + 3;
  }
  if (parts.size() == 1) return shorten(role, max);
  std::string kept = parts.front();
  std::size_t n = 1;
  for (; n < parts.size(); ++n) {
    const std::string next = kept + " / " + parts[n];
    if (code_points(next) + fmt::format(" +{}", parts.size() - n - 1).size() > max) break;
    kept = next;
  }
  return n == parts.size() ? kept : fmt::format("{} +{}", kept, parts.size() - n);
}

// "role · tag" in at most k_max_display characters less `suffix`'s, then the suffix. The tag
// keeps its own shortening where it can: a list of projections gives way first, then the tag.
std::string compose(const HeadEntry& e, std::string role, const std::string& suffix) {
  const std::size_t room = k_max_display - code_points(suffix);
  if (role.empty()) return kernel_tag(e.short_name, e.demangled, e.name, room) + suffix;
  const std::string tag = kernel_tag(e.short_name, e.demangled, e.name);
  std::size_t role_room = k_max_role;
  if (role.find(" / ") != std::string::npos && code_points(tag) + 3 < room)
    role_room = std::min(role_room, std::max<std::size_t>(room - code_points(tag) - 3, 9));
  role = fit_role(role, role_room);
  const std::string fitted =
      kernel_tag(e.short_name, e.demangled, e.name,
                 room > code_points(role) + 3 ? room - code_points(role) - 3 : 8);
  return (role == fitted ? fitted : fmt::format("{} · {}", role, fitted)) + suffix;
}

}  // namespace display_names_impl

bool is_class_role(std::string_view role) {
  // A collective is named by the collective its name spells (kind_role): its kind, not a role.
  for (std::string_view w :
       {"gemm", "conv", "moe", "attention", "collective", "short conv", "state space",
        "linear attention", "all_reduce", "all_gather", "reduce_scatter", "all_to_all"})
    if (role == w) return true;
  for (StateRole s : {StateRole::gdn, StateRole::kda, StateRole::lightning, StateRole::conv,
                      StateRole::conv_prefill, StateRole::prefill, StateRole::update,
                      StateRole::mamba1, StateRole::mamba2})
    if (role == to_string(s)) return true;
  for (ElementwiseKind k :
       {ElementwiseKind::norm, ElementwiseKind::add_norm, ElementwiseKind::act_and_mul,
        ElementwiseKind::rope, ElementwiseKind::quant, ElementwiseKind::kv_write,
        ElementwiseKind::copy, ElementwiseKind::cat, ElementwiseKind::fill, ElementwiseKind::cast,
        ElementwiseKind::softmax, ElementwiseKind::reduce, ElementwiseKind::index})
    if (role == to_string(k)) return true;
  return false;
}

void display_names(std::vector<HeadEntry>& entries) {
  std::map<std::string, int> count;
  std::vector<std::string> roles;
  for (auto& e : entries) {
    std::string role = display_names_impl::kind_role(e);
    if (role.empty()) role = display_names_impl::projection_role(e);
    if (role.empty()) role = kernel_role(e.module, e.op);
    if (role.empty()) role = class_role(e.cls);
    roles.push_back(role);
    e.display_name = display_names_impl::compose(e, roles.back(), "");
    ++count[e.display_name];
  }
  for (std::size_t i = 0; i < entries.size(); ++i) {
    HeadEntry& e = entries[i];
    if (count[e.display_name] > 1)
      e.display_name = display_names_impl::compose(
          e, roles[i], fmt::format(" #{}", e.rank ? *e.rank : static_cast<long>(e.topn_index) + 1));
  }
}

}  // namespace roofline::analyze
