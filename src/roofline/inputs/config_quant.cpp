// Weight formats from quantization_config (docs/method.md §8.6): bytes per weight element with
// block scales included, and the modules a quantized checkpoint leaves in the model dtype.
#include <cmath>

#include <fmt/format.h>

#include "roofline/base/units.hpp"

#include "roofline/inputs/config_view.hpp"

namespace roofline::detail {
namespace {

struct Format {
  double bytes = 0;
  DtypeKey key;  // fp8 | fp4 | int4 | int8 | ...
  double bits = 0;
  std::string rule;
};

// Integer formats with a group of g elements sharing an fp16 scale and a packed zero point of the
// same width as the weights (GPTQ/AWQ): bits/8 + 2/g + (bits/8)/g bytes per element.
Format integer_format(double bits, std::optional<double> group, const std::string& what) {
  Format f;
  f.bits = bits;
  f.key = bits <= 4 ? DtypeKey::int4 : DtypeKey::int8;
  const double elem = bits / 8.0;
  if (group && *group > 0) {
    f.bytes = elem + 2.0 / *group + elem / *group;
    f.rule = fmt::format(
        "{} bits {} group_size {} → {} + 2/{} (fp16 scale) + {}/{} (packed zero) = {:.6g} B "
        "weights",
        what, format_g(bits), format_g(*group), format_g(elem), format_g(*group), format_g(elem),
        format_g(*group), f.bytes);
  } else {
    f.bytes = elem;
    f.rule = fmt::format("{} bits {} (per-channel scales, negligible) → {} B weights", what,
                         format_g(bits), format_g(elem));
  }
  return f;
}

Format fp8_format(const json* block, const std::string& what) {
  Format f{1.0, DtypeKey::fp8, 8, ""};
  if (block && block->is_array() && block->size() == 2 && (*block)[0].is_number() &&
      (*block)[1].is_number() && (*block)[0].get<double>() > 0 && (*block)[1].get<double>() > 0) {
    const double a = (*block)[0].get<double>(), b = (*block)[1].get<double>();
    f.bytes = 1.0 + 4.0 / (a * b);
    f.rule = fmt::format(
        "{} with {}×{} block scales (fp32, weight_block_size) → 1 + 4/{} = {:.9g} B weights", what,
        format_g(a), format_g(b), format_g(a * b), f.bytes);
  } else {
    f.rule = fmt::format("{} per-tensor/per-channel → 1 B weights", what);
  }
  return f;
}

Format mxfp4() {
  return {0.5 + 1.0 / 32.0, DtypeKey::fp4, 4,
          "mxfp4 (e2m1 + one e8m0 scale per 32) → 0.5 + 1/32 = 0.53125 B weights"};
}
Format nvfp4() {
  return {0.5 + 1.0 / 16.0, DtypeKey::fp4, 4,
          "nvfp4 (e2m1 + one fp8 scale per 16) → 0.5 + 1/16 = 0.5625 B weights"};
}

// compressed-tensors: config_groups.<g>.weights.{num_bits, type, group_size, strategy}.
std::optional<Format> compressed_tensors(const json& q, const std::string& path) {
  auto groups = q.find("config_groups");
  if (groups == q.end() || !groups->is_object()) return std::nullopt;
  std::string fmt_name;
  if (auto it = q.find("format"); it != q.end() && it->is_string())
    fmt_name = lower_ascii(it->get<std::string>());
  for (const auto& [name, group] : groups->items()) {
    if (!group.is_object()) continue;
    auto w = group.find("weights");
    if (w == group.end() || !w->is_object()) continue;
    auto nb = w->find("num_bits");
    if (nb == w->end() || !nb->is_number()) continue;
    const double bits = nb->get<double>();
    if (!(bits > 0 && bits <= 16)) continue;
    const std::string where = fmt::format("{}.config_groups.{}.weights", path, name);
    std::string type = "int";
    if (auto t = w->find("type"); t != w->end() && t->is_string())
      type = lower_ascii(t->get<std::string>());
    std::optional<double> group_size;
    if (auto gs = w->find("group_size"); gs != w->end() && gs->is_number())
      group_size = gs->get<double>();
    if (type == "float" && bits == 4) {
      Format f =
          fmt_name.find("nvfp4") != std::string::npos || group_size == 16.0 ? nvfp4() : mxfp4();
      f.rule = where + ": " + f.rule;
      return f;
    }
    if (type == "float" && bits == 8) {
      auto bs = w->find("block_structure");
      return fp8_format(bs != w->end() ? &*bs : nullptr, where + " fp8");
    }
    return integer_format(bits, group_size, where + " num_bits");
  }
  return std::nullopt;
}

}  // namespace

void read_weight_format(FieldReader& f, const json& doc, const json* text, ModelConfig& c) {
  const json* q = nullptr;
  std::string path = "quantization_config";
  for (const json* scope : {&doc, text}) {
    if (!scope) continue;
    const std::string p = scope == text ? "text_config.quantization_config" : "quantization_config";
    if (const json* v = f.object(*scope, "quantization_config", p)) {
      q = v;
      path = p;
      break;
    }
  }
  if (!q) return;
  c.quant_method = lower_ascii(f.string(*q, "quant_method", path + ".quant_method").value_or(""));
  const std::string algo =
      lower_ascii(f.string(*q, "quant_algo", path + ".quant_algo").value_or(""));
  auto bits = f.number(*q, "bits", path + ".bits");
  if (!bits) bits = f.number(*q, "w_bit", path + ".w_bit");
  if (!bits) bits = f.number(*q, "weight_bits", path + ".weight_bits");
  auto group = f.number(*q, "group_size", path + ".group_size");
  if (!group) group = f.number(*q, "q_group_size", path + ".q_group_size");
  const std::string& m = c.quant_method;
  const std::string what = fmt::format("{}.quant_method {}", path, m);
  std::optional<Format> fmt_found;
  if (m.find("mxfp4") != std::string::npos || algo == "mxfp4") {
    fmt_found = mxfp4();
  } else if (m.find("nvfp4") != std::string::npos || algo == "nvfp4") {
    fmt_found = nvfp4();
  } else if (m.find("fp4") != std::string::npos) {
    fmt_found = Format{0.5, DtypeKey::fp4, 4, what + " → 0.5 B weights (scale layout unknown)"};
  } else if (m.find("fp8") != std::string::npos || algo == "fp8") {
    fmt_found = fp8_format(f.find(*q, "weight_block_size"), what);
  } else if (bits && *bits > 0 && *bits <= 8) {
    fmt_found = integer_format(*bits, group, what + " bits");
  } else if (auto ct = compressed_tensors(*q, path)) {
    fmt_found = ct;
  }
  if (fmt_found) {
    c.quant_weight_bytes = fmt_found->bytes;
    c.quant_weight_key = fmt_found->key;
    c.quant_bits = fmt_found->bits;
    c.quant_rule = fmt_found->rule.find(path) == std::string::npos
                       ? fmt::format("{}: {}", what, fmt_found->rule)
                       : fmt_found->rule;
  } else if (!m.empty()) {
    c.quant_rule =
        fmt::format("{}.quant_method '{}' does not say the weight width; not used", path, m);
  }
  for (const char* key : {"modules_to_not_convert", "ignore", "ignored_layers"}) {
    const std::string p = fmt::format("{}.{}", path, key);
    const json* list = f.array(*q, key, p);
    if (!list) continue;
    for (const json& v : *list)
      if (v.is_string()) c.unquantized_modules.push_back(v.get<std::string>());
    c.unquantized_key = p;
    break;
  }
}

}  // namespace roofline::detail
