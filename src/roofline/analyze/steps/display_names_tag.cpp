// docs/method.md §16.6: a kernel's tag by its library's grammar — a Tensile GEMM's macro tile, a
// mangled name's qualified prefix, a wrapper by what it wraps, CK's FMHA by its pipeline and
// mask — made short the one way every surface shows it. Pure.
#include <algorithm>
#include <cctype>
#include <optional>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "roofline/analyze/steps/display_names.hpp"

namespace roofline::analyze {
namespace display_names_impl {  // named, not anonymous: unity batches share one translation unit

bool contains(std::string_view s, std::string_view part) {
  return s.find(part) != std::string_view::npos;
}

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// The length-prefixed identifier of a mangled name at `at` ("7ck_tile" -> "ck_tile"), `at` moved
// past it; nullopt where none stands there.
std::optional<std::string_view> mangled_identifier(std::string_view m, std::size_t& at) {
  if (at >= m.size() || !std::isdigit(static_cast<unsigned char>(m[at]))) return std::nullopt;
  std::size_t len = 0;
  while (at < m.size() && std::isdigit(static_cast<unsigned char>(m[at])))
    len = len * 10 + static_cast<std::size_t>(m[at++] - '0');
  if (len == 0 || at + len > m.size()) return std::nullopt;
  at += len;
  return m.substr(at - len, len);
}

// `_ZN7ck_tile6kentryILi1E…` -> "ck_tile kentry": the identifiers of a mangled name's prefix.
std::string mangled_prefix(std::string_view m) {
  std::size_t at = starts_with(m, "_ZN") ? 3 : 2;
  while (at < m.size() && (m[at] == 'K' || m[at] == 'V' || m[at] == 'r' || m[at] == 'L')) ++at;
  std::string out;
  while (const auto id = mangled_identifier(m, at)) {
    if (!out.empty()) out += ' ';
    out.append(*id);
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

std::size_t code_points(std::string_view s) {
  return static_cast<std::size_t>(std::count_if(
      s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

// At most `max` characters (code points). A longer name keeps its head and its tail, each cut at
// an '_', with an ellipsis between: the tail is what tells a library's or a compiler's kernels of
// one family apart (Triton's `…_swiglu`, Inductor's `…_rsqrt_4`). The one cut every surface
// shows (docs/method.md §16.6).
std::string shorten(std::string s, std::size_t max) {
  const std::size_t total = code_points(s);
  if (total <= max || max < 8) return s;
  // The byte offset where the `n`-th code point starts (s.size() past the last).
  const auto byte_at = [&](std::size_t n) {
    std::size_t at = 0, seen = 0;
    for (; at < s.size(); ++at)
      if ((static_cast<unsigned char>(s[at]) & 0xC0) != 0x80 && seen++ == n) break;
    return at;
  };
  // The tail first (about a third, from an '_'), then the head takes the room left.
  const std::size_t tail_max = max - 1 - max * 22 / 36;
  const std::size_t tail_begin = byte_at(total - tail_max);
  std::size_t tail = s.find('_', tail_begin);
  if (tail == std::string::npos) tail = tail_begin;
  const std::size_t head_max = max - 1 - code_points(std::string_view(s).substr(tail));
  const std::size_t head_end = byte_at(head_max);
  std::size_t cut = s.rfind('_', head_end);
  if (cut == std::string::npos || cut < head_end / 2) cut = head_end;
  return s.substr(0, cut) + "…" + s.substr(std::max(tail, cut));
}

// ck_tile's FMHA forward kernel (`FmhaFwdKernel<BlockFmhaPipelineQRKSVSAsync<Problem<…,
// SimplifiedGenericAttentionMask<true>, …>>, …>`), demangled or mangled: its pipeline and its mask,
// as CK's own kernel names spell them ("FmhaFwd qr_async mask"); "" for any other kernel.
std::string fmha_tag(std::string_view text) {
  const auto kernel = text.find("FmhaFwd");
  const auto pipe = text.find("BlockFmhaPipeline");
  if (kernel == std::string_view::npos || pipe == std::string_view::npos) return "";
  std::size_t end = pipe + 17;
  while (end < text.size() && std::isalnum(static_cast<unsigned char>(text[end])) &&
         !(text[end] == 'I' && end + 1 < text.size() && text[end + 1] == 'N'))
    ++end;
  std::string_view p = text.substr(pipe + 17, end - pipe - 17);
  std::string pipeline = starts_with(p, "QRKSVS") ? "qr" : starts_with(p, "QSKSVS") ? "qs" : "";
  if (!pipeline.empty()) p.remove_prefix(6);
  for (char c : p) {
    if (std::isupper(static_cast<unsigned char>(c)) && !pipeline.empty()) pipeline += '_';
    pipeline += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  // SimplifiedGenericAttentionMask<IsMasking> / GenericAttentionMask<IsMasking, IsLocal>, in
  // either spelling: `<true` / `ILb1E`.
  std::string mask;  // the template names none: nothing said
  if (const auto m = text.find("AttentionMask"); m != std::string_view::npos) {
    const std::string_view args = text.substr(m + 13, 16);
    const bool on = starts_with(args, "<true") || starts_with(args, "ILb1E");
    const bool local = args.find("true, true") != std::string_view::npos ||
                       args.find("Lb1ELb1E") != std::string_view::npos;
    mask = !on ? " no mask" : local ? " local mask" : " mask";
  }
  return fmt::format("FmhaFwd {}{}", pipeline.empty() ? std::string(p) : pipeline, mask);
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
  while (const auto id = mangled_identifier(mangled, at)) last = std::string(*id);
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
  return kernel_tag(short_name, demangled, name, display_names_impl::k_max_tag);
}

std::string kernel_tag(const std::string& short_name, const std::string& demangled,
                       const std::string& name, std::size_t max_chars) {
  const auto shorten = [&](std::string s) { return display_names_impl::shorten(s, max_chars); };
  // ck_tile's FMHA by its pipeline and mask, whatever its short name kept (an older topn kept
  // the arch tag `gfx9_t`).
  if (std::string fmha = display_names_impl::fmha_tag(demangled.empty() ? name : demangled);
      !fmha.empty())
    return shorten(fmha);
  std::string base = display_names_impl::strip_clone(short_name.empty() ? name : short_name);
  if (display_names_impl::starts_with(base, "Cijk_")) {
    const std::string tile = display_names_impl::macro_tile(base).empty()
                                 ? display_names_impl::macro_tile(name)
                                 : display_names_impl::macro_tile(base);
    return tile.empty() ? shorten(base) : "Cijk " + tile;
  }
  if (display_names_impl::starts_with(base, "_Z")) {
    std::string prefix = display_names_impl::mangled_prefix(base);
    if (prefix.empty() && !demangled.empty()) prefix = display_names_impl::identifier(demangled);
    return shorten(prefix.empty() ? base : prefix);
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
  return display_names_impl::shorten(base, max_chars > tie.size() ? max_chars - tie.size() : 0) +
         tie;
}

}  // namespace roofline::analyze
