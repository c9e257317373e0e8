// HuggingFace config.json -> ModelConfig (SPEC §2.3): `text_config` first, then the top level.
#include <algorithm>
#include <cmath>
#include <set>

#include <fmt/format.h>

#include "core/json_input.hpp"
#include "roofline/dtype.hpp"
#include "roofline/load.hpp"

namespace roofline {
namespace {

using detail::FieldReader;
using detail::json;

// Reads model fields from text_config first and the top level second.
class ConfigView {
 public:
  ConfigView(FieldReader& f, const json& top, const json* text) : f_(f), top_(top), text_(text) {}

  // The first of `keys` present (text_config, then top level) as a positive number.
  std::optional<double> number(std::initializer_list<const char*> keys,
                               std::string* used = nullptr) {
    for (const json* scope : {text_, &top_}) {
      if (!scope) continue;
      for (const char* key : keys) {
        std::string path = scope == text_ ? fmt::format("text_config.{}", key) : key;
        if (auto v = f_.number(*scope, key, path)) {
          if (*v < 0) {
            f_.error(path, fmt::format("negative value {}; ignored", *v));
            continue;
          }
          if (used) *used = path;
          return v;
        }
      }
    }
    return std::nullopt;
  }
  std::optional<std::string> string(std::initializer_list<const char*> keys) {
    for (const json* scope : {text_, &top_}) {
      if (!scope) continue;
      for (const char* key : keys) {
        std::string path = scope == text_ ? fmt::format("text_config.{}", key) : key;
        if (auto v = f_.string(*scope, key, path); v && !v->empty()) return v;
      }
    }
    return std::nullopt;
  }
  // The first scope holding `key`, and its dotted path.
  const json* find(const char* key, std::string& path) {
    for (const json* scope : {text_, &top_}) {
      if (!scope) continue;
      if (const json* v = f_.find(*scope, key); v && !v->is_null()) {
        path = scope == text_ ? fmt::format("text_config.{}", key) : key;
        return v;
      }
    }
    return nullptr;
  }

 private:
  FieldReader& f_;
  const json& top_;
  const json* text_;
};

void read_layer_types(FieldReader& f, ConfigView& view, ModelConfig& c) {
  std::string path;
  if (const json* types = view.find("layer_types", path)) {
    if (!types->is_array()) {
      f.error(path, "expected a list of layer types, got " + detail::describe_type(*types));
    } else if (!types->empty()) {
      double full = 0, sliding = 0;
      for (const json& t : *types) {
        if (!t.is_string()) continue;
        const auto& s = t.get_ref<const std::string&>();
        if (s == "full_attention")
          ++full;
        else if (s == "sliding_attention")
          ++sliding;
      }
      c.full_attention_layers = full;
      c.full_attention_rule =
          fmt::format("{} of {} layer_types are full_attention", full, types->size());
      if (sliding > 0)
        c.full_attention_rule += fmt::format(" ({} sliding_attention not counted)", sliding);
      return;
    }
  }
  if (auto interval = view.number({"full_attention_interval"});
      interval && *interval >= 1 && c.layers) {
    c.full_attention_layers = std::floor(*c.layers / *interval);
    c.full_attention_rule =
        fmt::format("{} layers / full_attention_interval {}", *c.layers, *interval);
    return;
  }
  if (c.layers) {
    c.full_attention_layers = c.layers;
    c.full_attention_rule = "every layer has attention";
  }
}

// Layer counts and strides beyond this are not a model; counting stops there (and a cast of a
// larger double to long would be undefined behaviour).
constexpr double k_max_layers = 1e6;

long layer_index(double v) {
  return static_cast<long>(std::clamp(v, 0.0, k_max_layers));
}

void read_moe_layers(FieldReader& f, ConfigView& view, ModelConfig& c) {
  if (!c.layers || !c.experts) return;
  if (*c.layers > k_max_layers) {
    f.error("num_hidden_layers",
            fmt::format("implausible layer count {}; MoE layers not derived", *c.layers));
    return;
  }
  const auto layers = layer_index(*c.layers);
  std::string mlp_path;
  const json* mlp_only = view.find("mlp_only_layers", mlp_path);
  auto sparse_step = view.number({"decoder_sparse_step"});
  if ((mlp_only && mlp_only->is_array() && !mlp_only->empty()) ||
      (sparse_step && *sparse_step > 1)) {
    std::set<long> dense;
    if (mlp_only && mlp_only->is_array())
      for (const json& i : *mlp_only)
        if (i.is_number_integer()) dense.insert(i.get<long>());
    long step = sparse_step && *sparse_step >= 1 ? layer_index(*sparse_step) : 1;
    long count = 0;
    for (long i = 0; i < layers; ++i)
      if (!dense.count(i) && (i + 1) % step == 0) ++count;
    c.moe_layers = static_cast<double>(count);
    c.moe_layers_rule = fmt::format("{} layers, {} in mlp_only_layers, decoder_sparse_step {}",
                                    layers, dense.size(), step);
    return;
  }
  if (mlp_only && !mlp_only->is_array())
    f.error(mlp_path, "expected a list of layer indices, got " + detail::describe_type(*mlp_only));
  auto first_dense = c.first_k_dense.value_or(0.0);
  auto freq = view.number({"moe_layer_freq"});
  if (freq && *freq > 1) {
    long count = 0;
    const long stride = layer_index(*freq);
    for (long i = layer_index(first_dense); i < layers; ++i)
      if (i % stride == 0) ++count;
    c.moe_layers = static_cast<double>(count);
    c.moe_layers_rule =
        fmt::format("{} layers from first_k_dense_replace {} every moe_layer_freq {}", layers,
                    first_dense, *freq);
    return;
  }
  c.moe_layers = std::max(0.0, *c.layers - first_dense);
  c.moe_layers_rule =
      c.first_k_dense ? fmt::format("{} layers - first_k_dense_replace {}", *c.layers, first_dense)
                      : fmt::format("all {} layers", *c.layers);
}

void read_quantization(FieldReader& f, const json& doc, const json* text, ModelConfig& c) {
  const json* q = nullptr;
  std::string path = "quantization_config";
  for (const json* scope : {&doc, text}) {
    if (!scope) continue;
    if (const json* v =
            f.object(*scope, "quantization_config",
                     scope == text ? "text_config.quantization_config" : "quantization_config")) {
      q = v;
      path = scope == text ? "text_config.quantization_config" : "quantization_config";
      break;
    }
  }
  if (!q) return;
  c.quant_method = lower_ascii(f.string(*q, "quant_method", path + ".quant_method").value_or(""));
  auto bits = f.number(*q, "bits", path + ".bits");
  if (!bits) bits = f.number(*q, "w_bit", path + ".w_bit");
  if (!bits) bits = f.number(*q, "weight_bits", path + ".weight_bits");
  const std::string& m = c.quant_method;
  if (m == "mxfp4" || m == "nvfp4" || m.find("fp4") != std::string::npos) {
    c.quant_weight_bytes = 0.5;
    c.quant_rule = fmt::format("{}.quant_method {} → 0.5 B weights", path, m);
  } else if (m == "fp8" || m == "fbgemm_fp8" || m == "ptpc_fp8" ||
             m.find("fp8") != std::string::npos) {
    c.quant_weight_bytes = 1.0;
    c.quant_rule = fmt::format("{}.quant_method {} → 1 B weights", path, m);
  } else if (bits && (*bits == 4 || *bits == 8 || *bits == 2 || *bits == 3)) {
    c.quant_weight_bytes = *bits / 8.0;
    c.quant_rule = fmt::format("{}.bits {} → {} B weights", path, *bits, *bits / 8.0);
  } else if (const json* groups = f.find(*q, "config_groups"); groups && groups->is_object()) {
    // compressed-tensors: config_groups.<g>.weights.num_bits
    for (const auto& [name, group] : groups->items()) {
      if (!group.is_object()) continue;
      auto w = group.find("weights");
      if (w == group.end() || !w->is_object()) continue;
      auto nb = w->find("num_bits");
      if (nb != w->end() && nb->is_number() && nb->get<double>() > 0 && nb->get<double>() <= 16) {
        c.quant_weight_bytes = nb->get<double>() / 8.0;
        c.quant_rule = fmt::format("{}.config_groups.{}.weights.num_bits {} → {} B weights", path,
                                   name, nb->get<double>(), *c.quant_weight_bytes);
        break;
      }
    }
  }
  if (!c.quant_weight_bytes && !m.empty())
    c.quant_rule =
        fmt::format("{}.quant_method '{}' does not say the weight width; not used", path, m);
}

}  // namespace

Loaded<ModelConfig> parse_model_config(std::string_view text, const std::string& display_name,
                                       const InputLimits& limits) {
  Loaded<ModelConfig> out;
  auto doc = detail::parse_json_object(text, display_name, limits.max_depth, out.errors);
  if (!doc) return out;
  FieldReader f(display_name, out.errors);
  const json* text_cfg = f.object(*doc, "text_config", "text_config");
  ConfigView view(f, *doc, text_cfg);
  ModelConfig c;
  c.from_text_config = text_cfg != nullptr;
  c.model_type = view.string({"model_type"}).value_or("");
  c.layers = view.number({"num_hidden_layers", "num_layers", "n_layer"});
  c.hidden = view.number({"hidden_size", "d_model", "n_embd"});
  c.intermediate = view.number({"intermediate_size", "ffn_dim"});
  c.experts = view.number({"num_experts", "num_local_experts", "n_routed_experts"});
  if (c.experts && *c.experts < 1) c.experts.reset();  // dense configs sometimes say 0
  c.top_k = view.number({"num_experts_per_tok", "experts_per_token", "moe_topk"});
  if (c.top_k && *c.top_k < 1) c.top_k.reset();
  c.moe_intermediate = view.number({"moe_intermediate_size"}, &c.moe_intermediate_source);
  if (!c.moe_intermediate && c.experts && c.intermediate) {
    c.moe_intermediate = c.intermediate;  // Mixtral-style: the expert FFN is intermediate_size
    c.moe_intermediate_source = "intermediate_size (no moe_intermediate_size)";
  }
  c.first_k_dense = view.number({"first_k_dense_replace"});
  c.n_heads = view.number({"num_attention_heads", "n_head", "num_heads"});
  c.n_kv_heads = view.number({"num_key_value_heads", "num_kv_heads"});
  if (!c.n_kv_heads && c.n_heads) {
    c.n_kv_heads = c.n_heads;
    c.n_kv_heads_defaulted = true;
  }
  c.head_dim = view.number({"head_dim"});
  if ((!c.head_dim || *c.head_dim <= 0) && c.hidden && c.n_heads && *c.n_heads > 0) {
    c.head_dim = *c.hidden / *c.n_heads;
    c.head_dim_derived = true;
  }
  c.kv_lora_rank = view.number({"kv_lora_rank"});
  c.qk_rope_head_dim = view.number({"qk_rope_head_dim"});
  c.qk_nope_head_dim = view.number({"qk_nope_head_dim"});
  c.v_head_dim = view.number({"v_head_dim"});
  c.index_topk = view.number({"index_topk"});
  c.dtype = view.string({"torch_dtype", "dtype"}).value_or("");
  if (!c.dtype.empty() && !parse_dtype(c.dtype))
    f.error(c.from_text_config ? "text_config.torch_dtype" : "torch_dtype",
            fmt::format("unknown dtype '{}'; ignored", c.dtype));
  read_layer_types(f, view, c);
  read_moe_layers(f, view, c);
  read_quantization(f, *doc, text_cfg, c);
  out.value = std::move(c);
  return out;
}

}  // namespace roofline
