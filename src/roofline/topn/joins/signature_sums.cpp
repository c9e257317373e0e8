// A kernel's launches summed per signature, and the inheritance rule for launches without a
// launching op (docs/method.md §22.8).
#include "roofline/topn/joins/signature_sums.hpp"

#include <algorithm>

namespace roofline::topn::detail {
namespace {

bool shaped(const ChromeEvents& ev, const SigKey& k) {
  const std::uint32_t shape = std::get<1>(k);
  return shape != k_no_id && !ev.shapes[shape].dims.empty();
}

void add_step(StepKindCounts& c, StepKind k, double n) {
  if (k == StepKind::prefill) c.prefill += n;
  if (k == StepKind::decode) c.decode += n;
  if (k == StepKind::mixed) c.mixed += n;
}

std::optional<Regime> regime_of(const StepKindCounts& c) {
  const double prefill = c.prefill + c.mixed;
  if (prefill > 0 && !(c.decode > 0)) return Regime::prefill;
  if (c.decode > 0 && !(prefill > 0)) return Regime::decode;
  return std::nullopt;
}

std::string most_common(const std::map<std::uint32_t, double>& m, const ChromeEvents& ev) {
  const std::pair<const std::uint32_t, double>* best = nullptr;
  for (const auto& kv : m)
    if (kv.first != k_no_id && (!best || kv.second > best->second)) best = &kv;
  return best ? ev.labels.at(best->first) : std::string();
}

TraceCase case_of(const SigKey& key, SigSum& s, const ChromeEvents& ev) {
  TraceCase c;
  const auto [op, shape, geometry, module, collective] = key;
  if (shape != k_no_id) {
    c.dims = ev.shapes[shape].dims;
    c.dtypes = ev.shapes[shape].dtypes;
    c.key_scalars = ev.shapes[shape].key_scalars;
  }
  if (op != k_no_id) c.op = ev.labels.at(op);
  if (geometry != k_no_id) read_geometry(ev.geometries.at(geometry), c.grid, c.block);
  c.module = most_common(s.modules, ev);
  c.collective = most_common(s.collectives, ev);
  c.call_site = most_common(s.call_sites, ev);
  c.library = most_common(s.libraries, ev);
  c.count = s.count;
  c.total_us = s.us;
  c.min_us = s.min_us;
  c.max_us = s.max_us;
  c.first_us = s.first_us;
  c.durations_us = std::move(s.durations);  // the signature is done with: no second copy
  c.steps = s.steps;
  c.step_count = s.step_count;
  c.regime = regime_of(s.steps);
  if (!s.rows_differ) c.rows = s.rows;
  c.inherited = s.inherited;
  c.replay = s.replay;
  for (const auto& [arg, r] : s.scalars)
    c.scalar_ranges.push_back(
        ScalarRange{arg, op_scalar_name(c.op, arg), r.min, r.max, r.sum, r.n});
  return c;
}

}  // namespace

void SigSum::add(const SigLaunch& l, const ChromeEvents& ev) {
  first_us = count > 0 ? std::min(first_us, l.ts_us) : l.ts_us;
  min_us = count > 0 ? std::min(min_us, l.us) : l.us;
  max_us = count > 0 ? std::max(max_us, l.us) : l.us;
  count += 1.0;
  us += l.us;
  durations.push_back(static_cast<float>(l.us));
  add_step(steps, l.step, 1.0);
  if (l.step_id && l.step_id != last_step) step_count += 1.0;
  if (l.step_id) last_step = l.step_id;
  if (l.step != StepKind::none) {
    if (rows && l.rows != rows) rows_differ = true;
    if (!rows) rows = l.rows;
  }
  modules[l.module] += 1.0;
  if (l.collective != k_no_id) collectives[l.collective] += 1.0;
  if (l.call_site != k_no_id) call_sites[l.call_site] += 1.0;
  if (l.library != k_no_id) libraries[l.library] += 1.0;
  if (!l.op || l.op->scalars == k_no_id) return;
  const ScalarSet& set = ev.scalar_sets[l.op->scalars];
  for (std::uint32_t i = 0; i < set.size; ++i) {
    const OpScalar& v = ev.scalars[set.begin + i];
    auto [it, fresh] = scalars.try_emplace(v.arg, ScalarSum{v.value, v.value, 0.0, 0.0});
    ScalarSum& r = it->second;
    r.min = std::min(r.min, v.value);
    r.max = std::max(r.max, v.value);
    r.sum += v.value;
    r.n += 1.0;
  }
}

void SigSum::merge(const SigSum& o) {
  if (!(o.count > 0)) return;
  first_us = count > 0 ? std::min(first_us, o.first_us) : o.first_us;
  min_us = count > 0 ? std::min(min_us, o.min_us) : o.min_us;
  max_us = count > 0 ? std::max(max_us, o.max_us) : o.max_us;
  count += o.count;
  us += o.us;
  durations.insert(durations.end(), o.durations.begin(), o.durations.end());
  steps.prefill += o.steps.prefill;
  steps.decode += o.steps.decode;
  steps.mixed += o.steps.mixed;
  step_count += o.step_count;
  if (o.rows_differ || (rows && o.rows && rows != o.rows)) rows_differ = true;
  if (!rows) rows = o.rows;
  for (const auto& [m, n] : o.modules) modules[m] += n;
  for (const auto& [m, n] : o.collectives) collectives[m] += n;
  for (const auto& [m, n] : o.call_sites) call_sites[m] += n;
  for (const auto& [m, n] : o.libraries) libraries[m] += n;
  for (const auto& [arg, r] : o.scalars) {
    auto [it, fresh] = scalars.try_emplace(arg, r);
    if (fresh) continue;
    it->second.min = std::min(it->second.min, r.min);
    it->second.max = std::max(it->second.max, r.max);
    it->second.sum += r.sum;
    it->second.n += r.n;
  }
  inherited += o.inherited;
  replay = replay || o.replay;
}

void KernelSignatures::add(const SigKey& key, bool orphan, bool replay, const SigLaunch& l,
                           const ChromeEvents& ev) {
  SigSum& s = (orphan ? orphans : sigs)[key];
  if (orphan && !l.launched) {
    SigLaunch stepless = l;  // no launch of its own: in no step (§22.8)
    stepless.step = StepKind::none;
    stepless.step_id = nullptr;
    stepless.rows.reset();
    s.add(stepless, ev);
  } else {
    s.add(l, ev);
  }
  if (replay) s.replay = true;
}

std::vector<TraceCase> KernelSignatures::finish(const ChromeEvents& ev) {
  std::map<SigKey, SigSum> apart;  // orphans that inherit nothing
  for (auto& [key, orphan] : orphans) {
    const SigKey* match = nullptr;
    std::size_t same_geometry = 0;
    for (const auto& kv : sigs) {
      if (std::get<2>(kv.first) != std::get<2>(key) || std::get<2>(kv.first) == k_no_id) continue;
      ++same_geometry;
      match = &kv.first;
    }
    if (same_geometry == 1 && shaped(ev, *match)) {
      orphan.inherited = orphan.count;
      sigs[*match].merge(orphan);
    } else {
      apart[key].merge(orphan);
    }
  }
  orphans.clear();
  for (const auto& [key, s] : apart) sigs[key].merge(s);
  std::vector<TraceCase> out;
  for (auto& [key, s] : sigs) out.push_back(case_of(key, s, ev));
  // The order the signatures first ran in (docs/method.md §22.8): a kernel launched twice a
  // layer, once per stage, shows its stages so.
  std::vector<std::size_t> by_start(out.size());
  for (std::size_t i = 0; i < out.size(); ++i) by_start[i] = i;
  std::stable_sort(by_start.begin(), by_start.end(),
                   [&](std::size_t a, std::size_t b) { return out[a].first_us < out[b].first_us; });
  for (std::size_t rank = 0; rank < by_start.size(); ++rank) out[by_start[rank]].order = rank;
  std::stable_sort(out.begin(), out.end(),
                   [](const TraceCase& a, const TraceCase& b) { return a.count > b.count; });
  return out;
}

void read_geometry(const std::string& text, std::vector<std::int64_t>& grid,
                   std::vector<std::int64_t>& block) {
  std::vector<std::int64_t> v;
  std::int64_t cur = 0;
  for (char ch : text) {
    if (ch >= '0' && ch <= '9') {
      cur = cur * 10 + (ch - '0');
    } else {
      v.push_back(cur);
      cur = 0;
    }
  }
  v.push_back(cur);
  if (v.size() != 6) return;
  grid.assign(v.begin(), v.begin() + 3);
  block.assign(v.begin() + 3, v.end());
}

}  // namespace roofline::topn::detail
