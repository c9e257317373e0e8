// The layer plan from config.json (docs/method.md §8.3): token mixers by the first key present in
// order of precedence, windows, then FFNs. Every problem (a list of the wrong length, an unknown
// layer kind, a window of 0) becomes a note in plan.problems and the plan keeps what it can.
#include <algorithm>
#include <cmath>
#include <set>

#include <fmt/format.h>

#include "roofline/base/units.hpp"

#include "roofline/inputs/config_view.hpp"

namespace roofline::detail {
namespace {

// Layer counts beyond this are not a model (and a cast of a larger double would be undefined).

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

// A layer list longer than any model is refused (a hostile file must not allocate a plan of
// millions of layers); returns false with an error on the field.
bool plausible_length(PlanInput& in, const std::string& path, std::size_t size) {
  if (static_cast<double>(size) <= k_max_layers) return true;
  in.view.reader().error(path, fmt::format("{} entries is not a layer list; ignored", size));
  return false;
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
  if (!plausible_length(in, path, types->size())) return false;
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
      l.mixer =
          s == "mamba1" || (s == "mamba" && mamba1_style(in.c)) ? Mixer::mamba1 : Mixer::mamba2;
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
  if (!plausible_length(in, path, types->size())) return false;
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
  if (!plausible_length(in, path, s.size())) return false;
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
        fmt::format("{} {} is not an interval: ignored", path, format_g(*interval)));
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
    in.c.plan.problems.push_back(
        fmt::format("{}: {} layers are in neither kda_layers nor full_attn_layers", path, neither));
  return true;
}

bool from_attn_type_list(PlanInput& in) {
  std::string path;
  const json* list = in.view.find("attn_type_list", path);
  if (!list || !list->is_array() || list->empty()) return false;
  if (!plausible_length(in, path, list->size())) return false;
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
  in.c.plan.mixer_rule = fmt::format(
      "attn_layer_period {} / offset {} (attention iff i % {} == {}, else mamba1)", p, o, p, o);
  return true;
}

}  // namespace

void read_layer_plan(ConfigView& view, ModelConfig& c) {
  PlanInput in{view, c};
  if (c.layers) {
    if (*c.layers > k_max_layers) {
      view.reader().error(
          view.path_of("num_hidden_layers"),
          fmt::format("implausible layer count {}; no layer plan", format_g(*c.layers)));
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
    plan_default_attention(view, c, in.n);
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
  plan_assign_ffn(view, c, explicit_ffn);

  const PlanCounts counts = plan_counts(plan);
  if (c.experts) {
    c.moe_layers = counts.moe;
    c.moe_layers_rule = fmt::format("{} of {} layers ({})", format_g(counts.moe),
                                    format_g(counts.layers), plan.ffn_rule);
  } else if (counts.moe > 0) {
    c.moe_layers = counts.moe;
    c.moe_layers_rule = fmt::format("{} MoE layers ({})", format_g(counts.moe), plan.ffn_rule);
  }
  c.full_attention_layers = counts.full + counts.hybrid;
  c.full_attention_rule =
      fmt::format("{} full-attention layers of {}{} ({})", format_g(counts.full + counts.hybrid),
                  format_g(counts.layers),
                  counts.sliding + counts.chunked > 0
                      ? fmt::format(", besides {} sliding and {} chunked", format_g(counts.sliding),
                                    format_g(counts.chunked))
                      : "",
                  plan.mixer_rule);
}

}  // namespace roofline::detail
