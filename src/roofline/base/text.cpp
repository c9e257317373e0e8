#include "roofline/base/text.hpp"

#include "roofline/base/units.hpp"

namespace roofline {
namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r';
}

}  // namespace

std::string display_relative(const std::filesystem::path& p, const std::filesystem::path& base) {
  std::error_code ec;
  const std::filesystem::path rel = std::filesystem::relative(p, base, ec);
  if (!ec && !rel.empty() && rel.native().rfind("..", 0) != 0) return rel.generic_string();
  return p.generic_string();
}

std::vector<TableLine> table_lines(std::string_view text) {
  std::vector<TableLine> lines;
  int number = 0;
  for (std::size_t pos = 0; pos < text.size();) {
    std::size_t eol = text.find('\n', pos);
    if (eol == std::string_view::npos) eol = text.size();
    lines.push_back(TableLine{++number, text.substr(pos, eol - pos)});
    pos = eol + 1;
  }
  return lines;
}

std::string_view next_word(std::string_view line, std::size_t& at) {
  while (at < line.size() && is_space(line[at])) ++at;
  const std::size_t begin = at;
  while (at < line.size() && !is_space(line[at])) ++at;
  return line.substr(begin, at - begin);
}

std::string_view rest_of_line(std::string_view line, std::size_t at) {
  return trim_view(line.substr(at < line.size() ? at : line.size()));
}

}  // namespace roofline
