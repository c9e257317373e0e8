// The declarations of the analysing subcommands' options (analyze, topn, calc, counters, peaks):
// CLI11 bound straight to each command's argument struct. Their run_* functions live in the
// command's own file and never see CLI11.
#include <cstdio>
#include <string>

#include <fmt/format.h>

#include "roofline/cli/analyze_cmd.hpp"
#include "roofline/cli/calc_cmd.hpp"
#include "roofline/cli/common.hpp"
#include "roofline/cli/counters_cmd.hpp"
#include "roofline/cli/layer.hpp"
#include "roofline/cli/options.hpp"
#include "roofline/cli/peaks_cmd.hpp"
#include "roofline/cli/topn_cmd.hpp"
#include "roofline/inputs/kernel_classes.hpp"
#include "roofline/render/report.hpp"

namespace roofline::cli {

namespace {

// The analyze command's help footer: examples, inputs and their defaults, outputs, scope.
std::string analyze_footer() {
  return std::string(
             "Examples:\n"
             "  roofline analyze trace.json.gz --config config.json          # -> ./trace/\n"
             "  roofline analyze trace.json.gz --capture capture_traces/ --config config.json "
             "--out run1\n"
             "  roofline analyze trace.json.gz --config config.json --counters ncu.csv --peaks "
             "my_peaks.md\n"
             "  roofline analyze --round 1 --dir EVAL --format text\n\n"
             "With a TRACE: the Top-N is built as `roofline topn` builds it and written, with\n"
             "profile_workload.json, beside the artifacts in --out (default ./<trace name>/);\n"
             "config.json and env_report.json beside the trace are read unless --config / --env "
             "say.\n"
             "A file of the wrong kind (a trace given to --topn or --config, a config given as the "
             "TRACE)\nis a usage error naming what it is: exit 2, nothing written.\n\n"
             "Inputs (defaults): D/profile/round_R/profile_topN.json; D/env_report.json, then\n"
             "D/profile/round_R/env_report.json; the env report's model path + /config.json, then "
             "D/config.json;\n"
             "the built-in peaks table; profile_workload.json beside the Top-N when present (the "
             "profiler's\nper-case counts and latencies). A missing or broken default input is "
             "reported in the "
             "artifact\n"
             "(skill_errors / degraded) and the run still writes; a file named explicitly must "
             "exist "
             "(else exit 2).\n\n"
             "The env report (env_report.json, optional with a TRACE: the trace's device and "
             "step\nannotations stand in), every field optional; the option beside a field gives "
             "it instead:\n"
             "  gfx | gpu_arch | compute_capability  the arch (gfx942, sm_90, \"9.0\")   "
             "--product\n"
             "  device_target (or device_sku, sku)   the part (mi325x, h200)           --product\n"
             "  device_name, physical_cu_count       tell parts of one arch apart      --product\n"
             "  workload: {isl, osl, conc}           sequence lengths, concurrency     --isl --osl "
             "--conc\n"
             "  tp                                   tensor-parallel degree            --tp\n"
             "  model (or model_path)                the model; its config.json        --config\n"
             "  model_dtype, kv_cache_dtype          weight and KV-cache dtypes\n"
             "  backend, model_arch_class            shown in the report\n"
             "  device_props: {memory_clock_rate_khz, memory_bus_width_bits, "
             "multi_processor_count}\n"
             "                                       a part not in the table: derived bandwidth\n"
             "Given options win over the env report and the trace; a warning names what they "
             "recorded.\n\n"
             "Outputs: profile_roofline.json (the artifact), profile_roofline.md (the report) and\n"
             "profile_roofline.svg (the roofline chart), beside the profile unless --out says "
             "where.\n\n") +
         fmt::format(
             "Scope: entries with pct_gpu_time (or, with --head-key serving_weighted, "
             "serving_weighted_pct)\n"
             ">= the head threshold (default {:g}, or $HEAD_THRESHOLD_PCT),\n"
             "biggest first, at most --max-entries; smaller ones are skipped (counted, not "
             "degraded).\n\n"
             "Every number in the artifact is explained in the entry's notes: unit, byte "
             "model, assumptions.",
             k_default_head_threshold_pct);
}

// What is analysed: a trace (with its graph captures), or a round of an evaluation folder.
void add_analyze_sources(CLI::App& cmd, AnalyzeArgs& a) {
  cmd.add_option("trace", a.traces,
                 "One command from a trace: a PyTorch profiler trace (.json, .json.gz; vLLM, "
                 "SGLang, torch.profiler), a rocprofv3 JSON or kernel trace / stats CSV, or an "
                 "Nsight Systems cuda_gpu_kern_sum CSV; several are summed by kernel name. The "
                 "Top-N is built in memory as `roofline topn` builds it and written with the "
                 "artifacts (instead of --round / --topn)")
      ->check(CLI::ExistingFile);
  cmd.add_option("--capture", a.captures,
                 "With a TRACE: graph-capture trace, or a folder of them (*.json, *.json.gz; "
                 "vLLM capture_traces/, SGLang --enable-profile-cuda-graph): graph replays get the "
                 "ops and shapes of their captured launches. Repeatable")
      ->check(CLI::ExistingPath);
  cmd.add_option("-r,--round", a.paths.round,
                 "Profile round R: a name of letters, digits, '_' and '-' such as 0, config, "
                 "tuning or 3 (reads D/profile/round_R/)")
      ->check(CLI::Validator(
          [](std::string& r) -> std::string {
            return valid_round_name(r) ? std::string()
                                       : "'" + r +
                                             "' is not a round name: letters, digits, '_' and '-' "
                                             "(e.g. 0, config, tuning, 3)";
          },
          "NAME"));
  cmd.add_option("-d,--dir", a.dir, "Evaluation folder holding profile/round_R/")
      ->check(CLI::ExistingDirectory)
      ->capture_default_str();
}

// The input files, each overriding its default, and the counters' FLOPs per fp8 instruction.
void add_analyze_input_files(CLI::App& cmd, InputPaths& p) {
  cmd.add_option("--topn", p.topn,
                 "Explicit Top-N file (instead of D/profile/round_R/profile_topN.json)")
      ->check(CLI::ExistingFile);
  cmd.add_option("--env", p.env,
                 "Environment report (default D/env_report.json, then the round folder)")
      ->check(CLI::ExistingFile);
  cmd.add_option("--config", p.config, "HuggingFace model config.json (optional input)")
      ->check(CLI::ExistingFile);
  cmd.add_option("--peaks", p.peaks, "Peaks table in peaks.md format (default: built-in table)")
      ->check(CLI::ExistingFile);
  cmd.add_option("--shapes", p.shapes,
                 "Stage B: captured-shape probe file (probe_<pid>_<target>.json or "
                 "per_shape_probe.json) or a folder of them; repeatable. Matched entries are "
                 "modelled on the real shapes (confidence medium)")
      ->check(CLI::ExistingPath);
  cmd.add_option("--counters", p.counters,
                 "Stage C: a rocprofv3 *_counter_collection.csv (ROCm 6.2-7.x), a rocprof v1 "
                 "results.csv, or Nsight Compute `ncu --csv` output (details page or --page "
                 "raw; any units), or a folder searched for them; repeatable. Matched entries "
                 "use the measured bytes per dispatch (AMD (FETCH_SIZE+WRITE_SIZE)*1024, NVIDIA "
                 "dram__bytes_read+write; confidence high)")
      ->check(CLI::ExistingPath);
  cmd.add_option("--mfma-f8-flops", p.counter_options.mfma_f8_flops_per_inst,
                 "Stage C: FLOPs per SQ_INSTS_VALU_MFMA_MOPS_F8 count (fp8 has no MfmaFlops "
                 "counter)")
      ->check(finite_range(1e-9, 1e9))
      ->capture_default_str();
}

// Which entries are analysed and how: the head threshold and key, the entry cap, the dispatch
// floor and forced op classes.
void add_analyze_scope(CLI::App& cmd, AnalyzeArgs& a) {
  cmd.add_option("--head-threshold", a.head_threshold,
                 fmt::format("Analyse entries at or above this % of GPU time (default: "
                             "$HEAD_THRESHOLD_PCT, else {:g})",
                             k_default_head_threshold_pct))
      ->check(finite_range(0.0, 100.0));
  cmd.add_option("--head-key", a.head_key,
                 "Which share of GPU time scopes the head, weighs the expected gain and orders "
                 "ranking_by_pct: gpu_time (the capture's pct_gpu_time) or serving_weighted (the "
                 "Top-N's serving_weighted_pct, the capture re-weighted to the deployed "
                 "decode/prefill mix; entries without one keep pct_gpu_time)")
      ->check(CLI::IsMember({"gpu_time", "serving_weighted"}))
      ->capture_default_str();
  cmd.add_option("--max-entries", a.options.scope.max_entries, "At most this many head entries")
      ->check(whole_number(1, 100000))
      ->capture_default_str();
  cmd.add_option("--launch-overhead-us", a.options.verdict.launch_overhead_us,
                 "Dispatch floor unit: a unit of <= 2x this is dispatch-bound (no verdict)")
      ->check(non_negative())
      ->capture_default_str();
  cmd.add_option(
      "--classify", a.classify,
      "PATTERN=CLASS[:detail], repeatable: force the op class (gemm, moe, attn, linear_attn, "
      "ssm, comm, elementwise, unknown) of kernels whose name matches PATTERN (from the start "
      "of a name token to the end of one, * and ? wildcards; docs/method.md §7.2)");
}

// Where the artifacts go and what stdout shows.
void add_analyze_output(CLI::App& cmd, AnalyzeArgs& a) {
  cmd.add_option("-o,--out", a.out, "Folder for the artifacts (default: the round folder)");
  cmd.add_option("-f,--format", a.format,
                 "stdout: text (a summary), json (the artifact), quiet. "
                 "Default: text on a terminal, quiet otherwise")
      ->check(CLI::IsMember({"text", "json", "quiet"}));
  cmd.add_option("--color", a.color,
                 "Colour in the text summary: auto (a terminal, and NO_COLOR unset), always, "
                 "never")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->capture_default_str();
}

// The caps on every input file: size, nesting depth and Top-N entries.
void add_analyze_limits(CLI::App& cmd, InputLimits& limits) {
  cmd.add_option("--max-input-size", limits.max_bytes,
                 "Refuse an input file larger than this (e.g. 64MiB, 1GiB; plain numbers are "
                 "bytes); the file is reported as unreadable and the run goes on")
      ->transform(CLI::AsSizeValue(false))
      ->default_str("256MiB");
  cmd.add_option("--max-json-depth", limits.max_depth,
                 "Refuse an input nested deeper than this many levels (JSON arrays/objects, "
                 "YAML flow collections)")
      ->check(whole_number(1, 100000))
      ->capture_default_str();
  cmd.add_option("--max-topn-entries", limits.max_entries,
                 "Read at most this many Top-N top_kernels (the rest are reported, not read)")
      ->check(whole_number(1, 100000000))
      ->capture_default_str();
}

// target_eff from a calibration file, and the outcomes a calibrated class needs.
void add_analyze_calibration(CLI::App& cmd, AnalyzeArgs& a) {
  cmd.add_option("--calibration", a.paths.calibration,
                 "target_eff from a roofline_calibration.json (roofline calibrate) for classes "
                 "marked used (default: $ROOFLINE_CALIBRATION, else the shipped priors)")
      ->check(CLI::ExistingFile);
  cmd.add_option("--calibration-min-n", a.options.verdict.calibration_min_n,
                 "Use a calibrated class only with at least this many outcomes")
      ->check(whole_number(1, 100000))
      ->capture_default_str();
}

}  // namespace

// What the run was, over the env report and the trace (docs/method.md §22.9).
void add_analyze_given(CLI::App& cmd, GivenArgs& g) {
  cmd.add_option("--product,--gpu", g.product,
                 "The GPU, by product name or alias as people write it (mi300x, \"AMD Instinct "
                 "MI300X\", h100, h100-sxm, h200, b200, rtx-pro-6000; `roofline peaks list` "
                 "shows what each part answers to): its peaks section, over the env report's "
                 "and the trace's device. A name of several parts takes their lower figures");
  cmd.add_option("--conc", g.conc,
                 "Concurrency: requests in flight, the decode batch (over workload.conc and the "
                 "trace's measured batch)")
      ->check(positive());
  cmd.add_option("--isl", g.isl, "Input sequence length in tokens (over workload.isl)")
      ->check(positive());
  cmd.add_option("--osl", g.osl, "Output sequence length in tokens (over workload.osl)")
      ->check(positive());
  cmd.add_option("--tp", g.tp,
                 "Tensor-parallel degree (over the env report's tp and the trace's world size)")
      ->check(whole_number(1, 4096));
  cmd.add_option("--regime", g.regime,
                 "decode or prefill: the e2e-critical regime of each entry that runs in both or "
                 "neither (an entry the trace shows in one regime keeps it)")
      ->check(CLI::IsMember({"decode", "prefill"}));
}

CLI::App* add_analyze_command(CLI::App& app, AnalyzeArgs& a) {
  auto* cmd = app.add_subcommand("analyze", "Analyse one profile round and write the artifacts");
  cmd->footer(analyze_footer());
  add_analyze_sources(*cmd, a);
  add_analyze_input_files(*cmd, a.paths);
  add_analyze_given(*cmd, a.given);
  add_analyze_scope(*cmd, a);
  add_analyze_output(*cmd, a);
  add_analyze_limits(*cmd, a.paths.limits);
  add_analyze_calibration(*cmd, a);
  cmd->add_flag("--strict", a.strict, "Exit 1 when anything is degraded or a skill error occurred");
  cmd->add_flag("--fsync", a.fsync,
                "Flush the artifacts to stable storage before the atomic rename (survives power "
                "loss; slower on some disks). Without it writes are still atomic against crashes");
  return cmd;
}

CLI::App* add_topn_command(CLI::App& app, TopnArgs& args) {
  auto* cmd = app.add_subcommand(
      "topn",
      "Build the standardized Top-N (profile_topN.json) and profile_workload.json from raw "
      "profiler output");
  cmd->add_option("traces", args.traces,
                  "PyTorch profiler Chrome traces (.json or .json.gz), rocprofv3 JSON "
                  "(--output-format json) or *kernel_trace.csv / *kernel_stats.csv, or Nsight "
                  "Systems cuda_gpu_kern_sum "
                  "CSVs; several are summed by kernel name (e.g. one per rank)")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("--capture", args.captures,
                  "Graph-capture trace, or a folder of them (*.json, *.json.gz; its "
                  "execution_details.json is read when present): CUDA/HIP graph replays in the "
                  "traces get the ops and shapes of their captured launches. Repeatable")
      ->check(CLI::ExistingPath);
  cmd->add_option("-o,--out", args.out,
                  "Top-N file to write; a folder (one that exists, or a path not ending in "
                  ".json, created when missing) gets profile_topN.json inside it; "
                  "profile_workload.json is written beside it")
      ->capture_default_str();
  cmd->add_option("--top", args.top, "Keep the N kernels with the most GPU time")
      ->check(whole_number(1, 1000000))
      ->capture_default_str();
  cmd->add_flag("--fsync", args.fsync, "Flush the files to stable storage before the rename");
  cmd->footer(
      "GPU time is every kernel, gpu_memcpy and gpu_memset event, summed by exact name. Shapes "
      "and\n"
      "dtypes come from the CPU op that launched each kernel (record_shapes=True), for graph\n"
      "replays from the capture trace given with --capture; step annotations (vLLM\n"
      "execute_..context_..generation_.., SGLang step[..], ATOM prefill[..]/decode[..]) add the\n"
      "per-regime fields, each launch in the step that launched it.\n"
      "Examples:\n"
      "  roofline topn trace.json.gz -o EVAL/profile/round_0/profile_topN.json\n"
      "  roofline topn trace.json.gz --capture capture_traces/ -o run/profile/round_1/\n"
      "(roofline analyze TRACE --config config.json builds the Top-N and analyses it in one.)\n"
      "Exit codes: 0 written; 2 usage error, including a trace that is empty, unreadable,\n"
      "truncated, of another kind or of no supported format (nothing written); 3 the files could\n"
      "not be written (a folder that does not exist yet is created).");
  return cmd;
}

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
  cmd->add_option("--gfx", c.in.gfx,
                  "gfx or NVIDIA arch, e.g. gfx950 or sm_90 (or give --product)");
  cmd->add_option("--product,--gpu", c.in.product,
                  "The part by product name or alias (mi300x, \"AMD Instinct MI300X\", h100-sxm, "
                  "h200, r9700; `roofline peaks list` shows the names); sets the arch");
  cmd->add_option("--dtype", c.in.dtype, "Compute dtype (bf16, fp16, fp8, fp32, ...)")->required();
  cmd->add_option("--class", c.in.op_class,
                  "Op class: gemm, moe, attn, linear_attn, ssm, comm, elementwise, unknown (picks "
                  "target_eff)")
      ->required();
  cmd->add_option("--pct", c.in.pct_gpu_time,
                  "pct_gpu_time of the kernel (for the expected e2e gain)")
      ->check(finite_range(0.0, 100.0));
  cmd->add_option("--launch-overhead-us", c.in.verdict.launch_overhead_us, "Dispatch floor unit")
      ->check(non_negative())
      ->capture_default_str();
  cmd->add_option("--peaks", c.peaks, "Peaks file (default: built-in)")->check(CLI::ExistingFile);
  cmd->add_option("-f,--format", c.format, "text or json")->check(CLI::IsMember({"text", "json"}));
  cmd->footer(
      "Examples:\n"
      "  roofline calc --bytes 6.97e8 --flops 1.6e9 --time-us 98.9 --gfx gfx950 --dtype fp8 "
      "--class moe --pct 26.45\n"
      "  roofline calc --bytes 2.0e8 --flops 1.6e9 --time-us 141 --gfx sm_90 --product h200 "
      "--dtype bf16 --class attn --format json\n"
      "Exit codes: 0 computed; 2 usage error (an unknown gfx, dtype or class).");
  return cmd;
}

CLI::App* add_counters_command(CLI::App& app, CountersArgs& args) {
  auto* cmd = app.add_subcommand(
      "counters",
      "Summarise stage C counter CSVs (rocprofv3 *_counter_collection.csv, rocprof v1 "
      "results.csv, or Nsight Compute `ncu --csv` details or --page raw output): per kernel, "
      "dispatches (launches) and bytes/FLOPs/time per dispatch");
  cmd->add_option("files", args.files, "Counter CSV files (merged by kernel name)")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("-f,--format", args.format, "text or json")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  cmd->add_option("--mfma-f8-flops", args.mfma_f8_flops_per_inst,
                  "FLOPs per SQ_INSTS_VALU_MFMA_MOPS_F8 instruction")
      ->check(positive())
      ->capture_default_str();
  cmd->add_flag("--all-counters", args.all_counters,
                "Also read and sum the counters stage C does not use (JSON \"sum\"; by default "
                "those are listed with their dispatch count and a null sum, and their values "
                "are not parsed)");
  cmd->footer(
      "Examples:\n"
      "  roofline counters run_counter_collection.csv\n"
      "  roofline counters ncu_details.csv --format json\n"
      "Exit codes: 0 every file usable; 2 usage error, including a file that is empty, "
      "unrecognised or has no usable row (the other files are still summarised).");
  return cmd;
}

PeaksCommands add_peaks_commands(CLI::App& app, PeaksArgs& p) {
  auto* peaks = app.add_subcommand("peaks", "Inspect or validate hardware peak tables");
  peaks->require_subcommand(1);
  // Set before the subcommands are declared: they inherit it.
  peaks->footer(
      "Examples:\n"
      "  roofline peaks list\n"
      "  roofline peaks show gfx942:sramecc+:xnack- --product mi325x\n"
      "  roofline peaks show sm_90 --product 'NVIDIA H200' --format json\n"
      "  roofline peaks check my_peaks.md\n"
      "  roofline peaks measure-script > measure_peaks.py\n"
      "Exit codes: 0 done (check: the table is sound); 1 check found a problem; 2 usage error.");
  PeaksCommands cmds;
  cmds.list = peaks->add_subcommand("list", "List the sections of the peaks table");
  cmds.list->add_option("--peaks", p.file, "Peaks file (default: built-in)")
      ->check(CLI::ExistingFile);
  cmds.show = peaks->add_subcommand(
      "show", "Show the peaks a gfx (and product) resolves to, with the rules applied");
  cmds.show
      ->add_option("gfx", p.gfx, "gfx or NVIDIA arch, e.g. gfx950, gfx942:sramecc+:xnack-, sm_90")
      ->required();
  cmds.show->add_option(
      "--product", p.product,
      "Product identity, e.g. r9700, h200, or a device name such as 'NVIDIA "
      "H200', or as people write it: mi300x, h100-sxm, rtx-pro-6000 (default: none)");
  cmds.show->add_option("--peaks", p.file, "Peaks file (default: built-in)")
      ->check(CLI::ExistingFile);
  cmds.show->add_option("-f,--format", p.format, "text or json")
      ->check(CLI::IsMember({"text", "json"}));
  cmds.check = peaks->add_subcommand("check",
                                     "Validate a peaks file: gfx and hbm_bw_bytes_s present, "
                                     "numbers parse, bf16 == fp16, no duplicate (gfx, product). "
                                     "Exit 0 when sound, 1 when not");
  cmds.check->add_option("file", p.file, "peaks.md to check (default: the built-in table)");
  cmds.measure_script = peaks->add_subcommand(
      "measure-script",
      "Print data/measure_peaks.py with the built-in peaks table written in: run it with "
      "PyTorch on the GPU host to measure copy bandwidth and matrix throughput, and add the "
      "peaks.md section it prints to a file given to analyze --peaks");
  return cmds;
}

}  // namespace roofline::cli
