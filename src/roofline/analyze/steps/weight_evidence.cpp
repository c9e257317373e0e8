// Pass weight_evidence (docs/method.md §23.5): the weight formats of the run's linears.
#include "roofline/analyze/steps/weight_evidence.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "roofline/analyze/evidence/op_reading.hpp"
#include "roofline/base/units.hpp"
#include "roofline/classify/classify.hpp"

namespace roofline::analyze {
namespace {

bool quantized(DtypeKey k) {
  return k == DtypeKey::fp8 || k == DtypeKey::fp4 || k == DtypeKey::int8;
}

// lm_head (N = vocab, whole or per rank) and the router (N = num_experts): engines keep them
// unquantized, so their bf16 weights say nothing of the others.
bool kept_unquantized(const TopnEntry& e, const ModelConfig* cfg, double tp) {
  if (e.module.find("LMHead") != std::string::npos || e.module.find("lm_head") != std::string::npos)
    return true;
  if (!cfg) return false;
  const std::vector<GemmReading> gemms = recorded_gemms(e);
  if (gemms.empty()) return false;
  return std::all_of(gemms.begin(), gemms.end(), [&](const GemmReading& g) {
    return (cfg->vocab && (g.n == *cfg->vocab || g.n == *cfg->vocab / tp)) ||
           (cfg->experts && g.n == *cfg->experts);
  });
}

// The weight format one GEMM entry shows, and how: a quantized type among its recorded operand
// types (the weights are the narrowest float type, docs/method.md §8.2), its template's weight
// type, else the 16-bit float type its recorded operands share.
std::optional<Dtype> entry_weight(const TopnEntry& e, const Classification& c, std::string& how) {
  std::optional<Dtype> wide;
  std::string wide_spelling;
  for (const std::string& s : e.dtypes) {
    if (s == "unsigned char") return std::nullopt;  // fp8 or packed fp4: ambiguous (§23.5)
    const auto d = parse_dtype(s);
    if (!d) continue;
    if (quantized(d->key)) {
      how = fmt::format("recorded operand type '{}'", s);
      return d;
    }
    if (d->key == DtypeKey::bf16 || d->key == DtypeKey::fp16) {
      if (wide && wide->key != d->key) return std::nullopt;  // bf16 beside fp16: unclear
      wide = d;
      wide_spelling = s;
    }
  }
  if (!c.operand_dtype.empty()) {
    if (auto d = parse_dtype(c.operand_dtype)) {
      how = fmt::format("its template's {} weights", c.operand_dtype);
      return d;
    }
  }
  if (wide) how = fmt::format("recorded operand types '{}' only", wide_spelling);
  return wide;
}

std::string entry_label(const TopnEntry& e) {
  return e.op.empty() ? fmt::format("'{}'", e.short_name)
                      : fmt::format("'{}' ({})", e.short_name, e.op);
}

}  // namespace

WeightEvidence weight_evidence(const TopnDocument& topn, const ClassRules& rules,
                               const ModelConfig* config, double tp) {
  WeightEvidence out;
  RunWeights& w = out.weights;
  for (const TopnEntry& e : topn.entries) {
    const Classification c = classify::classify(e, rules);
    if (c.op_class != OpClass::gemm || c.detail.gemm == GemmKind::conv) continue;
    if (kept_unquantized(e, config, tp > 0 ? tp : 1.0)) continue;
    std::string how;
    const std::optional<Dtype> d = entry_weight(e, c, how);
    if (!d) continue;
    const std::string source = fmt::format("{}: {}", entry_label(e), how);
    if (quantized(d->key)) {
      if (!w.narrow) {
        w.narrow = d;
        w.narrow_source = source;
      } else if (w.narrow->key != d->key) {
        w.narrow_conflict = true;
        w.narrow_source += fmt::format("; but {}", source);
      }
    } else if (!w.wide) {
      w.wide = d;
      w.wide_source = source;
    }
  }
  const bool config_quantized = config && config->quant_weight_bytes;
  if (w.narrow && !w.narrow_conflict && config && !config_quantized)
    out.notes.push_back(fmt::format(
        "online quantization: the run's linears carry {} weights under a config without "
        "quantization_config (dtype '{}'): {}; kernels whose op passes no weights take them from "
        "this where nothing nearer says (docs/method.md §23.5)",
        w.narrow->key, config->dtype.empty() ? "unset" : config->dtype, w.narrow_source));
  return out;
}

}  // namespace roofline::analyze
