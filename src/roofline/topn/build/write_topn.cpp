// TopnBuild -> the text of profile_topN.json and profile_workload.json. Objects one key per
// line, arrays of numbers and of number lists on one line (shapes stay readable), keys in the
// order docs/method.md §2.3 lists them. Same document, same bytes.
#include <cmath>

#include <nlohmann/json.hpp>

#include "roofline/base/json_number.hpp"
#include "roofline/topn/build/write_topn.hpp"
#include "roofline/topn/layer.hpp"
#include "roofline/topn/names/names.hpp"

namespace roofline::topn {
namespace {

using ordered_json = nlohmann::ordered_json;

// Counts as integers (20, not 20.0) when they are whole and exactly representable.
ordered_json count_json(double v) {
  if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 9.0e15)
    return static_cast<std::int64_t>(v);
  return json_number(v);
}

bool holds_object(const ordered_json& v) {
  if (v.is_object()) return true;
  if (v.is_array())
    for (const auto& x : v)
      if (holds_object(x)) return true;
  return false;
}

void write(std::string& out, const ordered_json& v, int indent) {
  const auto scalar = [](const ordered_json& x) {
    return x.dump(-1, ' ', false, ordered_json::error_handler_t::replace);
  };
  if (v.is_object()) {
    if (v.empty()) {
      out += "{}";
      return;
    }
    out += "{\n";
    std::size_t i = 0;
    for (auto it = v.begin(); it != v.end(); ++it, ++i) {
      out.append(static_cast<std::size_t>(indent + 2), ' ');
      out += scalar(ordered_json(it.key()));
      out += ": ";
      write(out, it.value(), indent + 2);
      out += i + 1 < v.size() ? ",\n" : "\n";
    }
    out.append(static_cast<std::size_t>(indent), ' ');
    out += '}';
  } else if (v.is_array()) {
    if (v.empty()) {
      out += "[]";
      return;
    }
    if (!holds_object(v)) {  // numbers, strings and lists of them: one line
      out += '[';
      for (std::size_t i = 0; i < v.size(); ++i) {
        if (i) out += ", ";
        write(out, v[i], indent);
      }
      out += ']';
      return;
    }
    out += "[\n";
    for (std::size_t i = 0; i < v.size(); ++i) {
      out.append(static_cast<std::size_t>(indent + 2), ' ');
      write(out, v[i], indent + 2);
      out += i + 1 < v.size() ? ",\n" : "\n";
    }
    out.append(static_cast<std::size_t>(indent), ' ');
    out += ']';
  } else {
    out += scalar(v);
  }
}

std::string text_of(const ordered_json& doc) {
  std::string out;
  write(out, doc, 0);
  out += '\n';
  return out;
}

ordered_json per_regime(const PerRegime<double>& v, bool counts) {
  ordered_json j = ordered_json::object();
  for (Regime r : {Regime::prefill, Regime::decode})
    if (v.at(r)) j[to_string(r)] = counts ? count_json(*v.at(r)) : json_number(*v.at(r));
  return j;
}

// One part's sums: the steps with it, and each figure every one of them wrote.
ordered_json part_json(const TopnPartSums& p) {
  ordered_json j;
  const std::pair<const char*, const std::optional<double>*> figures[] = {
      {"steps", &p.steps},   {"requests", &p.requests}, {"sum_q", &p.sum_q},
      {"sum_kv", &p.sum_kv}, {"sum_q2", &p.sum_q2},     {"sum_qkv", &p.sum_qkv}};
  for (const auto& [key, v] : figures)
    if (*v) j[key] = count_json(**v);
  return j;
}

// docs/method.md §22.7's measured figures, after the step counts.
void add_measured_serving(const TopnServing& s, ordered_json& serving) {
  if (!s.step_source.empty()) serving["step_source"] = s.step_source;
  if (s.decode_batch) serving["decode_batch"] = count_json(*s.decode_batch);
  if (s.decode_context) serving["decode_context"] = count_json(*s.decode_context);
  if (!s.decode_from.empty()) serving["decode_from"] = s.decode_from;
  if (s.prefill_tokens_per_step)
    serving["prefill_tokens_per_step"] = count_json(*s.prefill_tokens_per_step);
  ordered_json sums = ordered_json::object();
  ordered_json prefill = ordered_json::object();
  if (s.prefill_context.any()) prefill["context"] = part_json(s.prefill_context);
  if (s.prefill_generation.any()) prefill["generation"] = part_json(s.prefill_generation);
  if (!prefill.empty()) sums["prefill"] = std::move(prefill);
  if (s.decode_generation.any())
    sums["decode"] = ordered_json{{"generation", part_json(s.decode_generation)}};
  if (!sums.empty()) serving["sums"] = std::move(sums);
  if (s.unparsed_step_annotations) {
    serving["unparsed_step_annotations"] = count_json(*s.unparsed_step_annotations);
    serving["unparsed_step_example"] = s.unparsed_step_example;
  }
}

// A figure the document has, as a count; null when it has none.
ordered_json count_or_null(const std::optional<double>& v) {
  return v ? count_json(*v) : ordered_json();
}

// docs/method.md §22.7: the trace's graph replays and how many of their launches were joined.
ordered_json graph_json(const TopnGraphReplay& g) {
  ordered_json j;
  j["replays"] = count_or_null(g.replays);
  j["launches"] = count_or_null(g.launches);
  j["with_shapes"] = count_or_null(g.with_shapes);
  j["capture_given"] = g.capture_given;
  if (g.capture_windows) j["capture_windows"] = count_json(*g.capture_windows);
  j["paired"] = count_or_null(g.paired);
  j["unpaired"] = g.launches && g.paired ? count_json(*g.launches - *g.paired) : ordered_json();
  ordered_json reasons = ordered_json::array();
  for (const TopnGraphReplay::Reason& r : g.unpaired_reasons)
    reasons.push_back(ordered_json{{"reason", r.reason},
                                   {"replays", count_json(r.replays)},
                                   {"launches", count_json(r.launches)}});
  j["unpaired_reasons"] = std::move(reasons);
  ordered_json examples = ordered_json::array();
  for (const TopnGraphReplay::Unpaired& u : g.unpaired_replays) {
    ordered_json e;
    e["correlation"] = u.correlation;
    e["launches"] = count_json(u.launches);
    if (u.step_size) e["step_size"] = count_json(*u.step_size);
    e["reason"] = u.reason;
    examples.push_back(std::move(e));
  }
  j["unpaired_replays"] = std::move(examples);
  return j;
}

// A figure the document has; null when it has none.
ordered_json number_or_null(const std::optional<double>& v) {
  return v ? json_number(*v) : ordered_json();
}

// A name the document has; null when it is "".
ordered_json text_or_null(const std::string& s) {
  return s.empty() ? ordered_json() : ordered_json(s);
}

// The per-regime fields (docs/method.md §22.7), when the kernel ran in a step.
void add_regimes(const TopnEntry& e, ordered_json& j) {
  if (e.phase.empty()) return;
  j["phase"] = e.phase;
  j["served_regimes"] = e.served_regimes;
  j["phase_calls_measured"] = per_regime(e.phase_calls_measured, true);
  j["calls_per_step"] = per_regime(e.calls_per_step, true);
  j["base_latency_ms"] = per_regime(e.base_latency_ms, false);
  ordered_json shape = ordered_json::object();
  for (Regime r : {Regime::prefill, Regime::decode}) {
    if (!e.est_shape.at(r)) continue;
    ordered_json dims = ordered_json::object();
    for (const auto& [key, v] :
         {std::pair{"M", e.est_shape.at(r)->m}, std::pair{"N", e.est_shape.at(r)->n},
          std::pair{"K", e.est_shape.at(r)->k}})
      if (v) dims[key] = count_json(*v);
    shape[to_string(r)] = std::move(dims);
  }
  j["est_shape"] = std::move(shape);
}

ordered_json entry_json(const TopnEntry& e) {
  ordered_json j;
  j["rank"] = e.rank ? ordered_json(*e.rank) : ordered_json();
  j["name"] = e.name;
  j["short_name"] = e.short_name;
  if (!e.demangled.empty()) j["demangled"] = e.demangled;
  if (!e.demangle_note.empty()) j["demangle_note"] = e.demangle_note;
  j["calls"] = count_or_null(e.calls);
  j["total_ms"] = number_or_null(e.total_ms);
  j["avg_us"] = number_or_null(e.avg_us);
  j["pct_gpu_time"] = json_number(e.pct_gpu_time);
  // Three levels deep (the call signatures), or the one signature a two-level file gave.
  j["shapes"] = e.signatures.empty() && !e.shapes.empty() ? ordered_json(e.shapes)
                                                          : ordered_json(e.signatures);
  j["dtypes"] = e.dtypes;
  j["op"] = text_or_null(e.op);
  j["module"] = text_or_null(e.module);
  j["classification"] = e.classification;
  j["backend_guess"] = e.backend_guess;
  j["editable"] = e.editable ? ordered_json(*e.editable) : ordered_json(nullptr);
  j["opt_hint"] = e.opt_hint;
  add_regimes(e, j);
  if (e.est_calls) j["est_calls"] = count_json(*e.est_calls);
  if (e.serving_weighted_pct) j["serving_weighted_pct"] = json_number(*e.serving_weighted_pct);
  if (!e.input_quant.empty()) {
    ordered_json list = ordered_json::array();
    for (const TopnInputQuant& q : e.input_quant)
      list.push_back(ordered_json{{"dtype", q.dtype},
                                  {"by", q.by},
                                  {"evidence", q.evidence},
                                  {"launches", count_json(q.launches)}});
    j["input_quant"] = std::move(list);
  }
  return j;
}

// docs/method.md §22.7: `device: {name, vendor, arch, cu_count, memory_bytes, source[, note]}`;
// what the trace does not give is null.
ordered_json device_json(const TopnDevice& d) {
  ordered_json j;
  j["name"] = text_or_null(d.name);
  j["vendor"] = text_or_null(d.vendor);
  j["arch"] = text_or_null(d.arch);
  j["cu_count"] = count_or_null(d.cu_count);
  j["memory_bytes"] = count_or_null(d.memory_bytes);
  j["source"] = text_or_null(d.source);
  if (!d.note.empty()) j["note"] = d.note;
  return j;
}

// docs/method.md §22.4: `{kernel, class, grid, block, launches[, rows[, rows_per_block]]}`.
ordered_json neighbour_json(const CaseNeighbour& n) {
  ordered_json j;
  j["kernel"] = n.kernel;
  if (!n.name.empty() && n.name != n.kernel) j["name"] = n.name;
  j["class"] = n.cls;
  j["grid"] = n.grid.empty() ? ordered_json() : ordered_json(n.grid);
  j["block"] = n.block.empty() ? ordered_json() : ordered_json(n.block);
  j["launches"] = count_json(n.launches);
  if (n.rows) j["rows"] = count_json(*n.rows);
  if (n.rows && n.rows_per_block) j["rows_per_block"] = count_json(*n.rows_per_block);
  return j;
}

// A workload case's signature fields (docs/method.md §22.8): additions to workload-v1.
void add_signature_fields(const WorkloadCase& c, ordered_json& cj) {
  cj["op"] = text_or_null(c.op);
  cj["module"] = text_or_null(c.module);
  // docs/method.md §22.10: what the call stack said, where it said something (additions).
  if (!c.collective.empty()) cj["collective"] = c.collective;
  if (!c.call_site.empty()) cj["call_site"] = c.call_site;
  if (!c.library.empty()) cj["library"] = c.library;
  ordered_json scalars = ordered_json::array();
  for (const auto& [arg, value] : c.key_scalars)
    scalars.push_back({{"arg", arg}, {"name", op_scalar_name(c.op, arg)}, {"value", value}});
  cj["scalars"] = std::move(scalars);
  ordered_json ranges = ordered_json::array();
  for (const ScalarRange& r : c.scalar_ranges)
    ranges.push_back({{"arg", r.arg},
                      {"name", r.name},
                      {"min", json_number(r.min)},
                      {"mean", json_number(round_to(r.mean(), 6))},
                      {"max", json_number(r.max)}});
  cj["scalar_ranges"] = std::move(ranges);
  cj["grid"] = c.grid.empty() ? ordered_json() : ordered_json(c.grid);
  cj["block"] = c.block.empty() ? ordered_json() : ordered_json(c.block);
  cj["time_us"] = {{"total", json_number(round_to(c.total_ms * 1000.0, 3))},
                   {"mean", json_number(c.mean_us)},
                   {"median", json_number(c.median_us)},
                   {"min", json_number(c.min_us)},
                   {"max", json_number(c.max_us)}};
  cj["steps"] = {{"prefill", count_json(c.steps.prefill)},
                 {"decode", count_json(c.steps.decode)},
                 {"mixed", count_json(c.steps.mixed)}};
  // docs/method.md §22.8: the steps its launches fell in (a signature's launches a step are its
  // launches over its own steps: a step the profile cut short holds few of them).
  if (c.step_count > 0) cj["step_count"] = count_json(c.step_count);
  if (c.inherited > 0) cj["inherited"] = count_json(c.inherited);
  if (c.replay) cj["graph_replay"] = true;
  if (c.order) cj["order"] = *c.order;
  if (c.before) cj["before"] = neighbour_json(*c.before);
  if (c.after) cj["after"] = neighbour_json(*c.after);
}

}  // namespace

std::string render_topn_json(const TopnDocument& doc) {
  ordered_json j;
  j["source"] = doc.source;
  j["total_gpu_time_ms"] = number_or_null(doc.total_gpu_time_ms);
  j["num_kernel_launches"] = count_or_null(doc.num_kernel_launches);
  j["num_distinct_kernels"] = count_or_null(doc.num_distinct_kernels);
  if (doc.device) j["device"] = device_json(*doc.device);
  if (doc.world_size) j["world_size"] = count_json(*doc.world_size);
  if (doc.serving.present) {
    const TopnServing& s = doc.serving;
    ordered_json serving;
    serving["n_prefill_steps"] = count_or_null(s.n_prefill_steps);
    serving["n_decode_steps"] = count_or_null(s.n_decode_steps);
    if (s.decode_batch_captured)
      serving["decode_batch_captured"] = count_json(*s.decode_batch_captured);
    if (s.decode_batch_steady) serving["decode_batch_steady"] = count_json(*s.decode_batch_steady);
    if (s.steady) serving["steady"] = *s.steady;
    add_measured_serving(s, serving);
    j["serving"] = std::move(serving);
  }
  if (doc.graph_replay) j["graph_replay"] = graph_json(*doc.graph_replay);
  ordered_json kernels = ordered_json::array();
  for (const TopnEntry& e : doc.entries) kernels.push_back(entry_json(e));
  j["top_kernels"] = std::move(kernels);
  return text_of(j);
}

std::string render_workload_json(const TopnBuild& build) {
  ordered_json j;
  j["schema"] = "workload-v1";
  j["source"] = build.topn.source;
  ordered_json kernels = ordered_json::array();
  for (std::size_t i = 0; i < build.topn.entries.size() && i < build.workload.size(); ++i) {
    const TopnEntry& e = build.topn.entries[i];
    ordered_json k;
    k["rank"] = e.rank ? ordered_json(*e.rank) : ordered_json();
    k["name"] = e.name;
    k["short_name"] = e.short_name;
    k["calls"] = count_or_null(e.calls);
    k["calls_without_shapes"] = count_json(build.workload[i].calls_without_shapes);
    ordered_json cases = ordered_json::array();
    for (const WorkloadCase& c : build.workload[i].cases) {
      ordered_json cj;
      cj["dims"] = c.dims;
      cj["dtypes"] = c.dtypes;
      cj["count"] = count_json(c.count);
      cj["baseline_latency_ms"] = json_number(c.baseline_latency_ms);
      if (c.regime) cj["regime"] = to_string(*c.regime);
      if (c.rows) cj["rows"] = count_json(*c.rows);
      add_signature_fields(c, cj);
      cases.push_back(std::move(cj));
    }
    k["cases"] = std::move(cases);
    kernels.push_back(std::move(k));
  }
  j["kernels"] = std::move(kernels);
  return text_of(j);
}

}  // namespace roofline::topn
