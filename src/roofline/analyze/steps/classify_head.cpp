// Pass classify_head (docs/method.md §7): classify() over the head, then the MoE stages from
// sibling kernels (moe_siblings.cpp).
#include "roofline/analyze/steps/classify_head.hpp"

#include <algorithm>

#include "roofline/analyze/entry/head_entry.hpp"
#include "roofline/analyze/layer.hpp"

namespace roofline::analyze {

TopNClass topn_class(std::vector<HeadEntry>& head, const TopnDocument& topn,
                     std::size_t topn_position, const ClassRules& rules) {
  auto h = std::find_if(head.begin(), head.end(),
                        [&](const HeadEntry& e) { return e.topn_position == topn_position; });
  if (h != head.end()) return TopNClass{&*h, h->classified};
  return TopNClass{nullptr, classify::classify(topn.entries[topn_position], rules)};
}

void classify_head(std::vector<HeadEntry>& head, const TopnDocument& topn,
                   const ClassRules& rules) {
  for (HeadEntry& e : head) e.classified = classify::classify(topn.entries[e.topn_position], rules);
  moe_stages_from_siblings(head, topn, rules);
}

}  // namespace roofline::analyze
