// peaks.md -> PeaksTable (docs/method.md §2.6): one fenced ```yaml block per calibrated part.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "roofline/inputs/dtype.hpp"
#include "roofline/inputs/json_input.hpp"
#include "roofline/inputs/layer.hpp"
#include "roofline/inputs/peaks.hpp"

namespace roofline::inputs {
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

// A text key (`name:`, `source:`): trimmed; "" when absent.
std::string yaml_text(const YAML::Node& node, const std::string& where,
                      std::vector<std::string>& errors) {
  if (!node || node.IsNull()) return {};
  if (!node.IsScalar()) {
    errors.push_back(fmt::format("{}: expected text", where));
    return {};
  }
  return trim(node.Scalar());
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

// `flops: {dtype: FLOP/s, ...}` at `where` ("peaks.md:40 (gfx950): flops"); dtype keys canonical.
std::map<DtypeKey, double> read_flops(const YAML::Node& node, const std::string& where,
                                      std::vector<std::string>& errors) {
  std::map<DtypeKey, double> out;
  if (!node || node.IsNull()) return out;
  if (!node.IsMap()) {
    errors.push_back(fmt::format("{}: expected a mapping of dtype: FLOP/s", where));
    return out;
  }
  for (const auto& kv : node) {
    std::string key = kv.first.IsScalar() ? kv.first.Scalar() : std::string("?");
    auto dt = parse_dtype(key);
    if (!dt || !dt->has_peak_key) {
      errors.push_back(fmt::format("{}.{}: not a known dtype key", where, key));
      continue;
    }
    if (auto v = yaml_number(kv.second, fmt::format("{}.{}", where, key), errors))
      out[dt->key] = *v;
  }
  return out;
}

// `measured: {hbm_bw_bytes_s, flops, source}` (docs/method.md §5.7): any subset of the axes. A
// key outside the three is named (a misspelt axis would otherwise vanish); check_peaks says what
// the figures lack.
// `first_line` is the file line of the block's first yaml line: problems name the file line of
// the key they are about.
std::optional<MeasuredPeaks> read_measured(const YAML::Node& node, const std::string& section,
                                           int first_line, std::vector<std::string>& errors) {
  // "peaks.md:40 (gfx950), line 52: measured.KEY"
  const auto at = [&](const YAML::Node& n, const std::string& key) {
    const std::string line = n && !n.Mark().is_null()
                                 ? fmt::format(", line {}", first_line + n.Mark().line)
                                 : std::string();
    return fmt::format("{}{}: measured{}", section, line, key.empty() ? "" : "." + key);
  };
  if (!node.IsMap()) {
    errors.push_back(
        fmt::format("{}: expected a mapping {{hbm_bw_bytes_s, flops, source}}", at(node, "")));
    return std::nullopt;
  }
  MeasuredPeaks m;
  for (const auto& kv : node) {
    const std::string key = kv.first.IsScalar() ? kv.first.Scalar() : std::string("?");
    if (key != "hbm_bw_bytes_s" && key != "flops" && key != "source")
      errors.push_back(fmt::format(
          "{}: not a measured key (hbm_bw_bytes_s, flops, source); ignored", at(kv.first, key)));
  }
  m.hbm_bw_bytes_s =
      yaml_number(node["hbm_bw_bytes_s"], at(node["hbm_bw_bytes_s"], "hbm_bw_bytes_s"), errors);
  m.flops = read_flops(node["flops"], at(node["flops"], "flops"), errors);
  if (YAML::Node src = node["source"]; src && !src.IsNull()) {
    if (src.IsScalar())
      m.source = trim(src.Scalar());
    else
      errors.push_back(fmt::format("{}: expected text", at(src, "source")));
  }
  return m;
}

// The block's YAML: nullopt (with an error) when it nests deeper than `max_depth`, is not YAML
// or is not a mapping.
std::optional<YAML::Node> block_yaml(const Block& block, const std::string& where, int max_depth,
                                     std::vector<std::string>& errors) {
  if (int depth = flow_depth(block.text, max_depth); depth > max_depth) {
    errors.push_back(fmt::format(
        "{}: yaml block nested deeper than {} levels (nesting limit; analyze --max-json-depth); "
        "skipped",
        where, max_depth));
    return std::nullopt;
  }
  YAML::Node node;
  try {
    node = YAML::Load(block.text);
  } catch (const YAML::Exception& e) {
    errors.push_back(
        fmt::format("{}: invalid YAML at block line {}: {}", where, e.mark.line + 1, e.msg));
    return std::nullopt;
  }
  if (!node.IsMap()) {
    errors.push_back(fmt::format("{}: yaml block is not a mapping; skipped", where));
    return std::nullopt;
  }
  return node;
}

// The part a section is about: its `gfx`, or for NVIDIA parts its `arch:` (sm_90); nullopt (with
// an error) when it names neither or the two say different things.
std::optional<std::string> section_part(YAML::Node& node, const std::string& where,
                                        std::vector<std::string>& errors) {
  std::string gfx;
  if (node["gfx"] && node["gfx"].IsScalar()) gfx = normalize_gfx(node["gfx"].Scalar());
  if (node["arch"] && node["arch"].IsScalar()) {
    const std::string arch = normalize_arch(node["arch"].Scalar());
    if (!gfx.empty() && !arch.empty() && arch != gfx) {
      errors.push_back(
          fmt::format("{}: gfx '{}' and arch '{}' disagree; skipped", where, gfx, arch));
      return std::nullopt;
    }
    if (gfx.empty()) gfx = arch;
  }
  if (gfx.empty()) {
    errors.push_back(fmt::format("{}: section has no gfx (or arch); skipped", where));
    return std::nullopt;
  }
  return gfx;
}

// The section of a block; nullopt (with an error) when it names no part. `where` gains the
// part's name once it is known. Throws YAML::Exception on a malformed value.
std::optional<PeaksSection> read_section(YAML::Node& node, const Block& block, std::string& where,
                                         std::vector<std::string>& errors) {
  PeaksSection s;
  s.line = block.line;
  const std::optional<std::string> part = section_part(node, where, errors);
  if (!part) return std::nullopt;
  s.gfx = *part;
  where = fmt::format("{} ({})", where, s.gfx);
  if (node["product"] && node["product"].IsScalar())
    s.product = canonical_product(node["product"].Scalar(), {});
  read_device_names(node["device_names"], where, s, errors);
  s.name = yaml_text(node["name"], where + ": name", errors);
  s.source = yaml_text(node["source"], where + ": source", errors);
  s.cu = yaml_number(node["cu"], where + ": cu", errors);
  s.memory_gib = yaml_number(node["memory_gib"], where + ": memory_gib", errors);
  s.hbm_bw_bytes_s = yaml_number(node["hbm_bw_bytes_s"], where + ": hbm_bw_bytes_s", errors);
  if (!s.hbm_bw_bytes_s) errors.push_back(fmt::format("{}: hbm_bw_bytes_s missing", where));
  s.l2_bytes = yaml_number(node["l2_bytes"], where + ": l2_bytes", errors);
  s.mall_bytes = yaml_number(node["mall_bytes"], where + ": mall_bytes", errors);
  if (YAML::Node link = node["link"]; link && !link.IsNull())
    s.link = read_link(link, where, errors);
  s.flops = read_flops(node["flops"], where + ": flops", errors);
  if (YAML::Node measured = node["measured"]; measured && !measured.IsNull())
    s.measured = read_measured(measured, where, block.line + 1, errors);
  return s;
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
    std::optional<YAML::Node> node = block_yaml(block, where, limits.max_depth, out.errors);
    if (!node) continue;
    try {
      if (auto s = read_section(*node, block, where, out.errors))
        table.sections.push_back(std::move(*s));
    } catch (const YAML::Exception& e) {
      out.errors.push_back(fmt::format("{}: {}", where, e.msg));
    }
  }
  out.value = std::move(table);
  return out;
}

}  // namespace roofline::inputs
