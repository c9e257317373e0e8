// `roofline peaks`: list, show and check hardware peak tables.
#include "cli/peaks_cmd.hpp"

#include <cstdio>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "cli/common.hpp"
#include "roofline/embedded_data.hpp"
#include "roofline/load.hpp"
#include "roofline/peaks.hpp"
#include "roofline/report.hpp"

namespace roofline::cli {

PeaksCommands add_peaks_commands(CLI::App& app, PeaksArgs& p) {
  auto* peaks = app.add_subcommand("peaks", "Inspect or validate hardware peak tables");
  peaks->require_subcommand(1);
  PeaksCommands cmds;
  cmds.list = peaks->add_subcommand("list", "List the sections of the peaks table");
  cmds.list->add_option("--peaks", p.file, "Peaks file (default: built-in)")
      ->check(CLI::ExistingFile);
  cmds.show = peaks->add_subcommand(
      "show", "Show the peaks a gfx (and product) resolves to, with the rules applied");
  cmds.show
      ->add_option("gfx", p.gfx, "gfx or NVIDIA arch, e.g. gfx950, gfx942:sramecc+:xnack-, sm_90")
      ->required();
  cmds.show->add_option("--product", p.product,
                        "Product identity, e.g. r9700, h200, or a device name such as 'NVIDIA "
                        "H200' (default: none)");
  cmds.show->add_option("--peaks", p.file, "Peaks file (default: built-in)")
      ->check(CLI::ExistingFile);
  cmds.show->add_option("-f,--format", p.format, "text or json")
      ->check(CLI::IsMember({"text", "json"}));
  cmds.check = peaks->add_subcommand("check",
                                     "Validate a peaks file: gfx and hbm_bw_bytes_s present, "
                                     "numbers parse, bf16 == fp16, no duplicate (gfx, product). "
                                     "Exit 0 when sound, 1 when not");
  cmds.check->add_option("file", p.file, "peaks.md to check (default: the built-in table)");
  return cmds;
}

int run_peaks_list(const PeaksArgs& args) {
  PeaksTable storage;
  const std::string out = peaks_table_text(load_peaks_or_throw(args.file, storage));
  std::fwrite(out.data(), 1, out.size(), stdout);
  return k_exit_ok;
}

int run_peaks_show(const PeaksArgs& args) {
  PeaksTable storage;
  const PeaksTable& table = load_peaks_or_throw(args.file, storage);
  const ResolvedPeaks p = resolve_peaks(table, args.gfx, args.product, DeviceProps{});
  const std::string out = args.format == "json" ? peaks_json(p).dump(2) + "\n" : peaks_text(p);
  std::fwrite(out.data(), 1, out.size(), stdout);
  return k_exit_ok;
}

int run_peaks_check(const PeaksArgs& args) {
  std::string name = args.file.empty() ? "built-in peaks.md" : args.file;
  Loaded<PeaksTable> loaded;
  if (args.file.empty()) {
    loaded = parse_peaks_md(builtin_peaks_md(), name);
  } else {
    FileText text = read_text_file(args.file, k_max_json_bytes);
    if (!text.found) throw UsageError(fmt::format("peaks check {}: file not found", args.file));
    if (!text.error.empty())
      throw UsageError(fmt::format("peaks check {}: {}", args.file, text.error));
    loaded = parse_peaks_md(text.text, name);
  }
  std::vector<std::string> problems = loaded.errors;
  if (loaded.value)
    for (auto& p : check_peaks(*loaded.value)) problems.push_back(p);
  for (const auto& p : problems) std::printf("%s\n", p.c_str());
  const std::size_t sections = loaded.value ? loaded.value->sections.size() : 0;
  if (problems.empty()) {
    std::printf("%s: ok (%zu sections)\n", name.c_str(), sections);
    return k_exit_ok;
  }
  std::printf("%s: %zu problem%s in %zu sections\n", name.c_str(), problems.size(),
              problems.size() == 1 ? "" : "s", sections);
  return k_exit_strict;
}

}  // namespace roofline::cli
