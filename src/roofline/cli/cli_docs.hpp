#pragma once
// The command-line tree as plain data, read from the CLI11 App that parses the command line, and
// what is generated from it: the man page and the bash and zsh completions. Because all three
// walk the same App, an option added to a subcommand appears in each without further edits.

#include <string>
#include <vector>

#include "roofline/cli/app_docs.hpp"

namespace CLI {
class App;
}

namespace roofline::cli {

// What an option's value is, as far as completion cares.
enum class ValueKind {
  none,    // a flag
  text,    // free text (file names are offered, as a shell does without a completion)
  number,  // nothing to offer
  file,    // an existing file
  dir,     // an existing folder
  path,    // an existing file or folder
  choice,  // one of `choices`
  round,   // a round name: a folder D/profile/round_<name> under the command's --dir
};

struct OptionDoc {
  std::vector<std::string> names;  // short names first, each with its dashes: "-r", "--round"
  std::string positional;          // the name of a positional argument; empty for an option
  std::string metavar;             // what the value is called (NAME, FILE, FLOAT); empty: a flag
  std::string description;         // as declared, line breaks included
  std::string default_value;       // empty when none is shown
  std::string constraint;          // a check's text beyond the metavar ("NUMBER in [0, 100]")
  std::vector<std::string> choices;
  ValueKind kind = ValueKind::none;
  bool required = false;
  bool repeatable = false;
};

struct CommandDoc {
  std::vector<std::string> path;  // {"peaks", "show"}; empty for the program itself
  std::string description;
  std::string footer;
  std::vector<OptionDoc> options;      // in declaration order; -h/--help only on the program
  std::vector<OptionDoc> positionals;  // in order
  std::vector<CommandDoc> subcommands;
  bool requires_subcommand = false;

  // "roofline peaks show".
  std::string full_name() const;
  // The --dir option of this command, or nullptr.
  const OptionDoc* dir_option() const;
};

// The tree `app` declares: every subcommand, option and positional, except hidden ones (an
// empty group). The program's own footer is left out (program_docs() covers it); -h/--help is
// listed once, on the program. Deterministic: declaration order throughout.
CommandDoc describe_app(CLI::App& app);

// The man page (roff, man(7) macros) of the tree: NAME, SYNOPSIS, DESCRIPTION, OPTIONS, every
// command with its options, positionals, defaults, checks and footer, then EXIT STATUS,
// ENVIRONMENT, FILES, EXAMPLES and SEE ALSO from `docs`. Non-ASCII text becomes \[uXXXX]
// escapes, so it renders without a preprocessor; no date, so the output is reproducible.
std::string render_man_page(const CommandDoc& root, const ProgramDocs& docs);

// A bash completion script defining `_roofline` and registering it for `roofline`: subcommands,
// each command's options, choices, file and folder names, and round names under --dir.
std::string render_bash_completion(const CommandDoc& root);

// A zsh completion script (#compdef roofline) with the same content, through _arguments; works
// autoloaded from $fpath and when sourced after compinit.
std::string render_zsh_completion(const CommandDoc& root);

}  // namespace roofline::cli
