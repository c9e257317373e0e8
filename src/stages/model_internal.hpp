#pragma once
// Shared pieces of the per-class byte/FLOP models (SPEC §4). Internal to the model stage.

#include <optional>
#include <string>

#include "roofline/stages.hpp"
#include "roofline/units.hpp"

namespace roofline::detail {

struct ResolvedDtypes {
  Dtype act, weight, kv;
  std::string act_source, weight_source, kv_source;
};

struct ModelInput {
  const TopNEntry& entry;
  const RegimeChoice& regime;
  const Classification& cls;
  const ModelContext& ctx;
  ResolvedDtypes dtypes;
  double tp = 1.0;
  std::optional<double> rows;  // M: rows in flight
  std::string rows_source;
};

// Each per-class model either fills `work.candidates` (and notes) or sets
// `work.unmodeled_reason`. The dispatcher applies the feasibility rule afterwards.
void model_gemm(const ModelInput& in, WorkEstimate& work);
void model_moe(const ModelInput& in, WorkEstimate& work);
void model_attention(const ModelInput& in, WorkEstimate& work);
void model_elementwise(const ModelInput& in, WorkEstimate& work);

// Product of dims as a double (0 for an empty operand).
double elements(const std::vector<std::int64_t>& dims);

// Numbers in notes keep every digit a reader needs to redo the arithmetic: 696.75 MB, 98.942.
inline std::string fmt_bytes(double bytes) {
  return format_bytes(bytes, Digits::exact);
}

// "missing: a, b" helper: appends `name` when `value` is absent.
void require(const std::optional<double>& value, const char* name, std::string& missing);

}  // namespace roofline::detail
