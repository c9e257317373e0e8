// peaks.md -> PeaksTable (docs/method.md §2.6): one fenced ```yaml block per calibrated part.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "core/json_input.hpp"
#include "roofline/dtype.hpp"
#include "roofline/peaks.hpp"

namespace roofline {
namespace {

struct Block {
  int line = 0;  // 1-based line of the opening fence
  std::string text;
};

std::vector<Block> yaml_blocks(std::string_view md) {
  std::vector<Block> blocks;
  std::istringstream in{std::string(md)};
  std::string line;
  int lineno = 0;
  bool inside = false;
  Block current;
  while (std::getline(in, line)) {
    ++lineno;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::string t = trim(line);
    if (!inside) {
      if (t.rfind("```", 0) == 0) {
        std::string lang = lower_ascii(trim(t.substr(3)));
        if (lang == "yaml" || lang == "yml") {
          inside = true;
          current = Block{lineno, {}};
        } else {
          // A fence of another language (or none): skip to its end.
          while (std::getline(in, line)) {
            ++lineno;
            if (trim(line).rfind("```", 0) == 0) break;
          }
        }
      }
      continue;
    }
    if (t.rfind("```", 0) == 0) {
      blocks.push_back(std::move(current));
      inside = false;
      continue;
    }
    current.text += line;
    current.text += '\n';
  }
  if (inside) blocks.push_back(std::move(current));  // unterminated fence: still read it
  return blocks;
}

// Flow-bracket nesting of a YAML block (block-style nesting is bounded by yaml-cpp's own depth
// guard). Over-counts brackets inside quoted text, which a peaks table never nests deeply.
// Stops counting once `limit` is exceeded.
int flow_depth(std::string_view text, int limit) {
  int depth = 0, max_depth = 0;
  for (char c : text) {
    if (c == '[' || c == '{') {
      max_depth = std::max(max_depth, ++depth);
      if (max_depth > limit) break;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return max_depth;
}

std::optional<double> yaml_number(const YAML::Node& node, const std::string& where,
                                  std::vector<std::string>& errors) {
  if (!node || node.IsNull()) return std::nullopt;
  if (!node.IsScalar()) {
    errors.push_back(fmt::format("{}: expected a number", where));
    return std::nullopt;
  }
  const std::string s = trim(node.Scalar());
  const char* first = s.data();
  if (!s.empty() && s[0] == '+') ++first;  // YAML allows an explicit plus sign
  double v = 0.0;
  auto [end, ec] = std::from_chars(first, s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size() || !std::isfinite(v) || v < 0) {
    errors.push_back(
        fmt::format("{}: expected a non-negative number, got '{}'", where, node.Scalar()));
    return std::nullopt;
  }
  return v;
}

// `device_names:` a list of spellings (or one), kept trimmed and lower-case.
void read_device_names(const YAML::Node& node, const std::string& where, PeaksSection& s,
                       std::vector<std::string>& errors) {
  if (!node || node.IsNull()) return;
  if (node.IsScalar()) {
    s.device_names.push_back(lower_ascii(trim(node.Scalar())));
    return;
  }
  if (!node.IsSequence()) {
    errors.push_back(fmt::format("{}: device_names: expected a list of device names", where));
    return;
  }
  for (const auto& item : node) {
    if (!item.IsScalar() || trim(item.Scalar()).empty()) {
      errors.push_back(fmt::format("{}: device_names: expected non-empty names", where));
      continue;
    }
    s.device_names.push_back(lower_ascii(trim(item.Scalar())));
  }
}

// `link: {topology, bytes_s, links}` (docs/method.md §10.7). Values are kept as read; check_peaks
// says what is wrong with them.
std::optional<LinkPeak> read_link(const YAML::Node& node, const std::string& where,
                                  std::vector<std::string>& errors) {
  if (!node.IsMap()) {
    errors.push_back(
        fmt::format("{}: link: expected a mapping {{topology, bytes_s, links}}", where));
    return std::nullopt;
  }
  LinkPeak l;
  if (node["topology"] && node["topology"].IsScalar())
    l.topology = lower_ascii(trim(node["topology"].Scalar()));
  l.bytes_s = yaml_number(node["bytes_s"], where + ": link.bytes_s", errors).value_or(0.0);
  l.links = yaml_number(node["links"], where + ": link.links", errors).value_or(0.0);
  return l;
}

}  // namespace

Loaded<PeaksTable> parse_peaks_md(std::string_view text, const std::string& display_name,
                                  const InputLimits& limits) {
  Loaded<PeaksTable> out;
  PeaksTable table;
  table.source_name = display_name;
  auto blocks = yaml_blocks(text);
  if (blocks.empty())
    out.errors.push_back(fmt::format("{}: no ```yaml blocks found", display_name));
  for (const Block& block : blocks) {
    std::string where = fmt::format("{}:{}", display_name, block.line);
    if (int depth = flow_depth(block.text, limits.max_depth); depth > limits.max_depth) {
      out.errors.push_back(fmt::format(
          "{}: yaml block nested deeper than {} levels (nesting limit; analyze --max-json-depth); "
          "skipped",
          where, limits.max_depth));
      continue;
    }
    YAML::Node node;
    try {
      node = YAML::Load(block.text);
    } catch (const YAML::Exception& e) {
      out.errors.push_back(
          fmt::format("{}: invalid YAML at block line {}: {}", where, e.mark.line + 1, e.msg));
      continue;
    }
    if (!node.IsMap()) {
      out.errors.push_back(fmt::format("{}: yaml block is not a mapping; skipped", where));
      continue;
    }
    try {
      PeaksSection s;
      s.line = block.line;
      if (node["gfx"] && node["gfx"].IsScalar()) s.gfx = normalize_gfx(node["gfx"].Scalar());
      // NVIDIA parts are named by `arch:` (sm_90); a section may not say two different things.
      if (node["arch"] && node["arch"].IsScalar()) {
        const std::string arch = normalize_arch(node["arch"].Scalar());
        if (!s.gfx.empty() && !arch.empty() && arch != s.gfx) {
          out.errors.push_back(
              fmt::format("{}: gfx '{}' and arch '{}' disagree; skipped", where, s.gfx, arch));
          continue;
        }
        if (s.gfx.empty()) s.gfx = arch;
      }
      if (s.gfx.empty()) {
        out.errors.push_back(fmt::format("{}: section has no gfx (or arch); skipped", where));
        continue;
      }
      where = fmt::format("{} ({})", where, s.gfx);
      if (node["product"] && node["product"].IsScalar())
        s.product = canonical_product(node["product"].Scalar(), {});
      read_device_names(node["device_names"], where, s, out.errors);
      s.cu = yaml_number(node["cu"], where + ": cu", out.errors);
      s.hbm_bw_bytes_s =
          yaml_number(node["hbm_bw_bytes_s"], where + ": hbm_bw_bytes_s", out.errors);
      if (!s.hbm_bw_bytes_s) out.errors.push_back(fmt::format("{}: hbm_bw_bytes_s missing", where));
      s.l2_bytes = yaml_number(node["l2_bytes"], where + ": l2_bytes", out.errors);
      s.mall_bytes = yaml_number(node["mall_bytes"], where + ": mall_bytes", out.errors);
      if (YAML::Node link = node["link"]; link && !link.IsNull())
        s.link = read_link(link, where, out.errors);
      if (YAML::Node flops = node["flops"]; flops && !flops.IsNull()) {
        if (!flops.IsMap()) {
          out.errors.push_back(
              fmt::format("{}: flops: expected a mapping of dtype: FLOP/s", where));
        } else {
          for (const auto& kv : flops) {
            std::string key = kv.first.IsScalar() ? kv.first.Scalar() : std::string("?");
            auto dt = parse_dtype(key);
            if (!dt || !dt->has_peak_key) {
              out.errors.push_back(fmt::format("{}: flops.{}: not a known dtype key", where, key));
              continue;
            }
            if (auto v =
                    yaml_number(kv.second, fmt::format("{}: flops.{}", where, key), out.errors))
              s.flops[dt->key] = *v;
          }
        }
      }
      table.sections.push_back(std::move(s));
    } catch (const YAML::Exception& e) {
      out.errors.push_back(fmt::format("{}: {}", where, e.msg));
    }
  }
  out.value = std::move(table);
  return out;
}

std::vector<std::string> check_peaks(const PeaksTable& table) {
  std::vector<std::string> problems;
  std::set<std::pair<std::string, std::string>> seen;
  std::map<std::pair<std::string, std::string>, std::string> names;  // (arch, name) -> product
  for (const PeaksSection& s : table.sections) {
    std::string where = fmt::format("{}:{} ({}{})", table.source_name, s.line, s.gfx,
                                    s.product.empty() ? "" : ", product " + s.product);
    if (!seen.insert({s.gfx, s.product}).second)
      problems.push_back(fmt::format("{}: duplicate section for ({}, {})", where, s.gfx,
                                     s.product.empty() ? "no product" : s.product));
    for (const std::string& name : s.device_names) {
      auto [it, inserted] = names.try_emplace({s.gfx, name}, s.product);
      if (!inserted && it->second != s.product)
        problems.push_back(fmt::format(
            "{}: device name '{}' is also listed for {}: a device_name must pick one section",
            where, name, it->second.empty() ? "the section without product" : it->second));
    }
    if (s.link) {
      const LinkPeak& l = *s.link;
      if (l.topology != "mesh" && l.topology != "switch")
        problems.push_back(
            fmt::format("{}: link.topology '{}': expected mesh or switch", where, l.topology));
      if (!(l.bytes_s > 0))
        problems.push_back(
            fmt::format("{}: link.bytes_s must be > 0 (per-direction bytes/s)", where));
      if (l.topology == "mesh" && !(l.links >= 1))
        problems.push_back(
            fmt::format("{}: link.links must be >= 1 for a mesh (links per GPU)", where));
    }
    auto bf16 = s.flops.find(DtypeKey::bf16), fp16 = s.flops.find(DtypeKey::fp16);
    if (bf16 != s.flops.end() && fp16 != s.flops.end() &&
        std::fabs(bf16->second - fp16->second) > 1e-9 * std::max(bf16->second, fp16->second))
      problems.push_back(fmt::format(
          "{}: bf16 {:g} != fp16 {:g}: matrix units run both at one rate, so one peak is "
          "mis-calibrated (compute axis not validated)",
          where, bf16->second, fp16->second));
  }
  return problems;
}

std::vector<std::string> known_products(const PeaksTable& table) {
  std::vector<std::string> out;
  for (const PeaksSection& s : table.sections)
    if (!s.product.empty()) out.push_back(s.product);
  return out;
}

}  // namespace roofline
