// The one kernel-name matcher (match.hpp): canonical names and the four-level rule.
#include "roofline/analyze/evidence/match.hpp"

#include <cxxabi.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <memory>
#include <set>

#include "roofline/analyze/layer.hpp"
#include "roofline/base/units.hpp"

namespace roofline::analyze {
namespace {

bool ident(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

bool strip_suffix(std::string_view& s, std::string_view suffix) {
  if (s.size() < suffix.size() || s.substr(s.size() - suffix.size()) != suffix) return false;
  s.remove_suffix(suffix.size());
  return true;
}

// A trailing " [clone ...]" (GCC/Clang clone suffix) or ".kd" (the HSA kernel descriptor symbol).
void strip_decorations(std::string_view& s) {
  for (;;) {
    s = trim_view(s);
    if (strip_suffix(s, ".kd")) continue;
    const auto clone = s.rfind("[clone ");
    if (!s.empty() && s.back() == ']' && clone != std::string_view::npos) {
      s = s.substr(0, clone);
      continue;
    }
    return;
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
      if (i > 0) s = trim_view(s.substr(0, i));
      return;
    }
  }
}

// Itanium-mangled names (rocprofv3 without demangling, "_ZN5aiter...") are demangled so they can
// meet the demangled spelling of the same kernel.
std::string demangled(std::string_view s) {
  if (!starts_with(s, "_Z")) return std::string(s);
  const std::string mangled(s);
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> out(
      abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status), &std::free);
  return status == 0 && out ? std::string(out.get()) : mangled;
}

void replace_all(std::string& s, std::string_view from, std::string_view to) {
  for (auto at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
}

// `{lambda(int)#3}` (demanglers, PyTorch traces) and `[lambda(int) (instance 3)]` (Nsight
// Compute) both become `lambda#3`.
void unify_lambdas(std::string& s) {
  struct Spelling {
    std::string_view open, number, close;  // "{lambda(" ... ")#" N "}"
  };
  for (const Spelling& sp :
       {Spelling{"{lambda(", ")#", "}"}, Spelling{"[lambda(", "(instance ", ")]"}}) {
    for (std::size_t at = s.find(sp.open); at != std::string::npos; at = s.find(sp.open, at + 1)) {
      const auto number = s.find(sp.number, at);
      const auto end = number == std::string::npos ? number : s.find(sp.close, number);
      if (end == std::string::npos) break;
      const auto digits = number + sp.number.size();
      s.replace(at, end + sp.close.size() - at, "lambda#" + s.substr(digits, end - digits));
    }
  }
}

// The end of " const" (a const member function's qualifier) at `at`, else `at`.
std::size_t skip_const(std::string_view s, std::size_t at) {
  std::size_t i = at;
  while (i < s.size() && s[i] == ' ') ++i;
  if (s.substr(i, 5) == "const" && (i + 5 == s.size() || !ident(s[i + 5]))) return i + 5;
  return at;
}

// Function parameter lists inside template arguments (`f(at::TensorIteratorBase&)` in a trace,
// `f(at::TensorIteratorBase &, const T1 &)` in Nsight Compute, which abstracts the types) and
// C-style casts (`(int)-1` beside `-1`) are dropped: only the names identify the kernel. A
// parameter list that opens a function scope (`f(int)::{lambda()#1}`, `operator()() const::`)
// becomes `()`, its `const` dropped: the scope is what tells the lambdas of `silu_kernel` from
// those of `direct_copy_kernel_cuda` (drop_qualifiers keeps it).
std::string drop_parameter_lists(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '(') {
      out.push_back(s[i]);
      continue;
    }
    std::size_t j = i;
    for (int depth = 0; j < s.size(); ++j) {
      if (s[j] == '(') ++depth;
      if (s[j] == ')' && --depth == 0) break;
    }
    if (j >= s.size()) {  // unbalanced: keep the rest as it is
      out.append(s.substr(i));
      break;
    }
    const auto last = out.find_last_not_of(' ');
    const char before = last == std::string::npos ? '\0' : out[last];
    const char after = j + 1 < s.size() ? s[j + 1] : '\0';
    const std::string_view inner = s.substr(i + 1, j - i - 1);
    const bool params = ident(before) || before == '>';
    const bool cast = (std::isdigit(static_cast<unsigned char>(after)) || after == '-') &&
                      inner.find_first_not_of(
                          "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_: ") ==
                          std::string_view::npos;
    if (params || cast) {
      while (!out.empty() && out.back() == ' ') out.pop_back();
      const std::size_t rest = params ? skip_const(s, j + 1) : j + 1;
      if (params && s.substr(rest, 2) == "::") {
        out += "()";
        i = rest - 1;
        continue;
      }
      i = j;
      continue;
    }
    out.push_back('(');
  }
  return out;
}

// `out` ends with a unified lambda name, `lambda#N`.
bool ends_with_lambda(const std::string& out) {
  std::size_t i = out.size();
  while (i > 0 && std::isdigit(static_cast<unsigned char>(out[i - 1]))) --i;
  return i < out.size() && i >= 7 && std::string_view(out).substr(i - 7, 7) == "lambda#";
}

// Drops every qualifier before "::" (a namespace, a class, a class template with its arguments)
// and every Python module prefix before a '.' that joins two identifiers outside brackets. A
// function scope (`f()::`, as drop_parameter_lists leaves it) or a lambda's (`lambda#3::`) is kept:
// a local lambda is named by the function it is in.
std::string drop_qualifiers(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  int depth = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '<' || c == '(' || c == '[') ++depth;
    if ((c == '>' || c == ')' || c == ']') && depth > 0) --depth;
    const bool scope = c == ':' && i + 1 < s.size() && s[i + 1] == ':';
    const bool module = c == '.' && depth == 0 && !out.empty() && ident(out.back()) &&
                        i + 1 < s.size() &&
                        (std::isalpha(static_cast<unsigned char>(s[i + 1])) || s[i + 1] == '_');
    if (!scope && !module) {
      out.push_back(c);
      continue;
    }
    if (scope && !out.empty() && (out.back() == ')' || ends_with_lambda(out))) {
      out += "::";
      ++i;
      continue;
    }
    if (!out.empty() && out.back() == '>') {  // a class template's arguments
      int nest = 0;
      while (!out.empty()) {
        const char b = out.back();
        out.pop_back();
        if (b == '>') ++nest;
        if (b == '<' && --nest == 0) break;
      }
    }
    while (!out.empty() && ident(out.back())) out.pop_back();
    if (scope) ++i;
  }
  return out;
}

// Whitespace removed, case folded, `1ul` as `1`, `true`/`false` as `1`/`0`.
std::string fold_tokens(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    const char c = s[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    if (!ident(c)) {
      out.push_back(c);
      ++i;
      continue;
    }
    std::size_t end = i;
    while (end < s.size() && ident(s[end])) ++end;
    std::string token = lower_ascii(s.substr(i, end - i));
    if (token == "void") {  // a return type inside template arguments (Nsight Compute spells it)
      std::size_t next = end;
      while (next < s.size() && std::isspace(static_cast<unsigned char>(s[next]))) ++next;
      if (next < s.size() && next > end && ident(s[next])) {
        i = end;
        continue;
      }
    }
    if (std::isdigit(static_cast<unsigned char>(token[0]))) {
      std::size_t digits = 0;
      while (digits < token.size() && std::isdigit(static_cast<unsigned char>(token[digits])))
        ++digits;
      if (token.find_first_not_of("ul", digits) == std::string::npos) token.resize(digits);
    }
    if (token == "true" || token == "false")
      out.push_back(token == "true" ? '1' : '0');
    else
      out += token;
    i = end;
  }
  return out;
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

// One side of the matcher with its canonical forms computed once.
struct Prepared {
  const KernelNames* names = nullptr;
  std::vector<std::string> canonical;  // one per non-empty full spelling, deduplicated
  std::string short_form;
};

std::vector<Prepared> prepare(const std::vector<KernelNames>& side) {
  std::vector<Prepared> out;
  out.reserve(side.size());
  for (const KernelNames& k : side) {
    Prepared p;
    p.names = &k;
    for (const auto& f : k.full) {
      std::string c = canonical_kernel_name(f);
      if (!c.empty() && std::find(p.canonical.begin(), p.canonical.end(), c) == p.canonical.end())
        p.canonical.push_back(std::move(c));
    }
    const std::string& short_source =
        !k.short_name.empty() ? k.short_name : (k.full.empty() ? k.short_name : k.full.front());
    p.short_form = canonical_short_name(short_source);
    out.push_back(std::move(p));
  }
  return out;
}

bool exact(const Prepared& q, const Prepared& c) {
  for (const auto& a : q.names->full)
    for (const auto& b : c.names->full)
      if (!a.empty() && a == b) return true;
  return false;
}

bool normalized(const Prepared& q, const Prepared& c) {
  for (const auto& a : q.canonical)
    for (const auto& b : c.canonical)
      if (a == b) return true;
  return false;
}

bool substring(const Prepared& q, const Prepared& c) {
  for (const auto& a : q.canonical)
    for (const auto& b : c.canonical) {
      const std::string& shorter = a.size() <= b.size() ? a : b;
      const std::string& longer = a.size() <= b.size() ? b : a;
      if (shorter.size() >= k_min_match_chars && contains_word(longer, shorter)) return true;
    }
  return false;
}

}  // namespace

std::string canonical_kernel_name(std::string_view name) {
  std::string_view s = trim_view(name);
  strip_decorations(s);
  const std::string full = demangled(s);
  s = full;
  strip_arguments(s);
  strip_decorations(s);
  if (starts_with(s, "void ")) s.remove_prefix(5);
  std::string t(s);
  unify_lambdas(t);
  replace_all(t, "(anonymous namespace)::", "");
  replace_all(t, "<unnamed>::", "");
  std::string c = fold_tokens(drop_qualifiers(drop_parameter_lists(t)));
  // A leading underscore marks a private (Python, Triton) kernel, not a different one.
  c.erase(0, c.find_first_not_of('_'));
  return c;
}

std::string canonical_short_name(std::string_view name) {
  std::string c = canonical_kernel_name(name);
  if (const auto lt = c.find('<'); lt != std::string::npos && lt > 0) c.erase(lt);
  return c;
}

std::vector<NameMatch> match_kernel_names(const std::vector<KernelNames>& queries,
                                          const std::vector<KernelNames>& candidates) {
  const std::vector<Prepared> q = prepare(queries), c = prepare(candidates);
  std::vector<NameMatch> out(q.size());
  std::vector<bool> claimed(c.size(), false);
  auto level = [&](std::size_t i, MatchKind kind, auto&& test) {
    for (std::size_t j = 0; j < c.size(); ++j)
      if ((kind == MatchKind::exact || kind == MatchKind::normalized || !claimed[j]) &&
          test(q[i], c[j]))
        out[i].candidates.push_back(j);
    if (!out[i].candidates.empty()) out[i].kind = kind;
  };
  // Exact, then normalized, for every query first: a kernel one query matches that well is not
  // offered to another query's looser levels.
  for (std::size_t i = 0; i < q.size(); ++i) {
    level(i, MatchKind::exact, exact);
    if (out[i].kind == MatchKind::none) level(i, MatchKind::normalized, normalized);
    for (auto j : out[i].candidates) claimed[j] = true;
  }
  for (std::size_t i = 0; i < q.size(); ++i)
    if (out[i].kind == MatchKind::none) level(i, MatchKind::substring, substring);
  // Short names: several kernels share one ("elementwise_kernel"), so only a name that one query
  // and one candidate kernel carry is evidence.
  for (std::size_t i = 0; i < q.size(); ++i) {
    const std::string& s = q[i].short_form;
    if (out[i].kind != MatchKind::none || s.empty()) continue;
    const auto holders =
        std::count_if(q.begin(), q.end(), [&](const Prepared& p) { return p.short_form == s; });
    std::set<std::string> kernels;
    std::vector<std::size_t> hits;
    for (std::size_t j = 0; j < c.size(); ++j) {
      if (c[j].short_form != s) continue;
      kernels.insert(c[j].canonical.empty() ? std::string() : c[j].canonical.front());
      if (!claimed[j]) hits.push_back(j);
    }
    if (holders == 1 && kernels.size() == 1 && !hits.empty()) {
      out[i].candidates = hits;
      out[i].kind = MatchKind::short_name;
    }
  }
  return out;
}

}  // namespace roofline::analyze
