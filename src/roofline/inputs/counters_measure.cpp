// Stage C after the ingest: per-dispatch measurements of one kernel, and folding the kernels of
// several counter files together.
#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "roofline/inputs/counters.hpp"
#include "roofline/inputs/dtype.hpp"
#include "roofline/inputs/layer.hpp"

namespace roofline::inputs {
namespace {

std::optional<double> mean(const KernelCounters& k, std::string_view counter) {
  auto it = k.counters.find(std::string(counter));
  if (it == k.counters.end() || it->second.dispatches == 0) return std::nullopt;
  return it->second.sum / static_cast<double>(it->second.dispatches);
}

constexpr const char* k_dram_read = "dram__bytes_read.sum";
constexpr const char* k_dram_write = "dram__bytes_write.sum";
constexpr const char* k_gpu_time = "gpu__time_duration.sum";
constexpr const char* k_ffma = "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum";
constexpr const char* k_fadd = "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum";
constexpr const char* k_fmul = "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum";

// Nsight Compute's tensor-pipe operation counts, one metric per operand/accumulator type
// (sm__ops_path_tensor_src_bf16_dst_fp32.sum, ...): the .sum rollups only.
bool is_tensor_ops(std::string_view name) {
  const std::string_view suffix = ".sum";
  return name.rfind("sm__ops_path_tensor_", 0) == 0 && name.size() > suffix.size() &&
         name.substr(name.size() - suffix.size()) == suffix;
}

// The operand type a tensor-path metric names: `sm__ops_path_tensor_src_fp8_dst_fp32.sum` ->
// "fp8" (`src_fp8_e4m3…` too); "" when the name has no `src_<type>`.
std::string tensor_src_type(std::string_view name) {
  const std::string_view key = "_src_";
  const std::size_t at = name.find(key);
  if (at == std::string_view::npos) return {};
  std::string_view rest = name.substr(at + key.size());
  rest = rest.substr(0, std::min(rest.find("_dst"), rest.find('.')));
  const auto d = parse_dtype(rest);
  return d ? d->key.str() : std::string();
}

// docs/method.md §11.4: bytes (FETCH_SIZE + WRITE_SIZE) x 1024, FLOPs from MfmaFlops*, or fp8 MFMA
// instructions x a factor.
KernelMeasurement measure_amd(const KernelCounters& k, const CounterOptions& options) {
  KernelMeasurement m;
  const auto fetch = mean(k, "FETCH_SIZE");
  const auto write = mean(k, "WRITE_SIZE");
  if (fetch && write) {
    m.bytes = (*fetch + *write) * 1024.0;
    m.bytes_source = fmt::format("(FETCH_SIZE + WRITE_SIZE) x 1024 (KiB), mean over {} dispatches",
                                 k.counters.at("FETCH_SIZE").dispatches);
    m.counters_used = {"FETCH_SIZE", "WRITE_SIZE"};
  } else {
    m.unusable_reason = fmt::format(
        "no {} counter: HBM bytes need FETCH_SIZE and WRITE_SIZE (AMD) or {} and {} (NVIDIA)",
        !fetch && !write ? "FETCH_SIZE or WRITE_SIZE"
        : !fetch         ? "FETCH_SIZE"
                         : "WRITE_SIZE",
        k_dram_read, k_dram_write);
  }

  std::vector<std::string> flops_from;
  if (auto total = mean(k, "MfmaFlops")) {
    m.flops = *total;
    m.flops_source = "MfmaFlops";
    flops_from = {"MfmaFlops"};
  } else {
    double most = 0.0;
    for (const auto& [c, type] :
         {std::pair{"MfmaFlopsBF16", "bf16"}, std::pair{"MfmaFlopsF16", "fp16"},
          std::pair{"MfmaFlopsF32", "fp32"}, std::pair{"MfmaFlopsF64", "fp64"}}) {
      if (auto v = mean(k, c)) {
        m.flops = m.flops.value_or(0.0) + *v;
        m.flops_source += (m.flops_source.empty() ? "" : " + ") + std::string(c);
        flops_from.emplace_back(c);
        if (*v > most) {
          most = *v;
          m.flops_dtype = type;
        }
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
    flops_from = {"SQ_INSTS_VALU_MFMA_MOPS_F8"};
    m.flops_dtype = "fp8";
  }
  m.counters_used.insert(m.counters_used.end(), flops_from.begin(), flops_from.end());
  return m;
}

// docs/method.md §11.4: bytes = DRAM read + write; FLOPs = the tensor-pipe operations when any ran,
// else the vector estimate 2·FFMA + FADD + FMUL (thread-level instructions with the predicate on).
KernelMeasurement measure_nvidia(const KernelCounters& k) {
  KernelMeasurement m;
  const auto read = mean(k, k_dram_read);
  const auto write = mean(k, k_dram_write);
  if (read && write) {
    m.bytes = *read + *write;
    const std::uint64_t n = k.counters.at(k_dram_read).dispatches;
    m.bytes_source = fmt::format("{} + {}, mean over {} launch{}", k_dram_read, k_dram_write, n,
                                 n == 1 ? "" : "es");
    m.counters_used = {k_dram_read, k_dram_write};
  } else {
    m.unusable_reason = fmt::format(
        "no {} values for this kernel (metric not collected, or left out for its unit: see the "
        "counter file's problems): HBM bytes need {} and {}",
        !read && !write ? "DRAM byte"
        : !read         ? k_dram_read
                        : k_dram_write,
        k_dram_read, k_dram_write);
  }
  double tensor = 0.0, most = 0.0;
  std::string most_type;
  std::vector<std::string> tensor_from;
  for (const auto& [name, c] : k.counters) {
    if (!is_tensor_ops(name) || c.dispatches == 0) continue;
    const double ops = c.sum / static_cast<double>(c.dispatches);
    tensor += ops;
    tensor_from.push_back(name);
    if (ops > most) {
      most = ops;
      most_type = tensor_src_type(name);
    }
  }
  const auto ffma = mean(k, k_ffma), fadd = mean(k, k_fadd), fmul = mean(k, k_fmul);
  std::string joined;
  for (const auto& n : tensor_from) joined += (joined.empty() ? "" : " + ") + n;
  // Tensor pipes that ran nothing say the work ran elsewhere (a gemv on the FMA pipes): without
  // the FMA counters its FLOPs are not measured, not zero.
  if (!tensor_from.empty() && tensor > 0.0) {
    m.flops = tensor;
    m.flops_dtype = most_type;
    m.flops_source = fmt::format("{} (tensor ops), mean per launch", joined);
    m.counters_used.insert(m.counters_used.end(), tensor_from.begin(), tensor_from.end());
  } else if (ffma || fadd || fmul) {
    m.flops = 2.0 * ffma.value_or(0.0) + fadd.value_or(0.0) + fmul.value_or(0.0);
    m.flops_source = fmt::format(
        "2 x ffma + fadd + fmul (smsp__sass_thread_inst_executed_op_*_pred_on.sum), mean per "
        "launch{}",
        tensor_from.empty() ? "" : "; no tensor ops ran");
    for (const char* c : {k_ffma, k_fadd, k_fmul})
      if (k.counters.count(c) > 0) m.counters_used.emplace_back(c);
  } else if (!tensor_from.empty()) {
    m.flops_source = fmt::format(
        "not measured: {} counted no tensor ops and no FMA counter "
        "(smsp__sass_thread_inst_executed_op_ffma_pred_on.sum) was "
        "collected",
        joined);
  }
  return m;
}

}  // namespace

bool counter_used_by_measure(std::string_view name) {
  if (name.rfind("MfmaFlops", 0) == 0) return true;
  for (std::string_view c : {"FETCH_SIZE", "WRITE_SIZE", "SQ_INSTS_VALU_MFMA_MOPS_F8", k_dram_read,
                             k_dram_write, k_gpu_time, k_ffma, k_fadd, k_fmul})
    if (name == c) return true;
  return is_tensor_ops(name);
}

KernelMeasurement measure(const KernelCounters& k, const CounterOptions& options) {
  const bool nvidia =
      k.counters.count("FETCH_SIZE") + k.counters.count("WRITE_SIZE") == 0 &&
      std::any_of(k.counters.begin(), k.counters.end(), [](const auto& c) {
        return c.first.find("__") != std::string::npos && counter_used_by_measure(c.first);
      });
  KernelMeasurement m = nvidia ? measure_nvidia(k) : measure_amd(k, options);
  m.dispatches = k.dispatches;
  if (k.timed_dispatches > 0) {
    m.time_us = k.duration_ns_sum / static_cast<double>(k.timed_dispatches) / 1000.0;
    if (k.counters.count(k_gpu_time) > 0) {
      m.time_source = fmt::format("{}, mean over {} launch{}", k_gpu_time, k.timed_dispatches,
                                  k.timed_dispatches == 1 ? "" : "es");
      m.counters_used.emplace_back(k_gpu_time);
    } else {
      m.time_source =
          fmt::format("end - start timestamps, mean over {} dispatches", k.timed_dispatches);
    }
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

}  // namespace roofline::inputs
