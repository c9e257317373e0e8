// Probe shape files -> ProbeSet (docs/method.md §11.3 stage B), and the profiler's
// profile_workload.json into the same structs (docs/method.md §2.7).
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "roofline/inputs/json_input.hpp"
#include "roofline/inputs/probes.hpp"

namespace roofline {
namespace {

using detail::FieldReader;
using detail::json;

std::optional<ProbeCase> read_case(FieldReader& f, const json& c, const std::string& path) {
  if (!c.is_object()) {
    f.error(path, "expected a case object, got " + detail::describe_type(c));
    return std::nullopt;
  }
  ProbeCase pc;
  detail::read_operand_dims(f, c, "dims", path, pc.dims);
  detail::read_operand_dtypes(f, c, "dtypes", path, pc.dtypes);
  detail::read_operand_dtypes(f, c, "arg_labels", path, pc.arg_labels);
  if (pc.dims.empty()) {
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

// A workload-v1 case: the probe case's fields, with the mean latency in ms over all its calls and
// the regime the profiler attributed it to.
std::optional<ProbeCase> read_workload_case(FieldReader& f, const json& c,
                                            const std::string& path) {
  std::optional<ProbeCase> pc = read_case(f, c, path);
  if (!pc) return pc;
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
  auto root =
      detail::parse_json_object(text, display_name, limits.max_depth, out.errors, out.notes);
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
      f.error("kernels", "expected a list, got " + detail::describe_type(*kernels));
    } else {
      for (std::size_t i = 0; i < kernels->size(); ++i) {
        const json& k = (*kernels)[i];
        const std::string path = fmt::format("kernels[{}]", i);
        if (!k.is_object()) {
          f.error(path, "expected an object, got " + detail::describe_type(k));
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
  auto root =
      detail::parse_json_object(text, display_name, limits.max_depth, out.errors, out.notes);
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
      f.error(path, "expected an object, got " + detail::describe_type(obj));
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

}  // namespace roofline
