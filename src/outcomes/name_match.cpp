// Kernel identity across rounds and outcome files: exact, normalized, then a unique short name.
#include "roofline/name_match.hpp"

#include <map>

#include "roofline/counters.hpp"

namespace roofline {

const char* to_string(NameMatchKind k) {
  switch (k) {
    case NameMatchKind::none:
      return "none";
    case NameMatchKind::exact:
      return "exact";
    case NameMatchKind::normalized:
      return "normalized";
    case NameMatchKind::short_name:
      return "short_name";
  }
  return "none";
}

std::vector<NameMatch> match_kernel_names(const std::vector<KernelRef>& from,
                                          const std::vector<KernelRef>& to) {
  std::vector<NameMatch> out(from.size());
  std::vector<bool> taken(to.size(), false);
  auto pass = [&](NameMatchKind kind, auto&& same) {
    for (std::size_t f = 0; f < from.size(); ++f) {
      if (out[f].index) continue;
      for (std::size_t t = 0; t < to.size(); ++t) {
        if (taken[t] || !same(f, t)) continue;
        out[f] = NameMatch{kind, t};
        taken[t] = true;
        break;
      }
    }
  };
  pass(NameMatchKind::exact, [&](std::size_t f, std::size_t t) {
    return !from[f].name.empty() && from[f].name == to[t].name;
  });

  // The normalization that stage C uses for counter names (the lead's unified matcher will
  // replace this call site).
  std::vector<std::string> norm_from, norm_to;
  for (const auto& k : from) norm_from.push_back(normalize_kernel_name(k.name));
  for (const auto& k : to) norm_to.push_back(normalize_kernel_name(k.name));
  pass(NameMatchKind::normalized, [&](std::size_t f, std::size_t t) {
    return !norm_from[f].empty() && norm_from[f] == norm_to[t];
  });

  std::map<std::string, int> short_from, short_to;
  for (const auto& k : from)
    if (!k.short_name.empty()) ++short_from[k.short_name];
  for (const auto& k : to)
    if (!k.short_name.empty()) ++short_to[k.short_name];
  pass(NameMatchKind::short_name, [&](std::size_t f, std::size_t t) {
    const std::string& s = from[f].short_name;
    return !s.empty() && s == to[t].short_name && short_from[s] == 1 && short_to[s] == 1;
  });
  return out;
}

}  // namespace roofline
