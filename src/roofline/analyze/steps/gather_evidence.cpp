// Pass gather_evidence (docs/method.md §11): matching workload, probe and counter evidence to the
// head entries by kernel name.
#include "roofline/analyze/steps/gather_evidence.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "roofline/analyze/entry/head_entry.hpp"
#include "roofline/analyze/evidence/match.hpp"
#include "roofline/analyze/evidence/owner.hpp"
#include "roofline/analyze/layer.hpp"

namespace roofline::analyze {
namespace {

std::vector<KernelNames> head_names(const std::vector<HeadEntry>& head) {
  std::vector<KernelNames> out;
  for (const HeadEntry& e : head) out.push_back(KernelNames{{e.name}, e.short_name});
  return out;
}

// The profiler's own per-case counts: one workload kernel per head entry (the file and the Top-N
// come from one trace, so names match exactly; the matcher still decides).
void match_workload(std::vector<HeadEntry>& head, const ProbeSet& workload) {
  std::vector<KernelNames> names;
  for (const ProbeKernel& k : workload.kernels) names.push_back(KernelNames{{k.target}, k.label});
  const std::vector<NameMatch> matches = match_kernel_names(head_names(head), names);
  for (std::size_t i = 0; i < matches.size(); ++i)
    if (!matches[i].candidates.empty())
      head[i].evidence.workload = &workload.kernels[matches[i].candidates.front()];
}

// Stage B: every probe kernel captured for a head entry (per-process files of one target combine).
void match_shapes(std::vector<HeadEntry>& head, const ShapesInput& shapes, EvidenceSummary& ev) {
  for (const auto& err : shapes.errors)
    ev.findings.diagnostics.push_back(
        Diagnostic{Severity::error, std::nullopt, Topic::probes, "", err});
  for (const auto& n : shapes.notes) ev.findings.notes.push_back(n);
  std::vector<KernelNames> probes;
  for (const ProbeKernel& k : shapes.probes.kernels) {
    KernelNames names;
    for (const std::string* n : {&k.target, &k.label})
      if (!n->empty()) names.full.push_back(*n);
    probes.push_back(std::move(names));
  }
  const std::vector<NameMatch> matches = match_kernel_names(head_names(head), probes);
  std::size_t matched = 0;
  for (std::size_t i = 0; i < matches.size(); ++i) {
    for (std::size_t k : matches[i].candidates)
      head[i].evidence.probes.push_back(&shapes.probes.kernels[k]);
    head[i].evidence.probe_match = matches[i].kind;
    if (!matches[i].candidates.empty()) ++matched;
  }
  ev.measured_inputs.push_back(fmt::format(
      "stage B input: {} probe file(s), {} probe kernel(s); {} of {} head entries matched",
      shapes.files.size(), shapes.probes.kernels.size(), matched, head.size()));
  ev.findings.notes.push_back(ev.measured_inputs.back());
}

// What each counter file said about itself, in file order for the report's measured-inputs
// listing: usable rows, unusable files (also a problem, L4), bad rows (also a warning).
void describe_counter_files(const CountersInput& counters, EvidenceSummary& ev) {
  auto problem = [&](const std::string& text, bool degrades) {
    ev.measured_inputs.push_back(text);
    ev.findings.diagnostics.push_back(
        Diagnostic{Severity::warning, degrades ? std::optional<Level>(Level::L4) : std::nullopt,
                   Topic::counters, "", text});
  };
  for (const auto& err : counters.errors) problem(err, true);
  std::vector<std::string> inputs;
  for (const CounterFile& f : counters.files) {
    for (const auto& n : f.notes) ev.findings.notes.push_back(n);
    if (f.usable()) {
      inputs.push_back(fmt::format("stage C input: {} ({}): {} rows used, {} kernels", f.display,
                                   f.format_detail, f.rows_used, f.kernels.size()));
      ev.measured_inputs.push_back(inputs.back());
    }
    for (const auto& err : f.errors) problem(err, true);
    if (f.bad_rows > 0) {
      std::string lines;
      for (auto l : f.bad_row_lines) lines += fmt::format("{}{}", lines.empty() ? "" : ", ", l);
      problem(fmt::format("{}: {} of {} rows unusable (wrong column count or value; first at "
                          "line{} {}); the rest used",
                          f.display, f.bad_rows, f.lines, f.bad_row_lines.size() == 1 ? "" : "s",
                          lines),
              false);
    }
  }
  // The run notes list the usable inputs after the files' own notes.
  for (auto& line : inputs) ev.findings.notes.push_back(std::move(line));
}

// Stage C: the counter kernels of each head entry, folded into one per-dispatch measurement.
void match_counters(std::vector<HeadEntry>& head, const CountersInput& counters,
                    EvidenceSummary& ev) {
  describe_counter_files(counters, ev);
  const std::vector<KernelCounters> kernels = merge_kernels(counters.files);
  std::vector<KernelNames> names;
  names.reserve(kernels.size());
  for (const auto& k : kernels) names.push_back(KernelNames{{k.name}, ""});
  const std::vector<NameMatch> matches = match_kernel_names(head_names(head), names);
  std::vector<bool> used(kernels.size(), false);
  for (std::size_t i = 0; i < matches.size(); ++i) {
    if (matches[i].candidates.empty()) continue;
    KernelCounters sum;
    for (std::size_t k : matches[i].candidates) {
      used[k] = true;
      add_kernel_counters(sum, kernels[k]);
    }
    std::string which = kernels[matches[i].candidates.front()].name;
    if (matches[i].candidates.size() > 1)
      which += fmt::format(" and {} more", matches[i].candidates.size() - 1);
    head[i].evidence.measured = measure(sum, counters.options);
    head[i].evidence.measured_source =
        fmt::format("counters of '{}' ({} match)", which, to_string(matches[i].kind));
  }
  std::vector<std::size_t> unmatched;
  for (std::size_t k = 0; k < kernels.size(); ++k)
    if (!used[k]) unmatched.push_back(k);
  std::stable_sort(unmatched.begin(), unmatched.end(), [&](std::size_t x, std::size_t y) {
    return kernels[x].dispatches > kernels[y].dispatches;
  });
  for (std::size_t k : unmatched) ev.unmatched_counter_kernels.push_back(kernels[k].name);
  if (!unmatched.empty())
    ev.findings.notes.push_back(fmt::format(
        "{} counter kernel(s) match no head entry (most dispatches first: {}{})", unmatched.size(),
        kernels[unmatched[0]].name, unmatched.size() > 1 ? ", ..." : ""));
}

}  // namespace

EvidenceSummary gather_evidence(std::vector<HeadEntry>& head, const ShapesInput& shapes,
                                const CountersInput& counters, const ProbeSet* workload) {
  EvidenceSummary ev;
  if (workload) match_workload(head, *workload);
  // Whose copy of an open kernel ran: its launching op and call stack (docs/method.md §14.2).
  for (HeadEntry& e : head) e.owner_note = place_owner(e);
  if (shapes.requested) match_shapes(head, shapes, ev);
  if (counters.requested) match_counters(head, counters, ev);
  return ev;
}

}  // namespace roofline::analyze
