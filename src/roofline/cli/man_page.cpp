// The man page, rendered from the command-line tree (man(7) macros, plain roff escapes).
#include <cstdint>
#include <string_view>

#include <fmt/format.h>

#include "roofline/cli/cli_docs.hpp"
#include "roofline/cli/doc_text.hpp"

namespace roofline::cli {
namespace {

// Text for a roff line: backslashes and hyphens escaped (a hyphen in a command line must stay a
// minus when copied), every non-ASCII code point as \[uXXXX] (invalid UTF-8 as U+FFFD) except
// the ellipsis, written "...": groff's ASCII device (man in the C locale) has no glyph for it.
std::string esc(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      if (c == '\\') {
        out += "\\e";
      } else if (c == '-') {
        out += "\\-";
      } else if (c >= 0x20 && c != 0x7f) {
        out += static_cast<char>(c);
      } else {
        out += ' ';
      }
      ++i;
      continue;
    }
    const std::size_t len = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
    std::uint32_t cp = len == 4 ? c & 0x07u : len == 3 ? c & 0x0fu : c & 0x1fu;
    bool ok = len > 1 && i + len <= s.size();
    for (std::size_t k = 1; ok && k < len; ++k) {
      const auto cc = static_cast<unsigned char>(s[i + k]);
      ok = (cc & 0xc0u) == 0x80u;
      cp = (cp << 6) | (cc & 0x3fu);
    }
    if (ok && cp == 0x2026u)
      out += "...";
    else
      out += fmt::format("\\[u{:04X}]", ok ? cp : 0xfffdu);
    i += ok ? len : 1;
  }
  return out;
}

// One line of running text: escaped, leading blanks dropped, and a leading '.' or '\'' kept from
// reading as a request.
std::string text_line(std::string_view line) {
  const std::size_t first = line.find_first_not_of(' ');
  if (first == std::string_view::npos) return {};
  std::string out = esc(line.substr(first));
  if (out.front() == '.' || out.front() == '\'') out.insert(0, "\\&");
  out += "\n";
  return out;
}

// Multi-line text as declared: its lines are filled into paragraphs, a blank line starts a new
// one (`para`), and lines indented by two or more spaces are kept as they are (examples).
std::string block(const std::string& text, const char* para) {
  std::string out;
  bool literal = false;
  bool pending_break = false;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string_view line(text.data() + start, end - start);
    start = end + 1;
    if (line.find_first_not_of(' ') == std::string_view::npos) {
      pending_break = !out.empty();
      continue;
    }
    const bool indented = line.rfind("  ", 0) == 0;
    if (literal && (!indented || pending_break)) {
      out += ".fi\n.RE\n";
      literal = false;
    }
    if (pending_break) out += fmt::format("{}\n", para);
    pending_break = false;
    if (indented && !literal) {
      out += ".RS 4\n.nf\n";
      literal = true;
    }
    out += text_line(line);
  }
  if (literal) out += ".fi\n.RE\n";
  return out;
}

std::string bold(std::string_view s) {
  return cat("\\fB", esc(s), "\\fR");
}
std::string italic(std::string_view s) {
  return cat("\\fI", esc(s), "\\fR");
}

// "-r, --round NAME" with the names bold and the value italic.
std::string option_tag(const OptionDoc& o) {
  std::vector<std::string> names;
  for (const auto& n : o.names) names.push_back(bold(n));
  std::string out = join(names, ", ");
  if (!o.metavar.empty()) out += cat(" ", italic(o.metavar));
  return out;
}

std::string positional_tag(const OptionDoc& p) {
  std::string out = italic(p.positional);
  if (p.repeatable) out += "\\&...";
  return p.required ? out : cat("[", out, "]");
}

// The facts CLI11 checks or fills in, after the description.
std::string option_facts(const OptionDoc& o) {
  std::vector<std::string> facts;
  if (o.required) facts.emplace_back("required");
  if (o.repeatable) facts.emplace_back(o.positional.empty() ? "repeatable" : "one or more");
  if (!o.choices.empty()) {
    std::vector<std::string> list;
    for (const auto& c : o.choices) list.push_back(bold(c));
    facts.push_back(cat("one of ", join(list, ", ")));
  }
  if (!o.constraint.empty()) facts.push_back(cat("value: ", esc(o.constraint)));
  if (!o.default_value.empty()) facts.push_back(cat("default: ", bold(o.default_value)));
  if (facts.empty()) return {};
  facts.front()[0] = static_cast<char>(facts.front()[0] - 'a' + 'A');
  return cat(".IP\n", join(facts, "; "), "\n");
}

std::string option_item(const std::string& tag, const OptionDoc& o) {
  return cat(".TP\n", tag, "\n", block(o.description, ".IP"), option_facts(o));
}

std::string synopsis_line(const CommandDoc& c) {
  std::string out = bold(c.full_name());
  if (!c.subcommands.empty()) {
    std::vector<std::string> names;
    for (const auto& s : c.subcommands) names.push_back(bold(s.path.back()));
    const std::string list = join(names, "|");
    out += c.requires_subcommand ? cat(" ", list) : cat(" [", list, "]");
  }
  // A required option by its long name, e.g. --bytes NUMBER, never broken across lines.
  for (const auto& o : c.options)
    if (o.required) out += cat(" ", bold(o.names.back()), "\\ ", italic(o.metavar));
  if (!c.options.empty()) out += cat(" [", italic("options"), "]");
  for (const auto& p : c.positionals) out += cat(" ", positional_tag(p));
  out += "\n";
  return out;
}

void render_command(const CommandDoc& c, std::string& out) {
  out += cat(".SS ", esc(c.full_name()), "\n", synopsis_line(c));
  out += cat(".PP\n", block(c.description, ".PP"));
  for (const auto& p : c.positionals) out += option_item(positional_tag(p), p);
  for (const auto& o : c.options) out += option_item(option_tag(o), o);
  if (!c.footer.empty()) out += cat(".PP\n", block(c.footer, ".PP"));
  for (const auto& s : c.subcommands) render_command(s, out);
}

std::string item_list(const std::vector<DocItem>& items) {
  std::string out;
  for (const auto& i : items) out += cat(".TP\n", bold(i.term), "\n", block(i.text, ".IP"));
  return out;
}

}  // namespace

std::string render_man_page(const CommandDoc& root, const ProgramDocs& docs) {
  std::string out =
      ".\\\" Generated by `roofline --help-man` from the command-line definitions; do not edit.\n";
  out += fmt::format(".TH ROOFLINE 1 \"\" \"roofline {}\" \"User Commands\"\n", ROOFLINE_VERSION);
  out += ".nh\n.ad l\n";
  out += cat(".SH NAME\nroofline \\- ", esc(docs.summary), "\n");

  out += ".SH SYNOPSIS\n";
  out += cat(bold("roofline"), " [", bold("-h"), "|", bold("-V"), "]\n");
  std::vector<const CommandDoc*> leaves;
  auto collect = [&leaves](const CommandDoc& c, auto&& self) -> void {
    if (c.subcommands.empty()) leaves.push_back(&c);
    for (const auto& s : c.subcommands) self(s, self);
  };
  for (const auto& s : root.subcommands) collect(s, collect);
  for (const auto* c : leaves) out += cat(".br\n", synopsis_line(*c));

  out += cat(".SH DESCRIPTION\n", block(root.description, ".PP"));
  out += cat(".PP\nEvery command also takes ", bold("-h"), ", ", bold("--help"),
             ": print its options and exit.\n");
  out += ".SH OPTIONS\n";
  for (const auto& o : root.options) out += option_item(option_tag(o), o);

  out += ".SH COMMANDS\n";
  for (const auto& s : root.subcommands) render_command(s, out);

  out += cat(".SH EXIT STATUS\n", item_list(docs.exit_statuses));
  out += cat(".SH ENVIRONMENT\n", item_list(docs.environment));
  out += cat(".SH FILES\n", item_list(docs.files));
  out += ".SH EXAMPLES\n";
  for (const auto& e : docs.examples)
    out += cat(".PP\n", block(e.text, ".PP"), ".RS 4\n.nf\n", bold(e.term), "\n.fi\n.RE\n");
  out += cat(".SH SEE ALSO\n", item_list(docs.see_also));
  return out;
}

}  // namespace roofline::cli
