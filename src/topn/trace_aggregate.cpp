// ChromeEvents -> TraceProfile: each GPU event joined to the CPU op that launched it (External
// id, else the runtime call's correlation id) and to the step annotation it ran in, then summed
// per kernel name. Also merge_profiles, which sums profiles of several files.
#include <algorithm>
#include <map>
#include <tuple>

#include "topn/chrome_events.hpp"

namespace roofline {
namespace detail {
namespace {

// Digits at `at` as an integer; advances `at`. False when there is no digit.
bool read_uint(std::string_view s, std::size_t& at, std::int64_t& out) {
  const std::size_t begin = at;
  out = 0;
  while (at < s.size() && s[at] >= '0' && s[at] <= '9' && at - begin < 15)
    out = out * 10 + (s[at++] - '0');
  return at > begin;
}

constexpr std::uint8_t k_no_regime = 2;

std::uint8_t regime_code(const std::optional<Regime>& r) {
  return r ? static_cast<std::uint8_t>(*r == Regime::prefill ? 0 : 1) : k_no_regime;
}

struct CaseSum {
  double count = 0.0, us = 0.0;
};

struct KernelSum {
  GpuEventKind kind = GpuEventKind::kernel;
  double calls = 0.0, us = 0.0;
  PerRegime<double> regime_calls, regime_us;
  std::map<std::pair<std::uint32_t, std::uint8_t>, CaseSum> cases;  // (OpShape, regime)
};

// The step span (of the event's device) that contains `ts`, if any.
const StepSpan* find_step(const std::vector<StepSpan>& steps, std::int32_t device, double ts) {
  auto it =
      std::upper_bound(steps.begin(), steps.end(), std::pair{device, ts},
                       [](const std::pair<std::int32_t, double>& key, const StepSpan& s) {
                         return std::tie(key.first, key.second) < std::tie(s.device, s.begin_us);
                       });
  while (it != steps.begin()) {
    --it;
    if (it->device != device) return nullptr;
    if (ts < it->end_us) return &*it;
    if (it->end_us <= it->begin_us) continue;  // an empty span: look further back
    return nullptr;
  }
  return nullptr;
}

}  // namespace

std::optional<StepSpan> parse_step_name(std::string_view name) {
  if (name.rfind("execute", 0) != 0) return std::nullopt;
  const std::size_t c = name.find("context_");
  if (c == std::string_view::npos) return std::nullopt;
  std::size_t at = c + 8;
  std::int64_t nreq = 0, ntok = 0, batch = 0;
  if (!read_uint(name, at, nreq) || at >= name.size() || name[at] != '(') return std::nullopt;
  ++at;
  if (!read_uint(name, at, ntok) || at >= name.size() || name[at] != ')') return std::nullopt;
  const std::size_t g = name.find("generation_", at);
  if (g == std::string_view::npos) return std::nullopt;
  at = g + 11;
  if (!read_uint(name, at, batch) || at >= name.size() || name[at] != '(') return std::nullopt;
  StepSpan s;
  s.prefill = ntok > 0;
  s.rows = static_cast<double>(ntok + batch);
  s.batch = batch;
  return s;
}

TraceProfile aggregate_chrome_events(ChromeEvents& ev) {
  // Lookup tables sorted once, in place (no second copy). External ids are unique in a trace;
  // should one repeat, the pair with the smaller value wins, whatever the file order.
  std::sort(ev.op_shapes.begin(), ev.op_shapes.end(), [](const auto& a, const auto& b) {
    return std::tie(a.external_id, a.shape) < std::tie(b.external_id, b.shape);
  });
  std::sort(ev.launches.begin(), ev.launches.end(), [](const auto& a, const auto& b) {
    return std::tie(a.correlation, a.external_id) < std::tie(b.correlation, b.external_id);
  });
  std::stable_sort(ev.steps.begin(), ev.steps.end(), [](const StepSpan& a, const StepSpan& b) {
    return std::tie(a.device, a.begin_us) < std::tie(b.device, b.begin_us);
  });
  auto shape_of = [&](std::int64_t ext) -> std::optional<std::uint32_t> {
    auto it = std::lower_bound(
        ev.op_shapes.begin(), ev.op_shapes.end(), ext,
        [](const ExternalShape& s, std::int64_t id) { return s.external_id < id; });
    if (it == ev.op_shapes.end() || it->external_id != ext) return std::nullopt;
    return it->shape;
  };
  auto external_of = [&](std::int64_t corr) -> std::int64_t {
    auto it =
        std::lower_bound(ev.launches.begin(), ev.launches.end(), corr,
                         [](const Correlation& c, std::int64_t id) { return c.correlation < id; });
    return it != ev.launches.end() && it->correlation == corr ? it->external_id : -1;
  };

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
    std::optional<Regime> regime;
    if (!ev.steps.empty())
      if (const StepSpan* s = find_step(ev.steps, g.device, g.ts_us))
        regime = s->prefill ? Regime::prefill : Regime::decode;
    if (regime) {
      k.regime_calls.at(*regime) = k.regime_calls.at(*regime).value_or(0.0) + 1.0;
      k.regime_us.at(*regime) = k.regime_us.at(*regime).value_or(0.0) + g.dur_us;
    }
    const std::int64_t ext = g.by_correlation ? external_of(g.link) : g.link;
    if (ext < 0) continue;
    if (auto shape = shape_of(ext)) {
      CaseSum& c = k.cases[{*shape, regime_code(regime)}];
      c.count += 1.0;
      c.us += g.dur_us;
    }
  }

  TraceProfile p;
  p.source = "torch-trace";
  p.device = choose_trace_device(ev.meta, ev.gpu);
  p.world_size = ev.meta.world_size;
  for (std::uint32_t id = 0; id < sums.size(); ++id) {
    if (!seen[id]) continue;
    const KernelSum& k = sums[id];
    TraceKernel tk;
    tk.name = ev.names.at(id);
    tk.kind = k.kind;
    tk.calls = k.calls;
    tk.total_us = k.us;
    tk.regime_calls = k.regime_calls;
    tk.regime_us = k.regime_us;
    for (const auto& [key, sum] : k.cases) {
      const OpShape& shape = ev.shapes[key.first];
      tk.dtypes.insert(tk.dtypes.end(), shape.tensor_types.begin(), shape.tensor_types.end());
      if (shape.dims.empty()) continue;
      TraceCase c;
      c.dims = shape.dims;
      c.dtypes = shape.dtypes;
      if (key.second != k_no_regime) c.regime = key.second == 0 ? Regime::prefill : Regime::decode;
      c.count = sum.count;
      c.total_us = sum.us;
      tk.cases.push_back(std::move(c));
    }
    std::sort(tk.dtypes.begin(), tk.dtypes.end());
    tk.dtypes.erase(std::unique(tk.dtypes.begin(), tk.dtypes.end()), tk.dtypes.end());
    p.kernels.push_back(std::move(tk));
  }
  std::sort(p.kernels.begin(), p.kernels.end(),
            [](const TraceKernel& a, const TraceKernel& b) { return a.name < b.name; });
  for (const StepSpan& s : ev.steps) {
    if (s.prefill) {
      p.steps.n_prefill += 1.0;
      p.steps.prefill_rows_sum += s.rows;
    } else {
      p.steps.n_decode += 1.0;
      p.steps.decode_batches[s.batch] += 1.0;
    }
  }
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
    out.steps.n_prefill += p.steps.n_prefill;
    out.steps.n_decode += p.steps.n_decode;
    out.steps.prefill_rows_sum += p.steps.prefill_rows_sum;
    detail::merge_trace_device(out, p);
    for (const auto& [batch, n] : p.steps.decode_batches) out.steps.decode_batches[batch] += n;
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
          return x.dims == c.dims && x.dtypes == c.dtypes && x.regime == c.regime;
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
