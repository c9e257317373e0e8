// `short_name` (docs/method.md §22.7): the kernel's own identifier, without return type (a
// `std::enable_if<…>::type` included), namespaces, template and argument lists, but with what
// tells library kernels of one family apart: a Tensile `Cijk_…` name keeps its layout, type prefix
// and macro tile, a ck_tile `kentry<…>` its kernel class. Within one Top-N every short name is
// made unique (`#2`, `#3` for a remaining tie).
#include <map>
#include <vector>

#include "roofline/topn/layer.hpp"
#include "roofline/topn/names/names.hpp"

namespace roofline::topn {
namespace {

constexpr std::string_view k_anon = "(anonymous namespace)";
constexpr std::size_t k_tensile_head_tokens = 4;  // Cijk, A layout, B layout, types

std::string_view trim_blank(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool is_ident_start(char c) {
  return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

// `MT<m>x<n>[x<k>]`, Tensile's macro tile.
bool is_macro_tile(std::string_view t) {
  if (t.size() < 5 || t.substr(0, 2) != "MT") return false;
  bool digit = false;
  for (char c : t.substr(2)) {
    if (c >= '0' && c <= '9')
      digit = true;
    else if (c != 'x' || !digit)
      return false;
    else
      digit = false;
  }
  return digit;
}

// Tensile (hipBLASLt / rocBLAS) `Cijk_Alik_Bljk_BBS_BH_…_MT256x32x64_MI16x16x1_…`: the layout
// and type tokens and the macro tile. nullopt when the name is not one.
std::optional<std::string> tensile_short_name(std::string_view s) {
  if (s.substr(0, 3) != "Cij" || s.find_first_of(" <(:") != std::string_view::npos)
    return std::nullopt;
  std::vector<std::string_view> tokens;
  for (std::size_t at = 0; at <= s.size();) {
    const std::size_t end = std::min(s.find('_', at), s.size());
    tokens.push_back(s.substr(at, end - at));
    at = end + 1;
  }
  if (tokens.size() <= k_tensile_head_tokens) return std::string(s);
  std::string out;
  for (std::size_t i = 0; i < k_tensile_head_tokens; ++i) out += std::string(tokens[i]) + "_";
  for (std::size_t i = k_tensile_head_tokens; i < tokens.size(); ++i)
    if (is_macro_tile(tokens[i])) return out + std::string(tokens[i]);
  out.pop_back();
  return out;
}

struct Scan {
  std::string ident;               // the last identifier seen at the top level
  std::string_view template_args;  // the top-level template argument list that follows it
  bool args_belong_to_ident = false;
};

// Walks a demangled C++ name at bracket depth 0: every space, `::`, `*`, `&` or `,` ends the
// identifier seen so far (a return type, qualifier or namespace), the argument list ends the walk.
// Inside `( )`, `[ ]` and `{ }` the signs `<` `>` are operators; inside `< >` a `->` or `>=` is.
Scan scan_name(std::string_view s) {
  Scan out;
  std::vector<char> stack;
  std::size_t template_begin = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (stack.empty()) {
      if (c == '(' && s.substr(i, k_anon.size()) == k_anon) {
        i += k_anon.size() - 1;
        continue;
      }
      if (c == '(') break;  // the argument list
      if (c == '<' || c == '[' || c == '{') {
        stack.push_back(c);
        template_begin = i + 1;
        out.args_belong_to_ident = false;
        out.template_args = {};
        continue;
      }
      if (c == ' ' || c == ':' || c == '*' || c == '&' || c == ',') {
        out.ident.clear();
        out.template_args = {};
      } else if (c != '>' && c != ')' && c != ']' && c != '}') {
        out.ident += c;
      }
      continue;
    }
    const char top = stack.back();
    if (c == '(' || c == '[' || c == '{') {
      stack.push_back(c);
    } else if ((c == ')' && top == '(') || (c == ']' && top == '[') || (c == '}' && top == '{')) {
      stack.pop_back();
    } else if (top == '<' && c == '<') {
      stack.push_back(c);
    } else if (top == '<' && c == '>' && !(i > 0 && s[i - 1] == '-') &&
               !(i + 1 < s.size() && s[i + 1] == '=')) {
      stack.pop_back();
    }
    if (stack.empty() && c == '>') {
      out.template_args = s.substr(template_begin, i - template_begin);
      out.args_belong_to_ident = !out.ident.empty();
    }
  }
  if (!out.args_belong_to_ident) out.template_args = {};
  return out;
}

// ck_tile's arch tag (`ck_tile::gfx9_t`, `gfx950_t`): a type argument that names no kernel.
bool arch_tag(std::string_view arg) {
  if (const auto ns = arg.rfind("::"); ns != std::string_view::npos) arg.remove_prefix(ns + 2);
  return arg.size() > 5 && arg.substr(0, 3) == "gfx" && arg.substr(arg.size() - 2) == "_t";
}

// The first type argument of a template argument list that is not an arch tag
// ("ck_tile::gfx9_t, 1, ck_tile::FmhaFwdKernel<…>, …" -> "ck_tile::FmhaFwdKernel<…>"), or "".
std::string_view first_type_argument(std::string_view args) {
  int depth = 0;
  std::size_t begin = 0;
  for (std::size_t i = 0; i <= args.size(); ++i) {
    const char c = i < args.size() ? args[i] : ',';
    if (c == '<' || c == '(' || c == '[' || c == '{') ++depth;
    if (c == '>' || c == ')' || c == ']' || c == '}') --depth;
    if (c != ',' || depth > 0) continue;
    const std::string_view arg = trim_blank(args.substr(begin, i - begin));
    begin = i + 1;
    if (!arg.empty() && is_ident_start(arg.front()) && arg != "true" && arg != "false" &&
        !arch_tag(arg))
      return arg;
  }
  return {};
}

}  // namespace

std::string kernel_short_name(std::string_view name, GpuEventKind kind) {
  std::string_view s = trim_blank(name);
  if (kind != GpuEventKind::kernel) {  // "Memcpy DtoD (Device -> Device)" -> "Memcpy DtoD"
    if (auto p = s.find(" ("); p != std::string_view::npos) s = trim_blank(s.substr(0, p));
    return std::string(s);
  }
  if (auto p = s.find(" [clone"); p != std::string_view::npos) s = trim_blank(s.substr(0, p));
  if (s.size() > 3 && s.substr(s.size() - 3) == ".kd") s.remove_suffix(3);
  if (auto tensile = tensile_short_name(s)) return *tensile;
  const Scan scan = scan_name(s);
  if (scan.ident.empty()) return std::string(s);
  if (scan.ident == "kentry") {  // ck_tile's generic entry point: the kernel is its argument
    const std::string_view kernel = first_type_argument(scan.template_args);
    if (!kernel.empty()) {
      const std::string inner = kernel_short_name(kernel, kind);
      if (!inner.empty() && inner != "kentry") return inner;
    }
  }
  return scan.ident;
}

void make_short_names_unique(std::vector<TopnEntry>& entries) {
  std::map<std::string, std::size_t> seen;
  for (const TopnEntry& e : entries) seen.emplace(e.short_name, 0);
  for (TopnEntry& e : entries) {
    std::size_t& n = seen[e.short_name];
    if (++n == 1) continue;
    std::string candidate = e.short_name + "#" + std::to_string(n);
    while (seen.count(candidate))  // "k#2" could itself be a short name of the list
      candidate = e.short_name + "#" + std::to_string(++n);
    seen.emplace(candidate, 1);
    e.short_name = std::move(candidate);
  }
}

}  // namespace roofline::topn
