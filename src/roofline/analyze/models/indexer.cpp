// Sparse-attention indexer scores (docs/method.md §8.12, DeepSeek-V3.2 lightning indexer), decode:
// every query scores every cached index key. bytes = B·S·d·k_bytes + B·S·4, flops = 2·B·h·S·d.
#include <fmt/format.h>

#include "roofline/analyze/layer.hpp"
#include "roofline/analyze/models/models.hpp"

namespace roofline::analyze::detail {

namespace {

// Why the indexer model cannot run (empty when it can); sets S, the keys scored per query.
std::string indexer_unmodeled_reason(const ModelInput& in, double& S) {
  const ModelConfig* cfg = in.ctx.config;
  std::string missing;
  if (cfg) {
    require(cfg->index_head_dim, "index_head_dim", missing);
    require(cfg->index_n_heads, "index_n_heads", missing);
  }
  if (!cfg || !missing.empty())
    return cfg ? "indexer byte model: config.json lacks " + missing
               : "indexer byte model needs the model config.json (index_head_dim, "
                 "index_n_heads): " +
                     in.ctx.config_status;
  if (!in.regime.known) return regime_unknown_reason(in.regime, "indexer byte model (decode only)");
  if (in.regime.regime != Regime::decode)
    return "indexer byte model covers decode only (a prefill launch scores a whole prompt chunk)";
  if (!in.rows) return rows_missing_reason(Regime::decode, "indexer byte model");
  if (!decode_context(in, S, missing)) return "indexer byte model needs " + missing;
  return "";
}

}  // namespace

void model_indexer(const ModelInput& in, WorkEstimate& work) {
  const ModelConfig* cfg = in.ctx.config;
  double S = 0;
  if (std::string why = indexer_unmodeled_reason(in, S); !why.empty()) {
    work.unmodeled_reason = why;
    return;
  }
  const double B = *in.rows, d = *cfg->index_head_dim, h = *cfg->index_n_heads;
  const std::string context = decode_context_how(in, S);  // "isl + osl/2 = 1536 (...)"
  // Key bytes: fp8 keys carry one fp32 scale per key (d elements), else bf16
  // (docs/method.md §8.12).
  bool fp8 = false;
  std::string fp8_spelling;
  for (const auto& s : in.entry.dtypes)
    if (auto dt = parse_dtype(s); dt && dt->key == DtypeKey::fp8) {
      fp8 = true;
      fp8_spelling = s;
      break;
    }
  const Term k_bytes = fp8 ? term("k_bytes", "1 + 4/" + format_g(d), 1.0 + 4.0 / d, TermUnit::ratio)
                           : term("k_bytes", "", 2.0, TermUnit::ratio);
  const Term keys = part("B·S·d·k_bytes", B * S * d * k_bytes.value);
  const Term scores = part("B·S·4", B * S * 4.0);
  const Term bytes =
      term("bytes", "B·S·d·k_bytes + B·S·4 (keys in, fp32 scores out)", keys.value + scores.value);
  const Term flops = term("flops", "2·B·h·S·d", 2.0 * B * h * S * d, TermUnit::flops);
  work.has_compute_peak_class = true;
  work.compute_dtype = fp8 ? dtype_of(DtypeKey::fp8) : dtype_of(DtypeKey::bf16);
  work.kv_bytes = keys.value;
  work.notes.push_back(fmt::format(
      "sparse-attention indexer (decode): B = {} ({}), S = {} keys scored per "
      "query, index_head_dim d = {}, index_n_heads h = {}; the index key cache is one head, not "
      "TP-sharded, and the indexer's query heads are replicated on every rank",
      format_g(B), in.rows_source, context.substr(0, context.find(" (")), format_g(d),
      format_g(h)));
  work.notes.push_back(
      fp8 ? fmt::format("index keys fp8 (entry dtype '{}') with one fp32 scale per key: {}",
                        fp8_spelling, render(k_bytes))
          : "index keys bf16 (no fp8 in the entry's dtypes): " + render(k_bytes));
  work.notes.push_back(fmt::format(
      "{}; the selected-key attention that follows reads min(S, index_topk = {}) keys",
      render_all({bytes, flops}), cfg->index_topk ? format_g(*cfg->index_topk) : std::string("?")));
  add_candidate(work, "index keys + scores", bytes, flops);
}

}  // namespace roofline::analyze::detail
