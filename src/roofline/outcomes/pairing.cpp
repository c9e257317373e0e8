// Kernel identity across rounds and outcome files: the one matcher, made one to one.
#include "roofline/outcomes/pairing.hpp"

#include "roofline/analyze/evidence/match.hpp"
#include "roofline/outcomes/layer.hpp"

namespace roofline::outcomes {

std::vector<KernelPair> pair_kernels(const std::vector<KernelRef>& from,
                                     const std::vector<KernelRef>& to) {
  auto names = [](const std::vector<KernelRef>& refs) {
    std::vector<KernelNames> out;
    out.reserve(refs.size());
    for (const auto& r : refs) out.push_back(KernelNames{{r.name}, r.short_name});
    return out;
  };
  const std::vector<NameMatch> matches = match_kernel_names(names(from), names(to));
  std::vector<KernelPair> out(from.size());
  std::vector<bool> taken(to.size(), false);
  for (MatchKind kind :
       {MatchKind::exact, MatchKind::normalized, MatchKind::substring, MatchKind::short_name}) {
    for (std::size_t f = 0; f < from.size(); ++f) {
      if (matches[f].kind != kind) continue;
      for (std::size_t t : matches[f].candidates) {
        if (taken[t]) continue;
        out[f] = KernelPair{kind, t};
        taken[t] = true;
        break;
      }
    }
  }
  return out;
}

}  // namespace roofline::outcomes
