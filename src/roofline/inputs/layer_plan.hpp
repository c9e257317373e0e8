#pragma once
// The layer plan (docs/method.md §8.3): for every layer its token mixer and its FFN, resolved once
// per run from config.json. Every count the pipeline uses (MoE layers for the logical unit,
// attention layers per kind, linear and mamba layers, step inference) comes from here.

#include <string>
#include <vector>

namespace roofline {

// Token mixer of one layer.
enum class Mixer {
  full,       // softmax attention over the whole context
  sliding,    // softmax attention over the last `window` tokens
  chunked,    // softmax attention inside the current chunk of `window` tokens
  gdn,        // gated DeltaNet linear attention
  kda,        // Kimi delta attention
  lightning,  // MiniMax lightning linear attention
  mamba2,
  mamba1,
  hybrid,   // attention and mamba2 side by side (Falcon-H1)
  none,     // FFN-only block
  unknown,  // a layer kind the config names but this tool does not know (noted)
};
enum class Ffn { dense, moe, none };

struct LayerSpec {
  Mixer mixer = Mixer::full;
  double window = 0.0;  // W for sliding, C for chunked; 0 otherwise
  Ffn ffn = Ffn::dense;
};

struct LayerPlan {
  std::vector<LayerSpec> layers;
  std::string mixer_rule;             // the keys that decided the mixers
  std::string ffn_rule;               // the keys that decided the FFNs
  std::vector<std::string> problems;  // wrong lengths, unknown kinds, windows of 0, ...
  bool empty() const { return layers.empty(); }
};

// Layer counts of a plan, by mixer and by FFN.
struct PlanCounts {
  double layers = 0;
  double full = 0, sliding = 0, chunked = 0;
  double gdn = 0, kda = 0, lightning = 0;
  double mamba2 = 0, mamba1 = 0, hybrid = 0;
  double none = 0, unknown = 0;
  double moe = 0, dense_ffn = 0;
  // Layers a softmax-attention kernel serves: full, sliding, chunked and hybrid.
  double softmax() const { return full + sliding + chunked + hybrid; }
  // Layers a GDN/KDA/lightning kernel serves.
  double linear() const { return gdn + kda + lightning; }
  // Layers a mamba kernel serves: mamba1, mamba2 and hybrid.
  double mamba() const { return mamba1 + mamba2 + hybrid; }
};

// What a kernel family serves, for `layers_served`.
enum class Served { softmax_attention, linear_attention, mamba, moe };

// Counts every kind of layer in `plan` (zeros for an empty plan).
PlanCounts plan_counts(const LayerPlan& plan);

// The number of layers one kernel of `family` runs per step (docs/method.md §8.3: a
// softmax-attention kernel serves every full/sliding/chunked/hybrid layer, a linear kernel its
// linear layers, a mamba kernel the mamba1/mamba2/hybrid layers, the MoE kernel the MoE layers).
// Step inference (docs/method.md §6.4) divides calls by this.
double layers_served(const LayerPlan& plan, Served family);

// One line for the report header, e.g. "48 layers: 36 chunked(8192) + 12 full; MoE on 24 (every
// 2nd)". Empty for an empty plan.
std::string describe_plan(const LayerPlan& plan);

const char* to_string(Mixer m);

}  // namespace roofline
