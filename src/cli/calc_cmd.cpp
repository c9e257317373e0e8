// `roofline calc`: one synthetic entry through the verdict and advice stages.
#include "cli/calc_cmd.hpp"

#include <cstdio>

#include <CLI/CLI.hpp>

#include "cli/common.hpp"
#include "roofline/report.hpp"

namespace roofline::cli {

CLI::App* add_calc_command(CLI::App& app, CalcArgs& c) {
  auto* cmd =
      app.add_subcommand("calc", "What-if: the roofline arithmetic on raw bytes, FLOPs and time");
  cmd->add_option("--bytes", c.in.bytes, "HBM bytes moved by one unit")
      ->required()
      ->check(non_negative());
  cmd->add_option("--flops", c.in.flops, "FLOPs of one unit")->required()->check(non_negative());
  cmd->add_option("--time-us", c.in.time_us, "Time of one unit in microseconds")
      ->required()
      ->check(positive());
  cmd->add_option("--gfx", c.in.gfx, "gfx or NVIDIA arch, e.g. gfx950 or sm_90")->required();
  cmd->add_option("--product", c.in.product, "Product identity (e.g. r9700, h200)");
  cmd->add_option("--dtype", c.in.dtype, "Compute dtype (bf16, fp16, fp8, fp32, ...)")->required();
  cmd->add_option("--class", c.in.op_class, "Op class: gemm, moe, attn, elementwise, unknown")
      ->required();
  cmd->add_option("--pct", c.in.pct_gpu_time,
                  "pct_gpu_time of the kernel (for the expected e2e gain)")
      ->check(finite_range(0.0, 100.0));
  cmd->add_option("--launch-overhead-us", c.in.verdict.launch_overhead_us, "Dispatch floor unit")
      ->check(non_negative())
      ->capture_default_str();
  cmd->add_option("--peaks", c.peaks, "Peaks file (default: built-in)")->check(CLI::ExistingFile);
  cmd->add_option("-f,--format", c.format, "text or json")->check(CLI::IsMember({"text", "json"}));
  return cmd;
}

int run_calc(const CalcArgs& args) {
  PeaksTable storage;
  const PeaksTable& table = load_peaks_or_throw(args.peaks, storage);
  const CalcResult r = calc(args.in, table);
  if (!r.errors.empty()) throw UsageError(r.errors.front());
  const std::string out = args.format == "json" ? calc_json(r).dump(2) + "\n" : calc_text(r);
  std::fwrite(out.data(), 1, out.size(), stdout);
  return k_exit_ok;
}

}  // namespace roofline::cli
