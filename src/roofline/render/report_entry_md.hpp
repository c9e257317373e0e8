#pragma once
// The entry parts of profile_roofline.md (docs/method.md §16): each entry's "Entries" section
// (summary, derivation, utilization, verdict, advice, notes), and the short texts the tables above
// it share with it.

#include <cstddef>
#include <string>

#include "roofline/analyze/analysis.hpp"
#include "roofline/render/layer.hpp"

namespace roofline::render::detail {

// The capture's share, and beside it the deployed-mix share when the Top-N has one
// (docs/method.md §2.3).
std::string pct_text(const HeadEntry& e);
// The share the expected gain is weighed with (--head-key).
std::string key_pct_text(const HeadEntry& e);
// "+1.23%", or "—" where the headroom is unknown.
std::string gain_text(const HeadEntry& e);
// "1.234×", or "—" where the headroom is unknown.
std::string speedup_text(const HeadEntry& e);
// The headroom in words, saying why where it is unknown.
std::string headroom_text(const HeadEntry& e);

// Entry `index` (1-based) of the "Entries" section; `same_as` names the earlier entry whose
// problem it shares ("entry 1 (gemm · gemvx)"), said there and pointed to here
// (docs/method.md §16.4).
void entry_detail(std::string& out, const HeadEntry& e, std::size_t index,
                  const ResolvedPeaks& peaks, const std::string& same_as = "");

}  // namespace roofline::render::detail
