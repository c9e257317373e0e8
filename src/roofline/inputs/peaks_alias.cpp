// A part named as people write it -> the peaks sections that answer to it (docs/method.md §22.9).
#include "roofline/inputs/peaks_alias.hpp"

#include <algorithm>
#include <cctype>

namespace roofline::inputs {
namespace {

// Lower-case words of letters and digits, vendor words dropped.
std::vector<std::string> words(std::string_view s) {
  std::vector<std::string> out;
  std::string w;
  auto flush = [&] {
    if (!w.empty() && w != "amd" && w != "nvidia" && w != "instinct" && w != "geforce")
      out.push_back(w);
    w.clear();
  };
  for (char c : s) {
    if (std::isalnum(static_cast<unsigned char>(c)))
      w += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    else
      flush();
  }
  flush();
  return out;
}

std::string joined(const std::vector<std::string>& ws) {
  std::string out;
  for (const auto& w : ws) out += w;
  return out;
}

// `part` appears in `whole` in order, word for word (not necessarily adjacent).
bool in_order(const std::vector<std::string>& part, const std::vector<std::string>& whole) {
  std::size_t i = 0;
  for (const auto& w : whole)
    if (i < part.size() && w == part[i]) ++i;
  return i == part.size();
}

std::vector<std::vector<std::string>> section_words(const PeaksSection& s) {
  std::vector<std::vector<std::string>> out;
  for (const std::string& spelling : product_spellings(s)) out.push_back(words(spelling));
  return out;
}

template <class Better>
std::optional<double> pick(const std::vector<const PeaksSection*>& parts,
                           std::optional<double> PeaksSection::*field, Better better) {
  std::optional<double> out;
  for (const PeaksSection* s : parts) {
    if (!(s->*field)) return std::nullopt;
    if (!out || better(*(s->*field), *out)) out = s->*field;
  }
  return out;
}

std::map<DtypeKey, double> lower_flops(const std::vector<const std::map<DtypeKey, double>*>& maps) {
  std::map<DtypeKey, double> out;
  if (maps.empty()) return out;
  for (const auto& [key, value] : *maps.front()) {
    double low = value;
    bool shared = true;
    for (const auto* m : maps) {
      auto it = m->find(key);
      if (it == m->end()) {
        shared = false;
        break;
      }
      low = std::min(low, it->second);
    }
    if (shared) out[key] = low;
  }
  return out;
}

std::string shown(const PeaksSection& s) {
  return !s.name.empty() ? s.name : s.product.empty() ? s.gfx : s.product;
}

}  // namespace

std::vector<std::string> product_spellings(const PeaksSection& s) {
  std::vector<std::string> out;
  auto add = [&](const std::string& spelling) {
    if (spelling.empty()) return;
    const std::string key = joined(words(spelling));
    for (const auto& o : out)
      if (joined(words(o)) == key) return;
    out.push_back(spelling);
  };
  add(s.product);
  add(s.name);
  for (const auto& n : s.device_names) add(n);
  return out;
}

ProductMatch match_product(const PeaksTable& table, std::string_view spelling) {
  ProductMatch out;
  const std::vector<std::string> given = words(spelling);
  if (given.empty()) return out;
  const std::string key = joined(given);
  for (const PeaksSection& s : table.sections)
    for (const auto& ws : section_words(s))
      if (joined(ws) == key) {
        out.sections.push_back(&s);
        break;
      }
  out.exact = !out.sections.empty();
  if (out.exact) return out;
  for (const PeaksSection& s : table.sections)
    for (const auto& ws : section_words(s))
      if (in_order(given, ws)) {
        out.sections.push_back(&s);
        break;
      }
  return out;
}

PeaksSection lower_figures(const std::vector<const PeaksSection*>& parts,
                           const std::string& product) {
  PeaksSection out;
  if (parts.empty()) return out;
  out.gfx = parts.front()->gfx;
  out.product = product;
  const auto lower = [](double a, double b) { return a < b; };
  out.hbm_bw_bytes_s = pick(parts, &PeaksSection::hbm_bw_bytes_s, lower);
  out.l2_bytes = pick(parts, &PeaksSection::l2_bytes, lower);
  out.mall_bytes = pick(parts, &PeaksSection::mall_bytes, lower);
  // A CU count or memory size the parts do not share tells nothing apart: unknown.
  out.cu = parts.front()->cu;
  out.memory_gib = parts.front()->memory_gib;
  out.link = parts.front()->link;
  for (const PeaksSection* s : parts) {
    if (!s->link || !out.link || s->link->topology != out.link->topology)
      out.link.reset();
    else
      out.link = LinkPeak{out.link->topology, std::min(out.link->bytes_s, s->link->bytes_s),
                          std::min(out.link->links, s->link->links)};
    if (s->cu != parts.front()->cu) out.cu.reset();
    if (s->memory_gib != parts.front()->memory_gib) out.memory_gib.reset();
  }
  std::vector<const std::map<DtypeKey, double>*> flops, measured;
  bool all_measured = true;
  for (const PeaksSection* s : parts) {
    flops.push_back(&s->flops);
    if (s->measured)
      measured.push_back(&s->measured->flops);
    else
      all_measured = false;
  }
  out.flops = lower_flops(flops);
  if (all_measured) {
    MeasuredPeaks m;
    m.flops = lower_flops(measured);
    for (const PeaksSection* s : parts)
      m.source += (m.source.empty() ? "" : "; ") + s->measured->source;
    if (!m.flops.empty()) out.measured = std::move(m);
  }
  std::string names, sources;
  for (const PeaksSection* s : parts) {
    names += (names.empty() ? "" : " or ") + shown(*s);
    sources += (sources.empty() ? "" : "; ") + shown(*s) + ": " + s->source;
  }
  out.name = names + " (the lower figures)";
  out.source = "the figures " + names + " share, the lower where they differ: " + sources;
  out.line = parts.front()->line;
  return out;
}

}  // namespace roofline::inputs
