#pragma once
// A small SVG (XML) element writer. Every attribute value and text node goes through
// xml_escape, so any kernel name yields a well-formed document; numbers go through num, so the
// same inputs give the same bytes.

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace roofline::svg {

// Text made safe for XML 1.0 content and attribute values: `& < > " '` become entities; control
// characters other than tab and newline become a space; bytes that are not valid UTF-8, and the
// non-characters U+FFFE/U+FFFF, become U+FFFD. The result always parses.
std::string xml_escape(std::string_view text);

// A coordinate or length: fixed point with at most two decimals, no trailing zeros, never "-0",
// and 0 for a non-finite value (a NaN must not reach the document).
std::string num(double v);

// Cuts `text` to at most `max_chars` code points, ending in "…" when cut (0 = no limit).
std::string clip(std::string_view text, std::size_t max_chars);

// Number of UTF-8 code points (the width of the text in a monospace font, in em).
std::size_t code_points(std::string_view text);

using Attr = std::pair<std::string_view, std::string>;
using Attrs = std::vector<Attr>;

// Builds one SVG document, one element per line, indented by nesting depth. Tag and attribute
// names are the caller's literals; every value and every text node is escaped here.
class Writer {
 public:
  // Starts the document: XML declaration and the root <svg> with its viewBox.
  Writer(double width, double height, const Attrs& root_attrs = {});
  void open(std::string_view tag, const Attrs& attrs = {});  // <tag ...>, closed by close()
  void close();                                              // closes the innermost open element
  void leaf(std::string_view tag, const Attrs& attrs);       // <tag .../>
  void text(std::string_view tag, const Attrs& attrs, std::string_view content);  // escaped
  // Closes every open element, the root too, and returns the document.
  std::string finish();

 private:
  void start_tag(std::string_view tag, const Attrs& attrs);
  std::string out_;
  std::vector<std::string> open_;
};

}  // namespace roofline::svg
