// Probe shape files -> ProbeSet (docs/method.md §11.3 stage B), and the profiler's
// profile_workload.json into the same structs (docs/method.md §2.7).
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "roofline/inputs/json_input.hpp"
#include "roofline/inputs/layer.hpp"
#include "roofline/inputs/probes.hpp"

namespace roofline::inputs {
namespace {

// `shapeless_ok`: a workload signature without dims (a graph replay without a capture) is kept.
std::optional<ProbeCase> read_case(FieldReader& f, const json& c, const std::string& path,
                                   bool shapeless_ok = false) {
  if (!c.is_object()) {
    f.error(path, "expected a case object, got " + describe_type(c));
    return std::nullopt;
  }
  ProbeCase pc;
  read_operand_dims(f, c, "dims", path, pc.dims);
  read_operand_dtypes(f, c, "dtypes", path, pc.dtypes);
  read_operand_dtypes(f, c, "arg_labels", path, pc.arg_labels);
  if (pc.dims.empty() && !shapeless_ok) {
    f.error(path + ".dims", "missing or empty: a case without operand shapes cannot be modelled");
    return std::nullopt;
  }
  if (auto n = f.number_lenient(c, "count", path + ".count")) {
    if (!(*n > 0) || !std::isfinite(*n)) {
      f.error(path + ".count", fmt::format("must be a positive number, got {}; case skipped", *n));
      return std::nullopt;
    }
    pc.count = *n;
  }
  if (auto us = f.number_lenient(c, "gpu_us_avg", path + ".gpu_us_avg")) {
    if (*us > 0 && std::isfinite(*us))
      pc.gpu_us_avg = *us;
    else
      f.error(path + ".gpu_us_avg", fmt::format("must be a positive time, got {}; ignored", *us));
  }
  if (auto n = f.number_lenient(c, "timed_count", path + ".timed_count"); n && *n >= 0)
    pc.timed_count = *n;
  return pc;
}

// [x, y, z] of non-negative integers (grid, block); anything else is an error and left empty.
std::vector<std::int64_t> read_dim3(FieldReader& f, const json& c, std::string_view key,
                                    const std::string& path) {
  std::vector<std::int64_t> out;
  const json* a = f.array(c, key, path);
  if (!a) return out;
  for (const json& v : *a)
    if (v.is_number_integer() && v.get<std::int64_t>() >= 0) out.push_back(v.get<std::int64_t>());
  if (out.size() != 3 || a->size() != 3) {
    f.error(path, "expected three non-negative integers; ignored");
    out.clear();
  }
  return out;
}

std::vector<ProbeScalar> read_scalars(FieldReader& f, const json& c, std::string_view key,
                                      const std::string& path) {
  std::vector<ProbeScalar> out;
  const json* a = f.array(c, key, path);
  if (!a) return out;
  for (std::size_t i = 0; i < a->size(); ++i) {
    const json& s = (*a)[i];
    const std::string at = fmt::format("{}[{}]", path, i);
    const auto arg = f.number(s, "arg", at + ".arg");
    if (!s.is_object() || !arg || *arg < 0 || *arg > 1e6) {
      f.error(at, "expected {arg, name, value} or {arg, name, min, mean, max}; ignored");
      continue;
    }
    ProbeScalar p;
    p.arg = static_cast<std::size_t>(*arg);
    p.name = f.string(s, "name", at + ".name").value_or("");
    p.value = f.string(s, "value", at + ".value").value_or("");
    p.min = f.number(s, "min", at + ".min");
    p.mean = f.number(s, "mean", at + ".mean");
    p.max = f.number(s, "max", at + ".max");
    out.push_back(std::move(p));
  }
  return out;
}

// A count or time: negative is reported and read as absent.
std::optional<double> count_or_time(FieldReader& f, const json& obj, const char* key,
                                    const std::string& path) {
  const auto v = f.number(obj, key, path);
  if (v && *v < 0) {
    f.error(path, fmt::format("must not be negative, got {}; ignored", *v));
    return std::nullopt;
  }
  return v;
}

// A signature's neighbour (docs/method.md §22.4); nullopt when absent or not an object.
std::optional<CaseNeighbour> read_neighbour(FieldReader& f, const json& c, const char* key,
                                            const std::string& path) {
  const json* o = f.object(c, key, path);
  if (!o) return std::nullopt;
  CaseNeighbour n;
  n.kernel = f.string(*o, "kernel", path + ".kernel").value_or("");
  n.name = f.string(*o, "name", path + ".name").value_or("");
  n.cls = f.string(*o, "class", path + ".class").value_or("");
  n.grid = read_dim3(f, *o, "grid", path + ".grid");
  n.block = read_dim3(f, *o, "block", path + ".block");
  n.launches = count_or_time(f, *o, "launches", path + ".launches").value_or(0.0);
  n.rows = count_or_time(f, *o, "rows", path + ".rows");
  n.rows_per_block = count_or_time(f, *o, "rows_per_block", path + ".rows_per_block");
  if (n.rows_per_block && !(*n.rows_per_block > 1)) n.rows_per_block.reset();
  if (n.rows && !(*n.rows >= 1)) n.rows.reset();
  return n;
}

// The signature fields `roofline topn` adds to a workload case (docs/method.md §22.8).
CaseSignature read_signature(FieldReader& f, const json& c, const std::string& path) {
  CaseSignature s;
  s.op = f.string(c, "op", path + ".op").value_or("");
  s.module = f.string(c, "module", path + ".module").value_or("");
  s.collective = f.string(c, "collective", path + ".collective").value_or("");
  s.call_site = f.string(c, "call_site", path + ".call_site").value_or("");
  s.library = f.string(c, "library", path + ".library").value_or("");
  s.scalars = read_scalars(f, c, "scalars", path + ".scalars");
  s.ranges = read_scalars(f, c, "scalar_ranges", path + ".scalar_ranges");
  s.grid = read_dim3(f, c, "grid", path + ".grid");
  s.block = read_dim3(f, c, "block", path + ".block");
  if (const json* t = f.object(c, "time_us", path + ".time_us")) {
    const auto time = [&](const char* k) {
      return count_or_time(f, *t, k, fmt::format("{}.time_us.{}", path, k));
    };
    s.total_us = time("total");
    s.mean_us = time("mean");
    s.median_us = time("median");
    s.min_us = time("min");
    s.max_us = time("max");
  }
  if (const json* st = f.object(c, "steps", path + ".steps")) {
    const auto n = [&](const char* k) {
      return count_or_time(f, *st, k, fmt::format("{}.steps.{}", path, k)).value_or(0.0);
    };
    s.prefill = n("prefill");
    s.decode = n("decode");
    s.mixed = n("mixed");
  }
  s.step_count = count_or_time(f, c, "step_count", path + ".step_count");
  if (s.step_count && !(*s.step_count >= 1)) s.step_count.reset();
  s.inherited = count_or_time(f, c, "inherited", path + ".inherited").value_or(0.0);
  s.replay = f.boolean(c, "graph_replay", path + ".graph_replay").value_or(false);
  s.order = count_or_time(f, c, "order", path + ".order");
  s.before = read_neighbour(f, c, "before", path + ".before");
  s.after = read_neighbour(f, c, "after", path + ".after");
  return s;
}

bool has_signature(const json& c) {
  return c.is_object() && (c.contains("op") || c.contains("grid") || c.contains("time_us"));
}

// A workload-v1 case: the probe case's fields, with the mean latency in ms over all its calls and
// the regime the profiler attributed it to; the signature fields when `roofline topn` wrote them.
std::optional<ProbeCase> read_workload_case(FieldReader& f, const json& c,
                                            const std::string& path) {
  const bool signature = has_signature(c);
  std::optional<ProbeCase> pc = read_case(f, c, path, signature);
  if (!pc) return pc;
  if (signature) pc->signature = read_signature(f, c, path);
  if (auto ms = f.number_lenient(c, "baseline_latency_ms", path + ".baseline_latency_ms")) {
    if (*ms > 0 && std::isfinite(*ms * 1000.0)) {
      pc->gpu_us_avg = *ms * 1000.0;
      pc->timed_count = pc->count;
    } else {
      f.error(path + ".baseline_latency_ms",
              fmt::format("must be a positive time in ms, got {}; ignored", *ms));
    }
  }
  if (auto r = f.string(c, "regime", path + ".regime")) {
    if (*r == "decode")
      pc->regime = Regime::decode;
    else if (*r == "prefill")
      pc->regime = Regime::prefill;
    else
      f.error(path + ".regime",
              fmt::format("'{}' is not a regime (decode or prefill); the case serves both", *r));
  }
  return pc;
}

void read_cases(FieldReader& f, const json& obj, const std::string& path, ProbeKernel& k) {
  const json* cases = f.array(obj, "cases", path + ".cases");
  if (!cases) {
    if (!f.find(obj, "cases")) f.error(path + ".cases", "missing: no captured shapes");
    return;
  }
  for (std::size_t i = 0; i < cases->size(); ++i)
    if (auto c = read_case(f, (*cases)[i], fmt::format("{}.cases[{}]", path, i)))
      k.cases.push_back(std::move(*c));
}

std::optional<ProbeKernel> read_kernel(FieldReader& f, const json& obj, const std::string& path) {
  ProbeKernel k;
  k.source = f.file();
  k.target = f.string(obj, "target", path + ".target").value_or("");
  k.label = f.string(obj, "label", path + ".label").value_or("");
  k.probe_status = f.string(obj, "probe_status", path + ".probe_status").value_or("");
  k.pct_gpu = f.number_lenient(obj, "pct_gpu", path + ".pct_gpu");
  k.total_calls = f.number_lenient(obj, "total_calls", path + ".total_calls");
  if (k.target.empty() && k.label.empty()) {
    f.error(path, "neither target nor label: cannot match it to a kernel");
    return std::nullopt;
  }
  read_cases(f, obj, path, k);
  return k;
}

}  // namespace

Loaded<ProbeSet> parse_probes(std::string_view text, const std::string& display_name,
                              const InputLimits& limits) {
  Loaded<ProbeSet> out;
  auto root = parse_json_object(text, display_name, limits.max_depth, out.errors, out.notes);
  if (!root) return out;
  FieldReader f(display_name, out.errors);
  ProbeSet set;
  if (const json* kernels = f.find(*root, "kernels")) {
    // merged per_shape_probe.json
    if (auto schema = f.string(*root, "schema", "schema");
        schema && *schema != "per-shape-probe-v1")
      out.notes.push_back(fmt::format("{}: schema '{}' (expected per-shape-probe-v1); read anyway",
                                      display_name, *schema));
    if (!kernels->is_array()) {
      f.error("kernels", "expected a list, got " + describe_type(*kernels));
    } else {
      for (std::size_t i = 0; i < kernels->size(); ++i) {
        const json& k = (*kernels)[i];
        const std::string path = fmt::format("kernels[{}]", i);
        if (!k.is_object()) {
          f.error(path, "expected an object, got " + describe_type(k));
          continue;
        }
        if (auto pk = read_kernel(f, k, path)) set.kernels.push_back(std::move(*pk));
      }
    }
  } else if (f.find(*root, "cases") || f.find(*root, "target")) {
    // one probe_<pid>_<target>.json
    if (auto pk = read_kernel(f, *root, "probe")) set.kernels.push_back(std::move(*pk));
  } else {
    out.errors.push_back(fmt::format(
        "{}: not a probe file: expected {{target, cases: [...]}} or {{schema, kernels: [...]}}",
        display_name));
    return out;
  }
  out.value = std::move(set);
  return out;
}

Loaded<ProbeSet> parse_workload(std::string_view text, const std::string& display_name,
                                const InputLimits& limits) {
  Loaded<ProbeSet> out;
  auto root = parse_json_object(text, display_name, limits.max_depth, out.errors, out.notes);
  if (!root) return out;
  FieldReader f(display_name, out.errors);
  if (auto schema = f.string(*root, "schema", "schema"); schema && *schema != "workload-v1")
    out.notes.push_back(
        fmt::format("{}: schema '{}' (expected workload-v1); read anyway", display_name, *schema));
  const json* kernels = f.array(*root, "kernels", "kernels");
  if (!kernels) {
    out.errors.push_back(
        fmt::format("{}: not a workload file: expected {{schema: \"workload-v1\", kernels: [...]}}",
                    display_name));
    return out;
  }
  ProbeSet set;
  for (std::size_t i = 0; i < kernels->size(); ++i) {
    const json& obj = (*kernels)[i];
    const std::string path = fmt::format("kernels[{}]", i);
    if (!obj.is_object()) {
      f.error(path, "expected an object, got " + describe_type(obj));
      continue;
    }
    ProbeKernel k;
    k.source = display_name;
    k.target = f.string(obj, "name", path + ".name").value_or("");
    k.label = f.string(obj, "short_name", path + ".short_name").value_or("");
    k.total_calls = f.number_lenient(obj, "calls", path + ".calls");
    if (k.target.empty()) {
      f.error(path + ".name", "missing: cannot match the kernel to a Top-N entry");
      continue;
    }
    const json* cases = f.array(obj, "cases", path + ".cases");
    if (!cases) continue;  // a kernel without shapes has nothing to fold
    for (std::size_t c = 0; c < cases->size(); ++c)
      if (auto pc = read_workload_case(f, (*cases)[c], fmt::format("{}.cases[{}]", path, c)))
        k.cases.push_back(std::move(*pc));
    set.kernels.push_back(std::move(k));
  }
  out.value = std::move(set);
  return out;
}

}  // namespace roofline::inputs
