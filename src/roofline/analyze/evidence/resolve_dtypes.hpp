#pragma once
// The dtypes an entry is modelled with (docs/method.md §8.1, §7.5, §23.5), each read from the
// evidence with its source. Internal to the models (ModelInput, models/models.hpp).

#include <optional>
#include <string>

#include "roofline/analyze/entry/model_context.hpp"
#include "roofline/analyze/layer.hpp"
#include "roofline/classify/classify.hpp"
#include "roofline/inputs/dtype.hpp"
#include "roofline/inputs/inputs.hpp"

namespace roofline::analyze::detail {

struct ResolvedDtypes {
  Dtype act, weight, kv;
  std::string act_source, weight_source, kv_source;
  bool weight_from_quant = false;  // weight width came from quantization_config
  Dtype model;                     // the model dtype unquantized modules keep
  std::string model_source;
  // docs/method.md §23.5: the format the kernel's input was quantized to just before it ran (an
  // fp8 activation read where the model's activations are bf16); nullopt when none was seen.
  std::optional<Dtype> act_in;
  std::string act_in_source;
  // The weights' dtype rests on the trace's own words (recorded operands, the kernel's template,
  // the quantization before it, the run's other linears), a quantization_config or the env
  // report; false when an unquantized config's dtype or a default stands in for weights the trace
  // does not show — a claim derived from the model then names both readings (§23.8).
  bool weight_sound = true;
  // A second reading the evidence leaves (docs/method.md §23.7): the weights at another format.
  std::optional<Dtype> weight_other;
  std::string weight_other_source;
};
// The dtypes an entry is modelled with, each with its source (resolve_dtypes.cpp): activations
// from the entry, the kernel's template or the config; weights from the entry, the template,
// quantization_config, the env report or the config; the KV cache from the env report.
ResolvedDtypes resolve_dtypes(const TopnEntry& e, const Classification& cls,
                              const ModelContext& ctx);

}  // namespace roofline::analyze::detail
