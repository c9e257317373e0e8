// Elementwise / norm / quant / memory ops (docs/method.md §8): bytes = inputs + outputs, flops ≈
// elements, memory-bound by construction (no compute peak is used). The recorded operands are the
// op's inputs, except where the op's own convention says otherwise: copy_/cast (destination,
// source), fill (destination), kv_write (new K, new V, then the caches written into).
#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "roofline/analyze/layer.hpp"
#include "roofline/analyze/models/models.hpp"

namespace roofline::analyze::detail {
namespace {

struct Operand {
  double elems = 0;
  Dtype dtype;
};

// Operands from the recorded shapes. When est_shape gives this regime's rows and the recorded
// shapes were captured at another row count, operands sharing operand 0's leading dim are
// rescaled to the regime's rows (`scaled` says so).
std::vector<Operand> operands(const ModelInput& in, std::string& scaled) {
  std::vector<Operand> ops;
  const TopnEntry& e = in.entry;
  const auto est = e.est_shape.at(in.regime.regime);
  std::int64_t rows0 = 0;
  for (const auto& dims : e.shapes)
    if (!dims.empty()) {
      rows0 = dims[0];
      break;
    }
  const bool rescale =
      est && est->m && *est->m > 0 && rows0 > 0 && static_cast<double>(rows0) != *est->m;
  if (rescale)
    scaled = fmt::format(
        "recorded shapes have {} rows, {}.M = {}: operands with that leading dim "
        "rescaled",
        rows0, est_label(in.regime), format_g(*est->m));
  for (std::size_t i = 0; i < e.shapes.size(); ++i) {
    if (e.shapes[i].empty()) continue;
    Operand op;
    op.elems = elements(e.shapes[i]);
    if (rescale && e.shapes[i].size() >= 2 && e.shapes[i][0] == rows0)
      op.elems = op.elems / static_cast<double>(rows0) * *est->m;
    auto dt = i < e.dtypes.size() ? parse_dtype(e.dtypes[i]) : std::nullopt;
    op.dtype = dt ? *dt : in.dtypes.act;
    ops.push_back(op);
  }
  return ops;
}

// Bytes in and out and the elements touched, from the recorded operands by the kind's rule.
struct Traffic {
  double in = 0, out = 0, elems = 0;
  std::string how;
};
// A KV-cache write: operands 0 and 1 are the new K and V (the sources, as reshape_and_cache
// records them); the cache operands are the destinations, huge and only partly touched.
void elementwise_kv_write_traffic(const ModelInput& in, const std::vector<Operand>& ops,
                                  Traffic& t) {
  const std::size_t n = std::min<std::size_t>(2, ops.size());
  t.in = 0;
  double new_elems = 0;
  for (std::size_t i = 0; i < n; ++i) {
    t.in += ops[i].elems * ops[i].dtype.bytes;
    new_elems += ops[i].elems;
  }
  t.out = new_elems * in.dtypes.kv.bytes;
  t.elems = new_elems;
  t.how = fmt::format("reads the new K/V (operands 0-1), writes them into the cache as {}",
                      in.dtypes.kv.key);
}

Traffic shaped_traffic(const ModelInput& in, ElementwiseKind k, const std::vector<Operand>& ops) {
  using K = ElementwiseKind;
  Traffic t;
  auto largest = *std::max_element(
      ops.begin(), ops.end(), [](const Operand& a, const Operand& b) { return a.elems < b.elems; });
  for (const Operand& op : ops) t.in += op.elems * op.dtype.bytes;
  t.elems = largest.elems;
  if (k == K::fill) {
    // fill_(self, value) / zero_(self): the destination is the only tensor operand.
    t.in = 0;
    t.out = largest.elems * largest.dtype.bytes;
    t.how = "fill writes the largest operand, reads nothing";
  } else if (k == K::act_and_mul) {
    t.out = ops[0].elems / 2.0 * ops[0].dtype.bytes;
    t.how = "reads all operands, writes half of operand 0 (gate and up halves → one)";
  } else if (k == K::quant) {
    t.out = largest.elems * 1.0;
    t.how = "reads all operands, writes the largest as 1-byte values (scales ignored)";
  } else if (k == K::add_norm) {
    t.out = 2.0 * ops[0].elems * ops[0].dtype.bytes;
    t.how = "reads all operands, writes operand 0 twice (normalized output and updated residual)";
  } else if ((k == K::copy || k == K::cast) && ops.size() == 2) {
    // aten::copy_(self, src) records (destination, source), and casts run through it: one read
    // of the source, one write of the destination (a broadcast source is read once too).
    t.in = ops[1].elems * ops[1].dtype.bytes;
    t.out = ops[0].elems * ops[0].dtype.bytes;
    t.elems = ops[0].elems;
    t.how =
        "operands are (destination, source) as aten::copy_ records them: reads the source "
        "(operand 1) once, writes the destination (operand 0) once";
  } else if (k == K::cat) {
    // aten::cat's operands are the tensors joined (its output is not recorded): each is read
    // once and written once into the result.
    t.out = t.in;
    t.elems = 0;
    for (const Operand& op : ops) t.elems += op.elems;
    t.how = "reads every operand (the tensors joined) once, writes their concatenation";
  } else if (k == K::kv_write) {
    elementwise_kv_write_traffic(in, ops, t);
  } else if (k == K::reduce) {
    t.out = 0;
    t.how = "reads all operands; the reduced output is negligible";
  } else {
    t.out = largest.elems * largest.dtype.bytes;
    t.how =
        "reads all operands, writes one tensor the size of the largest (outputs are not recorded "
        "in the Top-N)";
  }
  return t;
}

// Why a shapeless elementwise kernel has no M·hidden_size (docs/method.md §8.15): each missing
// part, and the options that give them (docs/method.md §16.4).
std::string shapeless_reason(const ModelInput& in) {
  const ModelConfig* cfg = in.ctx.config;
  std::vector<std::string> lacks, options;
  if (!in.rows && !in.regime.known) {
    lacks.push_back(fmt::format("the regime its rows M are counted in ({})", in.regime.why));
    if (!in.regime.settled_by.empty()) options.push_back(regime_options(in.regime));
  } else if (!in.rows) {
    lacks.push_back(fmt::format("the {} step's rows M (no est_shape.{}.M, no workload.{})",
                                to_string(in.regime.regime), to_string(in.regime.regime),
                                in.regime.regime == Regime::decode ? "conc" : "isl"));
    options.emplace_back(rows_option(in.regime.regime));
  }
  if (!cfg) {
    lacks.emplace_back("hidden_size (no config.json)");
    options.emplace_back("--config FILE");
  } else if (!cfg->hidden) {
    lacks.emplace_back("hidden_size (config.json has none)");
  }
  return fmt::format(
      "elementwise byte model without shapes needs M·hidden_size, and the run lacks {}{}",
      option_list(lacks, " and "), options.empty() ? "" : "; " + would_settle(options, " and "));
}

}  // namespace

void model_elementwise(const ModelInput& in, WorkEstimate& work) {
  using K = ElementwiseKind;
  const K k = in.cls.detail.elementwise;
  const std::string kind = k == K::unnamed ? "elementwise" : to_string(k);
  work.has_compute_peak_class = false;
  work.compute_dtype = in.dtypes.act;
  std::string scaled;
  auto ops = operands(in, scaled);
  if (!scaled.empty()) work.notes.push_back(scaled);
  double in_bytes = 0, out_bytes = 0, elems = 0;
  std::string how;
  if (!ops.empty()) {
    const Traffic t = shaped_traffic(in, k, ops);
    in_bytes = t.in;
    out_bytes = t.out;
    elems = t.elems;
    how = t.how;
  } else {
    if (k == K::index) {
      work.unmodeled_reason =
          "routing/index kernel: bytes depend on its index tensors, which need recorded shapes";
      return;
    }
    const ModelConfig* cfg = in.ctx.config;
    if (!cfg || !cfg->hidden || !in.rows) {
      work.unmodeled_reason = shapeless_reason(in);
      return;
    }
    elems = *in.rows * *cfg->hidden;
    in_bytes = elems * in.dtypes.act.bytes;
    out_bytes = elems * in.dtypes.act.bytes;
  }
  // bytes = in + out (the kind's rule above), flops ≈ the elements touched.
  const Term bytes = sum("bytes", {part("in", in_bytes), part("out", out_bytes)});
  Term flops = term("flops", "elements", elems, TermUnit::flops);
  flops.relation = "≈";
  if (!ops.empty())
    work.notes.push_back(
        fmt::format("{} from shapes: {}; {}", kind, how, render_parts(bytes.parts)));
  else
    work.notes.push_back(
        fmt::format("{} without shapes: reads and writes M·hidden = {} × {} elements at the "
                    "activation dtype {} ({}): {}",
                    kind, format_g(*in.rows), format_g(in.ctx.config->hidden.value_or(0.0)),
                    in.dtypes.act.key, in.rows_source, shown(bytes)));
  work.notes.push_back(render(flops) + "; memory-bound by construction (no compute peak used)");
  add_candidate(work, kind, bytes, flops);
}

}  // namespace roofline::analyze::detail
