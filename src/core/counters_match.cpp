// Stage C: matching counter kernel names against the Top-N.
#include <cxxabi.h>

#include <cstdlib>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "roofline/counters.hpp"

namespace roofline {
namespace {

// The shorter name of a substring match must be at least this long: "add" or "copy" would match
// half the profile.
constexpr std::size_t k_min_substring = 6;

bool ident(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool strip_suffix(std::string_view& s, std::string_view suffix) {
  if (s.size() < suffix.size() || s.substr(s.size() - suffix.size()) != suffix) return false;
  s.remove_suffix(suffix.size());
  return true;
}

// A trailing " [clone ...]" (GCC/Clang clone suffix) or ".kd" (the HSA kernel descriptor symbol).
bool strip_decorations(std::string_view& s) {
  bool changed = false;
  for (;;) {
    s = trim(s);
    if (strip_suffix(s, ".kd")) {
      changed = true;
      continue;
    }
    const auto clone = s.rfind("[clone ");
    if (!s.empty() && s.back() == ']' && clone != std::string_view::npos) {
      s = s.substr(0, clone);
      changed = true;
      continue;
    }
    return changed;
  }
}

// The parameter list is the last balanced "(...)": scanning back from the final ')' keeps
// parentheses inside template arguments ("kernel<(Op)1>(int)") and function-pointer parameters.
void strip_arguments(std::string_view& s) {
  if (s.empty() || s.back() != ')') return;
  int depth = 0;
  for (std::size_t i = s.size(); i-- > 0;) {
    if (s[i] == ')') ++depth;
    if (s[i] == '(' && --depth == 0) {
      if (i > 0) s = trim(s.substr(0, i));
      return;
    }
  }
}

// Itanium-mangled names (rocprofv3 without demangling, "_ZN5aiter...") are demangled so they
// can meet the demangled spelling of the same kernel.
std::string demangled(std::string_view s) {
  if (s.substr(0, 2) != "_Z") return std::string(s);
  const std::string mangled(s);
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> out(
      abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status), &std::free);
  return status == 0 && out ? std::string(out.get()) : mangled;
}

// `needle` occurs in `hay` with no identifier character glued to either side.
bool contains_word(std::string_view hay, std::string_view needle) {
  for (auto at = hay.find(needle); at != std::string_view::npos; at = hay.find(needle, at + 1)) {
    const bool left = at == 0 || !ident(hay[at - 1]) || !ident(needle.front());
    const std::size_t after = at + needle.size();
    const bool right = after == hay.size() || !ident(hay[after]) || !ident(needle.back());
    if (left && right) return true;
  }
  return false;
}

}  // namespace

const char* to_string(MatchKind k) {
  switch (k) {
    case MatchKind::none:
      return "none";
    case MatchKind::exact:
      return "exact";
    case MatchKind::normalized:
      return "normalized";
    case MatchKind::substring:
      return "substring";
  }
  return "none";
}

std::string normalize_kernel_name(std::string_view name) {
  std::string_view s = trim(name);
  strip_decorations(s);
  const std::string full = demangled(s);
  s = full;
  strip_arguments(s);
  strip_decorations(s);
  if (s.substr(0, 5) == "void ") s.remove_prefix(5);
  // Spacing differs between demanglers and profilers ("<int, float>" vs "<int,float>"): keep a
  // single space only where it separates two identifier characters ("unsigned int").
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != ' ' && s[i] != '\t') {
      out.push_back(s[i]);
      continue;
    }
    while (i + 1 < s.size() && (s[i + 1] == ' ' || s[i + 1] == '\t')) ++i;
    if (!out.empty() && ident(out.back()) && i + 1 < s.size() && ident(s[i + 1]))
      out.push_back(' ');
  }
  return out;
}

std::vector<KernelMatch> match_kernels(const std::vector<std::string>& topn_names,
                                       const std::vector<KernelCounters>& kernels) {
  std::vector<std::string> norm_k;
  norm_k.reserve(kernels.size());
  for (const auto& k : kernels) norm_k.push_back(normalize_kernel_name(k.name));
  std::vector<KernelMatch> out(topn_names.size());
  std::vector<bool> claimed(kernels.size(), false);
  // Exact, then normalized, for every name first: a kernel one Top-N name matches that well is
  // not offered to another name's substring search.
  std::vector<std::string> norm_t;
  for (std::size_t t = 0; t < topn_names.size(); ++t) {
    norm_t.push_back(normalize_kernel_name(topn_names[t]));
    for (std::size_t i = 0; i < kernels.size(); ++i)
      if (kernels[i].name == topn_names[t]) out[t].kernels.push_back(i);
    if (!out[t].kernels.empty()) {
      out[t].kind = MatchKind::exact;
    } else if (!norm_t[t].empty()) {
      for (std::size_t i = 0; i < kernels.size(); ++i)
        if (norm_k[i] == norm_t[t]) out[t].kernels.push_back(i);
      if (!out[t].kernels.empty()) out[t].kind = MatchKind::normalized;
    }
    for (auto i : out[t].kernels) claimed[i] = true;
  }
  // Substring, either way round (a truncated counter name inside a full Top-N name, or a short
  // Top-N name inside a full counter name), on identifier boundaries.
  for (std::size_t t = 0; t < topn_names.size(); ++t) {
    if (out[t].kind != MatchKind::none) continue;
    for (std::size_t i = 0; i < kernels.size(); ++i) {
      if (claimed[i]) continue;
      const std::string& a = norm_t[t];
      const std::string& b = norm_k[i];
      const std::string& shorter = a.size() <= b.size() ? a : b;
      const std::string& longer = a.size() <= b.size() ? b : a;
      if (shorter.size() >= k_min_substring && contains_word(longer, shorter))
        out[t].kernels.push_back(i);
    }
    if (!out[t].kernels.empty()) out[t].kind = MatchKind::substring;
  }
  return out;
}

}  // namespace roofline
