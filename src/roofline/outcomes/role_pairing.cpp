// Two rounds' kernels paired by what they are, never by what they are called alone
// (docs/method.md §17.1). Pure.
#include <algorithm>
#include <iterator>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "roofline/analyze/evidence/match.hpp"
#include "roofline/outcomes/layer.hpp"
#include "roofline/outcomes/pairing.hpp"

namespace roofline::outcomes {

namespace {

std::vector<std::string> common(const std::vector<std::string>& x,
                                const std::vector<std::string>& y) {
  std::vector<std::string> out;
  std::set_intersection(x.begin(), x.end(), y.begin(), y.end(), std::back_inserter(out));
  return out;
}

std::string joined(const std::vector<std::string>& v, const char* sep = ", ") {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : sep) + s;
  return out;
}

// Why `a` and `b` cannot be one kernel ("" when nothing disagrees): their classes, their roles,
// their weights, and for a renamed kernel its modules (the same kernel may launch in several).
std::string veto(const KernelRole& a, const KernelRole& b, bool renamed) {
  auto disjoint = [](const std::vector<std::string>& x, const std::vector<std::string>& y) {
    return !x.empty() && !y.empty() && common(x, y).empty();
  };
  if (!a.op_class.empty() && !b.op_class.empty() && a.op_class != b.op_class)
    return fmt::format("classes differ ({} against {})", a.op_class, b.op_class);
  if (disjoint(a.roles, b.roles))
    return fmt::format("roles differ ({} against {})", joined(a.roles, " / "),
                       joined(b.roles, " / "));
  if (disjoint(a.shapes, b.shapes))
    return fmt::format("weights differ ({} against {})", joined(a.shapes), joined(b.shapes));
  if (renamed && disjoint(a.modules, b.modules))
    return fmt::format("modules differ ({} against {})", joined(a.modules), joined(b.modules));
  return "";
}

// What a renamed kernel shares with a candidate: a role scores 4, a weight 2, a module 1, and the
// launching op breaks ties between candidates that share something else.
struct Evidence {
  int score = 0;
  std::string words;
};

Evidence evidence(const KernelRole& a, const KernelRole& b) {
  Evidence e;
  std::vector<std::string> said;
  if (const auto r = common(a.roles, b.roles); !r.empty()) {
    e.score += 4;
    said.push_back("role " + joined(r, " / "));
  }
  if (const auto s = common(a.shapes, b.shapes); !s.empty()) {
    e.score += 2;
    said.push_back("weight " + joined(s));
  }
  if (const auto m = common(a.modules, b.modules); !m.empty()) {
    e.score += 1;
    said.push_back("module " + joined(m));
  }
  if (e.score > 0 && !a.op.empty() && a.op == b.op) {
    e.score += 1;
    said.push_back("op " + a.op);
  }
  e.words = joined(said);
  return e;
}

// What the kernels of both rounds agree on, said beside a pairing: class and shared facts.
std::string agreement(const KernelRole& a, const KernelRole& b) {
  const std::string cls = !a.op_class.empty() ? a.op_class : b.op_class;
  const Evidence e = evidence(a, b);
  return fmt::format("{}{}", cls.empty() ? "class unknown" : cls + " in both",
                     e.words.empty() ? "" : "; same " + e.words);
}

struct PairState {
  const std::vector<KernelRole>& a;
  const std::vector<KernelRole>& a_rest;
  const std::vector<KernelRole>& b;
  const std::string& round_b;
  std::vector<RolePair> out;
  std::vector<bool> taken;                   // b's kernels paired whole
  std::vector<std::set<std::string>> split;  // b's weights paired one signature at a time
  std::vector<bool> renamed_b;               // b's kernels whose name round A does not hold
  std::vector<bool> named_a;                 // a's kernels whose name round B holds
  std::vector<std::string> refused;          // per a: the candidates refused, and why
  std::set<std::string> canon_a, canon_b;
};

void pair(PairState& s, std::size_t i, std::size_t t, PairBasis basis, MatchKind kind,
          std::string reason) {
  s.out[i] = RolePair{basis, kind, t, std::nullopt, std::move(reason)};
  s.taken[t] = true;
}

// The one signature of `b` that reads `a`'s weight, where `b` reads several weights (one kernel
// serving two projections): nullopt when `b` reads one weight, or `a` shares none or several.
std::optional<std::size_t> split_signature(const KernelRole& a, const KernelRole& b) {
  std::set<std::string> weights;
  for (const auto& sig : b.signatures)
    if (!sig.shape.empty()) weights.insert(sig.shape);
  if (weights.size() < 2) return std::nullopt;
  std::optional<std::size_t> found;
  for (std::size_t k = 0; k < b.signatures.size(); ++k) {
    const std::string& w = b.signatures[k].shape;
    if (w.empty() || !std::binary_search(a.shapes.begin(), a.shapes.end(), w)) continue;
    if (found) return std::nullopt;  // two of its signatures: no one of them is it
    found = k;
  }
  return found;
}

std::vector<KernelNames> names(const std::vector<KernelRole>& v) {
  std::vector<KernelNames> out;
  out.reserve(v.size());
  for (const auto& r : v) out.push_back(KernelNames{{r.name}, r.short_name});
  return out;
}

// The same kernel: its name, level by level (exact, normalized, substring), unless its role
// disagrees. A short name alone is never a pairing: it is noted for the reason of a kernel left
// without one.
void pair_by_name(PairState& s) {
  const std::vector<NameMatch> matches = match_kernel_names(names(s.a), names(s.b));
  for (MatchKind kind : {MatchKind::exact, MatchKind::normalized, MatchKind::substring}) {
    for (std::size_t i = 0; i < s.a.size(); ++i) {
      if (matches[i].kind != kind || s.out[i].index) continue;
      s.named_a[i] = true;
      for (std::size_t t : matches[i].candidates) {
        if (s.taken[t]) continue;
        if (const std::string v = veto(s.a[i], s.b[t], false); !v.empty()) {
          s.refused[i] += fmt::format("; round {}'s kernel of its name is {}: {}", s.round_b,
                                      role_text(s.b[t]), v);
          s.renamed_b[t] = true;  // serving another role there: open to the role levels
          continue;
        }
        pair(s, i, t, PairBasis::name, kind,
             fmt::format("the same kernel ({} name); {}", to_string(kind),
                         agreement(s.a[i], s.b[t])));
        break;
      }
    }
  }
  for (std::size_t i = 0; i < s.a.size(); ++i)
    if (matches[i].kind == MatchKind::short_name)
      for (std::size_t t : matches[i].candidates)
        s.refused[i] += fmt::format(
            "; round {}'s '{}' shares only its short name '{}' ({}), which is no pairing",
            s.round_b, s.b[t].display_name, s.a[i].short_name, role_text(s.b[t]));
}

bool open_b(const PairState& s, std::size_t t) {
  return !s.taken[t] && s.split[t].empty() && s.renamed_b[t];
}

// Why a kernel of round A is a renamed one: round B has no kernel of its name, or the one it has
// serves another role (and a short name shared, which is no pairing).
std::string renamed_because(const PairState& s, std::size_t i) {
  const std::string why =
      (s.named_a[i] ? "" : fmt::format("; round {} has no kernel of its name", s.round_b)) +
      s.refused[i];
  return why.empty() ? std::string() : why.substr(2);
}

// Whether a renamed kernel may pair with `t` through `sig` (one of its signatures): `t` not
// paired whole, and through a signature whose weight is not paired yet, or whole when no
// signature of it is.
bool may_pair(const PairState& s, std::size_t t, const std::optional<std::size_t>& sig) {
  if (s.taken[t] || !s.renamed_b[t]) return false;
  return sig ? !s.split[t].count(s.b[t].signatures[*sig].shape) : s.split[t].empty();
}

struct Candidate {
  int score;
  std::size_t i, t;
  std::string words;
};

// The renamed kernel `c.i` paired with `c.t`: whole, or through the signature of its weight.
void pair_renamed(PairState& s, const Candidate& c, const std::optional<std::size_t>& sig) {
  const std::string cls = s.a[c.i].op_class.empty() ? "class unknown" : s.a[c.i].op_class;
  const std::string through =
      sig ? fmt::format(" (its signature '{}': the kernel serves several weights)",
                        s.b[c.t].signatures[*sig].label)
          : "";
  s.out[c.i] = RolePair{
      PairBasis::role, MatchKind::none, c.t, sig,
      fmt::format("renamed ({}); '{}' there is {} with the same {}{}, and nothing disagrees",
                  renamed_because(s, c.i), s.b[c.t].display_name, cls, c.words, through)};
  if (sig)
    s.split[c.t].insert(s.b[c.t].signatures[*sig].shape);
  else
    s.taken[c.t] = true;
}

// A renamed kernel: the candidate of round B sharing the most (a role, a weight, a module) with
// nothing disagreeing, best pairs first.
void pair_by_evidence(PairState& s) {
  std::vector<Candidate> candidates;
  for (std::size_t i = 0; i < s.a.size(); ++i) {
    if (s.out[i].index) continue;
    for (std::size_t t = 0; t < s.b.size(); ++t) {
      if (!s.renamed_b[t] || s.taken[t] || !veto(s.a[i], s.b[t], true).empty()) continue;
      if (Evidence e = evidence(s.a[i], s.b[t]); e.score > 0)
        candidates.push_back({e.score, i, t, std::move(e.words)});
    }
  }
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const Candidate& x, const Candidate& y) { return x.score > y.score; });
  for (const Candidate& c : candidates) {
    const std::optional<std::size_t> sig = split_signature(s.a[c.i], s.b[c.t]);
    if (!s.out[c.i].index && may_pair(s, c.t, sig)) pair_renamed(s, c, sig);
  }
}

// A class whose one renamed kernel is its role: not elementwise work (many kinds share the class)
// and not an unknown class.
bool class_is_role(const std::string& c) {
  return !c.empty() && c != "elementwise";
}

// Round A's kernels of class `c` renamed between the rounds and not yet paired: its head's and the
// rest of its Top-N's.
std::size_t renamed_in_a(const PairState& s, const std::string& c) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < s.a.size(); ++i)
    if (!s.out[i].index && s.a[i].op_class == c && (!s.named_a[i] || !s.refused[i].empty())) ++n;
  for (const auto& r : s.a_rest)
    if (r.op_class == c && !s.canon_b.count(canonical_kernel_name(r.name))) ++n;
  return n;
}

// The last level: a kernel that is the only one of its class renamed in round A, against the
// only one of that class renamed in round B, nothing disagreeing.
void pair_only_of_class(PairState& s) {
  for (std::size_t i = 0; i < s.a.size(); ++i) {
    const std::string& c = s.a[i].op_class;
    if (s.out[i].index || !class_is_role(c) || renamed_in_a(s, c) != 1) continue;
    std::vector<std::size_t> in_b;
    for (std::size_t t = 0; t < s.b.size(); ++t)
      if (open_b(s, t) && s.b[t].op_class == c) in_b.push_back(t);
    if (in_b.size() != 1 || !veto(s.a[i], s.b[in_b[0]], true).empty()) continue;
    pair(s, i, in_b[0], PairBasis::only_of_class, MatchKind::none,
         fmt::format("renamed ({}); the only {} kernel of this round renamed, and '{}' the only "
                     "{} kernel renamed there; nothing disagrees",
                     renamed_because(s, i), c, s.b[in_b[0]].display_name, c));
  }
}

// The kernels of round B that share something with `a` but were paired with another kernel of
// round A first (one kernel serving several projections there pairs once), in words.
std::string taken_by_another(const PairState& s, std::size_t i) {
  std::string out;
  for (std::size_t t = 0; t < s.b.size(); ++t) {
    if (!(s.taken[t] || !s.split[t].empty()) || !s.renamed_b[t] ||
        !veto(s.a[i], s.b[t], true).empty())
      continue;
    const Evidence e = evidence(s.a[i], s.b[t]);
    if (e.score == 0) continue;
    std::size_t other = 0;
    while (other < s.out.size() && s.out[other].index != t) ++other;
    out += fmt::format(
        "; round {}'s '{}' shares its {} but is paired with '{}' (a kernel pairs once, even one "
        "serving several projections)",
        s.round_b, s.b[t].display_name, e.words,
        other < s.a.size() ? s.a[other].display_name : std::string("another kernel"));
  }
  return out;
}

// Why a kernel of round A has no counterpart: the candidates refused, those taken first, and what
// else was sought.
std::string gone_reason(const PairState& s, std::size_t i) {
  const KernelRole& a = s.a[i];
  std::size_t same_class = 0;
  for (std::size_t t = 0; t < s.b.size(); ++t)
    if (open_b(s, t) && !a.op_class.empty() && s.b[t].op_class == a.op_class) ++same_class;
  const std::string taken = taken_by_another(s, i);
  std::string why = s.named_a[i] ? "" : "; its name is not there";
  why += s.refused[i] + taken;
  if (same_class > 0)
    why += fmt::format("; {} renamed {} kernel{} there share{} no role, weight or module with it{}",
                       same_class == 1 ? std::string("the one") : std::to_string(same_class),
                       a.op_class, same_class == 1 ? "" : "s", same_class == 1 ? "s" : "",
                       class_is_role(a.op_class)
                           ? " (the class alone pairs one renamed kernel with one)"
                           : " (elementwise work is of many kinds: the class alone pairs nothing)");
  else if (taken.empty())
    why += "; no renamed kernel there has its class and role";
  return fmt::format("no counterpart in round {} ({}): {}", s.round_b, role_text(a), why.substr(2));
}

}  // namespace

std::string pairing_label(const RolePair& p) {
  switch (p.basis) {
    case PairBasis::name:
      return to_string(p.name_match);
    case PairBasis::role:
      return "role";
    case PairBasis::only_of_class:
      return "only_of_class";
    case PairBasis::none:
      break;
  }
  return "none";
}

std::vector<RolePair> pair_by_role(const std::vector<KernelRole>& a,
                                   const std::vector<KernelRole>& a_rest,
                                   const std::vector<KernelRole>& b, const std::string& round_b) {
  PairState s{a,
              a_rest,
              b,
              round_b,
              std::vector<RolePair>(a.size()),
              std::vector<bool>(b.size(), false),
              std::vector<std::set<std::string>>(b.size()),
              std::vector<bool>(b.size(), false),
              std::vector<bool>(a.size(), false),
              std::vector<std::string>(a.size()),
              {},
              {}};
  for (const auto& r : a) s.canon_a.insert(canonical_kernel_name(r.name));
  for (const auto& r : a_rest) s.canon_a.insert(canonical_kernel_name(r.name));
  for (std::size_t t = 0; t < b.size(); ++t) {
    s.canon_b.insert(canonical_kernel_name(b[t].name));
    s.renamed_b[t] = !s.canon_a.count(canonical_kernel_name(b[t].name));
  }
  pair_by_name(s);
  pair_by_evidence(s);
  pair_only_of_class(s);
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!s.out[i].index) s.out[i].reason = gone_reason(s, i);
  return s.out;
}

}  // namespace roofline::outcomes
