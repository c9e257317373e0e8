// TraceProfile -> TopnBuild (docs/method.md §18): ranking, rounding, short names, call
// signatures, classification and kernel-family fields, per-regime fields. Pure: no I/O, no clock.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>

#include <fmt/format.h>

#include "roofline/classify/name_geometry.hpp"
#include "roofline/inputs/pattern.hpp"
#include "roofline/topn/build/build_topn.hpp"
#include "roofline/topn/build/document_blocks.hpp"
#include "roofline/topn/layer.hpp"
#include "roofline/topn/names/names.hpp"

namespace roofline::topn {
namespace {

constexpr std::size_t k_max_signatures = 5;

// Python's json.dumps text of a call signature: "[[64, 2048], [2048, 5120]]".
std::string signature_json(const std::vector<std::vector<std::int64_t>>& dims) {
  std::string out = "[";
  for (std::size_t i = 0; i < dims.size(); ++i) {
    out += i ? ", [" : "[";
    for (std::size_t j = 0; j < dims[i].size(); ++j)
      out += (j ? ", " : "") + std::to_string(dims[i][j]);
    out += ']';
  }
  return out + "]";
}

// The name the family patterns read (docs/method.md §7.1): the demangled one when there is one.
const std::string& family_text(const TopnEntry& e) {
  return e.demangled.empty() ? e.name : e.demangled;
}

// The kernel-family row of data/kernel_backends.tsv by the token rule (docs/method.md §7.2): the
// longest pattern matching the (demangled) name or the short name.
const BackendRule* match_backend(const TopnEntry& e, const std::vector<BackendRule>& rules) {
  return longest_match(rules.data(), rules.data() + rules.size(), {family_text(e), e.short_name},
                       [](const BackendRule&) { return true; });
}

bool name_has(const TopnEntry& e, std::initializer_list<std::string_view> tokens) {
  for (std::string_view t : tokens)
    for (const std::string* field : {&family_text(e), &e.short_name})
      if (!field->empty() && pattern_matches(t, *field)) return true;
  return false;
}

// The profiler's classification vocabulary (docs/method.md §2.3) from the op class
// (kernel_classes.tsv).
std::string classification_of(const TraceKernel& k, const TopnEntry& e, const BackendRule* family,
                              const Classification& c) {
  if (k.kind != GpuEventKind::kernel) return "memory";
  if (family && !family->classification.empty()) return family->classification;
  const bool editable = family && family->editable.value_or(false);
  switch (c.op_class) {
    case OpClass::gemm:
    case OpClass::moe:
      return editable ? "fused_custom" : "library_gemm";
    case OpClass::attn:
      return editable ? "fused_custom" : "library_attn";
    case OpClass::linear_attn:  // Triton / CUDA recurrences: the profiler's custom-kernel class
    case OpClass::ssm:
      return editable ? "triton" : "fused_custom";
    case OpClass::comm:
      return "other";
    case OpClass::elementwise: {
      using K = ElementwiseKind;
      const K d = c.detail.elementwise;
      if (d == K::norm || d == K::add_norm || d == K::reduce || d == K::softmax)
        return "reduction_norm";
      if (d == K::copy || d == K::cat || d == K::fill || d == K::kv_write) return "memory";
      if (d == K::unnamed && name_has(e, {"*norm", "reduce", "softmax"})) return "reduction_norm";
      if (d == K::unnamed && name_has(e, {"copy", "fill", "memcpy", "memset"})) return "memory";
      return "elementwise_overhead";
    }
    case OpClass::unknown:
      break;
  }
  return "other";
}

// Up to five call signatures: the most-called ones (ties by text), listed by their JSON text.
std::vector<std::vector<std::vector<std::int64_t>>> signatures(const TraceKernel& k) {
  std::map<std::string, std::pair<double, const TraceCase*>> by_text;
  for (const TraceCase& c : k.cases) {
    if (c.dims.empty()) continue;
    auto& slot = by_text[signature_json(c.dims)];
    slot.first += c.count;
    slot.second = &c;
  }
  std::vector<std::pair<std::string, std::pair<double, const TraceCase*>>> ranked(by_text.begin(),
                                                                                  by_text.end());
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const auto& a, const auto& b) { return a.second.first > b.second.first; });
  if (ranked.size() > k_max_signatures) ranked.resize(k_max_signatures);
  std::sort(ranked.begin(), ranked.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::vector<std::vector<std::int64_t>>> out;
  for (const auto& r : ranked) out.push_back(r.second.second->dims);
  return out;
}

void fill_regimes(const TraceKernel& k, const StepStats& steps, TopnEntry& e) {
  if (!steps.any() || !(k.regime_calls.prefill || k.regime_calls.decode)) return;
  double decode_batch_sum = 0.0;
  for (const auto& [batch, n] : steps.decode_batches)
    decode_batch_sum += static_cast<double>(batch) * n;
  for (Regime r : {Regime::prefill, Regime::decode}) {
    const double calls = k.regime_calls.at(r).value_or(0.0);
    const double n_steps = r == Regime::prefill ? steps.n_prefill : steps.n_decode;
    if (!(calls > 0) || !(n_steps > 0)) continue;
    e.served_regimes.push_back(to_string(r));
    e.phase_calls_measured.at(r) = calls;
    e.calls_per_step.at(r) = round_to(calls / n_steps, 3);
    e.base_latency_ms.at(r) = round_to(k.regime_us.at(r).value_or(0.0) / calls / 1000.0, 6);
    // Steps that count nothing (docs/method.md §22.10) give the regime and the launches per step,
    // not the rows.
    const double rowed =
        n_steps - (r == Regime::prefill ? steps.prefill_unrowed : steps.decode_unrowed);
    if (rowed > 0)
      e.est_shape.at(r) = EstShape{
          round_to((r == Regime::prefill ? steps.prefill_rows_sum : decode_batch_sum) / rowed, 0),
          std::nullopt, std::nullopt};
  }
  if (!e.served_regimes.empty())
    e.phase = e.served_regimes.size() == 2 ? "both" : e.served_regimes.front();
}

// The op that launched most calls (ties: by name) and, among its launches, the most common
// module path.
void fill_launcher(const TraceKernel& k, TopnEntry& e) {
  std::map<std::string, double> by_op;
  for (const auto& [who, n] : k.launchers)
    if (!who.first.empty()) by_op[who.first] += n;
  const auto most = [](const std::map<std::string, double>& m) {
    auto best = m.begin();
    for (auto it = m.begin(); it != m.end(); ++it)
      if (it->second > best->second) best = it;
    return best;
  };
  if (by_op.empty()) return;
  e.op = most(by_op)->first;
  std::map<std::string, double> modules;
  for (const auto& [who, n] : k.launchers)
    if (who.first == e.op && !who.second.empty()) modules[who.second] += n;
  if (!modules.empty()) e.module = most(modules)->first;
}

// One warning when head kernels are graph replays without shapes (docs/method.md §22.7).
void replay_warning(const std::vector<const TraceKernel*>& head, const GraphReplayStats& g,
                    std::vector<std::string>& warnings) {
  double shapeless = 0.0, calls = 0.0, entries = 0.0;
  for (const TraceKernel* k : head) {
    calls += k->calls;
    if (k->replay_calls > k->replay_with_shapes) {
      shapeless += k->replay_calls - k->replay_with_shapes;
      entries += 1.0;
    }
  }
  if (!(shapeless > 0)) return;
  const std::string what = fmt::format(
      "{} of the {} launches of the top {} entries ({} of them) are CUDA/HIP graph replays "
      "without op or shapes",
      shapeless, calls, head.size(), entries);
  if (!g.capture_given) {
    warnings.push_back(what +
                       ": give the graph-capture trace(s) with --capture FILE|DIR (vLLM "
                       "--profiler-config.capture_torch_profiler, SGLang "
                       "--enable-profile-cuda-graph)");
    return;
  }
  std::string reason;
  double most = 0.0;
  for (const auto& [r, n] : g.unpaired_reasons)
    if (n.second > most) {
      most = n.second;
      reason = r;
    }
  warnings.push_back(what + (reason.empty()
                                 ? std::string(": their captured ops had no shapes")
                                 : ": unpaired with --capture: " + reason +
                                       " (every reason: graph_replay.unpaired_reasons)"));
}

// The `top` kernels of most GPU time (ties: by name).
std::vector<const TraceKernel*> head_kernels(const std::vector<TraceKernel>& kernels,
                                             std::size_t top) {
  std::vector<const TraceKernel*> order;
  for (const TraceKernel& k : kernels) order.push_back(&k);
  std::sort(order.begin(), order.end(), [](const TraceKernel* a, const TraceKernel* b) {
    if (a->total_us != b->total_us) return a->total_us > b->total_us;
    return a->name < b->name;
  });
  if (order.size() > top) order.resize(top);
  return order;
}

// The op class of the entry and its kernel family's fields (backend, editable, hint).
void fill_family(const TraceKernel& k, const ClassRules& rules,
                 const std::vector<BackendRule>& backends, TopnEntry& e) {
  const Classification cls = classify::classify(e, rules);
  const BackendRule* family = match_backend(e, backends);
  e.classification = classification_of(k, e, family, cls);
  e.backend_guess = family ? family->backend : "unknown";
  e.editable = family ? family->editable : std::nullopt;
  e.opt_hint = family ? family->hint : "";
}

// The median of a signature's launch times.
double median_of(std::vector<float> v) {
  if (v.empty()) return 0.0;
  const std::size_t mid = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.end());
  const double hi = static_cast<double>(v[mid]);
  if (v.size() % 2) return hi;
  const double lo = static_cast<double>(
      *std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid)));
  return (lo + hi) / 2.0;
}

// docs/method.md §22.4: the neighbour most of a signature's launches stood beside, with its class
// by `rules` and, for a family that launches one block per row, its rows (grid.x).
std::optional<CaseNeighbour> case_neighbour(const NeighbourCounts& counts,
                                            const ClassRules& rules) {
  const NeighbourCounts::value_type* best = nullptr;
  for (const auto& kv : counts)
    if (!best || kv.second > best->second) best = &kv;
  if (!best) return std::nullopt;
  CaseNeighbour n;
  TopnEntry e;
  fill_entry_names(best->first.kernel, GpuEventKind::kernel, e);
  n.kernel = e.short_name;
  n.name = best->first.kernel;
  const Classification c = classify::classify(e, rules);
  n.cls = to_string(c.op_class);
  if (const std::string detail = to_string(c.detail); !detail.empty()) n.cls += ":" + detail;
  n.grid = best->first.grid;
  n.block = best->first.block;
  n.launches = best->second;
  // Rows from the grid: the family's rows a block (its name's grammar, else the table's +rows:
  // one), times grid.x of a one-dimensional grid.
  std::string why;
  std::optional<double> per_block = rows_per_block(e.name, why);
  if (!per_block && !e.demangled.empty()) per_block = rows_per_block(e.demangled, why);
  if ((per_block || c.detail.row_blocks) && n.grid.size() == 3 && n.grid[0] > 0 && n.grid[1] == 1 &&
      n.grid[2] == 1) {
    n.rows = static_cast<double>(n.grid[0]) * per_block.value_or(1.0);
    if (per_block && *per_block > 1) n.rows_per_block = per_block;
  }
  return n;
}

WorkloadCase workload_case(const TraceCase& c, const ClassRules& rules) {
  WorkloadCase w;
  w.dims = c.dims;
  w.dtypes = c.dtypes;
  w.regime = c.regime;
  w.count = c.count;
  w.baseline_latency_ms = c.count > 0 ? round_to(c.total_us / c.count / 1000.0, 6) : 0.0;
  w.rows = c.rows;
  w.op = c.op;
  w.module = c.module;
  w.collective = c.collective;
  w.call_site = c.call_site;
  w.library = c.library;
  w.key_scalars = c.key_scalars;
  w.scalar_ranges = c.scalar_ranges;
  w.grid = c.grid;
  w.block = c.block;
  w.before = case_neighbour(c.before, rules);
  w.after = case_neighbour(c.after, rules);
  w.total_ms = round_to(c.total_us / 1000.0, 6);
  w.mean_us = c.count > 0 ? round_to(c.total_us / c.count, 3) : 0.0;
  w.median_us = round_to(median_of(c.durations_us), 3);
  w.min_us = round_to(c.min_us, 3);
  w.max_us = round_to(c.max_us, 3);
  w.steps = c.steps;
  w.step_count = c.step_count;
  w.inherited = c.inherited;
  w.replay = c.replay;
  w.order = c.order;
  return w;
}

// The kernel's signatures (docs/method.md §22.8), most launches first.
WorkloadKernel workload_kernel(const TraceKernel& k, const ClassRules& rules) {
  WorkloadKernel e;
  double with_shapes = 0.0;
  for (const TraceCase& c : k.cases) {
    if (!c.dims.empty()) with_shapes += c.count;
    e.cases.push_back(workload_case(c, rules));
  }
  e.calls_without_shapes = std::max(0.0, k.calls - with_shapes);
  if (e.cases.size() < 2)  // the first-launch rank says something only beside another signature
    for (WorkloadCase& c : e.cases) c.order.reset();
  std::stable_sort(e.cases.begin(), e.cases.end(),
                   [](const WorkloadCase& a, const WorkloadCase& b) {
                     if (a.count != b.count) return a.count > b.count;
                     if (a.total_ms != b.total_ms) return a.total_ms > b.total_ms;
                     const std::string ta = signature_json(a.dims), tb = signature_json(b.dims);
                     if (ta != tb) return ta < tb;
                     if (a.op != b.op) return a.op < b.op;
                     if (a.grid != b.grid) return a.grid < b.grid;
                     if (a.block != b.block) return a.block < b.block;
                     if (a.dtypes != b.dtypes) return a.dtypes < b.dtypes;
                     return a.key_scalars < b.key_scalars;
                   });
  return e;
}

// docs/method.md §23.5: the quantizations the kernel's inputs went through, most launches first
// (ties: by dtype, then by what quantized).
void fill_input_quant(const TraceKernel& k, TopnEntry& e) {
  for (const auto& [how, n] : k.input_quant)
    e.input_quant.push_back({std::get<0>(how), std::get<1>(how), std::get<2>(how), n});
  std::stable_sort(
      e.input_quant.begin(), e.input_quant.end(),
      [](const TopnInputQuant& a, const TopnInputQuant& b) { return a.launches > b.launches; });
}

// The entry of rank `rank` for kernel `k`, of `total_us` GPU time in all.
TopnEntry topn_entry(const TraceKernel& k, std::size_t rank, double total_us,
                     const StepStats& steps, const ClassRules& rules,
                     const std::vector<BackendRule>& backends) {
  TopnEntry e;
  e.index = rank - 1;
  e.rank = static_cast<long>(rank);
  fill_entry_names(k.name, k.kind, e);
  e.calls = k.calls;
  e.total_ms = round_to(k.total_us / 1000.0, 4);
  e.avg_us = k.calls > 0 ? round_to(k.total_us / k.calls, 3) : 0.0;
  e.pct_gpu_time = total_us > 0 ? round_to(100.0 * k.total_us / total_us, 2) : 0.0;
  e.signatures = signatures(k);
  if (!e.signatures.empty()) e.shapes = e.signatures.front();
  e.dtypes = k.dtypes;
  e.dtypes_are_set = true;
  fill_launcher(k, e);
  fill_family(k, rules, backends, e);
  fill_regimes(k, steps, e);
  fill_input_quant(k, e);
  return e;
}

}  // namespace

double round_to(double x, int digits) {
  if (!std::isfinite(x)) return x;
  char buf[512];
  const int n = std::snprintf(buf, sizeof buf, "%.*f", digits, x);
  if (n <= 0 || static_cast<std::size_t>(n) >= sizeof buf) return x;
  return std::strtod(buf, nullptr);
}

void fill_entry_names(std::string_view name, GpuEventKind kind, TopnEntry& e) {
  e.name = std::string(name);
  if (auto d = demangle_kernel_name(name)) {
    e.demangled = d->text;
    if (d->from_prefix)
      e.demangle_note = "no demangler read this name (" + d->why +
                        "): the qualified name is read from its _ZN prefix, template and "
                        "argument lists dropped";
  }
  e.short_name =
      kernel_short_name(e.demangled.empty() ? name : std::string_view(e.demangled), kind);
}

TopnBuild build_topn(const TraceProfile& profile, const TopnOptions& options,
                     const std::vector<ClassRule>& class_families,
                     const std::vector<BackendRule>& backends) {
  TopnBuild build;
  TopnDocument& doc = build.topn;
  doc.source = profile.source;
  double total_us = 0.0, launches = 0.0;
  for (const TraceKernel& k : profile.kernels) {
    total_us += k.total_us;
    launches += k.calls;
  }
  doc.total_gpu_time_ms = round_to(total_us / 1000.0, 4);
  doc.num_kernel_launches = launches;
  doc.num_distinct_kernels = static_cast<double>(profile.kernels.size());
  if (profile.device) doc.device = detail::device_of(*profile.device);
  doc.world_size = profile.world_size;
  if (profile.steps.any()) doc.serving = detail::serving_of(profile.steps);

  const std::vector<const TraceKernel*> order = head_kernels(profile.kernels, options.top);
  if (profile.graph.any()) {
    doc.graph_replay = detail::graph_of(profile.graph);
    replay_warning(order, profile.graph, build.warnings);
  }
  ClassRules rules;
  rules.families = class_families;
  for (const TraceKernel* k : order) {
    doc.entries.push_back(
        topn_entry(*k, doc.entries.size() + 1, total_us, profile.steps, rules, backends));
    build.workload.push_back(workload_kernel(*k, rules));
  }
  make_short_names_unique(doc.entries);
  return build;
}

}  // namespace roofline::topn
