// The zsh completion script, rendered from the command-line tree: one function per command,
// each an _arguments call, and a dispatcher per command that has subcommands.
#include <algorithm>
#include <cctype>
#include <string_view>

#include <fmt/format.h>

#include "roofline/cli/cli_docs.hpp"
#include "roofline/cli/doc_text.hpp"

namespace roofline::cli {
namespace {

// The first line of a description, at most ~80 columns, as a one-line summary.
std::string brief(const std::string& description) {
  std::string line = description.substr(0, description.find('\n'));
  if (line.size() > 80) {
    const std::size_t cut = line.rfind(' ', 77);
    line = cat(line.substr(0, cut == std::string::npos ? 77 : cut), "...");
  }
  return line;
}

// Text inside an _arguments spec: its brackets and colons escaped.
std::string spec_text(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '\\' || c == '[' || c == ']' || c == ':') out += '\\';
    out += c;
  }
  return out;
}

std::string function_name(const CommandDoc& c) {
  std::string out = "_roofline";
  for (const auto& p : c.path) out += cat("_", p);
  for (char& ch : out)
    if (ch == '-') ch = '_';
  return out;
}

// The ":message:action" part of a spec for a value of kind `o.kind`.
std::string value_spec(const OptionDoc& o, const std::string& dir_names) {
  std::string message = o.positional.empty() ? o.metavar : o.positional;
  for (char& ch : message) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  std::string action;
  switch (o.kind) {
    case ValueKind::choice: {
      std::vector<std::string> choices;
      for (const auto& c : o.choices) choices.push_back(spec_text(c));
      action = cat("(", join(choices, " "), ")");
      break;
    }
    case ValueKind::round:
      message = "round";
      action = cat("_roofline_rounds ", dir_names);
      break;
    case ValueKind::dir:
      action = "_files -/";
      break;
    case ValueKind::file:
    case ValueKind::path:
    case ValueKind::text:
      action = "_files";
      break;
    case ValueKind::number:
    case ValueKind::none:
      action = " ";
      break;
  }
  return cat(":", spec_text(message), ":", action);
}

// One _arguments spec per option (words, already quoted; several names expand by braces).
std::string option_spec(const OptionDoc& o, const std::string& dir_names) {
  const bool exits = std::find(o.names.begin(), o.names.end(), "--help") != o.names.end() ||
                     std::find(o.names.begin(), o.names.end(), "--version") != o.names.end();
  std::string exclusions;
  if (exits) {
    exclusions = "(- *)";
  } else if (o.repeatable) {
    exclusions = "*";
  } else if (o.names.size() > 1) {
    exclusions = cat("(", join(o.names, " "), ")");
  }
  const bool value = o.kind != ValueKind::none;
  std::vector<std::string> names;
  for (const auto& n : o.names)
    names.push_back(cat(n, !value ? "" : n.rfind("--", 0) == 0 ? "=" : "+"));
  std::string rest = cat("[", spec_text(brief(o.description)), "]");
  if (value) rest += value_spec(o, dir_names);
  const std::string prefix = exclusions.empty() ? std::string() : shell_quote(exclusions);
  if (names.size() == 1) return cat(prefix, shell_quote(cat(names.front(), rest)));
  return cat(prefix, "{", join(names, ","), "}", shell_quote(rest));
}

std::string positional_spec(const OptionDoc& p) {
  const std::string prefix = p.repeatable ? "*" : p.required ? "" : ":";
  return shell_quote(cat(prefix, value_spec(p, "")));
}

void render_function(const CommandDoc& c, std::string& out) {
  const OptionDoc* dir = c.dir_option();
  const std::string dir_names = dir ? join(dir->names, " ") : std::string();
  std::vector<std::string> specs;
  if (!c.path.empty()) specs.push_back("'(- *)'{-h,--help}'[Print this help message and exit]'");
  for (const auto& o : c.options) specs.push_back(option_spec(o, dir_names));
  for (const auto& p : c.positionals) specs.push_back(positional_spec(p));

  out += fmt::format("\n# {}\n{}() {{\n", c.full_name(), function_name(c));
  if (c.subcommands.empty()) {
    out += "  _arguments -S :";
    out += cat(" \\\n    ", join(specs, " \\\n    "), "\n}\n");
  } else {
    out += "  local curcontext=$curcontext state state_descr line ret=1\n";
    out += "  typeset -A opt_args\n  _arguments -C -S :";
    out += cat(" \\\n    ", join(specs, " \\\n    "));
    out += " \\\n    '1:command:->command' \\\n    '*::argument:->argument' && ret=0\n";
    out += "  case $state in\n    command)\n      local -a commands=(\n";
    for (const auto& s : c.subcommands)
      out += cat("        ", shell_quote(cat(s.path.back(), ":", brief(s.description))), "\n");
    out += fmt::format("      )\n      _describe -t commands {} commands && ret=0\n      ;;\n",
                       shell_quote(cat(c.full_name(), " command")));
    out += cat("    argument)\n      curcontext=${curcontext%:*:*}:", function_name(c).substr(1),
               "-$line[1]:\n      case $line[1] in\n");
    for (const auto& s : c.subcommands)
      out += fmt::format("        {}) {} && ret=0 ;;\n", s.path.back(), function_name(s));
    out += "      esac\n      ;;\n  esac\n  return ret\n}\n";
  }
  for (const auto& s : c.subcommands) render_function(s, out);
}

constexpr std::string_view k_rounds = R"sh(
# Round names: NAME of every folder D/profile/round_NAME, with D the value of the first of the
# options named in the arguments that is on the line (the command's --dir), else '.'.
_roofline_rounds() {
  setopt localoptions extendedglob
  local dir=. name expl
  for name in "$@"; do
    [[ -n ${opt_args[$name]} ]] && dir=${(Q)opt_args[$name]}
  done
  [[ $dir == '~'* ]] && dir=$HOME${dir#'~'}
  local -a rounds
  rounds=( $dir/profile/round_*(N-/:t) )
  rounds=( ${(M)${rounds#round_}:#[A-Za-z0-9_-]##} )
  _wanted rounds expl 'round' compadd -a rounds
}
)sh";

}  // namespace

std::string render_zsh_completion(const CommandDoc& root) {
  std::string out =
      "#compdef roofline\n"
      "# zsh completion for roofline. Generated by `roofline --completion zsh` from the "
      "command-line\n# definitions; do not edit. Works autoloaded from $fpath (as _roofline) "
      "and sourced after compinit.\n";
  out += k_rounds;
  render_function(root, out);
  out +=
      "\nif [[ ${zsh_eval_context[-1]} == loadautofunc ]]; then\n"
      "  _roofline \"$@\"\n"
      "else\n"
      "  compdef _roofline roofline\n"
      "fi\n";
  return out;
}

}  // namespace roofline::cli
