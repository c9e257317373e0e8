// `_Z…` kernel names read back (docs/method.md §22.7). libiberty's demangler (libiberty-dev, the
// one binutils' c++filt uses; its cp-demangle carries a linking exception) reads every mangled name
// of the serving fixtures but one: GCC 12's abi::__cxa_demangle is an older copy of the same code
// and reads none of them (`DF16b`, bfloat16, is newer), so it is not tried. A name no demangler
// reads
// (`Tn`, a newer template-parameter code) keeps its qualified name, read here from the
// `_ZN<len><id>…` prefix: namespaces and the function name, template and argument lists dropped.
#include <csetjmp>
#include <cstddef>
#include <string>

#include "roofline/topn/layer.hpp"
#include "roofline/topn/names/names.hpp"

#if ROOFLINE_HAVE_LIBIBERTY
// The one function used, as <libiberty/demangle.h> declares it (that header pulls in
// libiberty.h, whose `basename` clashes with glibc's C++ declaration). Components and scopes
// live in arrays on the stack: nothing is allocated, so leaving through the callback is safe.
extern "C" int cplus_demangle_v3_callback(const char* mangled, int options,
                                          void (*callback)(const char*, std::size_t, void*),
                                          void* opaque);
#endif

namespace roofline::topn {
namespace {

// Longer mangled names skip the demangler: its stack arrays grow with the name (about 70 bytes a
// character); the longest real kernel names (CK FMHA instances) are a few KiB.
constexpr std::size_t k_max_mangled = 16384;
// A mangled name of a few hundred bytes can expand without bound through its substitutions
// (each one may repeat the whole type before it): output beyond this is abandoned.
constexpr std::size_t k_max_demangled = 256 * 1024;

#if ROOFLINE_HAVE_LIBIBERTY
constexpr int k_dmgl_params = 1 << 0;  // DMGL_PARAMS: the argument list
constexpr int k_dmgl_ansi = 1 << 1;    // DMGL_ANSI: const, volatile

struct Sink {
  std::string* out = nullptr;
  std::jmp_buf overflow;
};

void append_output(const char* text, std::size_t n, void* opaque) {
  auto* sink = static_cast<Sink*>(opaque);
  if (sink->out->size() + n > k_max_demangled) std::longjmp(sink->overflow, 1);
  sink->out->append(text, n);
}

// libiberty's reading of `mangled` (NUL-terminated) into `out`; "" when it is refused or too long.
// Kept free of objects with destructors: the overflow leaves through longjmp.
bool run_libiberty(const char* mangled, std::string& out, bool& overflowed) {
  Sink sink;
  sink.out = &out;
  if (setjmp(sink.overflow) != 0) {
    overflowed = true;
    return false;
  }
  return cplus_demangle_v3_callback(mangled, k_dmgl_params | k_dmgl_ansi, &append_output, &sink) !=
         0;
}
#endif

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

// One <source-name> (`<len><id>`) at `at`, appended to `out` with `::` before it; advances `at`.
bool read_source_name(std::string_view s, std::size_t& at, std::string& out) {
  std::size_t len = 0, i = at;
  while (i < s.size() && is_digit(s[i]) && len < 100000) len = len * 10 + std::size_t(s[i++] - '0');
  if (i == at || len == 0 || len > s.size() - i) return false;
  const std::string_view id = s.substr(i, len);
  for (char c : id)
    if (!(is_digit(c) || c == '_' || c == '$' || c == '.' || (c >= 'a' && c <= 'z') ||
          (c >= 'A' && c <= 'Z')))
      return false;
  if (!out.empty()) out += "::";
  out += id.rfind("_GLOBAL__N", 0) == 0 ? std::string_view("(anonymous namespace)") : id;
  at = i + len;
  return true;
}

bool is_upper_or_digit(char c) {
  return is_digit(c) || (c >= 'A' && c <= 'Z');
}

constexpr int k_max_skip_depth = 64;

bool skip_until_close(std::string_view s, std::size_t& i, int budget);

// `DF16b`, `DF16_`, `Dv4_`, `Dp`, `Dn`, …, `i` at the `D`.
void skip_d_code(std::string_view s, std::size_t& i) {
  const char next = i + 1 < s.size() ? s[i + 1] : '\0';
  i += 2;
  if (next != 'F' && next != 'v') return;
  while (i < s.size() && is_digit(s[i])) ++i;
  if (i < s.size() && (s[i] == 'b' || s[i] == '_' || s[i] == 'x')) ++i;
}

// A literal after its `L`: <type> [n]<value> E.
bool skip_literal(std::string_view s, std::size_t& i, int budget) {
  if (i >= s.size()) return false;
  std::string ignored;
  if (s[i] == 'N') {
    ++i;
    if (!skip_until_close(s, i, budget - 1)) return false;
  } else if (is_digit(s[i])) {
    if (!read_source_name(s, i, ignored)) return false;
  } else if (s[i] == 'D') {
    skip_d_code(s, i);
  } else if (s[i] >= 'a' && s[i] <= 'z') {
    ++i;
  } else {
    return false;
  }
  while (i < s.size() && s[i] != 'E' && (is_upper_or_digit(s[i]) || (s[i] >= 'a' && s[i] <= 'z')))
    ++i;
  if (i >= s.size() || s[i] != 'E') return false;
  ++i;
  return true;
}

// Skips the items of a construct up to and with its closing `E`, `i` past its opener: source
// names by their length, substitutions (`S…_`), template parameters (`T…_`; `Ty`/`Tn`/`Tt`
// declarations), literals, and the constructs that `E` closes (`I`, `N`, `X`, `J`, `F`, `DT`,
// `L_Z`). False where it meets something it does not know, or nesting beyond k_max_skip_depth.
bool skip_until_close(std::string_view s, std::size_t& i, int budget) {
  if (budget <= 0) return false;
  while (i < s.size()) {
    const char c = s[i];
    const char next = i + 1 < s.size() ? s[i + 1] : '\0';
    if (c == 'E') {
      ++i;
      return true;
    }
    if (c == 'I' || c == 'N' || c == 'X' || c == 'J' || c == 'F' ||
        (c == 'D' && (next == 'T' || next == 't'))) {
      i += c == 'D' ? 2 : 1;
      if (!skip_until_close(s, i, budget - 1)) return false;
    } else if (c == 'L' && next == '_' && i + 2 < s.size() && s[i + 2] == 'Z') {
      i += 3;  // an external name: its encoding up to the matching E
      if (!skip_until_close(s, i, budget - 1)) return false;
    } else if (c == 'L') {
      ++i;
      if (!skip_literal(s, i, budget)) return false;
    } else if (is_digit(c)) {
      std::string ignored;
      if (!read_source_name(s, i, ignored)) return false;
    } else if ((c == 'S' || c == 'T') && !(next >= 'a' && next <= 'z')) {
      ++i;  // S_, S4_, T_, T0_
      while (i < s.size() && is_upper_or_digit(s[i])) ++i;
      if (i >= s.size() || s[i] != '_') return false;
      ++i;
    } else if (c == 'D') {
      skip_d_code(s, i);
    } else {
      i += (c == 'S' || c == 'T') ? 2 : 1;  // St, Sa, …; Ty, Tn, Tt; builtin types, operators
    }
  }
  return false;
}

// Skips one template argument list, `at` on its `I`; false (and `at` unchanged) where it cannot.
bool skip_template_args(std::string_view s, std::size_t& at) {
  std::size_t i = at + 1;
  if (!skip_until_close(s, i, k_max_skip_depth)) return false;
  at = i;
  return true;
}

}  // namespace

std::string demangle_prefix(std::string_view name) {
  if (name.size() < 3 || name.substr(0, 2) != "_Z") return {};
  std::size_t at = 2;
  std::string out;
  const auto peek = [&](std::size_t i) { return i < name.size() ? name[i] : '\0'; };
  if (peek(at) == 'L') ++at;  // internal linkage
  if (peek(at) == 'N') {      // <nested-name>: N [CV and ref qualifiers] <prefix> <name> E
    ++at;
    while (at < name.size() && (name[at] == 'r' || name[at] == 'V' || name[at] == 'K' ||
                                name[at] == 'R' || name[at] == 'O'))
      ++at;
    if (name.substr(at, 2) == "St") {
      out = "std";
      at += 2;
    }
    while (at < name.size()) {  // names, each maybe with template arguments (dropped)
      if (is_digit(name[at])) {
        if (!read_source_name(name, at, out)) break;
      } else if (name[at] != 'I' || !skip_template_args(name, at)) {
        break;
      }
    }
  } else if (name.substr(at, 2) == "St") {
    out = "std";
    at += 2;
    if (!read_source_name(name, at, out)) return {};
  } else if (!read_source_name(name, at, out)) {
    return {};
  }
  return out == "std" ? std::string() : out;
}

std::optional<DemangledName> demangle_kernel_name(std::string_view name) {
  if (name.size() < 3 || name.substr(0, 2) != "_Z") return std::nullopt;
  std::string_view mangled = name;
  if (mangled.size() > 3 && mangled.substr(mangled.size() - 3) == ".kd") mangled.remove_suffix(3);
  DemangledName out;
#if ROOFLINE_HAVE_LIBIBERTY
  if (mangled.size() <= k_max_mangled) {
    const std::string text(mangled);  // NUL-terminated; an embedded NUL ends the name early
    bool overflowed = false;
    if (text.find('\0') == std::string::npos && run_libiberty(text.c_str(), out.text, overflowed) &&
        !out.text.empty())
      return out;
    out.text.clear();
    out.why = overflowed ? "libiberty's reading of it is longer than 256 KiB"
                         : "libiberty's demangler does not read it";
  } else {
    out.why = "too long for the demangler";
  }
#else
  out.why = "built without libiberty (libiberty-dev)";
#endif
  out.text = demangle_prefix(mangled);
  if (out.text.empty()) return std::nullopt;
  out.from_prefix = true;
  return out;
}

}  // namespace roofline::topn
