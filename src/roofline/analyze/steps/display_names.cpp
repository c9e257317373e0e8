// Pass display_names (docs/method.md §16.6): the name people know a kernel by — what it
// does (projection, module role or op), then a short kernel tag — on every surface. Pure.
#include "roofline/analyze/steps/display_names.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <string_view>

#include <fmt/format.h>

#include "roofline/analyze/entry/head_entry.hpp"

namespace roofline::analyze {
namespace display_names_impl {  // named, not anonymous: unity batches share one translation unit

constexpr std::size_t k_max_tag = 36;
constexpr std::size_t k_max_role = 24;

bool contains(std::string_view s, std::string_view part) {
  return s.find(part) != std::string_view::npos;
}

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// `_ZN7ck_tile6kentryILi1E…` -> "ck_tile kentry": the identifiers of a mangled name's prefix.
std::string mangled_prefix(std::string_view m) {
  std::size_t at = starts_with(m, "_ZN") ? 3 : 2;
  while (at < m.size() && (m[at] == 'K' || m[at] == 'V' || m[at] == 'r' || m[at] == 'L')) ++at;
  std::string out;
  while (at < m.size() && std::isdigit(static_cast<unsigned char>(m[at]))) {
    std::size_t len = 0;
    while (at < m.size() && std::isdigit(static_cast<unsigned char>(m[at])))
      len = len * 10 + static_cast<std::size_t>(m[at++] - '0');
    if (len == 0 || at + len > m.size()) break;
    if (!out.empty()) out += ' ';
    out.append(m.substr(at, len));
    at += len;
    if (!starts_with(m, "_ZN")) break;
  }
  return out;
}

// `void at::native::elementwise_kernel<128, 4, …>(…)` -> "elementwise_kernel".
std::string identifier(std::string_view s) {
  if (starts_with(s, "void ")) s.remove_prefix(5);
  s = s.substr(0, std::min(s.find('<'), s.find('(')));
  if (const auto sp = s.rfind(' '); sp != std::string_view::npos) s.remove_prefix(sp + 1);
  if (const auto ns = s.rfind("::"); ns != std::string_view::npos) s.remove_prefix(ns + 2);
  return std::string(s);
}

// A Tensile GEMM's macro tile ("MT256x32x64"), which tells its kernels apart; "" when none.
std::string macro_tile(std::string_view name) {
  for (std::size_t at = name.find("_MT"); at != std::string_view::npos;
       at = name.find("_MT", at + 1)) {
    std::size_t end = at + 3;
    while (end < name.size() &&
           (std::isdigit(static_cast<unsigned char>(name[end])) || name[end] == 'x'))
      ++end;
    if (end > at + 3) return std::string(name.substr(at + 1, end - at - 1));
  }
  return "";
}

// At most k_max_tag characters. A longer name keeps its head and its tail, each cut at an '_', with
// an ellipsis between: the tail is what tells a library's or a compiler's kernels of one family
// apart (Triton's `…_swiglu`, Inductor's `…_rsqrt_4`).
std::string shorten(std::string s) {
  if (s.size() <= k_max_tag) return s;
  constexpr std::size_t head_max = 22, tail_max = 13;
  auto utf8_start = [&](std::size_t at) {
    while (at > 0 && (static_cast<unsigned char>(s[at]) & 0xC0) == 0x80) --at;
    return at;
  };
  std::size_t cut = s.rfind('_', head_max);
  if (cut == std::string::npos || cut < head_max / 2) cut = head_max;
  cut = utf8_start(cut);
  std::size_t tail = s.find('_', s.size() - tail_max);
  if (tail == std::string::npos || tail <= cut) tail = utf8_start(s.size() - tail_max);
  return s.substr(0, cut) + "…" + s.substr(tail);
}

// A generic launch wrapper (CUTLASS's `cutlass::Kernel<Op>`, `Kernel2<Op>`, CUTLASS 3's
// `device_kernel<Op>`): its name says nothing; the operator it wraps does.
// Also ck_tile's `kentry<Arch, MinBlocks, Kernel>` and the SM guards vLLM and CUTLASS wrap a kernel
// in (`enable_sm90_or_later<Op>`, `enable_sm120_only<Op>`).
bool is_wrapper(std::string_view id) {
  return id == "Kernel" || id == "Kernel2" || id == "device_kernel" || id == "kentry" ||
         starts_with(id, "enable_sm");
}

// A demangled name's last identifier, the namespace or class before it and its template
// arguments: `void gemvx::kernel<int, int, …>(…)` -> {"gemvx", "kernel", "int, int, …"}. The
// return type (`std::enable_if<…>::type`) ends at the last space outside brackets.
struct Parsed {
  std::string_view qualifier, ident, args;
};

Parsed parse_demangled(std::string_view s) {
  int depth = 0;
  std::size_t start = 0, args_begin = std::string_view::npos, args_end = std::string_view::npos;
  std::size_t end = s.size();
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '<') {
      if (depth++ == 0) args_begin = i + 1;
    } else if (c == '>' && depth > 0 && !(i > 0 && s[i - 1] == '-')) {
      if (--depth == 0) args_end = i;
    } else if (depth == 0 && c == ' ') {
      start = i + 1;
      args_begin = args_end = std::string_view::npos;
    } else if (depth == 0 && c == '(') {
      if (s.substr(i, 21) == "(anonymous namespace)") {
        i += 20;
        continue;
      }
      end = i;
      break;
    }
  }
  Parsed out;
  std::string_view name = s.substr(start, end - start);
  if (args_begin != std::string_view::npos && args_end != std::string_view::npos &&
      args_begin > start && args_end < end) {
    out.args = s.substr(args_begin, args_end - args_begin);
    name = s.substr(start, args_begin - 1 - start);
  }
  const auto ns = name.rfind("::");
  out.ident = ns == std::string_view::npos ? name : name.substr(ns + 2);
  if (ns != std::string_view::npos) {
    const std::string_view outer = name.substr(0, ns);
    const auto ns2 = outer.rfind("::");
    out.qualifier = ns2 == std::string_view::npos ? outer : outer.substr(ns2 + 2);
  }
  return out;
}

bool is_scalar_type(std::string_view t) {
  for (std::string_view w :
       {"int", "unsigned", "long", "short", "char", "float", "double", "bool", "signed", "__half",
        "__nv_", "half", "c10::", "cutlass::half", "cutlass::bfloat16", "true", "false"})
    if (starts_with(t, w)) return true;
  return false;
}

// The kernel a wrapper's template arguments name: the first argument that is a type, not a
// number, a scalar type or an arch tag (ck_tile's `gfx950_t`).
std::string_view operator_argument(std::string_view args) {
  int depth = 0;
  std::size_t begin = 0;
  for (std::size_t i = 0; i <= args.size(); ++i) {
    const char c = i < args.size() ? args[i] : ',';
    if (c == '<' || c == '(' || c == '[') ++depth;
    if (c == '>' || c == ')' || c == ']') --depth;
    if (c != ',' || depth > 0) continue;
    std::string_view arg = args.substr(begin, i - begin);
    begin = i + 1;
    while (!arg.empty() && arg.front() == ' ') arg.remove_prefix(1);
    while (!arg.empty() && arg.back() == ' ') arg.remove_suffix(1);
    if (arg.empty() ||
        !(std::isalpha(static_cast<unsigned char>(arg.front())) || arg.front() == '_'))
      continue;
    if (is_scalar_type(arg)) continue;
    const std::string_view id = parse_demangled(arg).ident;
    if (starts_with(id, "gfx") && id.size() > 2 && id.substr(id.size() - 2) == "_t") continue;
    return arg;
  }
  return {};
}

// The tag a demangled name gives by its library's grammar: a wrapper by what it wraps (nested
// wrappers too: `device_kernel<enable_sm90_or_later<GemmUniversal<…>>>` -> "GemmUniversal"), a
// kernel called just `kernel` by its namespace (cuBLAS's `gemvx::kernel<…>` -> "gemvx").
std::string demangled_tag(std::string_view s) {
  for (int hop = 0; hop < 6; ++hop) {
    const Parsed p = parse_demangled(s);
    if (p.ident.empty()) return "";
    if (is_wrapper(p.ident)) {
      const std::string_view op = operator_argument(p.args);
      if (!op.empty()) {
        s = op;
        continue;
      }
    }
    if (is_wrapper(p.ident)) return "";  // its argument not written out: the mangled name may say
    if (p.ident == "kernel" && !p.qualifier.empty()) return std::string(p.qualifier);
    return std::string(p.ident);
  }
  return "";
}

// The identifier of a wrapper's first template argument: from the demangled name
// (`cutlass::Kernel2<cutlass_80_tensorop_…>` -> "cutlass_80_tensorop_…") or, where only its prefix
// was read, from the mangled one (`_ZN7cutlass6KernelINS_4gemm6kernel9MoeFCGemmI…` -> "MoeFCGemm").
std::string wrapped_operator(std::string_view demangled, std::string_view mangled,
                             std::string_view wrapper) {
  if (const auto lt = demangled.find('<'); lt != std::string_view::npos) {
    std::string_view arg = demangled.substr(lt + 1);
    arg = arg.substr(0, std::min({arg.find('<'), arg.find(','), arg.find('>')}));
    if (const auto ns = arg.rfind("::"); ns != std::string_view::npos) arg.remove_prefix(ns + 2);
    return std::string(arg);
  }
  const std::string coded = std::to_string(wrapper.size()) + std::string(wrapper) + "I";
  std::size_t at = mangled.find(coded);
  if (at == std::string_view::npos) return "";
  at += coded.size();
  if (at < mangled.size() && mangled[at] == 'N') ++at;
  if (at < mangled.size() && mangled[at] == 'S') {  // a substitution (S_, S0_, …): skipped
    const auto end = mangled.find('_', at);
    if (end == std::string_view::npos) return "";
    at = end + 1;
  }
  std::string last;
  while (at < mangled.size() && std::isdigit(static_cast<unsigned char>(mangled[at]))) {
    std::size_t len = 0;
    while (at < mangled.size() && std::isdigit(static_cast<unsigned char>(mangled[at])))
      len = len * 10 + static_cast<std::size_t>(mangled[at++] - '0');
    if (len == 0 || at + len > mangled.size()) break;
    last = std::string(mangled.substr(at, len));
    at += len;
  }
  return last;
}

// topn's tie suffix ("kernel#2": two kernels with one short name), cut from `base` and returned,
// so the grammar's rules see the name itself and the suffix stays beside the tag they give.
std::string split_tie(std::string& base) {
  const auto hash = base.rfind('#');
  if (hash == std::string::npos || hash + 1 >= base.size() ||
      !std::all_of(base.begin() + static_cast<std::ptrdiff_t>(hash) + 1, base.end(),
                   [](unsigned char c) { return std::isdigit(c) != 0; }))
    return "";
  std::string tie = base.substr(hash);
  base.resize(hash);
  return tie;
}

std::string strip_clone(std::string s) {
  for (std::string_view suffix : {" [clone .kd]", ".kd"})
    if (s.size() > suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0)
      s.resize(s.size() - suffix.size());
  return s;
}

}  // namespace display_names_impl

std::string kernel_tag(const std::string& short_name, const std::string& demangled,
                       const std::string& name) {
  std::string base = display_names_impl::strip_clone(short_name.empty() ? name : short_name);
  if (display_names_impl::starts_with(base, "Cijk_")) {
    const std::string tile = display_names_impl::macro_tile(base).empty()
                                 ? display_names_impl::macro_tile(name)
                                 : display_names_impl::macro_tile(base);
    return tile.empty() ? display_names_impl::shorten(base) : "Cijk " + tile;
  }
  if (display_names_impl::starts_with(base, "_Z")) {
    std::string prefix = display_names_impl::mangled_prefix(base);
    if (prefix.empty() && !demangled.empty()) prefix = display_names_impl::identifier(demangled);
    return display_names_impl::shorten(prefix.empty() ? base : prefix);
  }
  if (display_names_impl::contains(base, "(") || display_names_impl::contains(base, "<") ||
      display_names_impl::contains(base, "::"))
    if (std::string id = display_names_impl::identifier(base); !id.empty()) base = id;
  const std::string tie = display_names_impl::split_tie(base);
  if (display_names_impl::is_wrapper(base) || base == "kernel") {
    std::string_view readable = demangled;
    if (readable.empty() && !display_names_impl::starts_with(name, "_Z")) readable = name;
    std::string op = readable.empty() ? "" : display_names_impl::demangled_tag(readable);
    if (op.empty() || op == base) op = display_names_impl::wrapped_operator(readable, name, base);
    if (!op.empty()) base = op;
  }
  return display_names_impl::shorten(base) + tie;
}

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
  if (op.size() > k_max_role) op = op.substr(0, k_max_role);
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

bool is_class_role(std::string_view role) {
  for (std::string_view w : {"gemm", "conv", "moe", "attention", "collective", "short conv",
                             "state space", "linear attention"})
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
  for (auto& e : entries) {
    const std::string tag = kernel_tag(e.short_name, e.demangled, e.name);
    std::string role = display_names_impl::projection_role(e);
    if (role.empty()) role = kernel_role(e.module, e.op);
    if (role.empty()) role = class_role(e.cls);
    e.display_name = role.empty() || role == tag ? tag : fmt::format("{} · {}", role, tag);
    ++count[e.display_name];
  }
  for (auto& e : entries)
    if (count[e.display_name] > 1)
      e.display_name += fmt::format(" #{}", e.rank ? *e.rank : static_cast<long>(e.topn_index) + 1);
}

}  // namespace roofline::analyze
