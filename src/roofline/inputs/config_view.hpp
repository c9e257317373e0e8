#pragma once
// Private to the config.json loaders (load_config.cpp, config_plan.cpp, config_quant.cpp): reads
// model fields from `text_config` first and the top level second (docs/method.md §2.5).

#include <algorithm>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "roofline/inputs/json_input.hpp"
#include "roofline/inputs/inputs.hpp"

namespace roofline::detail {

// The most layers a config may declare; larger counts are clamped (a fuzzed 1e300 stays finite).
inline constexpr double k_max_layers = 1e5;
// A layer count or index from a config number, clamped to [0, k_max_layers].
inline long as_count(double v) {
  return static_cast<long>(std::clamp(v, 0.0, k_max_layers));
}

class ConfigView {
 public:
  ConfigView(FieldReader& f, const json& top, const json* text) : f_(f), top_(top), text_(text) {}

  // The first of `keys` present (text_config, then top level) as a non-negative number; `used`
  // receives its dotted path.
  std::optional<double> number(std::initializer_list<const char*> keys,
                               std::string* used = nullptr);
  // The first of `keys` present as a non-empty string.
  std::optional<std::string> string(std::initializer_list<const char*> keys);
  std::optional<bool> boolean(const char* key);
  // The first scope holding `key` (not null), and its dotted path.
  const json* find(const char* key, std::string& path);
  // `key` as a list of integers; a wrong type is an error on the field and gives nullopt.
  std::optional<std::vector<long>> integers(const char* key, std::string* used = nullptr);
  // The dotted path a key would have in the first scope (for messages).
  std::string path_of(const char* key) const;

  FieldReader& reader() { return f_; }
  const json& top() const { return top_; }
  const json* text() const { return text_; }

 private:
  FieldReader& f_;
  const json& top_;
  const json* text_;
};

// Layer plan (config_plan.cpp): fills c.plan and the counts derived from it (moe_layers,
// full_attention_layers and their rules). Needs c.layers, c.experts and the window keys read.
void read_layer_plan(ConfigView& view, ModelConfig& c);

// Every layer softmax attention, with sliding / chunked windows by the Gemma, Mistral, Qwen2 and
// Llama-4 rules (config_plan_rules.cpp). Fills c.plan with n layers.
void plan_default_attention(ConfigView& view, ModelConfig& c, long n);
// The FFN of each layer from the MoE-layer keys (config_plan_rules.cpp); with `keep_explicit`,
// layers whose block type fixed the FFN (pattern, layers_block_type) are left alone.
void plan_assign_ffn(ConfigView& view, ModelConfig& c, bool keep_explicit);

// Weight format (config_quant.cpp): quantization_config → bytes per weight element with block
// scales, the modules that stay unquantized.
void read_weight_format(FieldReader& f, const json& doc, const json* text, ModelConfig& c);

}  // namespace roofline::detail
