// The layer plan from config.json (MODELS.md §1): token mixers by the first key present in order
// of precedence, windows, then FFNs. Every problem (a list of the wrong length, an unknown layer
// kind, a window of 0) becomes a note in plan.problems and the plan keeps what it can.
#include <algorithm>
#include <cmath>
#include <set>

#include <fmt/format.h>

#include "core/config_view.hpp"

namespace roofline::detail {
namespace {

// Layer counts beyond this are not a model (and a cast of a larger double would be undefined).
constexpr double k_max_layers = 1e5;

std::string g(double v) {
  return fmt::format("{:g}", v);
}

long as_count(double v) {
  return static_cast<long>(std::clamp(v, 0.0, k_max_layers));
}

struct PlanInput {
  ConfigView& view;
  ModelConfig& c;
  long n = 0;  // num_hidden_layers
};

bool mamba1_style(const ModelConfig& c) {
  return !c.mamba_heads && (c.model_type.find("jamba") != std::string::npos ||
                            c.model_type == "mamba" || c.model_type == "falcon_mamba");
}

Mixer linear_kind(const ModelConfig& c) {
  if (c.kda_heads) return Mixer::kda;
  if (c.model_type.find("minimax") != std::string::npos) return Mixer::lightning;
  return Mixer::gdn;
}

// A list whose length differs from num_hidden_layers is followed as written, with a note.
void check_length(PlanInput& in, const std::string& what, std::size_t size) {
  if (in.n > 0 && static_cast<long>(size) != in.n)
    in.c.plan.problems.push_back(fmt::format(
        "{} has {} entries but num_hidden_layers is {}: the plan follows {} ({} layers); counts "
        "that depend on it may be off",
        what, size, in.n, what, size));
}

bool from_layer_types(PlanInput& in) {
  std::string path;
  const json* types = in.view.find("layer_types", path);
  if (!types) return false;
  if (!types->is_array() || types->empty()) {
    if (!types->is_array())
      in.view.reader().error(path, "expected a list of layer types, got " + describe_type(*types));
    return false;
  }
  auto& plan = in.c.plan;
  std::set<std::string> unknown;
  for (const json& t : *types) {
    LayerSpec l;
    const std::string s = t.is_string() ? lower_ascii(t.get_ref<const std::string&>()) : "";
    if (s == "full_attention" || s == "attention" || s == "global_attention") {
      l.mixer = Mixer::full;
    } else if (s == "sliding_attention" || s == "sliding_window_attention" ||
               s == "local_attention") {
      l.mixer = Mixer::sliding;
    } else if (s == "chunked_attention") {
      l.mixer = Mixer::chunked;
    } else if (s == "linear_attention") {
      l.mixer = linear_kind(in.c);
    } else if (s == "mamba" || s == "mamba2" || s == "mamba1") {
      l.mixer = s == "mamba1" || (s == "mamba" && mamba1_style(in.c)) ? Mixer::mamba1
                                                                       : Mixer::mamba2;
    } else {
      l.mixer = Mixer::unknown;
      unknown.insert(t.is_string() ? t.get<std::string>() : describe_type(t));
    }
    plan.layers.push_back(l);
  }
  plan.mixer_rule = path;
  check_length(in, path, types->size());
  for (const auto& u : unknown)
    plan.problems.push_back(fmt::format(
        "{}: unknown layer kind '{}': those layers count for no kernel family", path, u));
  return true;
}

bool from_block_types(PlanInput& in) {
  std::string path;
  const json* types = in.view.find("layers_block_type", path);
  if (!types || !types->is_array() || types->empty()) return false;
  auto& plan = in.c.plan;
  for (const json& t : *types) {
    LayerSpec l;
    const std::string s = t.is_string() ? lower_ascii(t.get_ref<const std::string&>()) : "";
    l.ffn = Ffn::none;  // set below for FFN-only blocks; mixer layers get theirs from the rules
    if (s == "mamba" || s == "mamba2") {
      l.mixer = mamba1_style(in.c) ? Mixer::mamba1 : Mixer::mamba2;
      l.ffn = Ffn::dense;  // decided later by the MoE rules
    } else if (s == "attention") {
      l.mixer = Mixer::full;
      l.ffn = Ffn::dense;
    } else if (s == "mlp") {
      l.mixer = Mixer::none;
      l.ffn = Ffn::dense;
    } else if (s == "moe") {
      l.mixer = Mixer::none;
      l.ffn = Ffn::moe;
    } else {
      l.mixer = Mixer::unknown;
      plan.problems.push_back(fmt::format("{}: unknown block type {}", path, t.dump()));
    }
    plan.layers.push_back(l);
  }
  plan.mixer_rule = path;
  check_length(in, path, types->size());
  return true;
}

// Nemotron-H: one character a layer, M mamba2, * attention, - dense MLP, E MoE.
bool from_pattern(PlanInput& in) {
  std::string path;
  const json* p = in.view.find("hybrid_override_pattern", path);
  if (!p) return false;
  if (!p->is_string() || p->get_ref<const std::string&>().empty()) {
    in.view.reader().error(path, "expected a pattern string (M * - E), got " + describe_type(*p));
    return false;
  }
  const std::string& s = p->get_ref<const std::string&>();
  auto& plan = in.c.plan;
  std::set<char> unknown;
  for (char ch : s) {
    LayerSpec l;
    switch (ch) {
      case 'M':
        l = {Mixer::mamba2, 0, Ffn::none};
        break;
      case '*':
        l = {Mixer::full, 0, Ffn::none};
        break;
      case '-':
        l = {Mixer::none, 0, Ffn::dense};
        break;
      case 'E':
        l = {Mixer::none, 0, Ffn::moe};
        break;
      default:
        l = {Mixer::unknown, 0, Ffn::none};
        unknown.insert(ch);
    }
    plan.layers.push_back(l);
  }
  plan.mixer_rule = path;
  plan.ffn_rule = path + " (- dense MLP, E MoE)";
  check_length(in, path, s.size());
  for (char ch : unknown)
    plan.problems.push_back(fmt::format(
        "{}: unknown layer character '{}' (expected M, *, - or E): that layer counts for no "
        "kernel family",
        path, ch));
  return true;
}

bool from_interval(PlanInput& in) {
  std::string path;
  auto interval = in.view.number({"full_attention_interval"}, &path);
  if (!interval || in.n <= 0) return false;
  if (*interval < 1) {
    in.c.plan.problems.push_back(
        fmt::format("{} {} is not an interval: ignored", path, g(*interval)));
    return false;
  }
  const long k = as_count(*interval);
  for (long i = 0; i < in.n; ++i)
    in.c.plan.layers.push_back({(i + 1) % k == 0 ? Mixer::full : linear_kind(in.c), 0, Ffn::dense});
  in.c.plan.mixer_rule = fmt::format("{} {} (layer i full iff (i+1) % {} == 0)", path, k, k);
  return true;
}

// Kimi Linear: linear_attn_config.{kda_layers, full_attn_layers}, 1-based.
bool from_kda_lists(PlanInput& in) {
  std::string path;
  const json* cfg = in.view.find("linear_attn_config", path);
  if (!cfg || !cfg->is_object() || in.n <= 0) return false;
  auto list = [&](const char* key) {
    std::set<long> out;
    auto it = cfg->find(key);
    if (it == cfg->end() || !it->is_array()) return out;
    for (const json& v : *it)
      if (v.is_number_integer() || v.is_number_unsigned()) out.insert(v.get<long>());
    return out;
  };
  const auto kda = list("kda_layers"), full = list("full_attn_layers");
  if (kda.empty() && full.empty()) return false;
  long neither = 0;
  for (long i = 1; i <= in.n; ++i) {
    Mixer m = kda.count(i) ? Mixer::kda : full.count(i) ? Mixer::full : Mixer::unknown;
    if (m == Mixer::unknown) ++neither;
    in.c.plan.layers.push_back({m, 0, Ffn::dense});
  }
  in.c.plan.mixer_rule = path + ".{kda_layers, full_attn_layers} (1-based)";
  if (neither > 0)
    in.c.plan.problems.push_back(fmt::format(
        "{}: {} layers are in neither kda_layers nor full_attn_layers", path, neither));
  return true;
}

bool from_attn_type_list(PlanInput& in) {
  std::string path;
  const json* list = in.view.find("attn_type_list", path);
  if (!list || !list->is_array() || list->empty()) return false;
  for (const json& v : *list) {
    const bool full = v.is_number() && v.get<double>() == 1.0;
    in.c.plan.layers.push_back({full ? Mixer::full : Mixer::lightning, 0, Ffn::dense});
  }
  in.c.plan.mixer_rule = path + " (1 full softmax, 0 lightning)";
  check_length(in, path, list->size());
  return true;
}

bool from_jamba_period(PlanInput& in) {
  auto period = in.view.number({"attn_layer_period"});
  auto offset = in.view.number({"attn_layer_offset"});
  if (!period || !offset || in.n <= 0) return false;
  if (*period < 1) {
    in.c.plan.problems.push_back("attn_layer_period < 1: ignored");
    return false;
  }
  const long p = as_count(*period), o = as_count(*offset);
  for (long i = 0; i < in.n; ++i)
    in.c.plan.layers.push_back({i % p == o ? Mixer::full : Mixer::mamba1, 0, Ffn::dense});
  in.c.plan.mixer_rule =
      fmt::format("attn_layer_period {} / offset {} (attention iff i % {} == {}, else mamba1)", p,
                  o, p, o);
  return true;
}

// All layers softmax attention; sliding and chunked windows by the Gemma/Mistral/Llama-4 rules.
void default_attention(PlanInput& in) {
  auto& plan = in.c.plan;
  const long n = in.n;
  const bool falcon = in.c.model_type == "falcon_h1";
  plan.layers.assign(static_cast<std::size_t>(n),
                     LayerSpec{falcon ? Mixer::hybrid : Mixer::full, 0, Ffn::dense});
  if (falcon) {
    plan.mixer_rule = "model_type falcon_h1: attention and mamba2 side by side in every layer";
    return;
  }
  const auto& C = in.c.attention_chunk_size;
  if (C) {
    std::string path;
    const json* no_rope = in.view.find("no_rope_layers", path);
    const bool listed = no_rope && no_rope->is_array() && !no_rope->empty();
    for (long i = 0; i < n; ++i) {
      bool global = (i + 1) % 4 == 0;
      if (listed) {
        const auto idx = static_cast<std::size_t>(i);
        global = idx < no_rope->size() && (*no_rope)[idx].is_number() &&
                 (*no_rope)[idx].get<double>() == 0.0;
      }
      plan.layers[static_cast<std::size_t>(i)] =
          global ? LayerSpec{Mixer::full, 0, Ffn::dense} : LayerSpec{Mixer::chunked, *C, Ffn::dense};
    }
    plan.mixer_rule =
        listed ? fmt::format("attention_chunk_size {} with {} (0 = global full)", g(*C), path)
               : fmt::format(
                     "attention_chunk_size {}, no no_rope_layers: architecture default, every 4th "
                     "layer ((i+1) % 4 == 0) global",
                     g(*C));
    if (listed) check_length(in, path, no_rope->size());
    return;
  }
  const auto& W = in.c.sliding_window;
  if (!W) {
    plan.mixer_rule = "every layer full attention";
    return;
  }
  if (auto use = in.view.boolean("use_sliding_window"); use && !*use) {
    plan.mixer_rule = fmt::format(
        "every layer full attention (use_sliding_window false; sliding_window {} unused)", g(*W));
    return;
  }
  auto pattern = in.view.number({"sliding_window_pattern"});
  std::string pattern_rule;
  if (!pattern && (in.c.model_type == "gemma3" || in.c.model_type == "gemma3_text")) {
    pattern = 6;
    pattern_rule = "architecture default sliding_window_pattern 6 (gemma3)";
  } else if (!pattern && in.c.model_type == "gemma2") {
    pattern = 2;
    pattern_rule = "architecture default: gemma2 alternates sliding and global";
  } else if (pattern) {
    pattern_rule = fmt::format("sliding_window_pattern {}", g(*pattern));
  }
  if (pattern && *pattern >= 1) {
    const long p = as_count(*pattern);
    for (long i = 0; i < n; ++i)
      if ((i + 1) % p != 0) plan.layers[static_cast<std::size_t>(i)] = {Mixer::sliding, *W, Ffn::dense};
    plan.mixer_rule = fmt::format("{}: layer i global iff (i+1) % {} == 0, else sliding({})",
                                  pattern_rule, p, g(*W));
    return;
  }
  long first = 0;
  std::string from;
  if (auto use = in.view.boolean("use_sliding_window"); use && *use)
    if (auto m = in.view.number({"max_window_layers"})) {
      first = as_count(*m);
      from = fmt::format(" from max_window_layers {}", first);
    }
  for (long i = first; i < n; ++i)
    plan.layers[static_cast<std::size_t>(i)] = {Mixer::sliding, *W, Ffn::dense};
  plan.mixer_rule = fmt::format("sliding_window {} on every layer{} (Mistral-style)", g(*W), from);
}

// FFNs of the layers whose block type did not fix them (MODELS.md §1 "MoE layers").
void assign_ffn(PlanInput& in, bool keep_explicit) {
  auto& plan = in.c.plan;
  ModelConfig& c = in.c;
  if (!c.experts) {
    if (plan.ffn_rule.empty()) plan.ffn_rule = "no experts: dense FFN";
    return;
  }
  ConfigView& v = in.view;
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
      plan.problems.push_back(fmt::format("{} {} < 1: ignored", key, g(*s)));
      return 0;
    }
    rules.push_back(fmt::format("{} {}", key, g(*s)));
    return as_count(*s);
  };
  const long sparse_step = step("decoder_sparse_step");
  const long freq = step("moe_layer_freq");
  const long interleave = step("interleave_moe_layer_step");
  auto e_period = v.number({"expert_layer_period"}), e_offset = v.number({"expert_layer_offset"});
  const bool jamba = e_period && *e_period >= 1 && e_offset;
  if (jamba)
    rules.push_back(fmt::format("expert_layer_period {} / offset {}", g(*e_period), g(*e_offset)));
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

}  // namespace

void read_layer_plan(ConfigView& view, ModelConfig& c) {
  PlanInput in{view, c};
  if (c.layers) {
    if (*c.layers > k_max_layers) {
      view.reader().error(view.path_of("num_hidden_layers"),
                          fmt::format("implausible layer count {}; no layer plan", g(*c.layers)));
      return;
    }
    in.n = as_count(*c.layers);
  }
  bool explicit_ffn = false;
  if (from_layer_types(in)) {
  } else if (from_block_types(in) || from_pattern(in)) {
    explicit_ffn = true;
  } else if (from_interval(in) || from_kda_lists(in) || from_attn_type_list(in) ||
             from_jamba_period(in)) {
  } else if (in.n > 0) {
    default_attention(in);
  }
  auto& plan = c.plan;
  // Windows of the layers marked sliding/chunked by a list.
  for (LayerSpec& l : plan.layers) {
    if (l.mixer == Mixer::sliding && l.window <= 0) {
      if (c.sliding_window && *c.sliding_window > 0) {
        l.window = *c.sliding_window;
      } else {
        l.mixer = Mixer::full;
        l.window = -1;  // marks "no usable window" for the note below
      }
    }
    if (l.mixer == Mixer::chunked && l.window <= 0) {
      if (c.attention_chunk_size && *c.attention_chunk_size > 0) {
        l.window = *c.attention_chunk_size;
      } else {
        l.mixer = Mixer::full;
        l.window = -1;
      }
    }
  }
  const auto no_window = std::count_if(plan.layers.begin(), plan.layers.end(),
                                       [](const LayerSpec& l) { return l.window < 0; });
  if (no_window > 0) {
    plan.problems.push_back(fmt::format(
        "{} sliding/chunked layers have no usable window (sliding_window / attention_chunk_size "
        "missing or 0): treated as full attention",
        no_window));
    for (LayerSpec& l : plan.layers)
      if (l.window < 0) l.window = 0;
  }
  if (plan.empty()) return;
  assign_ffn(in, explicit_ffn);

  const PlanCounts counts = plan_counts(plan);
  if (c.experts) {
    c.moe_layers = counts.moe;
    c.moe_layers_rule = fmt::format("{} of {} layers ({})", g(counts.moe), g(counts.layers),
                                    plan.ffn_rule);
  } else if (counts.moe > 0) {
    c.moe_layers = counts.moe;
    c.moe_layers_rule = fmt::format("{} MoE layers ({})", g(counts.moe), plan.ffn_rule);
  }
  c.full_attention_layers = counts.full + counts.hybrid;
  c.full_attention_rule =
      fmt::format("{} full-attention layers of {}{} ({})", g(counts.full + counts.hybrid),
                  g(counts.layers),
                  counts.sliding + counts.chunked > 0
                      ? fmt::format(", besides {} sliding and {} chunked", g(counts.sliding),
                                    g(counts.chunked))
                      : "",
                  plan.mixer_rule);
}

}  // namespace roofline::detail
