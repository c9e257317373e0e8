// Counting and describing a layer plan (docs/method.md §8.3). Resolution from config.json is in
// config_plan.cpp; this file only reads the resolved plan.
#include "roofline/inputs/layer_plan.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "roofline/base/units.hpp"

namespace roofline {
namespace {

std::string ordinal(long k) {
  const long tens = k % 100;
  const char* suffix = (tens >= 11 && tens <= 13) ? "th"
                       : k % 10 == 1              ? "st"
                       : k % 10 == 2              ? "nd"
                       : k % 10 == 3              ? "rd"
                                                  : "th";
  return fmt::format("{}{}", k, suffix);
}

// "every 2nd" / "layers 3-60" / "" for the set of layer indices carrying an MoE FFN.
std::string moe_pattern(const std::vector<long>& idx, long layers) {
  if (idx.size() < 2) return {};
  const long stride = idx[1] - idx[0];
  bool regular = stride > 0;
  for (std::size_t i = 1; i < idx.size() && regular; ++i) regular = idx[i] - idx[i - 1] == stride;
  if (!regular) return {};
  if (stride == 1) return fmt::format("layers {}-{}", idx.front(), idx.back());
  // every k-th, counted from the first layer that can hold one
  if (idx.front() < stride && idx.back() + stride >= layers) return "every " + ordinal(stride);
  return fmt::format("every {} from layer {}", ordinal(stride), idx.front());
}

}  // namespace

const char* to_string(Mixer m) {
  switch (m) {
    case Mixer::full:
      return "full";
    case Mixer::sliding:
      return "sliding";
    case Mixer::chunked:
      return "chunked";
    case Mixer::gdn:
      return "gdn";
    case Mixer::kda:
      return "kda";
    case Mixer::lightning:
      return "lightning";
    case Mixer::mamba2:
      return "mamba2";
    case Mixer::mamba1:
      return "mamba1";
    case Mixer::hybrid:
      return "hybrid";
    case Mixer::none:
      return "none";
    case Mixer::unknown:
      return "unknown";
  }
  return "unknown";
}

PlanCounts plan_counts(const LayerPlan& plan) {
  PlanCounts c;
  for (const LayerSpec& l : plan.layers) {
    c.layers += 1;
    switch (l.mixer) {
      case Mixer::full:
        c.full += 1;
        break;
      case Mixer::sliding:
        c.sliding += 1;
        break;
      case Mixer::chunked:
        c.chunked += 1;
        break;
      case Mixer::gdn:
        c.gdn += 1;
        break;
      case Mixer::kda:
        c.kda += 1;
        break;
      case Mixer::lightning:
        c.lightning += 1;
        break;
      case Mixer::mamba2:
        c.mamba2 += 1;
        break;
      case Mixer::mamba1:
        c.mamba1 += 1;
        break;
      case Mixer::hybrid:
        c.hybrid += 1;
        break;
      case Mixer::none:
        c.none += 1;
        break;
      case Mixer::unknown:
        c.unknown += 1;
        break;
    }
    if (l.ffn == Ffn::moe) c.moe += 1;
    if (l.ffn == Ffn::dense) c.dense_ffn += 1;
  }
  return c;
}

double layers_served(const LayerPlan& plan, Served family) {
  const PlanCounts c = plan_counts(plan);
  switch (family) {
    case Served::softmax_attention:
      return c.softmax();
    case Served::linear_attention:
      return c.linear();
    case Served::mamba:
      return c.mamba();
    case Served::moe:
      return c.moe;
  }
  return 0.0;
}

std::string describe_plan(const LayerPlan& plan) {
  if (plan.empty()) return {};
  // Mixer groups (kind + window), largest first, ties in Mixer order.
  std::map<std::pair<int, double>, double> groups;
  for (const LayerSpec& l : plan.layers) groups[{static_cast<int>(l.mixer), l.window}] += 1;
  std::vector<std::pair<std::pair<int, double>, double>> sorted(groups.begin(), groups.end());
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  std::string mixers;
  for (const auto& [key, count] : sorted) {
    const auto m = static_cast<Mixer>(key.first);
    std::string name = to_string(m);
    if (m == Mixer::sliding || m == Mixer::chunked)
      name += fmt::format("({})", format_g(key.second));
    if (m == Mixer::none) name = "FFN-only";
    mixers += fmt::format("{}{} {}", mixers.empty() ? "" : " + ", format_g(count), name);
  }
  const PlanCounts c = plan_counts(plan);
  std::vector<long> moe_idx;
  for (std::size_t i = 0; i < plan.layers.size(); ++i)
    if (plan.layers[i].ffn == Ffn::moe) moe_idx.push_back(static_cast<long>(i));
  std::string ffn;
  const auto n = static_cast<long>(plan.layers.size());
  if (c.moe > 0) {
    if (c.moe == c.layers) {
      ffn = fmt::format("MoE on all {}", format_g(c.moe));
    } else {
      const std::string pattern = moe_pattern(moe_idx, n);
      ffn =
          fmt::format("MoE on {}{}", format_g(c.moe), pattern.empty() ? "" : " (" + pattern + ")");
    }
    if (c.dense_ffn > 0) ffn += fmt::format(", dense FFN on {}", format_g(c.dense_ffn));
  } else if (c.dense_ffn == c.layers) {
    ffn = "dense FFN on all";
  } else {
    ffn = fmt::format("dense FFN on {}", format_g(c.dense_ffn));
  }
  const double no_ffn = c.layers - c.moe - c.dense_ffn;
  if (no_ffn > 0 && c.moe + c.dense_ffn > 0) ffn += fmt::format(", no FFN on {}", format_g(no_ffn));
  return fmt::format("{} layers: {}; {}", format_g(c.layers), mixers, ffn);
}

}  // namespace roofline
