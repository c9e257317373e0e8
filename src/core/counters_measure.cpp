// Stage C after the ingest: per-dispatch measurements of one kernel, and folding the kernels of
// several counter files together.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "roofline/counters.hpp"

namespace roofline {
namespace {

std::optional<double> mean(const KernelCounters& k, const char* counter) {
  auto it = k.counters.find(counter);
  if (it == k.counters.end() || it->second.dispatches == 0) return std::nullopt;
  return it->second.sum / static_cast<double>(it->second.dispatches);
}

}  // namespace

bool counter_used_by_measure(std::string_view name) {
  if (name.rfind("MfmaFlops", 0) == 0) return true;
  for (std::string_view c : {"FETCH_SIZE", "WRITE_SIZE", "SQ_INSTS_VALU_MFMA_MOPS_F8"})
    if (name == c) return true;
  return false;
}

KernelMeasurement measure(const KernelCounters& k, const CounterOptions& options) {
  KernelMeasurement m;
  m.dispatches = k.dispatches;
  const auto fetch = mean(k, "FETCH_SIZE");
  const auto write = mean(k, "WRITE_SIZE");
  if (fetch && write) {
    m.bytes = (*fetch + *write) * 1024.0;
    m.bytes_source = fmt::format("(FETCH_SIZE + WRITE_SIZE) x 1024 (KiB), mean over {} dispatches",
                                 k.counters.at("FETCH_SIZE").dispatches);
  } else {
    m.unusable_reason = fmt::format("no {} counter: HBM bytes need FETCH_SIZE and WRITE_SIZE",
                                    !fetch && !write ? "FETCH_SIZE or WRITE_SIZE"
                                    : !fetch         ? "FETCH_SIZE"
                                                     : "WRITE_SIZE");
  }

  if (auto total = mean(k, "MfmaFlops")) {
    m.flops = *total;
    m.flops_source = "MfmaFlops";
  } else {
    for (const char* c : {"MfmaFlopsBF16", "MfmaFlopsF16", "MfmaFlopsF32", "MfmaFlopsF64"}) {
      if (auto v = mean(k, c)) {
        m.flops = m.flops.value_or(0.0) + *v;
        m.flops_source += (m.flops_source.empty() ? "" : " + ") + std::string(c);
      }
    }
  }
  // The MfmaFlops counters leave fp8 out: when they are absent, or all zero while fp8 MFMA
  // instructions ran, the fp8 instruction count is the measurement (never both: no double count).
  if (auto f8 = mean(k, "SQ_INSTS_VALU_MFMA_MOPS_F8");
      f8 && (!m.flops || (*m.flops == 0.0 && *f8 > 0))) {
    const bool replaced = m.flops.has_value();
    m.flops = *f8 * options.mfma_f8_flops_per_inst;
    m.flops_source = fmt::format("SQ_INSTS_VALU_MFMA_MOPS_F8 x {:g} FLOPs/instruction{}",
                                 options.mfma_f8_flops_per_inst,
                                 replaced ? " (the MfmaFlops counters read 0)" : "");
  }

  if (k.timed_dispatches > 0) {
    m.time_us = k.duration_ns_sum / static_cast<double>(k.timed_dispatches) / 1000.0;
    m.time_source =
        fmt::format("end - start timestamps, mean over {} dispatches", k.timed_dispatches);
  }
  return m;
}

void add_kernel_counters(KernelCounters& into, const KernelCounters& from) {
  if (into.name.empty()) into.name = from.name;
  into.dispatches += from.dispatches;
  into.duration_ns_sum += from.duration_ns_sum;
  into.timed_dispatches += from.timed_dispatches;
  for (const auto& [name, c] : from.counters) {
    CounterSum& s = into.counters[name];
    s.sum += c.sum;
    s.dispatches += c.dispatches;
    s.summed = s.summed && c.summed;
  }
}

std::vector<KernelCounters> merge_kernels(const std::vector<CounterFile>& files) {
  std::vector<KernelCounters> out;
  std::map<std::string, std::size_t, std::less<>> index;
  for (const auto& f : files) {
    for (const auto& k : f.kernels) {
      auto [it, inserted] = index.try_emplace(k.name, out.size());
      if (inserted) {
        out.push_back(k);
        continue;
      }
      add_kernel_counters(out[it->second], k);
    }
  }
  return out;
}

}  // namespace roofline
