#pragma once
// `roofline peaks list | show GFX | check [FILE]`: inspect and validate hardware peak tables.

#include <string>

namespace CLI {
class App;
}

namespace roofline::cli {

struct PeaksArgs {
  std::string gfx, product, file, format = "text";
};

// The three subcommands, declared on `app` (under `peaks`), filling `args`.
struct PeaksCommands {
  CLI::App* list = nullptr;
  CLI::App* show = nullptr;
  CLI::App* check = nullptr;
};
PeaksCommands add_peaks_commands(CLI::App& app, PeaksArgs& args);

// One line per section of the table. Exit 0.
int run_peaks_list(const PeaksArgs& args);
// The peaks a gfx (and product) resolves to, with the rules applied. Exit 0.
int run_peaks_show(const PeaksArgs& args);
// Every problem of a peaks file, one per line. Exit 0 when sound, 1 when not.
int run_peaks_check(const PeaksArgs& args);

}  // namespace roofline::cli
