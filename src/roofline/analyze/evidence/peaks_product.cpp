// Step 2, resolve_peaks (docs/method.md §5.2, §22.2): which section of an arch describes the
// run's part, and the section to add when none does.
#include "roofline/analyze/evidence/peaks_product.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

#include <fmt/format.h>

#include "roofline/base/units.hpp"
#include "roofline/inputs/load.hpp"
#include "roofline/inputs/peaks.hpp"

namespace roofline::analyze {
namespace {

constexpr double k_gib = 1073741824.0;
// A trace's memory matches a section's `memory_gib` between these fractions of it: drivers
// reserve a little (an H100 80GB reports 79.2 GiB), never much more than the nominal size.
constexpr double k_memory_low = 0.85, k_memory_high = 1.05;

std::string shown(const PeaksSection& s) {
  if (!s.name.empty()) return s.name;
  return s.product.empty() ? std::string("the section without product") : s.product;
}

std::string list_rows(const std::vector<const PeaksSection*>& rows) {
  std::string out;
  for (const PeaksSection* s : rows)
    out += fmt::format("{}{} ({} CUs{})", out.empty() ? "" : ", ", shown(*s),
                       s->cu ? format_g(*s->cu) : "?",
                       s->memory_gib ? fmt::format(", {} GiB", format_g(*s->memory_gib)) : "");
  return out;
}

const PeaksSection* by_device_name(const std::vector<const PeaksSection*>& rows,
                                   const std::string& name) {
  for (const PeaksSection* s : rows)
    for (const std::string& n : s->device_names)
      if (n == name) return s;
  return nullptr;
}

// The rows whose CU count is the trace's and whose memory (where both are known) is nearest the
// trace's within [0.85, 1.05] of the section's figure.
std::vector<const PeaksSection*> rows_by_size(const std::vector<const PeaksSection*>& rows,
                                              double cu, std::optional<double> memory_gib) {
  std::vector<const PeaksSection*> same_cu;
  for (const PeaksSection* s : rows)
    if (s->cu && *s->cu == cu) same_cu.push_back(s);
  if (!memory_gib || same_cu.empty()) return same_cu;
  std::vector<const PeaksSection*> fit, unsized;
  double best = 0.0;
  for (const PeaksSection* s : same_cu) {
    if (!s->memory_gib || !(*s->memory_gib > 0)) {
      unsized.push_back(s);
      continue;
    }
    const double ratio = *memory_gib / *s->memory_gib;
    if (ratio < k_memory_low || ratio > k_memory_high) continue;
    const double off = std::fabs(std::log(ratio));
    if (fit.empty() || off < best - 1e-12) {
      fit.assign(1, s);
      best = off;
    } else if (std::fabs(off - best) <= 1e-12) {
      fit.push_back(s);
    }
  }
  return fit.empty() ? unsized : fit;
}

std::string size_text(const std::string& arch, double cu, std::optional<double> memory_gib) {
  return fmt::format("{} with {} CUs{}", arch, format_g(cu),
                     memory_gib ? fmt::format(" and {:.0f} GiB", *memory_gib) : "");
}

// The trace's CU count and memory pick the row (docs/method.md §22.2).
std::optional<std::string> product_by_size(const std::string& arch,
                                           const std::vector<const PeaksSection*>& rows,
                                           const DeviceProps& props, bool nvidia,
                                           std::vector<std::string>& notes) {
  std::string products;
  for (const PeaksSection* s : rows)
    products += (products.empty() ? "" : ", ") + (s->product.empty() ? "no product" : s->product);
  if (!props.multi_processor_count) {
    if (nvidia)
      notes.push_back(fmt::format(
          "{} is shared by {}: the product (device_name or device_target) decides the row, and "
          "this run names none; --product would settle it",
          arch, products));
    return std::string();  // AMD: the section without product, as before
  }
  const double cu = *props.multi_processor_count;
  const std::optional<double> mem = props.memory_bytes && *props.memory_bytes > 0
                                        ? std::optional<double>(*props.memory_bytes / k_gib)
                                        : std::nullopt;
  const auto fit = rows_by_size(rows, cu, mem);
  if (fit.empty()) {
    notes.push_back(fmt::format("{}: no {} row describes it (rows: {})", size_text(arch, cu, mem),
                                arch, list_rows(rows)));
    return std::nullopt;
  }
  if (fit.size() == 1) {
    if (!fit[0]->product.empty())
      notes.push_back(fmt::format("{} is the {}", size_text(arch, cu, mem), shown(*fit[0])));
    return fit[0]->product;
  }
  for (const PeaksSection* s : fit)
    if (s->product.empty()) {
      if (mem)
        notes.push_back(fmt::format(
            "{} cannot be told apart from the trace ({}): the section without product holds the "
            "figures they share, the lower where they differ",
            size_text(arch, cu, mem), list_rows(fit)));
      return std::string();
    }
  notes.push_back(fmt::format(
      "{} cannot be told apart from the trace ({}), and no section without product holds their "
      "shared figures; --product (or device_target in the env report) would settle it",
      size_text(arch, cu, mem), list_rows(fit)));
  return std::nullopt;
}

// Client RDNA4: "gfx120" followed by digits only (gfx1200, gfx1201). gfx125x is CDNA5.
bool client_rdna4(const std::string& gfx) {
  if (gfx.rfind("gfx120", 0) != 0 || gfx.size() == 6) return false;
  for (std::size_t i = 6; i < gfx.size(); ++i)
    if (!std::isdigit(static_cast<unsigned char>(gfx[i]))) return false;
  return true;
}

// A YAML double-quoted scalar of `s` (quotes and backslashes escaped, control bytes dropped).
std::string yaml_quoted(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) continue;
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

}  // namespace

bool is_client_rdna4(const std::string& gfx) {
  return client_rdna4(gfx);
}

std::optional<std::string> product_for(const PeaksTable& table, const std::string& arch,
                                       const std::string& product_spelling,
                                       const std::string& device_name, const DeviceProps& props,
                                       std::vector<std::string>& notes) {
  const bool nvidia = is_nvidia_arch(arch);
  std::vector<const PeaksSection*> rows;
  for (const PeaksSection& s : table.sections)
    if (s.gfx == arch) rows.push_back(&s);
  // device_target first: a product key, or (NVIDIA) one of a row's device names.
  const std::string target = canonical_product(
      product_spelling, nvidia ? std::vector<std::string>{} : known_products(table));
  if (!target.empty()) {
    for (const PeaksSection* s : rows)
      if (s->product == target) return target;
    if (const PeaksSection* s = by_device_name(rows, target)) {
      notes.push_back(fmt::format("device_target '{}' is a device name of product {}",
                                  product_spelling, s->product));
      return s->product;
    }
    return target;
  }
  if (rows.empty()) return std::string();
  // Then the device name: a spelling a row lists (matched exactly), or (AMD) a product key in it.
  const std::string name = lower_ascii(trim_view(device_name));
  if (!name.empty()) {
    if (const PeaksSection* s = by_device_name(rows, name)) {
      notes.push_back(fmt::format("device_name '{}' is product {}", device_name, s->product));
      return s->product;
    }
    if (nvidia) {
      std::string spellings;
      for (const PeaksSection* s : rows) {
        std::string names;
        for (const std::string& n : s->device_names)
          names += (names.empty() ? "'" : ", '") + n + "'";
        if (!names.empty())
          spellings += fmt::format("{}{}: {}", spellings.empty() ? "" : "; ",
                                   s->product.empty() ? "no product" : s->product, names);
      }
      notes.push_back(fmt::format(
          "device_name '{}' is not a spelling any {} section lists ({}): no near matches",
          device_name, arch, spellings.empty() ? "none" : spellings));
      return name;
    }
    const std::string named = canonical_product(name, known_products(table));
    for (const PeaksSection* s : rows)
      if (!s->product.empty() && s->product == named) {
        notes.push_back(fmt::format("device '{}' is product {}", device_name, named));
        return named;
      }
  }
  // Client RDNA4 numbers exist only for a product the run names (docs/method.md §5.3).
  if (client_rdna4(arch)) return std::string();
  return product_by_size(arch, rows, props, nvidia, notes);
}

std::string section_to_add(const std::string& arch, const std::string& device_name,
                           const DeviceProps& props) {
  const std::string name = trim(device_name);
  std::string product = lower_ascii(name);
  for (const char* vendor : {"nvidia ", "amd "})
    if (product.rfind(vendor, 0) == 0) product = product.substr(std::string_view(vendor).size());
  const bool nvidia = is_nvidia_arch(arch);
  std::string out = fmt::format("## {} (added by hand)\n\n```yaml\n", name.empty() ? arch : name);
  out += fmt::format("{}: {}\n", nvidia ? "arch" : "gfx", arch);
  if (!name.empty()) {
    out += fmt::format("product: {}\n", yaml_quoted(product));
    out += fmt::format("name: {}\n", yaml_quoted(name));
    out += fmt::format("device_names: [{}]\n", yaml_quoted(name));
  }
  if (props.multi_processor_count)
    out += fmt::format("cu: {}                # {}\n", format_g(*props.multi_processor_count),
                       nvidia ? "SMs, from the trace" : "CUs, from the trace");
  if (props.memory_bytes && *props.memory_bytes > 0)
    out += fmt::format("memory_gib: {:.1f}      # from the trace\n", *props.memory_bytes / k_gib);
  out +=
      "hbm_bw_bytes_s: FILL    # peak DRAM bandwidth in bytes/s, from the datasheet\n"
      "flops:                  # dense (not sparse) matrix FLOP/s per dtype the part has\n"
      "  fp32: FILL\n"
      "  bf16: FILL            # bf16 and fp16 run at one rate\n"
      "  fp16: FILL\n"
      "  fp8: FILL             # drop a dtype the part lacks (a missing dtype is unknown)\n"
      "source: \"FILL: the datasheet or vendor page the figures come from\"\n"
      "```\n";
  return out;
}

}  // namespace roofline::analyze
