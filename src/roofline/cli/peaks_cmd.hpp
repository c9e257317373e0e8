#pragma once
// `roofline peaks list | show GFX | check [FILE] | measure-script`: inspect and validate hardware
// peak tables, and print the script that measures a part's ceilings.

#include <string>
#include <string_view>

namespace CLI {
class App;
}

namespace roofline::cli {

struct PeaksArgs {
  std::string gfx, product, file, format = "text";
};

// The four subcommands, declared on `app` (under `peaks`), filling `args`.
struct PeaksCommands {
  CLI::App* list = nullptr;
  CLI::App* show = nullptr;
  CLI::App* check = nullptr;
  CLI::App* measure_script = nullptr;
};
PeaksCommands add_peaks_commands(CLI::App& app, PeaksArgs& args);

// One line per section of the table. Exit 0.
int run_peaks_list(const PeaksArgs& args);
// The peaks a gfx (and product) resolves to, with the rules applied. Exit 0.
int run_peaks_show(const PeaksArgs& args);
// Every problem of a peaks file, one per line. Exit 0 when sound, 1 when not.
int run_peaks_check(const PeaksArgs& args);
// data/measure_peaks.py (docs/method.md §5.7) with `peaks_md` written into its
// BUILTIN_PEAKS_MD line, so that the GPU host needs no roofline. Pure; throws std::logic_error
// when the script lacks the placeholder line (a broken build).
std::string measure_script_text(std::string_view script, std::string_view peaks_md);
// Prints the measuring script with the built-in table written in. Exit 0.
int run_peaks_measure_script();

}  // namespace roofline::cli
