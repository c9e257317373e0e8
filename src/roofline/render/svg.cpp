#include "roofline/render/svg.hpp"

#include <cmath>
#include <cstdint>

#include <fmt/format.h>

namespace roofline::svg {
namespace {

constexpr std::string_view k_replacement = "\xEF\xBF\xBD";  // U+FFFD

// Length of the valid UTF-8 sequence starting at s[i], 0 when invalid (overlong forms,
// surrogates and code points above U+10FFFF are invalid).
std::size_t utf8_length(std::string_view s, std::size_t i, std::uint32_t& cp) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
  const unsigned char c = b(0);
  std::size_t n = 0;
  if (c < 0x80) {
    cp = c;
    return 1;
  }
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2;
    cp = c & 0x1Fu;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    cp = c & 0x0Fu;
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    cp = c & 0x07u;
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    if ((b(k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b(k) & 0x3Fu);
  }
  const bool overlong = (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000);
  const bool surrogate = cp >= 0xD800 && cp <= 0xDFFF;
  if (overlong || surrogate || cp > 0x10FFFF) return 0;
  return n;
}

}  // namespace

std::string xml_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    std::uint32_t cp = 0;
    const std::size_t n = utf8_length(text, i, cp);
    if (n == 0) {
      out += k_replacement;
      ++i;
      continue;
    }
    if (n == 1) {
      const char c = text[i];
      switch (c) {
        case '&':
          out += "&amp;";
          break;
        case '<':
          out += "&lt;";
          break;
        case '>':
          out += "&gt;";
          break;
        case '"':
          out += "&quot;";
          break;
        case '\'':
          out += "&apos;";
          break;
        default:
          out += (cp < 0x20 && c != '\t' && c != '\n') || cp == 0x7F ? ' ' : c;
      }
    } else if (cp == 0xFFFE || cp == 0xFFFF) {
      out += k_replacement;
    } else {
      out.append(text.substr(i, n));
    }
    i += n;
  }
  return out;
}

std::string num(double v) {
  if (!std::isfinite(v)) return "0";
  std::string s = fmt::format("{:.2f}", v);
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  if (s == "-0") s = "0";
  return s;
}

std::size_t code_points(std::string_view text) {
  std::size_t n = 0;
  for (char c : text)
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++n;
  return n;
}

std::string clip(std::string_view text, std::size_t max_chars) {
  if (max_chars == 0 || code_points(text) <= max_chars) return std::string(text);
  std::size_t kept = 0, end = 0;
  for (; end < text.size(); ++end) {
    if ((static_cast<unsigned char>(text[end]) & 0xC0) != 0x80) {
      if (kept == max_chars - 1) break;
      ++kept;
    }
  }
  return std::string(text.substr(0, end)) + "…";
}

Writer::Writer(double width, double height, const Attrs& root_attrs) {
  out_ = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  Attrs attrs{{"xmlns", "http://www.w3.org/2000/svg"},
              {"width", num(width)},
              {"height", num(height)},
              {"viewBox", fmt::format("0 0 {} {}", num(width), num(height))}};
  attrs.insert(attrs.end(), root_attrs.begin(), root_attrs.end());
  open("svg", attrs);
}

void Writer::start_tag(std::string_view tag, const Attrs& attrs) {
  out_.append(2 * open_.size(), ' ');
  out_ += '<';
  out_ += tag;
  for (const auto& [name, value] : attrs) {
    out_ += ' ';
    out_ += name;
    out_ += "=\"";
    out_ += xml_escape(value);
    out_ += '"';
  }
}

void Writer::open(std::string_view tag, const Attrs& attrs) {
  start_tag(tag, attrs);
  out_ += ">\n";
  open_.emplace_back(tag);
}

void Writer::close() {
  if (open_.empty()) return;
  const std::string tag = std::move(open_.back());
  open_.pop_back();
  out_.append(2 * open_.size(), ' ');
  out_ += "</" + tag + ">\n";
}

void Writer::leaf(std::string_view tag, const Attrs& attrs) {
  start_tag(tag, attrs);
  out_ += "/>\n";
}

void Writer::text(std::string_view tag, const Attrs& attrs, std::string_view content) {
  start_tag(tag, attrs);
  out_ += '>';
  out_ += xml_escape(content);
  out_ += "</";
  out_ += tag;
  out_ += ">\n";
}

std::string Writer::finish() {
  while (!open_.empty()) close();
  return std::move(out_);
}

}  // namespace roofline::svg
