// Reads the CLI11 App into the plain CommandDoc tree the man page and completions are made from.
#include "roofline/cli/cli_docs.hpp"

#include <cctype>
#include <cstddef>

#include <CLI/CLI.hpp>

namespace roofline::cli {
namespace {

// The descriptions of an option's checks and transforms, in the order get_type_name() joins them.
std::vector<std::string> check_texts(CLI::Option& opt) {
  std::vector<std::string> out;
  for (int i = 0;; ++i) {
    try {
      out.push_back(opt.get_validator(i)->get_description());
    } catch (const CLI::OptionNotFound&) {
      return out;
    }
  }
}

// The value's type as CLI11 names it (TEXT, FLOAT, UINT, ...): the type name without the
// ":CHECK" suffixes of `checks`.
std::string base_type(const CLI::Option& opt, const std::vector<std::string>& checks) {
  const std::string full = opt.get_type_name();
  std::size_t suffix = 0;
  for (const auto& c : checks)
    if (!c.empty()) suffix += c.size() + 1;
  return suffix < full.size() ? full.substr(0, full.size() - suffix) : full;
}

// The leading upper-case word of a check's text ("NUMBER" of "NUMBER in [0, 100]").
std::string leading_word(const std::string& text) {
  std::size_t n = 0;
  while (n < text.size() && (std::isupper(static_cast<unsigned char>(text[n])) || text[n] == '_'))
    ++n;
  return text.substr(0, n);
}

std::vector<std::string> split_choices(const std::string& set) {
  std::vector<std::string> out;
  std::string item;
  for (char c : set.substr(1, set.size() - 2)) {
    if (c == ',') {
      out.push_back(item);
      item.clear();
    } else {
      item += c;
    }
  }
  out.push_back(item);
  return out;
}

// --round, --baseline-round: a long name that ends in "-round" takes a round name.
bool names_round(const OptionDoc& o) {
  for (const auto& n : o.names)
    if (n.starts_with("--") && n.ends_with("-round")) return true;
  return false;
}

OptionDoc describe_option(CLI::Option& opt) {
  OptionDoc o;
  for (const auto& s : opt.get_snames()) o.names.push_back("-" + s);
  for (const auto& l : opt.get_lnames()) o.names.push_back("--" + l);
  if (opt.get_positional()) o.positional = opt.get_name(true);
  o.description = opt.get_description();
  o.required = opt.get_required();
  o.repeatable = opt.get_expected_max() > 1;
  if (opt.get_expected_max() == 0) return o;  // a flag: no value, no default worth showing

  o.default_value = opt.get_default_str();
  const std::vector<std::string> checks = check_texts(opt);
  const std::string base = base_type(opt, checks);
  for (const auto& c : checks) {
    if (c.empty()) continue;
    if (c.size() >= 2 && c.front() == '{' && c.back() == '}') {
      o.choices = split_choices(c);
      o.kind = ValueKind::choice;
    } else if (c == "FILE") {
      o.kind = ValueKind::file;
      o.metavar = c;
    } else if (c == "DIR") {
      o.kind = ValueKind::dir;
      o.metavar = c;
    } else if (c.rfind("PATH", 0) == 0) {
      o.kind = ValueKind::path;
      o.metavar = "PATH";
    } else {
      const std::string word = leading_word(c);
      if (o.metavar.empty()) o.metavar = word;
      if (c != word) o.constraint += (o.constraint.empty() ? "" : "; ") + c;
    }
  }
  if (o.kind == ValueKind::choice) {
    o.metavar.clear();
    for (const auto& c : o.choices) o.metavar += (o.metavar.empty() ? "" : "|") + c;
  }
  if (o.metavar.empty()) o.metavar = base.empty() ? std::string("VALUE") : base;
  if (o.kind == ValueKind::none) {
    const bool numeric = base == "FLOAT" || base == "INT" || base == "UINT" || base == "NUMBER";
    o.kind = numeric ? ValueKind::number : ValueKind::text;
  }
  if (names_round(o)) {
    o.kind = ValueKind::round;
    o.metavar = "ROUND";
  }
  return o;
}

CommandDoc describe(CLI::App& app, std::vector<std::string> path) {
  CommandDoc c;
  c.path = std::move(path);
  c.description = app.get_description();
  // A subcommand inherits its parent's footer unless it declares its own: keep only its own.
  const CLI::App* parent = app.get_parent();
  if (parent && app.get_footer() != parent->get_footer()) c.footer = app.get_footer();
  c.requires_subcommand = app.get_require_subcommand_min() > 0;
  for (CLI::Option* opt : app.get_options()) {
    if (opt->get_group().empty()) continue;  // hidden
    if (!c.path.empty() && opt == app.get_help_ptr()) continue;
    OptionDoc o = describe_option(*opt);
    (o.names.empty() ? c.positionals : c.options).push_back(std::move(o));
  }
  for (CLI::App* sub : app.get_subcommands([](CLI::App* s) {
         return !s->get_name().empty() && !s->get_group().empty() && !s->get_disabled();
       })) {
    std::vector<std::string> sub_path = c.path;
    sub_path.push_back(sub->get_name());
    c.subcommands.push_back(describe(*sub, std::move(sub_path)));
  }
  return c;
}

}  // namespace

std::string CommandDoc::full_name() const {
  std::string out = "roofline";
  for (const auto& p : path) out += " " + p;
  return out;
}

const OptionDoc* CommandDoc::dir_option() const {
  for (const auto& o : options)
    for (const auto& n : o.names)
      if (n == "--dir") return &o;
  return nullptr;
}

CommandDoc describe_app(CLI::App& app) {
  return describe(app, {});
}

}  // namespace roofline::cli
