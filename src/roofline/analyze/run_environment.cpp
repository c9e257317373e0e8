// The environment a run uses (docs/method.md §22.1): env_report.json where it speaks, else what
// the Top-N measured — the device from the trace's deviceProperties, the decode batch and
// context from the step annotations, the trace's world size as TP when a GEMM shape shows it.
#include <cmath>

#include <fmt/format.h>

#include "roofline/analyze/layer.hpp"
#include "roofline/analyze/run.hpp"
#include "roofline/base/units.hpp"

namespace roofline::analyze::detail {
namespace {

bool differ(double a, double b) {
  return std::fabs(a - b) > 0.05 * std::max(std::fabs(a), std::fabs(b));
}

// A disagreement between the env report and the trace: a warning, and the same words in the run
// notes so the artifact keeps it.
void disagree(Findings& found, std::string text) {
  found.notes.push_back("warning: " + text);
  found.diagnostics.push_back(
      Diagnostic{Severity::warning, std::nullopt, Topic::input, "", std::move(text)});
}

std::string device_text(const TopnDevice& d) {
  std::string out = d.name.empty() ? std::string("(unnamed)") : d.name;
  if (!d.arch.empty()) out += ", " + d.arch;
  if (d.cu_count) out += fmt::format(", {} CUs", format_g(*d.cu_count));
  if (d.memory_bytes) out += fmt::format(", {:.0f} GiB", *d.memory_bytes / 1073741824.0);
  return out;
}

// The device: the env report's fields where it gives them, the trace's otherwise; a note names
// what was taken from the trace.
void take_device(EnvReport& e, const TopnDevice& d, Findings& found) {
  const std::string arch = normalize_arch(d.arch);
  std::vector<std::string> taken;
  if (e.arch.empty() && !arch.empty()) {
    e.arch = arch;
    e.gfx = is_nvidia_arch(arch) ? "" : arch;
    e.gfx_raw = d.arch;
    taken.push_back("arch");
  } else if (!arch.empty() && arch != e.arch) {
    disagree(found,
             fmt::format("env_report.json names arch {} but the trace's deviceProperties say {} "
                         "({}): the env report wins",
                         e.arch, arch, device_text(d)));
  }
  if (e.device_name.empty() && !d.name.empty()) {
    e.device_name = d.name;
    taken.push_back("name");
  }
  // CU count and memory tell products of one arch apart (gfx942: MI300X, MI325X, partitions):
  // kept for that, and named only when the device itself came from the trace.
  if (!e.device_props.multi_processor_count)
    e.device_props.multi_processor_count = e.physical_cu_count ? e.physical_cu_count : d.cu_count;
  if (!e.device_props.memory_bytes) e.device_props.memory_bytes = d.memory_bytes;
  if (!taken.empty() && !e.physical_cu_count && d.cu_count) {
    e.physical_cu_count = d.cu_count;
    taken.push_back("CU count");
  }
  if (!taken.empty() && d.memory_bytes) taken.push_back("memory");
  if (taken.empty()) return;
  std::string what;
  for (const auto& t : taken) what += (what.empty() ? "" : ", ") + t;
  found.notes.push_back(fmt::format("device {}: {} from the Top-N's {}", what, device_text(d),
                                    d.source.empty() ? "device" : d.source));
  if (!d.note.empty()) found.notes.push_back("device: " + d.note);
}

// The workload: the env report's decode batch where it gives one, the measured one otherwise;
// the measured decode context always (the env report only allows the isl + osl/2 guess).
void take_workload(Workload& w, const TopnServing& s, Findings& found) {
  if (s.decode_batch && *s.decode_batch > 0) {
    if (!w.conc) {
      w.conc = s.decode_batch;
      w.conc_source = fmt::format("the Top-N's measured decode batch ({})",
                                  s.decode_from.empty() ? "step annotations" : s.decode_from);
    } else if (differ(*w.conc, *s.decode_batch)) {
      disagree(found, fmt::format("env_report.json workload.conc {} but the step annotations "
                                  "measured a decode batch of {} ({}): the env report wins",
                                  format_g(*w.conc), format_g(*s.decode_batch), s.decode_from));
    }
  }
  // Σkv / requests from the sums themselves where they are written (the block's decode_context
  // is rounded to three decimals): the decode steps' generation parts, else the mixed steps'.
  std::optional<double> context = s.decode_context;
  for (const TopnPartSums* part : {&s.decode_generation, &s.prefill_generation})
    if (part->sum_kv && part->requests && *part->requests > 0) {
      context = *part->sum_kv / *part->requests;
      break;
    }
  if (context && *context > 0) {
    w.decode_context = context;
    w.decode_context_source =
        fmt::format("Σkv / requests of the {}, measured by the step annotations",
                    s.decode_from.empty() ? std::string("decode steps") : s.decode_from);
    if (w.isl && w.osl && differ(*w.isl + *w.osl / 2.0, *context))
      found.notes.push_back(fmt::format(
          "decode context: measured {} instead of isl + osl/2 = {} from env_report.json",
          format_g(*context), format_g(*w.isl + *w.osl / 2.0)));
  }
}

// A per-rank size of the config divided by `ws` that a GEMM operand of the Top-N shows.
bool shapes_show_world_size(const TopnDocument& topn, const ModelConfig& c, double ws) {
  std::vector<double> sizes;
  auto add = [&](const std::optional<double>& v, double k = 1.0) {
    if (v && *v > 0) sizes.push_back(k * *v / ws);
  };
  add(c.intermediate);
  add(c.intermediate, 2.0);
  add(c.moe_intermediate);
  add(c.moe_intermediate, 2.0);
  add(c.vocab);
  if (c.n_heads && c.head_dim) {
    sizes.push_back(*c.n_heads * *c.head_dim / ws);
    if (c.n_kv_heads) sizes.push_back((*c.n_heads + 2.0 * *c.n_kv_heads) * *c.head_dim / ws);
  }
  for (const TopnEntry& e : topn.entries)
    for (const auto& op : e.shapes)
      if (op.size() >= 2)
        for (const std::int64_t d : op)
          for (const double s : sizes)
            if (static_cast<double>(d) == s && std::floor(s) == s) return true;
  return false;
}

void take_world_size(EnvReport& e, const TopnDocument& topn, const ModelConfig* config,
                     Findings& found) {
  if (e.tp_given || !topn.world_size || *topn.world_size <= 1) return;
  const double ws = *topn.world_size;
  if (config && shapes_show_world_size(topn, *config, ws)) {
    e.tp = ws;
    found.notes.push_back(fmt::format(
        "tp {}: the trace's world size, taken as the TP degree because a GEMM operand of the "
        "Top-N has a config size divided by it (env_report.json gives no tp)",
        format_g(ws)));
  } else {
    found.notes.push_back(fmt::format(
        "the trace's world size is {}, but no GEMM shape shows a config size divided by it: tp "
        "stays 1 (env_report.json gives no tp)",
        format_g(ws)));
  }
}

// The part given by --product: its arch and section, over the env report's and the trace's; a
// warning where either names another arch or another part.
void give_part(EnvReport& e, const GivenEnv& g, const TopnDevice* trace, Findings& found) {
  const std::string given =
      fmt::format("--product '{}' ({}, {})", g.product_spelling, g.part_name, g.arch);
  if (!e.arch.empty() && e.arch != g.arch)
    disagree(found, fmt::format("{} but the env report or the trace names arch {}: the option wins",
                                given, e.arch));
  const std::string trace_arch = trace ? normalize_arch(trace->arch) : "";
  if (!trace_arch.empty() && trace_arch != g.arch && trace_arch != e.arch)
    disagree(found, fmt::format("{} but the trace's deviceProperties say {}: the option wins",
                                given, device_text(*trace)));
  if (!e.product.empty() && e.product != g.product)
    disagree(found, fmt::format("{} but env_report.json names product '{}': the option wins", given,
                                e.product_raw));
  e.arch = g.arch;
  e.gfx = is_nvidia_arch(g.arch) ? "" : g.arch;
  e.gfx_raw = g.arch;
  e.product = g.product;
  e.product_raw = g.product;
  e.product_pinned = true;
  found.notes.push_back(fmt::format("peaks section: {} (given)", given));
  if (!g.note.empty()) found.notes.push_back(g.note);
}

// A figure given on the command line, over what the env report or the trace gave.
void give_figure(std::optional<double>& field, std::optional<double> given, const char* option,
                 const char* what, Findings& found) {
  if (!given) return;
  if (field && differ(*field, *given))
    disagree(found, fmt::format("{} {} but the env report or the trace gives {} {}: the option "
                                "wins",
                                option, format_g(*given), what, format_g(*field)));
  field = given;
  found.notes.push_back(fmt::format("{} {}: given ({})", what, format_g(*given), option));
}

void apply_given(EnvReport& e, const GivenEnv& g, const TopnDocument& topn, Findings& found) {
  if (!g.arch.empty()) give_part(e, g, topn.device ? &*topn.device : nullptr, found);
  if (g.conc && e.workload.conc) e.workload.conc_source.clear();
  give_figure(e.workload.conc, g.conc, "--conc", "workload.conc", found);
  if (g.conc) e.workload.conc_source = "--conc";
  give_figure(e.workload.isl, g.isl, "--isl", "workload.isl", found);
  give_figure(e.workload.osl, g.osl, "--osl", "workload.osl", found);
  if (g.tp) {
    std::optional<double> tp =
        e.tp_given || e.tp != 1.0 ? std::optional<double>(e.tp) : std::nullopt;
    give_figure(tp, g.tp, "--tp", "tp", found);
    e.tp = *g.tp;
    e.tp_given = true;
  }
  if (g.regime) {
    e.regime = g.regime;
    found.notes.push_back(fmt::format(
        "regime {}: given (--regime), the e2e-critical regime of each entry that runs in both or "
        "neither",
        to_string(*g.regime)));
  }
}

bool anything_given(const GivenEnv& g) {
  return !g.arch.empty() || g.conc || g.isl || g.osl || g.tp || g.regime;
}

}  // namespace

bool topn_stands_in(const TopnDocument& topn) {
  const TopnServing& s = topn.serving;
  return topn.device && !topn.device->arch.empty() && s.present && !s.step_source.empty() &&
         (s.decode_batch || s.prefill_tokens_per_step);
}

std::optional<EnvReport> effective_env(const EnvReport* env, const TopnDocument& topn,
                                       const GivenEnv& given, const ModelConfig* config,
                                       Findings& found) {
  const bool measured = topn.serving.present && !topn.serving.step_source.empty();
  if (!env && !topn.device && !measured && !anything_given(given)) return std::nullopt;
  EnvReport e = env ? *env : EnvReport{};
  if (!env && !topn_stands_in(topn))  // else the input's own note says it
    found.notes.push_back(
        "no env_report.json: the Top-N stands in for it (the trace's device, the step "
        "annotations' measured workload)");
  if (topn.device) take_device(e, *topn.device, found);
  if (measured) take_workload(e.workload, topn.serving, found);
  take_world_size(e, topn, config, found);
  apply_given(e, given, topn, found);
  return e;
}

}  // namespace roofline::analyze::detail
