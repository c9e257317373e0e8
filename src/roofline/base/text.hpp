#pragma once
// Text helpers several layers share: a path as a message shows it, and the reading of the
// whitespace-separated tables shipped under data/ (kernel_classes.tsv, kernel_backends.tsv).

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace roofline {

// `p` relative to `base` when it lies inside `base` (forward slashes), else `p` as given
// (forward slashes): how inputs, artifacts and outcome files are named in notes and messages.
std::string display_relative(const std::filesystem::path& p, const std::filesystem::path& base);

// One line of a table: its number (from 1) and its text without the newline.
struct TableLine {
  int number = 0;
  std::string_view text;
};
// Every line of `text` in order; a final newline ends the last line (it starts no empty one).
std::vector<TableLine> table_lines(std::string_view text);
// The next word of `line` at or after `at` (words are separated by spaces, tabs and carriage
// returns); `at` moves past it. Empty when the line has no more words.
std::string_view next_word(std::string_view line, std::size_t& at);
// What is left of `line` from `at`, without leading or trailing whitespace.
std::string_view rest_of_line(std::string_view line, std::size_t at);

}  // namespace roofline
