// ChromeEvents -> TraceProfile: each GPU event joined to the CPU op that launched it (External
// id, else the runtime call's correlation id) and to the step that launched it (SERVING §2),
// then summed per kernel name. Also merge_profiles, which sums profiles of several files.
#include <algorithm>
#include <map>
#include <tuple>

#include "topn/chrome_events.hpp"
#include "topn/step_index.hpp"

namespace roofline {
namespace detail {
namespace {

constexpr std::uint8_t k_no_regime = 2;

std::uint8_t regime_code(const std::optional<Regime>& r) {
  return r ? static_cast<std::uint8_t>(*r == Regime::prefill ? 0 : 1) : k_no_regime;
}

struct CaseSum {
  double count = 0.0, us = 0.0;
};

// (OpShape, regime, the step's rows or -1)
using CaseKey = std::tuple<std::uint32_t, std::uint8_t, double>;

struct KernelSum {
  GpuEventKind kind = GpuEventKind::kernel;
  double calls = 0.0, us = 0.0;
  PerRegime<double> regime_calls, regime_us;
  std::map<CaseKey, CaseSum> cases;
};

// Sorted lookups over the records of one trace.
class EventLookup {
 public:
  explicit EventLookup(ChromeEvents& ev) : ev_(ev) {
    // Sorted once, in place (no second copy). External ids are unique in a trace; should one
    // repeat, the record that sorts first wins, whatever the file order.
    std::sort(ev.ops.begin(), ev.ops.end(), [](const OpRec& a, const OpRec& b) {
      return std::tie(a.external_id, a.shape, a.name) < std::tie(b.external_id, b.shape, b.name);
    });
    std::stable_sort(
        ev.runtime.begin(), ev.runtime.end(), [](const RuntimeRec& a, const RuntimeRec& b) {
          return std::tie(a.correlation, a.external_id) < std::tie(b.correlation, b.external_id);
        });
  }
  const OpRec* op(std::int64_t ext) const {
    if (ext < 0) return nullptr;
    auto it = std::lower_bound(ev_.ops.begin(), ev_.ops.end(), ext,
                               [](const OpRec& s, std::int64_t id) { return s.external_id < id; });
    return it != ev_.ops.end() && it->external_id == ext ? &*it : nullptr;
  }
  const RuntimeRec* runtime(std::int64_t corr) const {
    if (corr < 0) return nullptr;
    auto it =
        std::lower_bound(ev_.runtime.begin(), ev_.runtime.end(), corr,
                         [](const RuntimeRec& r, std::int64_t id) { return r.correlation < id; });
    return it != ev_.runtime.end() && it->correlation == corr ? &*it : nullptr;
  }

 private:
  ChromeEvents& ev_;
};

// The step a GPU event belongs to: the one holding its launch (the runtime event, else the
// launching op), or with GPU spans only the one holding the event itself.
const Step* step_of(const StepIndex& steps, const GpuEventRec& g, const RuntimeRec* launch,
                    const OpRec* op) {
  if (steps.steps.empty()) return nullptr;
  if (!steps.by_launch) return steps.find(g.device, g.ts_us);
  if (launch) return steps.find(launch->thread, launch->ts_us);
  if (op) return steps.find(op->thread, op->ts_us);
  return nullptr;
}

void add_regime(KernelSum& k, Regime r, double us) {
  k.regime_calls.at(r) = k.regime_calls.at(r).value_or(0.0) + 1.0;
  k.regime_us.at(r) = k.regime_us.at(r).value_or(0.0) + us;
}

TraceKernel kernel_of(const ChromeEvents& ev, std::uint32_t id, const KernelSum& k) {
  TraceKernel tk;
  tk.name = ev.names.at(id);
  tk.kind = k.kind;
  tk.calls = k.calls;
  tk.total_us = k.us;
  tk.regime_calls = k.regime_calls;
  tk.regime_us = k.regime_us;
  for (const auto& [key, sum] : k.cases) {
    const OpShape& shape = ev.shapes[std::get<0>(key)];
    tk.dtypes.insert(tk.dtypes.end(), shape.tensor_types.begin(), shape.tensor_types.end());
    if (shape.dims.empty()) continue;
    TraceCase c;
    c.dims = shape.dims;
    c.dtypes = shape.dtypes;
    if (std::get<1>(key) != k_no_regime)
      c.regime = std::get<1>(key) == 0 ? Regime::prefill : Regime::decode;
    if (std::get<2>(key) >= 0) c.rows = std::get<2>(key);
    c.count = sum.count;
    c.total_us = sum.us;
    tk.cases.push_back(std::move(c));
  }
  std::sort(tk.dtypes.begin(), tk.dtypes.end());
  tk.dtypes.erase(std::unique(tk.dtypes.begin(), tk.dtypes.end()), tk.dtypes.end());
  return tk;
}

}  // namespace

std::optional<StepSpan> parse_step_name(std::string_view name) {
  const StepNameParse parsed = parse_step_annotation(name);
  if (parsed.kind != StepNameKind::step) return std::nullopt;
  StepSpan s;
  s.name = parsed.step;
  s.prefill = parsed.step.prefill();
  s.rows = parsed.step.rows();
  s.batch = static_cast<std::int64_t>(parsed.step.decode_requests().value_or(0.0));
  return s;
}

TraceProfile aggregate_chrome_events(ChromeEvents& ev) {
  const StepIndex steps = build_step_index(ev);
  const EventLookup lookup(ev);
  std::vector<KernelSum> sums(ev.names.size());
  std::vector<bool> seen(ev.names.size(), false);
  for (const GpuEventRec& g : ev.gpu) {
    KernelSum& k = sums[g.name];
    if (!seen[g.name]) {
      seen[g.name] = true;
      k.kind = g.kind;
    }
    k.calls += 1.0;
    k.us += g.dur_us;
    const RuntimeRec* launch = lookup.runtime(g.correlation);
    const std::int64_t ext =
        g.external_id >= 0 ? g.external_id : (launch ? launch->external_id : -1);
    const OpRec* op = lookup.op(ext);
    const Step* step = step_of(steps, g, launch, op);
    std::optional<Regime> regime;
    if (step) {
      regime = step->prefill ? Regime::prefill : Regime::decode;
      add_regime(k, *regime, g.dur_us);
    }
    if (op && op->shape != k_no_id) {
      CaseSum& c = k.cases[{op->shape, regime_code(regime), step ? step->rows : -1.0}];
      c.count += 1.0;
      c.us += g.dur_us;
    }
  }

  TraceProfile p;
  p.source = "torch-trace";
  for (std::uint32_t id = 0; id < sums.size(); ++id)
    if (seen[id]) p.kernels.push_back(kernel_of(ev, id, sums[id]));
  std::sort(p.kernels.begin(), p.kernels.end(),
            [](const TraceKernel& a, const TraceKernel& b) { return a.name < b.name; });
  add_step_stats(steps, ev, p.steps);
  return p;
}

}  // namespace detail

namespace {

void add(PerRegime<double>& into, const PerRegime<double>& from) {
  for (Regime r : {Regime::prefill, Regime::decode})
    if (from.at(r)) into.at(r) = into.at(r).value_or(0.0) + *from.at(r);
}

}  // namespace

TraceProfile merge_profiles(std::vector<TraceProfile> profiles) {
  if (profiles.size() == 1) return std::move(profiles.front());
  TraceProfile out;
  std::map<std::string, TraceKernel> kernels;
  for (TraceProfile& p : profiles) {
    if (out.source.find(p.source) == std::string::npos)
      out.source += (out.source.empty() ? "" : "+") + p.source;
    detail::add_step_stats(p.steps, out.steps);
    for (TraceKernel& k : p.kernels) {
      auto [it, inserted] = kernels.try_emplace(k.name);
      TraceKernel& into = it->second;
      if (inserted) {
        into = std::move(k);
        continue;
      }
      into.calls += k.calls;
      into.total_us += k.total_us;
      add(into.regime_calls, k.regime_calls);
      add(into.regime_us, k.regime_us);
      into.dtypes.insert(into.dtypes.end(), k.dtypes.begin(), k.dtypes.end());
      std::sort(into.dtypes.begin(), into.dtypes.end());
      into.dtypes.erase(std::unique(into.dtypes.begin(), into.dtypes.end()), into.dtypes.end());
      for (TraceCase& c : k.cases) {
        auto same = std::find_if(into.cases.begin(), into.cases.end(), [&](const TraceCase& x) {
          return x.dims == c.dims && x.dtypes == c.dtypes && x.regime == c.regime &&
                 x.rows == c.rows;
        });
        if (same == into.cases.end()) {
          into.cases.push_back(std::move(c));
        } else {
          same->count += c.count;
          same->total_us += c.total_us;
        }
      }
    }
  }
  for (auto& [name, k] : kernels) out.kernels.push_back(std::move(k));
  return out;
}

}  // namespace roofline
