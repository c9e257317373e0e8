// Step 7, model_work (docs/method.md §8.2): per-operand dtypes from the profiler's sorted dtype
// set.
#include "roofline/analyze/evidence/operand_dtypes.hpp"

#include <algorithm>

#include <fmt/format.h>
#include "roofline/analyze/layer.hpp"

namespace roofline::analyze {
namespace {

bool is_float(const Dtype& d) {
  return d.key == DtypeKey::fp8 || d.key == DtypeKey::fp4 || d.key == DtypeKey::bf16 ||
         d.key == DtypeKey::fp16 || d.key == DtypeKey::tf32 || d.key == DtypeKey::fp32 ||
         d.key == DtypeKey::fp64;
}

// The operand a class keeps its weights in: MoE the expert stack (the first 3-D operand), a GEMM
// its second operand.
std::optional<std::size_t> weight_operand(const std::vector<std::vector<std::int64_t>>& sig,
                                          OpClass cls) {
  if (cls == OpClass::moe) {
    for (std::size_t i = 0; i < sig.size(); ++i)
      if (sig[i].size() == 3) return i;
    return std::nullopt;  // hidden states and router logits: no expert stack among them
  }
  if (cls == OpClass::gemm && sig.size() >= 2) return std::size_t{1};
  return std::nullopt;
}

// Each operand's role: the class's weight operand, a 4-D operand of a linear/ssm kernel the
// recurrent state when the set holds fp32, every other operand activations.
std::vector<OperandRole> operand_roles(const std::vector<std::vector<std::int64_t>>& sig,
                                       OpClass cls, bool fp32) {
  const auto wi = weight_operand(sig, cls);
  std::vector<OperandRole> roles(sig.size(), OperandRole::activations);
  for (std::size_t i = 0; i < sig.size(); ++i) {
    if (wi && i == *wi)
      roles[i] = OperandRole::weights;
    else if (fp32 && sig[i].size() == 4 && (cls == OpClass::linear_attn || cls == OpClass::ssm))
      roles[i] = OperandRole::state;
  }
  return roles;
}

// Each operand's dtype by its role: weights, the fp32 recurrent state or activations. True when
// an operand is the state.
bool operand_assign_dtypes(OperandDtypes& out, const std::string& weight,
                           const std::string& fp32_spelling, const std::string& act_spelling) {
  bool state = false;
  for (std::size_t i = 0; i < out.roles.size(); ++i) {
    switch (out.roles[i]) {
      case OperandRole::weights:
        out.dtypes[i] = weight;
        break;
      case OperandRole::state:
        out.dtypes[i] = fp32_spelling;  // the recurrent state
        state = true;
        break;
      case OperandRole::activations:
        out.dtypes[i] = act_spelling;
        break;
    }
  }
  return state;
}

}  // namespace

OperandDtypes operand_dtypes(const std::vector<std::string>& dtype_set,
                             const std::vector<std::vector<std::int64_t>>& sig, OpClass cls,
                             const ModelConfig* cfg) {
  OperandDtypes out;
  struct Seen {
    std::string spelling;
    Dtype dtype;
  };
  std::vector<Seen> floats;
  for (const auto& s : dtype_set)
    if (auto d = parse_dtype(s); d && is_float(*d)) floats.push_back({s, *d});
  out.dtypes.assign(sig.size(), "");
  out.roles = operand_roles(sig, cls, std::any_of(floats.begin(), floats.end(), [](const Seen& f) {
                              return f.dtype.key == DtypeKey::fp32;
                            }));
  if (floats.empty()) {
    out.rule = "dtype set holds no float type: dtypes from the config";
    return out;
  }
  const auto narrowest = std::min_element(
      floats.begin(), floats.end(), [](auto& a, auto& b) { return a.dtype.bytes < b.dtype.bytes; });
  std::optional<Seen> act;
  for (const Seen& f : floats)
    if (f.dtype.key != DtypeKey::fp32 && f.dtype.key != DtypeKey::fp64 &&
        (!act || f.dtype.bytes > act->dtype.bytes))
      act = f;
  if (!act) act = *narrowest;  // one float type (or fp32 alone) serves both
  std::string weight = narrowest->spelling;
  std::string rule =
      floats.size() == 1
          ? fmt::format("dtype set: one float type '{}' for every operand", floats.front().spelling)
          : fmt::format(
                "dtype set: activations the widest non-fp32 float '{}', "
                "weights the narrowest float '{}'",
                act->spelling, narrowest->spelling);
  const bool narrow_float = std::any_of(floats.begin(), floats.end(), [](const Seen& f) {
    return f.dtype.key == DtypeKey::fp8 || f.dtype.key == DtypeKey::fp4;
  });
  if (cfg && cfg->quant_weight_bytes && *cfg->quant_weight_bytes <= 0.6 && !narrow_float) {
    weight.clear();  // resolve_dtypes then takes the 4-bit format from quantization_config
    rule += "; weights from the 4-bit quantization_config (the set holds no fp8/fp4 float)";
  }
  const auto fp32 = std::find_if(floats.begin(), floats.end(),
                                 [](const Seen& f) { return f.dtype.key == DtypeKey::fp32; });
  const std::string fp32_spelling = fp32 != floats.end() ? fp32->spelling : std::string();
  const bool state = operand_assign_dtypes(out, weight, fp32_spelling, act->spelling);
  if (state)
    rule += fmt::format("; the 4-D operand is the fp32 recurrent state '{}'", fp32_spelling);
  out.rule = rule;
  return out;
}

}  // namespace roofline::analyze
