// env_report.json -> EnvReport (docs/method.md §2.4).
#include <cctype>
#include <cmath>

#include <fmt/format.h>

#include "roofline/inputs/json_input.hpp"
#include "roofline/inputs/load.hpp"

namespace roofline {
namespace {

using detail::FieldReader;
using detail::json;

// A product identity may be a plain string or a structured object.
std::string read_product(FieldReader& f, const json& doc) {
  for (const char* key : {"device_target", "device_sku", "target", "sku"}) {
    const json* v = f.find(doc, key);
    if (!v || v->is_null()) continue;
    if (v->is_string()) return v->get<std::string>();
    if (v->is_object()) {
      for (const char* inner :
           {"product", "sku", "device_sku", "name", "marketing_name", "target"}) {
        const json* p = f.find(*v, inner);
        if (p && p->is_string() && !p->get_ref<const std::string&>().empty())
          return p->get<std::string>();
      }
      continue;  // an object without a product spelling: no constraint from this key
    }
    f.error(key, "expected a product name or object, got " + detail::describe_type(*v));
  }
  return {};
}

// docs/method.md §2.4: an NVIDIA run names its arch by `gpu_arch` or `compute_capability` and its
// product by `device_name`. A gfx-looking gpu_arch (some AMD reports) is taken as the gfx.
void read_nvidia_identity(FieldReader& f, const json& doc, EnvReport& env) {
  env.device_name = trim(f.string(doc, "device_name", "device_name").value_or(""));
  const std::string gpu_arch = f.string(doc, "gpu_arch", "gpu_arch").value_or("");
  if (env.gfx.empty() && lower_ascii(trim(gpu_arch)).rfind("gfx", 0) == 0) {
    env.gfx_raw = gpu_arch;
    env.gfx = normalize_gfx(gpu_arch);
  }
  if (!env.gfx.empty()) {
    env.arch = env.gfx;
    return;
  }
  if (!trim(gpu_arch).empty()) {
    env.arch = normalize_arch(gpu_arch);
    return;
  }
  const json* cc = f.find(doc, "compute_capability");
  if (!cc || cc->is_null()) return;
  if (cc->is_string())
    env.arch = arch_from_compute_capability(cc->get<std::string>());
  else if (cc->is_number() && std::isfinite(cc->get<double>()) && cc->get<double>() > 0)
    env.arch = arch_from_compute_capability(fmt::format("{:.1f}", cc->get<double>()));
  if (env.arch.empty())
    f.error("compute_capability", "expected a compute capability such as \"9.0\", got " +
                                      (cc->is_string() ? fmt::format("'{}'", cc->get<std::string>())
                                                       : detail::describe_type(*cc)));
}

bool is_word_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0;
}

}  // namespace

std::string normalize_gfx(std::string_view gfx) {
  std::string s = lower_ascii(trim(gfx));
  if (auto colon = s.find(':'); colon != std::string::npos) s.erase(colon);
  return trim(s);
}

std::string normalize_arch(std::string_view arch) {
  std::string s = lower_ascii(trim(arch));
  std::string_view rest = s;
  if (rest.rfind("sm", 0) == 0)
    rest.remove_prefix(2);
  else if (rest.rfind("compute", 0) == 0)
    rest.remove_prefix(7);
  else
    return normalize_gfx(s);
  if (!rest.empty() && rest.front() == '_') rest.remove_prefix(1);
  std::size_t digits = 0;
  while (digits < rest.size() && std::isdigit(static_cast<unsigned char>(rest[digits]))) ++digits;
  // An arch-specific suffix (sm_90a, sm_100f) names the same part.
  const bool suffix_ok =
      rest.size() == digits ||
      (rest.size() == digits + 1 && std::isalpha(static_cast<unsigned char>(rest.back())));
  if (digits == 0 || digits > 4 || !suffix_ok) return s;
  return "sm_" + std::string(rest.substr(0, digits));
}

std::string arch_from_compute_capability(std::string_view cc) {
  const std::string s = trim(cc);
  const std::size_t dot = s.find('.');
  if (dot == std::string::npos || dot == 0 || dot + 2 != s.size() || dot > 2) return {};
  for (std::size_t i = 0; i < s.size(); ++i)
    if (i != dot && !std::isdigit(static_cast<unsigned char>(s[i]))) return {};
  return "sm_" + s.substr(0, dot) + s.substr(dot + 1);
}

bool is_nvidia_arch(std::string_view arch) {
  if (arch.size() < 4 || arch.substr(0, 3) != "sm_") return false;
  for (char c : arch.substr(3))
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

std::string canonical_product(std::string_view spelling,
                              const std::vector<std::string>& known_products) {
  std::string s = lower_ascii(trim(spelling));
  if (s.empty() || s == "unknown" || s == "none" || s == "n/a" || s == "null" || s == "-")
    return {};
  for (const std::string& known : known_products) {
    if (known.empty()) continue;
    for (std::size_t pos = s.find(known); pos != std::string::npos; pos = s.find(known, pos + 1)) {
      bool left_ok = pos == 0 || !is_word_char(s[pos - 1]);
      std::size_t end = pos + known.size();
      bool right_ok = end == s.size() || !is_word_char(s[end]);
      if (left_ok && right_ok) return known;
    }
  }
  return s;
}

Loaded<EnvReport> parse_env_report(std::string_view text, const std::string& display_name,
                                   const InputLimits& limits) {
  Loaded<EnvReport> out;
  auto doc = detail::parse_json_object(text, display_name, limits.max_depth, out.errors, out.notes);
  if (!doc) return out;
  FieldReader f(display_name, out.errors);
  EnvReport env;
  env.gfx_raw = f.string(*doc, "gfx", "gfx").value_or("");
  if (env.gfx_raw.empty()) {
    // Some reports only carry the gfx inside a structured device_target.
    if (const json* dt = f.find(*doc, "device_target"); dt && dt->is_object())
      if (const json* g = f.find(*dt, "gfx"); g && g->is_string())
        env.gfx_raw = g->get<std::string>();
  }
  env.gfx = normalize_gfx(env.gfx_raw);
  read_nvidia_identity(f, *doc, env);
  if (env.arch.empty())
    out.errors.push_back(fmt::format(
        "{}: gfx: missing (and no gpu_arch or compute_capability); hardware peaks cannot be "
        "resolved",
        display_name));
  env.product_raw = read_product(f, *doc);
  env.product = canonical_product(env.product_raw, {});
  env.physical_cu_count = f.number_lenient(*doc, "physical_cu_count", "physical_cu_count");
  env.model_arch_class = f.string(*doc, "model_arch_class", "model_arch_class").value_or("");
  env.model_dtype = f.string(*doc, "model_dtype", "model_dtype").value_or("");
  if (const json* w = f.object(*doc, "workload", "workload")) {
    env.workload.isl = f.number_lenient(*w, "isl", "workload.isl");
    env.workload.osl = f.number_lenient(*w, "osl", "workload.osl");
    env.workload.conc = f.number_lenient(*w, "conc", "workload.conc");
    for (auto [value, name] :
         {std::pair{&env.workload.isl, "isl"}, std::pair{&env.workload.osl, "osl"},
          std::pair{&env.workload.conc, "conc"}})
      if (*value && **value < 0) {
        f.error(fmt::format("workload.{}", name),
                fmt::format("negative value {}; ignored", **value));
        value->reset();
      }
  }
  if (auto tp = f.number_lenient(*doc, "tp", "tp")) {
    if (*tp >= 1 && *tp <= 4096) {
      env.tp = *tp;
      env.tp_given = true;
    } else {
      f.error("tp", fmt::format("expected a tensor-parallel degree >= 1, got {}; using 1", *tp));
    }
  }
  env.kv_cache_dtype = f.string(*doc, "kv_cache_dtype", "kv_cache_dtype").value_or("");
  env.model = f.string(*doc, "model", "model").value_or("");
  if (env.model.empty()) env.model = f.string(*doc, "model_path", "model_path").value_or("");
  env.backend = f.string(*doc, "backend", "backend").value_or("");
  if (const json* props = f.object(*doc, "device_props", "device_props")) {
    auto& p = env.device_props;
    p.memory_clock_rate_khz =
        f.number_lenient(*props, "memory_clock_rate_khz", "device_props.memory_clock_rate_khz");
    p.memory_bus_width_bits =
        f.number_lenient(*props, "memory_bus_width_bits", "device_props.memory_bus_width_bits");
    p.multi_processor_count =
        f.number_lenient(*props, "multi_processor_count", "device_props.multi_processor_count");
    p.clock_rate_khz = f.number_lenient(*props, "clock_rate_khz", "device_props.clock_rate_khz");
  }
  out.value = std::move(env);
  return out;
}

}  // namespace roofline
