// The quantization sweep of a kernel trace without ops (dispatch_quant.hpp, docs/method.md §23.5).
#include "roofline/topn/readers/dispatch_quant.hpp"

#include <optional>

#include "roofline/topn/names/quant_sweep.hpp"

namespace roofline::topn::detail {

std::vector<InputQuantSums> input_quant_of_dispatches(std::vector<QueuedDispatch>& dispatches,
                                                      const std::vector<std::string>& names) {
  std::vector<InputQuantSums> out(names.size());
  std::vector<QuantRole> roles(names.size(), QuantRole::other);
  std::vector<std::optional<QuantWrite>> writes(names.size());
  const ClassRules rules = shipped_class_rules();
  for (std::size_t n = 0; n < names.size(); ++n) {
    roles[n] = quant_role_of(names[n], "", rules);
    if (roles[n] == QuantRole::quant) writes[n] = quantization_by_name(names[n]);
  }
  std::vector<SweepLaunch> launches;
  launches.reserve(dispatches.size());
  for (std::uint32_t i = 0; i < dispatches.size(); ++i)
    launches.push_back({dispatches[i].queue, dispatches[i].start, i});
  quant_sweep(
      launches, [&](std::uint32_t i) { return roles[dispatches[i].name]; },
      [&](std::uint32_t i) { return writes[dispatches[i].name]; },
      [&](std::uint32_t i, const QuantWrite& w) {
        out[dispatches[i].name][{w.dtype, w.by, "before it on its queue"}] += 1.0;
      });
  return out;
}

void DispatchLog::add(std::int64_t queue, double start, const std::string& name) {
  auto [it, fresh] = ids_.try_emplace(name, static_cast<std::uint32_t>(names_.size()));
  if (fresh) names_.push_back(name);
  list_.push_back({queue, start, it->second});
}

void DispatchLog::attach(std::vector<TraceKernel>& kernels) {
  std::vector<InputQuantSums> quant = input_quant_of_dispatches(list_, names_);
  for (TraceKernel& k : kernels)
    if (auto id = ids_.find(k.name); id != ids_.end()) k.input_quant = std::move(quant[id->second]);
}

}  // namespace roofline::topn::detail
