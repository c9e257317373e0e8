// The bash completion script, rendered from the command-line tree. The script is data (one case
// arm per command or option) around a fixed walker of the words before the cursor.
#include <string_view>

#include <fmt/format.h>

#include "roofline/cli/cli_docs.hpp"
#include "roofline/cli/doc_text.hpp"
#include "roofline/cli/layer.hpp"

namespace roofline::cli {
namespace {

// The command's path as the script spells it: "" for roofline itself, "peaks show".
std::string key(const CommandDoc& c) {
  return join(c.path, " ");
}

void each_command(const CommandDoc& c, const auto& fn) {
  fn(c);
  for (const auto& s : c.subcommands) each_command(s, fn);
}

// The case pattern that matches "COMMAND OPTION" for every name of `o`.
std::string option_pattern(const CommandDoc& c, const OptionDoc& o) {
  std::vector<std::string> patterns;
  for (const auto& n : o.names) patterns.push_back(shell_quote(cat(key(c), " ", n)));
  return join(patterns, "|");
}

// The call that fills COMPREPLY with the values `o` takes; empty when there is nothing to offer.
std::string value_action(const OptionDoc& o) {
  switch (o.kind) {
    case ValueKind::choice:
      return cat("_roofline_reply_words ", shell_quote(join(o.choices, " ")), " \"$cur\"");
    case ValueKind::round:
      return "_roofline_reply_words \"$(_roofline_rounds \"$dir\")\" \"$cur\"";
    case ValueKind::dir:
      return "_roofline_reply_dirs \"$cur\"";
    case ValueKind::file:
    case ValueKind::path:
    case ValueKind::text:
      return "_roofline_reply_files \"$cur\"";
    case ValueKind::none:
    case ValueKind::number:
      break;
  }
  return {};
}

constexpr std::string_view k_helpers = R"sh(
# The round names under the folder $1 (default .): NAME of every folder $1/profile/round_NAME
# that is a valid round name (letters, digits, '_' and '-').
_roofline_rounds() {
  local dir=${1:-.} d name
  [[ $dir == "~"* ]] && dir=$HOME${dir:1}
  while IFS= read -r d; do
    [[ -d $d ]] || continue
    name=${d##*/round_}
    [[ $name =~ ^[A-Za-z0-9_-]+$ ]] && printf '%s\n' "$name"
  done < <(compgen -G "$dir/profile/round_*")
}

_roofline_reply_words() {
  mapfile -t COMPREPLY < <(compgen -W "$1" -- "$2")
}

_roofline_reply_files() {
  compopt -o filenames 2>/dev/null
  mapfile -t COMPREPLY < <(compgen -f -- "$1")
}

_roofline_reply_dirs() {
  compopt -o filenames 2>/dev/null
  mapfile -t COMPREPLY < <(compgen -d -- "$1")
}
)sh";

constexpr std::string_view k_main = R"sh(
_roofline() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev='' opt='' cmd='' dir=. w i
  (( COMP_CWORD > 0 )) && prev=${COMP_WORDS[COMP_CWORD-1]}
  COMPREPLY=()
  # The words before the cursor: subcommands, options with their values (bash splits
  # --opt=value into three words), and the command's --dir.
  for (( i = 1; i < COMP_CWORD; i++ )); do
    w=${COMP_WORDS[i]}
    if [[ $w == -* ]]; then
      if [[ ${COMP_WORDS[i+1]} == = ]]; then
        (( i++ ))
      elif ! _roofline_takes_value "$cmd" "$w"; then
        continue
      fi
      (( i + 1 < COMP_CWORD )) || break
      (( i++ ))
      _roofline_is_dir_option "$cmd" "$w" && dir=${COMP_WORDS[i]}
    elif [[ " $(_roofline_subcommands "$cmd") " == *" $w "* ]]; then
      cmd=${cmd:+$cmd }$w
    fi
  done
  # The option whose value is under the cursor, if any.
  if [[ $cur == = && $prev == -* ]]; then
    opt=$prev cur=''
  elif [[ $prev == = ]] && (( COMP_CWORD > 1 )); then
    opt=${COMP_WORDS[COMP_CWORD-2]}
  elif [[ $prev == -* ]] && _roofline_takes_value "$cmd" "$prev"; then
    opt=$prev
  fi
  if [[ -n $opt ]]; then
    _roofline_value "$cmd" "$opt"
  elif [[ $cur == -* ]]; then
    _roofline_reply_words "$(_roofline_options "$cmd")" "$cur"
  elif [[ -n $(_roofline_subcommands "$cmd") ]]; then
    _roofline_reply_words "$(_roofline_subcommands "$cmd")" "$cur"
  elif ! _roofline_positional "$cmd"; then
    _roofline_reply_words "$(_roofline_options "$cmd")" "$cur"
  fi
  return 0
}

complete -F _roofline roofline
)sh";

// _roofline_subcommands: the subcommands of each command that has some.
std::string subcommands_function(const CommandDoc& root) {
  std::string out =
      "\n# The subcommands of the command $1 (\"\" is roofline itself, then \"peaks\", ...).\n";
  out += "_roofline_subcommands() {\n  case $1 in\n";
  each_command(root, [&out](const CommandDoc& c) {
    if (c.subcommands.empty()) return;
    std::vector<std::string> names;
    for (const auto& s : c.subcommands) names.push_back(s.path.back());
    out += fmt::format("    {}) echo {} ;;\n", shell_quote(key(c)), shell_quote(join(names, " ")));
  });
  out += "  esac\n}\n";
  return out;
}

// _roofline_options: every option name of each command (with -h and --help below roofline).
std::string options_function(const CommandDoc& root) {
  std::string out = "\n# The options of the command $1.\n_roofline_options() {\n  case $1 in\n";
  each_command(root, [&out](const CommandDoc& c) {
    std::vector<std::string> names;
    if (!c.path.empty()) names = {"-h", "--help"};
    for (const auto& o : c.options) names.insert(names.end(), o.names.begin(), o.names.end());
    out += fmt::format("    {}) echo {} ;;\n", shell_quote(key(c)), shell_quote(join(names, " ")));
  });
  out += "  esac\n}\n";
  return out;
}

// _roofline_takes_value: succeeds for the options that take a value.
std::string takes_value_function(const CommandDoc& root) {
  std::string out =
      "\n# Whether option $2 of command $1 takes a value.\n_roofline_takes_value() {\n";
  out += "  case \"$1 $2\" in\n";
  std::vector<std::string> patterns;
  each_command(root, [&patterns](const CommandDoc& c) {
    for (const auto& o : c.options)
      if (o.kind != ValueKind::none) patterns.push_back(option_pattern(c, o));
  });
  out += fmt::format("    {}) return 0 ;;\n  esac\n  return 1\n}}\n",
                     patterns.empty() ? shell_quote("") : join(patterns, "|\\\n    "));
  return out;
}

// _roofline_is_dir_option: succeeds for the options that name the evaluation folder.
std::string is_dir_option_function(const CommandDoc& root) {
  std::string out =
      "\n# Whether option $2 of command $1 names the evaluation folder (for round names).\n";
  out += "_roofline_is_dir_option() {\n  case \"$1 $2\" in\n";
  std::vector<std::string> dir_patterns;
  each_command(root, [&dir_patterns](const CommandDoc& c) {
    if (const OptionDoc* d = c.dir_option()) dir_patterns.push_back(option_pattern(c, *d));
  });
  out += fmt::format("    {}) return 0 ;;\n  esac\n  return 1\n}}\n",
                     dir_patterns.empty() ? shell_quote("") : join(dir_patterns, "|"));
  return out;
}

// _roofline_value: the values each option offers.
std::string value_function(const CommandDoc& root) {
  std::string out =
      "\n# Fills COMPREPLY with the values of option $2 of command $1 ($cur, $dir: the "
      "caller's).\n";
  out += "_roofline_value() {\n  case \"$1 $2\" in\n";
  each_command(root, [&out](const CommandDoc& c) {
    for (const auto& o : c.options)
      if (const std::string action = value_action(o); !action.empty())
        out += fmt::format("    {}) {} ;;\n", option_pattern(c, o), action);
  });
  out += "  esac\n}\n";
  return out;
}

// _roofline_positional: the values of each command's first positional argument.
std::string positional_function(const CommandDoc& root) {
  std::string out =
      "\n# Fills COMPREPLY for a positional argument of command $1; fails when it has none.\n";
  out += "_roofline_positional() {\n  case $1 in\n";
  each_command(root, [&out](const CommandDoc& c) {
    if (c.positionals.empty()) return;
    const std::string action = value_action(c.positionals.front());
    out += fmt::format("    {}) {} ;;\n", shell_quote(key(c)), action.empty() ? ":" : action);
  });
  out += "    *) return 1 ;;\n  esac\n}\n";
  return out;
}

}  // namespace

std::string render_bash_completion(const CommandDoc& root) {
  std::string out =
      "# bash completion for roofline                             -*- shell-script -*-\n"
      "# Generated by `roofline --completion bash` from the command-line definitions; do not "
      "edit.\n";
  out += k_helpers;
  out += subcommands_function(root);
  out += options_function(root);
  out += takes_value_function(root);
  out += is_dir_option_function(root);
  out += value_function(root);
  out += positional_function(root);
  out += k_main;
  return out;
}

}  // namespace roofline::cli
