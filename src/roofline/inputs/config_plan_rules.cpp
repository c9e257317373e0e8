// Layer-plan rules that need no layer list (docs/method.md §8.3): softmax attention windows (Gemma,
// Mistral, Qwen2, Llama-4 chunks) and the FFN of each layer (the MoE-layer keys).
#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "roofline/base/units.hpp"

#include "roofline/inputs/config_view.hpp"

namespace roofline::detail {
namespace {}  // namespace

// All layers softmax attention; sliding and chunked windows by the Gemma/Mistral/Llama-4 rules.
void plan_default_attention(ConfigView& view, ModelConfig& c, long n) {
  auto& plan = c.plan;
  const bool falcon = c.model_type == "falcon_h1";
  plan.layers.assign(static_cast<std::size_t>(n),
                     LayerSpec{falcon ? Mixer::hybrid : Mixer::full, 0, Ffn::dense});
  if (falcon) {
    plan.mixer_rule = "model_type falcon_h1: attention and mamba2 side by side in every layer";
    return;
  }
  const auto& C = c.attention_chunk_size;
  if (C) {
    std::string path;
    const json* no_rope = view.find("no_rope_layers", path);
    const bool listed = no_rope && no_rope->is_array() && !no_rope->empty();
    for (long i = 0; i < n; ++i) {
      bool global = (i + 1) % 4 == 0;
      if (listed) {
        const auto idx = static_cast<std::size_t>(i);
        global = idx < no_rope->size() && (*no_rope)[idx].is_number() &&
                 (*no_rope)[idx].get<double>() == 0.0;
      }
      plan.layers[static_cast<std::size_t>(i)] = global ? LayerSpec{Mixer::full, 0, Ffn::dense}
                                                        : LayerSpec{Mixer::chunked, *C, Ffn::dense};
    }
    plan.mixer_rule =
        listed
            ? fmt::format("attention_chunk_size {} with {} (0 = global full)", format_g(*C), path)
            : fmt::format(
                  "attention_chunk_size {}, no no_rope_layers: architecture default, every 4th "
                  "layer ((i+1) % 4 == 0) global",
                  format_g(*C));
    if (listed && static_cast<long>(no_rope->size()) != n)
      plan.problems.push_back(
          fmt::format("{} has {} entries but num_hidden_layers is {}", path, no_rope->size(), n));
    return;
  }
  const auto& W = c.sliding_window;
  if (!W) {
    plan.mixer_rule = "every layer full attention";
    return;
  }
  if (auto use = view.boolean("use_sliding_window"); use && !*use) {
    plan.mixer_rule = fmt::format(
        "every layer full attention (use_sliding_window false; sliding_window {} unused)",
        format_g(*W));
    return;
  }
  auto pattern = view.number({"sliding_window_pattern"});
  std::string pattern_rule;
  if (!pattern && (c.model_type == "gemma3" || c.model_type == "gemma3_text")) {
    pattern = 6;
    pattern_rule = "architecture default sliding_window_pattern 6 (gemma3)";
  } else if (!pattern && c.model_type == "gemma2") {
    pattern = 2;
    pattern_rule = "architecture default: gemma2 alternates sliding and global";
  } else if (pattern) {
    pattern_rule = fmt::format("sliding_window_pattern {}", format_g(*pattern));
  }
  if (pattern && *pattern >= 1) {
    const long p = as_count(*pattern);
    for (long i = 0; i < n; ++i)
      if ((i + 1) % p != 0)
        plan.layers[static_cast<std::size_t>(i)] = {Mixer::sliding, *W, Ffn::dense};
    plan.mixer_rule = fmt::format("{}: layer i global iff (i+1) % {} == 0, else sliding({})",
                                  pattern_rule, p, format_g(*W));
    return;
  }
  long first = 0;
  std::string from;
  if (auto use = view.boolean("use_sliding_window"); use && *use)
    if (auto m = view.number({"max_window_layers"})) {
      first = as_count(*m);
      from = fmt::format(" from max_window_layers {}", first);
    }
  for (long i = first; i < n; ++i)
    plan.layers[static_cast<std::size_t>(i)] = {Mixer::sliding, *W, Ffn::dense};
  plan.mixer_rule =
      fmt::format("sliding_window {} on every layer{} (Mistral-style)", format_g(*W), from);
}

// FFNs of the layers whose block type did not fix them (docs/method.md §8.3 "MoE layers").
void plan_assign_ffn(ConfigView& view, ModelConfig& c, bool keep_explicit) {
  auto& plan = c.plan;
  if (!c.experts) {
    if (plan.ffn_rule.empty()) plan.ffn_rule = "no experts: dense FFN";
    return;
  }
  ConfigView& v = view;
  const long first = c.first_k_dense ? as_count(*c.first_k_dense) : 0;
  std::vector<std::string> rules;
  if (first > 0) rules.push_back(fmt::format("first_k_dense_replace {}", first));
  std::set<long> dense_list;
  if (auto l = v.integers("mlp_only_layers"); l && !l->empty()) {
    dense_list.insert(l->begin(), l->end());
    rules.push_back(fmt::format("{} in mlp_only_layers", l->size()));
  }
  std::optional<std::set<long>> moe_list;
  if (auto l = v.integers("moe_layers"); l) {
    moe_list = std::set<long>(l->begin(), l->end());
    rules.push_back("moe_layers list");
  }
  auto step = [&](const char* key) -> long {
    auto s = v.number({key});
    if (!s) return 0;
    if (*s < 1) {
      plan.problems.push_back(fmt::format("{} {} < 1: ignored", key, format_g(*s)));
      return 0;
    }
    rules.push_back(fmt::format("{} {}", key, format_g(*s)));
    return as_count(*s);
  };
  const long sparse_step = step("decoder_sparse_step");
  const long freq = step("moe_layer_freq");
  const long interleave = step("interleave_moe_layer_step");
  auto e_period = v.number({"expert_layer_period"}), e_offset = v.number({"expert_layer_offset"});
  const bool jamba = e_period && *e_period >= 1 && e_offset;
  if (jamba)
    rules.push_back(fmt::format("expert_layer_period {} / offset {}", format_g(*e_period),
                                format_g(*e_offset)));
  long decided = 0;
  for (long i = 0; i < static_cast<long>(plan.layers.size()); ++i) {
    LayerSpec& l = plan.layers[static_cast<std::size_t>(i)];
    if (keep_explicit && l.ffn != Ffn::dense) continue;  // FFN-only blocks and pattern layers
    if (keep_explicit && l.mixer == Mixer::none) continue;
    ++decided;
    bool moe = i >= first && !dense_list.count(i);
    if (sparse_step > 1) moe = moe && (i + 1) % sparse_step == 0;
    if (freq > 1) moe = moe && i % freq == 0;
    if (interleave > 1) moe = moe && (i + 1) % interleave == 0;
    if (moe_list) moe = moe && moe_list->count(i);
    if (jamba) moe = moe && i % as_count(*e_period) == as_count(*e_offset);
    l.ffn = moe ? Ffn::moe : Ffn::dense;
  }
  if (decided == 0 && !plan.ffn_rule.empty()) return;  // the block types fixed every FFN
  std::string joined;
  for (const auto& r : rules) joined += (joined.empty() ? "" : ", ") + r;
  plan.ffn_rule = joined.empty() ? "experts on every layer" : joined;
}

}  // namespace roofline::detail
