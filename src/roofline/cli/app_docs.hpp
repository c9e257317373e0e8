#pragma once
// What the command line says about the program as a whole, beyond its options: exit statuses,
// environment variables, files and examples. One source for the `--help` footer and the man page.

#include <string>
#include <vector>

namespace roofline::cli {

// One entry of a list: an exit code, a variable, a file or an example command, and what it means.
struct DocItem {
  std::string term;
  std::string text;
};

struct ProgramDocs {
  std::string summary;  // the one-line description (the man page's NAME)
  std::vector<DocItem> exit_statuses;
  std::vector<DocItem> environment;
  std::vector<DocItem> files;
  std::vector<DocItem> examples;  // term: the command line, text: what it does
  std::vector<DocItem> see_also;  // term: a page or file, text: why
};

// The program's documentation; the same object on every call.
const ProgramDocs& program_docs();

// The footer of `roofline --help`: the examples, exit statuses and environment variables of
// `docs`, as plain text lines.
std::string help_footer(const ProgramDocs& docs);

}  // namespace roofline::cli
