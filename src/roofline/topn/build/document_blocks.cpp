// The document-wide blocks of a Top-N (document_blocks.hpp): `serving`, `device` and
// `graph_replay`, from what reading the trace gathered (docs/method.md §22.7).
#include "roofline/topn/build/document_blocks.hpp"

#include "roofline/topn/build/build_topn.hpp"

namespace roofline::topn::detail {
namespace {

constexpr double k_steady_share = 0.9;

// Mean generation requests and context of `part`, when every step with it wrote them.
bool decode_figures(const StepPartSums& part, TopnServing& out) {
  if (!(part.steps > 0) || part.requests_steps != part.steps || !(part.requests > 0)) return false;
  out.decode_batch = round_to(part.requests / part.steps, 3);
  if (part.kv_steps == part.steps) out.decode_context = round_to(part.sum_kv / part.requests, 3);
  return true;
}

// A part's sums: the steps with it, and each figure every one of them wrote.
TopnPartSums part_sums(const StepPartSums& p) {
  TopnPartSums out;
  if (!(p.steps > 0)) return out;
  out.steps = p.steps;
  const auto every = [&](double v, double steps) {
    return steps == p.steps ? std::optional<double>(v) : std::nullopt;
  };
  out.requests = every(p.requests, p.requests_steps);
  out.sum_q = every(p.sum_q, p.q_steps);
  out.sum_kv = every(p.sum_kv, p.kv_steps);
  out.sum_q2 = every(p.sum_q2, p.q2_steps);
  out.sum_qkv = every(p.sum_qkv, p.qkv_steps);
  return out;
}

}  // namespace

TopnServing serving_of(const StepStats& s) {
  TopnServing out;
  out.present = true;
  out.n_prefill_steps = s.n_prefill;
  out.n_decode_steps = s.n_decode;
  if (!s.decode_batches.empty()) {
    out.decode_batch_captured = static_cast<double>(s.decode_batches.rbegin()->first);
    auto mode = s.decode_batches.begin();
    for (auto it = s.decode_batches.begin(); it != s.decode_batches.end(); ++it)
      if (it->second >= mode->second) mode = it;  // ties: the larger batch
    out.decode_batch_steady = static_cast<double>(mode->first);
    out.steady = mode->second >= k_steady_share * s.n_decode;
  }
  out.step_source = s.source;
  if (decode_figures(s.decode_generation, out))
    out.decode_from = "decode steps";
  else if (decode_figures(s.prefill_generation, out))
    out.decode_from = "mixed steps' generation parts";
  if (const double rowed = s.n_prefill - s.prefill_unrowed; rowed > 0)
    out.prefill_tokens_per_step = round_to(s.prefill_rows_sum / rowed, 3);
  out.prefill_context = part_sums(s.prefill_context);
  out.prefill_generation = part_sums(s.prefill_generation);
  out.decode_generation = part_sums(s.decode_generation);
  if (s.unparsed > 0) {
    out.unparsed_step_annotations = s.unparsed;
    out.unparsed_step_example = s.unparsed_example;
  }
  return out;
}

// The trace's deviceProperties entry as the document's `device`.
TopnDevice device_of(const TraceDevice& d) {
  return TopnDevice{d.name, d.vendor, d.arch, d.cu_count, d.memory_bytes, d.source, d.note};
}

// The graph replays as the document's `graph_replay`.
TopnGraphReplay graph_of(const GraphReplayStats& g) {
  TopnGraphReplay out;
  out.replays = g.replays;
  out.launches = g.launches;
  out.with_shapes = g.with_shapes;
  out.capture_given = g.capture_given;
  if (g.capture_given) out.capture_windows = g.capture_windows;
  out.paired = g.paired;
  for (const auto& [reason, n] : g.unpaired_reasons)
    out.unpaired_reasons.push_back({reason, n.first, n.second});
  for (const UnpairedReplay& u : g.unpaired_examples)
    out.unpaired_replays.push_back({u.correlation, u.launches, u.step_size, u.reason});
  return out;
}

}  // namespace roofline::topn::detail
