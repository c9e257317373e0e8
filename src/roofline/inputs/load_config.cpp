// HuggingFace config.json -> ModelConfig (docs/method.md §2.5, §8): `text_config` first, then
// the top level. The layer plan is in config_plan.cpp, weight formats in config_quant.cpp.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "roofline/inputs/config_view.hpp"
#include "roofline/inputs/dtype.hpp"
#include "roofline/inputs/layer.hpp"
#include "roofline/inputs/load.hpp"

namespace roofline::inputs {
namespace detail {

std::optional<double> ConfigView::number(std::initializer_list<const char*> keys,
                                         std::string* used) {
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

std::optional<std::string> ConfigView::string(std::initializer_list<const char*> keys) {
  for (const json* scope : {text_, &top_}) {
    if (!scope) continue;
    for (const char* key : keys) {
      std::string path = scope == text_ ? fmt::format("text_config.{}", key) : key;
      if (auto v = f_.string(*scope, key, path); v && !v->empty()) return v;
    }
  }
  return std::nullopt;
}

std::optional<bool> ConfigView::boolean(const char* key) {
  for (const json* scope : {text_, &top_}) {
    if (!scope) continue;
    std::string path = scope == text_ ? fmt::format("text_config.{}", key) : key;
    if (auto v = f_.boolean(*scope, key, path)) return v;
  }
  return std::nullopt;
}

const json* ConfigView::find(const char* key, std::string& path) {
  for (const json* scope : {text_, &top_}) {
    if (!scope) continue;
    if (const json* v = f_.find(*scope, key); v && !v->is_null()) {
      path = scope == text_ ? fmt::format("text_config.{}", key) : key;
      return v;
    }
  }
  return nullptr;
}

std::optional<std::vector<long>> ConfigView::integers(const char* key, std::string* used) {
  std::string path;
  const json* v = find(key, path);
  if (!v) return std::nullopt;
  if (!v->is_array()) {
    f_.error(path, "expected a list of layer indices, got " + describe_type(*v));
    return std::nullopt;
  }
  std::vector<long> out;
  for (const json& i : *v)
    if (i.is_number_integer() || i.is_number_unsigned()) out.push_back(i.get<long>());
  if (used) *used = path;
  return out;
}

std::string ConfigView::path_of(const char* key) const {
  if (text_ && text_->contains(key)) return fmt::format("text_config.{}", key);
  return key;
}

}  // namespace detail

namespace {

using detail::ConfigView;

// head_dim, else attention_head_dim, else the architecture default, else hidden / heads.
void read_head_dim(ConfigView& view, ModelConfig& c) {
  std::string used;
  c.head_dim = view.number({"head_dim", "attention_head_dim"}, &used);
  if (c.head_dim && *c.head_dim > 0) {
    c.head_dim_rule = used;
    return;
  }
  c.head_dim.reset();
  const std::string& t = c.model_type;
  if (t == "gemma2" || t == "gemma3" || t == "gemma3_text") {
    c.head_dim = 256;
    c.head_dim_rule = fmt::format("architecture default for {}: 256", t);
    c.head_dim_derived = true;
  } else if (c.hidden && c.n_heads && *c.n_heads > 0) {
    c.head_dim = *c.hidden / *c.n_heads;
    c.head_dim_rule = "hidden_size / num_attention_heads";
    c.head_dim_derived = true;
  }
}

// Linear attention, state-space and indexer keys (docs/method.md §8.13, §8.12).
void read_mixer_keys(ConfigView& view, ModelConfig& c) {
  c.linear_key_heads = view.number({"linear_num_key_heads"});
  c.linear_value_heads = view.number({"linear_num_value_heads"});
  c.linear_key_head_dim = view.number({"linear_key_head_dim"});
  c.linear_value_head_dim = view.number({"linear_value_head_dim"});
  c.linear_conv_kernel = view.number({"linear_conv_kernel_dim"});
  std::string path;
  if (const json* kda = view.find("linear_attn_config", path)) {
    if (!kda->is_object()) {
      view.reader().error(path, "expected an object, got " + describe_type(*kda));
    } else {
      ConfigView sub(view.reader(), *kda, nullptr);
      c.kda_heads = sub.number({"num_heads"});
      c.kda_head_dim = sub.number({"head_dim"});
      c.kda_conv_kernel = sub.number({"short_conv_kernel_size"});
      if (auto s = sub.string({"kda_state_dtype", "state_dtype"})) c.state_dtype = *s;
    }
  }
  c.mamba_heads = view.number({"mamba_num_heads", "mamba_n_heads"});
  c.mamba_head_dim = view.number({"mamba_head_dim", "mamba_d_head"});
  c.ssm_state_size = view.number({"ssm_state_size", "mamba_d_state"});
  c.mamba_groups = view.number({"n_groups", "mamba_n_groups"});
  c.mamba_conv_kernel = view.number({"conv_kernel", "mamba_d_conv"});
  c.mamba_expand = view.number({"mamba_expand", "expand"});
  if (c.state_dtype.empty())
    c.state_dtype =
        view.string({"mamba_ssm_dtype", "mamba_ssm_cache_dtype", "kda_state_dtype"}).value_or("");
  if (!c.state_dtype.empty()) {
    if (auto d = parse_dtype(c.state_dtype))
      c.state_dtype_key = d->key;
    else
      c.state_dtype.clear();
  }
  c.index_head_dim = view.number({"index_head_dim"});
  c.index_n_heads = view.number({"index_n_heads"});
  c.mamba_dt_rank = view.number({"mamba_dt_rank", "time_step_rank"});
}

// What changes a projection's shape beyond the sizes: the attention output gate, tied
// embeddings.
void read_projection_keys(ConfigView& view, ModelConfig& c) {
  if (const auto gate = view.boolean("attn_output_gate")) {
    c.attn_output_gate = *gate;
    c.attn_output_gate_rule = view.path_of("attn_output_gate");
  } else if (c.model_type.rfind("qwen3_next", 0) == 0) {
    c.attn_output_gate = true;
    c.attn_output_gate_rule = fmt::format(
        "model_type {}: its attention gates the output (q_proj writes 2·heads·head_dim)",
        c.model_type);
  }
  if (const auto tie = view.boolean("tie_word_embeddings")) c.tie_word_embeddings = *tie;
}

// Mixture-of-experts keys: experts, top-k, the expert FFN width and shared experts (after
// `intermediate`, which a Mixtral-style config's expert FFN falls back to).
void read_expert_keys(ConfigView& view, ModelConfig& c) {
  c.experts = view.number({"num_experts", "num_local_experts", "n_routed_experts"});
  if (c.experts && *c.experts < 1) c.experts.reset();  // dense configs sometimes say 0
  c.top_k = view.number({"num_experts_per_tok", "experts_per_token", "moe_topk"});
  if (c.top_k && *c.top_k < 1) c.top_k.reset();
  c.moe_intermediate = view.number({"moe_intermediate_size"}, &c.moe_intermediate_source);
  if (!c.moe_intermediate && c.experts && c.intermediate) {
    c.moe_intermediate = c.intermediate;  // Mixtral-style: the expert FFN is intermediate_size
    c.moe_intermediate_source = "intermediate_size (no moe_intermediate_size)";
  }
  c.shared_experts = view.number({"n_shared_experts", "num_shared_experts"});
  if (c.shared_experts && *c.shared_experts <= 0) c.shared_experts.reset();
  c.shared_expert_intermediate = view.number({"shared_expert_intermediate_size"});
  if (c.shared_expert_intermediate && *c.shared_expert_intermediate <= 0)
    c.shared_expert_intermediate.reset();
  // Llama 4: every MoE layer runs one shared expert as wide as a routed one (intermediate_size;
  // its dense layers use intermediate_size_mlp).
  if (!c.shared_expert_intermediate && !c.shared_experts && c.experts && c.intermediate &&
      c.model_type.rfind("llama4", 0) == 0)
    c.shared_expert_intermediate = c.intermediate;
}

}  // namespace

Loaded<ModelConfig> parse_model_config(std::string_view text, const std::string& display_name,
                                       const InputLimits& limits) {
  Loaded<ModelConfig> out;
  auto doc = parse_json_object(text, display_name, limits.max_depth, out.errors, out.notes);
  if (!doc) return out;
  FieldReader f(display_name, out.errors);
  const json* text_cfg = f.object(*doc, "text_config", "text_config");
  ConfigView view(f, *doc, text_cfg);
  ModelConfig c;
  c.from_text_config = text_cfg != nullptr;
  c.model_type = lower_ascii(view.string({"model_type"}).value_or(""));
  if (const auto it = doc->find("architectures");
      it != doc->end() && it->is_array() && !it->empty() && it->front().is_string())
    c.architecture = it->front().get<std::string>();
  c.layers = view.number({"num_hidden_layers", "num_layers", "n_layer"});
  c.hidden = view.number({"hidden_size", "d_model", "n_embd"});
  c.intermediate = view.number({"intermediate_size", "ffn_dim"});
  c.intermediate_mlp = view.number({"intermediate_size_mlp"});
  read_expert_keys(view, c);
  c.hidden_act =
      lower_ascii(view.string({"mlp_hidden_act", "hidden_act", "hidden_activation"}).value_or(""));
  c.first_k_dense = view.number({"first_k_dense_replace"});
  c.n_heads = view.number({"num_attention_heads", "n_head", "num_heads"});
  c.n_kv_heads = view.number({"num_key_value_heads", "num_kv_heads"});
  if (!c.n_kv_heads && c.n_heads) {
    c.n_kv_heads = c.n_heads;
    c.n_kv_heads_defaulted = true;
  }
  read_head_dim(view, c);
  c.sliding_window = view.number({"sliding_window"});
  c.attention_chunk_size = view.number({"attention_chunk_size"});
  c.kv_lora_rank = view.number({"kv_lora_rank"});
  c.q_lora_rank = view.number({"q_lora_rank"});
  c.qk_rope_head_dim = view.number({"qk_rope_head_dim"});
  c.qk_nope_head_dim = view.number({"qk_nope_head_dim"});
  c.v_head_dim = view.number({"v_head_dim"});
  c.index_topk = view.number({"index_topk"});
  c.vocab = view.number({"vocab_size"});
  read_mixer_keys(view, c);
  read_projection_keys(view, c);
  c.dtype = view.string({"torch_dtype", "dtype"}).value_or("");
  if (!c.dtype.empty() && !parse_dtype(c.dtype))
    f.error(c.from_text_config ? "text_config.torch_dtype" : "torch_dtype",
            fmt::format("unknown dtype '{}'; ignored", c.dtype));
  detail::read_layer_plan(view, c);
  detail::read_weight_format(f, *doc, text_cfg, c);
  for (const auto& p : c.plan.problems)
    out.notes.push_back(fmt::format("{}: layer plan: {}", display_name, p));
  out.value = std::move(c);
  return out;
}

}  // namespace roofline::inputs
