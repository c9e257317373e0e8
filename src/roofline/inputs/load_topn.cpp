// profile_topN.json -> TopnDocument (docs/method.md §2.3). One unreadable entry never loses the
// others.
#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>

#include <fmt/format.h>

#include "roofline/inputs/json_input.hpp"
#include "roofline/inputs/layer.hpp"
#include "roofline/inputs/load.hpp"

namespace roofline::inputs {
namespace {

// A count or a time: negative values are reported on their field and dropped.
std::optional<double> non_negative(FieldReader& f, const json& obj, std::string_view key,
                                   const std::string& path) {
  auto v = f.number(obj, key, path);
  if (v && *v < 0) {
    f.error(path, fmt::format("negative value {}; ignored", *v));
    return std::nullopt;
  }
  return v;
}

void read_per_regime(FieldReader& f, const json& entry, std::string_view key,
                     const std::string& path, PerRegime<double>& out) {
  const json* obj = f.object(entry, key, path + "." + std::string(key));
  if (!obj) return;
  out.prefill = non_negative(f, *obj, "prefill", fmt::format("{}.{}.prefill", path, key));
  out.decode = non_negative(f, *obj, "decode", fmt::format("{}.{}.decode", path, key));
}

void read_est_shape(FieldReader& f, const json& entry, const std::string& path,
                    PerRegime<EstShape>& out) {
  const json* obj = f.object(entry, "est_shape", path + ".est_shape");
  if (!obj) return;
  for (Regime r : {Regime::prefill, Regime::decode}) {
    std::string rp = fmt::format("{}.est_shape.{}", path, to_string(r));
    const json* shape = f.object(*obj, to_string(r), rp);
    if (!shape) continue;
    EstShape s;
    for (const char* key : {"M", "m"})
      if (!s.m) s.m = f.number(*shape, key, rp + "." + key);
    for (const char* key : {"N", "n"})
      if (!s.n) s.n = f.number(*shape, key, rp + "." + key);
    for (const char* key : {"K", "k"})
      if (!s.k) s.k = f.number(*shape, key, rp + "." + key);
    out.at(r) = s;
  }
}

void read_served_regimes(FieldReader& f, const json& entry, const std::string& path, TopnEntry& e) {
  const json* v = f.find(entry, "served_regimes");
  if (!v || v->is_null()) return;
  if (v->is_string()) {  // tolerate "decode" or "prefill,decode"
    std::stringstream ss(v->get<std::string>());
    std::string part;
    while (std::getline(ss, part, ','))
      if (!trim(part).empty()) e.served_regimes.push_back(lower_ascii(trim(part)));
    return;
  }
  if (!v->is_array()) {
    f.error(path + ".served_regimes", "expected a list of regimes, got " + describe_type(*v));
    return;
  }
  for (const json& r : *v)
    if (r.is_string()) e.served_regimes.push_back(lower_ascii(trim(r.get<std::string>())));
}

// docs/method.md §2.3: `shapes` as a list of call signatures, three levels deep ([[[64, 2048],
// ...], ...]).
bool holds_signatures(const json& entry) {
  auto it = entry.find("shapes");
  if (it == entry.end() || !it->is_array() || it->empty()) return false;
  const json& first = it->front();
  return first.is_array() && !first.empty() && first.front().is_array();
}

void read_signatures(FieldReader& f, const json& entry, const std::string& path, TopnEntry& e) {
  const json& list = entry["shapes"];
  for (std::size_t i = 0; i < list.size(); ++i) {
    const json one{{"shapes", list[i]}};
    std::vector<std::vector<std::int64_t>> dims;
    read_operand_dims(f, one, "shapes", fmt::format("{}.shapes[{}]", path, i), dims);
    e.signatures.push_back(std::move(dims));
  }
  if (!e.signatures.empty()) e.shapes = e.signatures.front();
}

// Each object of the list `key` of `obj`, with its path; an element that is not an object is
// reported and skipped.
template <class Read>
void each_object(FieldReader& f, const json& obj, std::string_view key, const std::string& path,
                 Read read) {
  const json* list = f.array(obj, key, path);
  if (!list) return;
  for (std::size_t i = 0; i < list->size(); ++i) {
    const std::string p = fmt::format("{}[{}]", path, i);
    if ((*list)[i].is_object())
      read((*list)[i], p);
    else
      f.error(p, "expected an object, got " + describe_type((*list)[i]));
  }
}

// The entry's name (short_name when name is empty) and rank; false (with an error) without a
// name.
bool read_identity(FieldReader& f, const json& entry, const std::string& path, TopnEntry& e) {
  auto name = f.string(entry, "name", path + ".name");
  auto short_name = f.string(entry, "short_name", path + ".short_name");
  if ((!name || name->empty()) && short_name && !short_name->empty()) name = short_name;
  if (!name || name->empty()) {
    f.error(path + ".name", "missing kernel name; entry skipped");
    return false;
  }
  e.name = *name;
  e.short_name = short_name && !short_name->empty() ? *short_name : *name;
  if (auto r = f.number(entry, "rank", path + ".rank")) {
    if (*r >= 0 && *r < 1e9 && std::floor(*r) == *r)
      e.rank = static_cast<long>(*r);
    else
      f.error(path + ".rank", fmt::format("expected a non-negative integer, got {}", *r));
  }
  return true;
}

// pct_gpu_time, kept verbatim (outside [0, 100] with an error); false (with an error) when it is
// missing or not a finite number.
bool read_pct_gpu_time(FieldReader& f, const json& entry, const std::string& path, TopnEntry& e) {
  const json* pct = f.find(entry, "pct_gpu_time");
  if (!pct || pct->is_null()) {
    f.error(path + ".pct_gpu_time", fmt::format("missing; entry '{}' skipped", e.name));
    return false;
  }
  if (!pct->is_number() || !std::isfinite(pct->get<double>())) {
    f.error(path + ".pct_gpu_time", fmt::format("expected a number, got {}; entry '{}' skipped",
                                                describe_type(*pct), e.name));
    return false;
  }
  e.pct_gpu_time_raw = *pct;
  e.pct_gpu_time = pct->get<double>();
  if (e.pct_gpu_time < 0.0 || e.pct_gpu_time > 100.0)
    f.error(path + ".pct_gpu_time",
            fmt::format("{} is outside [0, 100]; kept verbatim", e.pct_gpu_time));
  return true;
}

// The operands: `shapes` (one signature, or a list of them) and `dtypes`.
void read_operands(FieldReader& f, const json& entry, const std::string& path, TopnEntry& e) {
  if (holds_signatures(entry)) {
    read_signatures(f, entry, path, e);
    e.dtypes_are_set = true;
  } else
    read_operand_dims(f, entry, "shapes", path, e.shapes);
  read_operand_dtypes(f, entry, "dtypes", path, e.dtypes);
}

// What the profiler's tooling says about the kernel: its class, backend, op, module, phase.
void read_labels(FieldReader& f, const json& entry, const std::string& path, TopnEntry& e) {
  e.classification =
      lower_ascii(f.string(entry, "classification", path + ".classification").value_or(""));
  e.backend_guess = f.string(entry, "backend_guess", path + ".backend_guess").value_or("");
  e.editable = f.boolean(entry, "editable", path + ".editable");
  e.opt_hint = f.string(entry, "opt_hint", path + ".opt_hint").value_or("");
  e.op = f.string(entry, "op", path + ".op").value_or("");
  e.demangled = f.string(entry, "demangled", path + ".demangled").value_or("");
  e.demangle_note = f.string(entry, "demangle_note", path + ".demangle_note").value_or("");
  e.module = f.string(entry, "module", path + ".module").value_or("");
  e.phase = lower_ascii(f.string(entry, "phase", path + ".phase").value_or(""));
}

// The serving fields: the regimes served, the per-regime calls and latencies, the estimated
// shapes and calls, the serving-weighted share.
void read_serving(FieldReader& f, const json& entry, const std::string& path, TopnEntry& e) {
  read_served_regimes(f, entry, path, e);
  read_per_regime(f, entry, "phase_calls_measured", path, e.phase_calls_measured);
  read_per_regime(f, entry, "calls_per_step", path, e.calls_per_step);
  read_per_regime(f, entry, "base_latency_ms", path, e.base_latency_ms);
  read_est_shape(f, entry, path, e.est_shape);
  e.est_calls = non_negative(f, entry, "est_calls", path + ".est_calls");
  e.serving_weighted_pct = f.number(entry, "serving_weighted_pct", path + ".serving_weighted_pct");
  each_object(f, entry, "input_quant", path + ".input_quant",
              [&](const json& q, const std::string& p) {
                TopnInputQuant in;
                in.dtype = f.string(q, "dtype", p + ".dtype").value_or("");
                in.by = f.string(q, "by", p + ".by").value_or("");
                in.evidence = f.string(q, "evidence", p + ".evidence").value_or("");
                in.launches = non_negative(f, q, "launches", p + ".launches").value_or(0.0);
                if (!in.dtype.empty()) e.input_quant.push_back(std::move(in));
              });
}

// Returns nullopt (with an error) when the entry has no usable name or pct_gpu_time.
std::optional<TopnEntry> read_entry(FieldReader& f, const json& entry, std::size_t index) {
  const std::string path = fmt::format("top_kernels[{}]", index);
  if (!entry.is_object()) {
    f.error(path, "expected an object, got " + describe_type(entry));
    return std::nullopt;
  }
  TopnEntry e;
  e.index = index;
  if (!read_identity(f, entry, path, e)) return std::nullopt;
  if (!read_pct_gpu_time(f, entry, path, e)) return std::nullopt;
  e.calls = non_negative(f, entry, "calls", path + ".calls");
  e.total_ms = non_negative(f, entry, "total_ms", path + ".total_ms");
  e.avg_us = non_negative(f, entry, "avg_us", path + ".avg_us");
  read_operands(f, entry, path, e);
  read_labels(f, entry, path, e);
  read_serving(f, entry, path, e);
  return e;
}

// `device` (docs/method.md §22.7), every field optional; a wrong type is reported on its field.
std::optional<TopnDevice> read_device(FieldReader& f, const json& doc) {
  const json* obj = f.object(doc, "device", "device");
  if (!obj) return std::nullopt;
  TopnDevice d;
  d.name = f.string(*obj, "name", "device.name").value_or("");
  d.vendor = f.string(*obj, "vendor", "device.vendor").value_or("");
  d.arch = lower_ascii(trim(f.string(*obj, "arch", "device.arch").value_or("")));
  d.cu_count = non_negative(f, *obj, "cu_count", "device.cu_count");
  d.memory_bytes = non_negative(f, *obj, "memory_bytes", "device.memory_bytes");
  d.source = f.string(*obj, "source", "device.source").value_or("");
  d.note = f.string(*obj, "note", "device.note").value_or("");
  return d;
}

void read_part_sums(FieldReader& f, const json& parts, std::string_view key,
                    const std::string& path, TopnPartSums& out) {
  const std::string p = path + "." + std::string(key);
  const json* obj = f.object(parts, key, p);
  if (!obj) return;
  out.steps = non_negative(f, *obj, "steps", p + ".steps");
  out.requests = non_negative(f, *obj, "requests", p + ".requests");
  out.sum_q = non_negative(f, *obj, "sum_q", p + ".sum_q");
  out.sum_kv = non_negative(f, *obj, "sum_kv", p + ".sum_kv");
  out.sum_q2 = non_negative(f, *obj, "sum_q2", p + ".sum_q2");
  out.sum_qkv = non_negative(f, *obj, "sum_qkv", p + ".sum_qkv");
}

// docs/method.md §22.7's measured figures in the serving block (all optional).
void read_measured_serving(FieldReader& f, const json& serving, TopnServing& s) {
  s.step_source = f.string(serving, "step_source", "serving.step_source").value_or("");
  s.decode_batch = non_negative(f, serving, "decode_batch", "serving.decode_batch");
  s.decode_context = non_negative(f, serving, "decode_context", "serving.decode_context");
  s.decode_from = f.string(serving, "decode_from", "serving.decode_from").value_or("");
  s.prefill_tokens_per_step =
      non_negative(f, serving, "prefill_tokens_per_step", "serving.prefill_tokens_per_step");
  s.unparsed_step_annotations =
      non_negative(f, serving, "unparsed_step_annotations", "serving.unparsed_step_annotations");
  s.unparsed_step_example =
      f.string(serving, "unparsed_step_example", "serving.unparsed_step_example").value_or("");
  const json* sums = f.object(serving, "sums", "serving.sums");
  if (!sums) return;
  if (const json* prefill = f.object(*sums, "prefill", "serving.sums.prefill")) {
    read_part_sums(f, *prefill, "context", "serving.sums.prefill", s.prefill_context);
    read_part_sums(f, *prefill, "generation", "serving.sums.prefill", s.prefill_generation);
  }
  if (const json* decode = f.object(*sums, "decode", "serving.sums.decode"))
    read_part_sums(f, *decode, "generation", "serving.sums.decode", s.decode_generation);
}

// `serving` (docs/method.md §22.7): the step counts and batches, then the measured figures.
void read_serving_block(FieldReader& f, const json& doc, TopnServing& s) {
  const json* serving = f.object(doc, "serving", "serving");
  if (!serving) return;
  s.present = true;
  s.n_prefill_steps = f.number(*serving, "n_prefill_steps", "serving.n_prefill_steps");
  s.n_decode_steps = f.number(*serving, "n_decode_steps", "serving.n_decode_steps");
  s.decode_batch_captured =
      f.number(*serving, "decode_batch_captured", "serving.decode_batch_captured");
  s.decode_batch_steady = f.number(*serving, "decode_batch_steady", "serving.decode_batch_steady");
  s.steady = f.boolean(*serving, "steady", "serving.steady");
  read_measured_serving(f, *serving, s);
  for (auto* steps : {&s.n_prefill_steps, &s.n_decode_steps})
    if (*steps && **steps < 0) {
      f.error("serving", fmt::format("negative step count {}; ignored", **steps));
      steps->reset();
    }
}

// `graph_replay.unpaired_reasons[]` and `.unpaired_replays[]`.
void read_unpaired(FieldReader& f, const json& graph, TopnGraphReplay& g) {
  each_object(f, graph, "unpaired_reasons", "graph_replay.unpaired_reasons",
              [&](const json& r, const std::string& p) {
                g.unpaired_reasons.push_back(
                    {f.string(r, "reason", p + ".reason").value_or(""),
                     non_negative(f, r, "replays", p + ".replays").value_or(0.0),
                     non_negative(f, r, "launches", p + ".launches").value_or(0.0)});
              });
  each_object(f, graph, "unpaired_replays", "graph_replay.unpaired_replays",
              [&](const json& r, const std::string& p) {
                TopnGraphReplay::Unpaired u;
                const auto correlation = f.number(r, "correlation", p + ".correlation");
                if (correlation && std::fabs(*correlation) < 9.0e15)
                  u.correlation = static_cast<std::int64_t>(*correlation);
                u.launches = non_negative(f, r, "launches", p + ".launches").value_or(0.0);
                u.step_size = non_negative(f, r, "step_size", p + ".step_size");
                u.reason = f.string(r, "reason", p + ".reason").value_or("");
                g.unpaired_replays.push_back(std::move(u));
              });
}

// `graph_replay` (docs/method.md §22.7), every figure optional.
std::optional<TopnGraphReplay> read_graph_replay(FieldReader& f, const json& doc) {
  const json* graph = f.object(doc, "graph_replay", "graph_replay");
  if (!graph) return std::nullopt;
  TopnGraphReplay g;
  g.replays = non_negative(f, *graph, "replays", "graph_replay.replays");
  g.launches = non_negative(f, *graph, "launches", "graph_replay.launches");
  g.with_shapes = non_negative(f, *graph, "with_shapes", "graph_replay.with_shapes");
  g.capture_given =
      f.boolean(*graph, "capture_given", "graph_replay.capture_given").value_or(false);
  g.capture_windows = non_negative(f, *graph, "capture_windows", "graph_replay.capture_windows");
  g.paired = non_negative(f, *graph, "paired", "graph_replay.paired");
  read_unpaired(f, *graph, g);
  return g;
}

}  // namespace

std::string describe_size(std::size_t bytes) {
  constexpr std::size_t kib = 1024, mib = kib * 1024, gib = mib * 1024;
  if (bytes >= gib && bytes % gib == 0) return fmt::format("{} GiB", bytes / gib);
  if (bytes >= mib && bytes % mib == 0) return fmt::format("{} MiB", bytes / mib);
  if (bytes >= kib && bytes % kib == 0) return fmt::format("{} KiB", bytes / kib);
  return fmt::format("{} bytes", bytes);
}

FileText read_text_file(const std::filesystem::path& path, std::size_t max_bytes) {
  FileText out;
  std::error_code ec;
  auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status)) return out;
  out.found = true;
  if (std::filesystem::is_directory(status)) {
    out.error = "is a directory, expected a file";
    return out;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    out.error = "cannot be opened for reading";
    return out;
  }
  std::string text;
  char buf[65536];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    text.append(buf, static_cast<std::size_t>(in.gcount()));
    if (text.size() > max_bytes) {
      out.error = fmt::format("larger than the {} input size limit (analyze --max-input-size)",
                              describe_size(max_bytes));
      return out;
    }
  }
  if (in.bad()) {
    out.error = "read error";
    return out;
  }
  out.text = std::move(text);
  return out;
}

Loaded<TopnDocument> parse_topn(std::string_view text, const std::string& display_name,
                                const InputLimits& limits) {
  Loaded<TopnDocument> out;
  auto doc = parse_json_object(text, display_name, limits.max_depth, out.errors, out.notes);
  if (!doc) return out;
  FieldReader f(display_name, out.errors);
  TopnDocument topn;
  topn.source = f.string(*doc, "source", "source").value_or("");
  topn.total_gpu_time_ms = f.number(*doc, "total_gpu_time_ms", "total_gpu_time_ms");
  topn.num_kernel_launches = f.number(*doc, "num_kernel_launches", "num_kernel_launches");
  topn.num_distinct_kernels = f.number(*doc, "num_distinct_kernels", "num_distinct_kernels");
  topn.device = read_device(f, *doc);
  topn.world_size = non_negative(f, *doc, "world_size", "world_size");
  topn.graph_replay = read_graph_replay(f, *doc);
  read_serving_block(f, *doc, topn.serving);
  const json* kernels = f.array(*doc, "top_kernels", "top_kernels");
  if (!kernels) {
    if (!f.find(*doc, "top_kernels"))
      out.errors.push_back(
          fmt::format("{}: top_kernels: missing; no kernels to analyse", display_name));
    out.value = std::move(topn);
    return out;
  }
  std::size_t limit = std::min(kernels->size(), limits.max_entries);
  if (kernels->size() > limits.max_entries)
    out.errors.push_back(
        fmt::format("{}: top_kernels: {} entries, only the first {} are read (entry limit; "
                    "analyze --max-topn-entries)",
                    display_name, kernels->size(), limits.max_entries));
  for (std::size_t i = 0; i < limit; ++i)
    if (auto e = read_entry(f, (*kernels)[i], i)) topn.entries.push_back(std::move(*e));
  out.value = std::move(topn);
  return out;
}

}  // namespace roofline::inputs
