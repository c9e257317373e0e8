#pragma once
// Plain structs for the four inputs (docs/method.md §2), as the loaders hand them to the pipeline.
// Every optional field is std::optional or an empty string: a missing field is data, not an error.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "roofline/base/vocabulary.hpp"
#include "roofline/inputs/dtype.hpp"
#include "roofline/inputs/layer.hpp"
#include "roofline/inputs/layer_plan.hpp"
#include "roofline/inputs/topn_document.hpp"

namespace roofline::inputs {

// profile_topN.json: TopnDocument, in topn_document.hpp (one vocabulary with `roofline topn`).

struct Workload {
  std::optional<double> isl;
  std::optional<double> osl;
  std::optional<double> conc;
  // The decode context measured by the Top-N's step annotations (Σkv / requests of the
  // generation parts, docs/method.md §22.3): used instead of the isl + osl/2 guess when set.
  std::optional<double> decode_context;
  std::string conc_source;            // "" = env_report.json workload.conc
  std::string decode_context_source;  // where decode_context came from
};

// Optional device properties for the derived-bandwidth fallback (L1).
struct DeviceProps {
  std::optional<double> memory_clock_rate_khz;
  std::optional<double> memory_bus_width_bits;
  std::optional<double> multi_processor_count;
  std::optional<double> clock_rate_khz;
  std::optional<double> memory_bytes;  // total device memory (a trace's totalGlobalMem)
};

// env_report.json, normalized: `gfx` without feature suffix, `product` lower-case or empty.
struct EnvReport {
  std::string gfx_raw;
  std::string gfx;
  // The part's architecture for both vendors: the gfx (AMD), or `gpu_arch` / `compute_capability`
  // as sm_NN (NVIDIA, docs/method.md §2.4); "" when the report names none.
  std::string arch;
  std::string device_name;  // as spelled; NVIDIA's product identity, display only on AMD
  std::string product_raw;  // as spelled (string form), empty when absent
  std::string product;      // canonical; empty = no product constraint
  std::optional<double> physical_cu_count;
  std::string model_arch_class;
  std::string model_dtype;
  Workload workload;
  double tp = 1.0;
  bool tp_given = false;
  std::string kv_cache_dtype;
  std::string model;  // `model` or `model_path`
  std::string backend;
  DeviceProps device_props;
  // Given on the command line (docs/method.md §22.9): `product` names the peaks section exactly,
  // even the one without product (--product); the e2e-critical regime of an entry that runs in
  // both or neither (--regime).
  bool product_pinned = false;
  std::optional<Regime> regime;
};

// The HuggingFace config.json fields the byte models need (docs/method.md §2.5, §8), spellings
// resolved. Every count comes from `plan` (docs/method.md §8.3); `moe_layers` and
// `full_attention_layers` are its counts, kept as numbers for the models and notes.
struct ModelConfig {
  std::string model_type;
  std::string architecture;  // the first of `architectures` ("Qwen3ForCausalLM"), "" if none
  std::optional<double> layers;
  std::optional<double> hidden;
  std::optional<double> intermediate;
  std::optional<double> intermediate_mlp;  // Llama-4 intermediate_size_mlp (dense layers)
  std::optional<double> experts;
  std::optional<double> top_k;
  std::optional<double> moe_intermediate;
  std::string moe_intermediate_source;               // which key provided it
  std::optional<double> shared_experts;              // n_shared_experts (DeepSeek)
  std::optional<double> shared_expert_intermediate;  // shared_expert_intermediate_size (Qwen)
  std::string hidden_act;                            // mlp_hidden_act | hidden_act | ...
  std::optional<double> first_k_dense;
  std::optional<double> moe_layers;  // layers carrying routed experts (from the plan)
  std::string moe_layers_rule;       // how moe_layers was derived
  std::optional<double> n_heads;
  std::optional<double> n_kv_heads;
  bool n_kv_heads_defaulted = false;
  std::optional<double> head_dim;
  bool head_dim_derived = false;
  std::string head_dim_rule;                    // which key or default gave head_dim
  std::optional<double> full_attention_layers;  // softmax-attention layers (from the plan)
  std::string full_attention_rule;
  std::optional<double> sliding_window;        // W (sliding layers)
  std::optional<double> attention_chunk_size;  // C (chunked layers)
  std::optional<double> kv_lora_rank;
  std::optional<double> q_lora_rank;  // MLA q_a/q_b projections (the linear plan)
  std::optional<double> qk_rope_head_dim;
  std::optional<double> qk_nope_head_dim;
  std::optional<double> v_head_dim;
  std::optional<double> index_topk;
  std::optional<double> index_head_dim;  // sparse-attention indexer (docs/method.md §8.12)
  std::optional<double> index_n_heads;
  // Linear attention (docs/method.md §8.13): GDN heads/dims, KDA (linear_attn_config), conv width.
  std::optional<double> linear_key_heads, linear_value_heads;
  std::optional<double> linear_key_head_dim, linear_value_head_dim;
  std::optional<double> linear_conv_kernel;
  std::optional<double> kda_heads, kda_head_dim, kda_conv_kernel;
  // State-space layers (docs/method.md §8.13).
  std::optional<double> mamba_heads, mamba_head_dim, ssm_state_size, mamba_groups;
  std::optional<double> mamba_conv_kernel, mamba_expand;
  std::optional<double> mamba_dt_rank;  // mamba1's dt_rank (Jamba's mamba_dt_rank)
  // Gated attention (Qwen3-Next, Qwen3.5): q_proj also writes the output gate, 2·heads·head_dim.
  bool attn_output_gate = false;
  std::string attn_output_gate_rule;  // which key or architecture said it
  bool tie_word_embeddings = true;    // lm_head shares the embedding (HF's default)
  std::string state_dtype;            // mamba_ssm_dtype | mamba_ssm_cache_dtype | kda_state_dtype
  DtypeKey state_dtype_key;           // state_dtype read as a key (none when absent or not a dtype)
  std::optional<double> vocab;
  std::string dtype;  // torch_dtype | dtype, as spelled
  std::string quant_method;
  std::optional<double> quant_weight_bytes;      // bytes per weight element, scales included
  DtypeKey quant_weight_key;                     // fp8 | fp4 | int4 | int8 (the element type)
  std::string quant_rule;                        // how quant_weight_bytes was decided
  std::optional<double> quant_bits;              // 4 for any 4-bit method (mxfp4, nvfp4, int4)
  std::vector<std::string> unquantized_modules;  // modules_to_not_convert | ignore | ...
  std::string unquantized_key;                   // which key listed them
  LayerPlan plan;
  bool from_text_config = false;
};

// Interconnect roof of a part (docs/method.md §10.7), per direction: `link: {topology, bytes_s,
// links}`.
struct LinkPeak {
  std::string topology;  // "mesh" (xGMI, fully connected) | "switch" (NVLink/NVSwitch)
  double bytes_s = 0.0;  // per link (mesh) or per GPU (switch), one direction
  double links = 1.0;    // links per GPU (mesh)
};

// A section's `measured:` block (docs/method.md §5.7): what a benchmark saw the part do, on any
// subset of the axes, with what measured it.
struct MeasuredPeaks {
  std::optional<double> hbm_bw_bytes_s;  // device copy: read + write bytes over its time
  std::map<DtypeKey, double> flops;      // dense matrix products per dtype
  std::string source;                    // the tool, date, versions and sizes, as written
};

// One fenced yaml block of peaks.md.
struct PeaksSection {
  std::string gfx;      // normalized `gfx:` (AMD) or `arch:` (NVIDIA sm_NN)
  std::string product;  // lower-case, empty = no product
  // `device_names:` the device_name spellings (nvidia-smi) this section answers to, trimmed and
  // lower-case; matched exactly (docs/method.md §2.4).
  std::vector<std::string> device_names;
  std::string name;    // `name:` the part as people call it ("H100 SXM", "MI325X"); display only
  std::string source;  // `source:` where the figures come from (datasheet, vendor page)
  std::optional<double> cu;
  // `memory_gib:` the device memory a trace reports for the part (totalGlobalMem / 2^30), what
  // tells parts of one arch and CU count apart (docs/method.md §22.2).
  std::optional<double> memory_gib;
  std::optional<double> hbm_bw_bytes_s;
  std::map<DtypeKey, double> flops;  // canonical dtype key -> dense FLOP/s
  std::optional<double> l2_bytes;
  std::optional<double> mall_bytes;
  std::optional<LinkPeak> link;
  std::optional<MeasuredPeaks> measured;  // `measured:`; hbm_bw_bytes_s/flops stay the datasheet's
  int line = 0;                           // 1-based line of the block's opening fence
};

struct PeaksTable {
  std::string source_name;  // "built-in" or the file as given
  std::vector<PeaksSection> sections;
};

}  // namespace roofline::inputs
