// ChromeEvents -> TraceProfile: each GPU event joined to the CPU op that launched it (External
// id, else the runtime call's correlation id) and to the step that launched it
// (docs/method.md §22.7), then summed per kernel name. Also merge_profiles, which sums profiles of
// several files.
#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "roofline/topn/joins/capture_join.hpp"
#include "roofline/topn/joins/event_lookup.hpp"
#include "roofline/topn/joins/input_quant.hpp"
#include "roofline/topn/joins/launch_stacks.hpp"
#include "roofline/topn/joins/op_attribution.hpp"
#include "roofline/topn/joins/signature_sums.hpp"
#include "roofline/topn/joins/step_index.hpp"
#include "roofline/topn/joins/stream_neighbours.hpp"
#include "roofline/topn/joins/trace_aggregate.hpp"
#include "roofline/topn/layer.hpp"
#include "roofline/topn/readers/chrome_events.hpp"

namespace roofline::topn {
namespace detail {
namespace {

struct KernelSum {
  GpuEventKind kind = GpuEventKind::kernel;
  double calls = 0.0, us = 0.0;
  PerRegime<double> regime_calls, regime_us;
  KernelSignatures signatures;
  std::set<std::uint32_t> shapes;  // every OpShape its launches had
  double replay_calls = 0.0, replay_with_shapes = 0.0;
  std::map<std::pair<std::uint32_t, std::uint32_t>, double> launchers;  // (op, module) labels
  // The last launcher and shape added (a kernel's launches mostly repeat them): no map search.
  std::pair<std::uint32_t, std::uint32_t> last_launcher{k_no_id, k_no_id};
  double* last_launcher_calls = nullptr;
  std::uint32_t last_shape = k_no_id;
};

// The step a GPU event belongs to: the one holding its launch (the runtime event, else the
// launching op), or with GPU spans only the one holding the event itself.
const Step* step_of(const StepIndex& steps, const ChromeEvents& ev, const GpuEventRec& g,
                    const RuntimeRec* launch, const OpRec* op) {
  if (steps.steps.empty()) return nullptr;
  if (!steps.by_launch) return steps.find(ev.device_of(g), g.ts_us);
  if (launch) return steps.find(launch->thread, launch->ts_us);
  if (op) return steps.find(op->thread, op->ts_us);
  return nullptr;
}

void add_regime(KernelSum& k, Regime r, double us) {
  k.regime_calls.at(r) = k.regime_calls.at(r).value_or(0.0) + 1.0;
  k.regime_us.at(r) = k.regime_us.at(r).value_or(0.0) + us;
}

TraceKernel kernel_of(const ChromeEvents& ev, std::uint32_t id, KernelSum& k) {
  TraceKernel tk;
  tk.name = ev.names.at(id);
  tk.kind = k.kind;
  tk.calls = k.calls;
  tk.total_us = k.us;
  tk.regime_calls = k.regime_calls;
  tk.regime_us = k.regime_us;
  tk.replay_calls = k.replay_calls;
  tk.replay_with_shapes = k.replay_with_shapes;
  for (const auto& [who, n] : k.launchers) {
    const auto text = [&](std::uint32_t label) {
      return label == k_no_id ? std::string() : ev.labels.at(label);
    };
    tk.launchers[{text(who.first), text(who.second)}] += n;
  }
  for (std::uint32_t shape : k.shapes) {
    const OpShape& op_shape = ev.shapes[shape];
    tk.dtypes.insert(tk.dtypes.end(), op_shape.tensor_types.begin(), op_shape.tensor_types.end());
  }
  tk.cases = k.signatures.finish(ev);
  std::sort(tk.dtypes.begin(), tk.dtypes.end());
  tk.dtypes.erase(std::unique(tk.dtypes.begin(), tk.dtypes.end()), tk.dtypes.end());
  return tk;
}

// What the launch of one GPU event gives it: its op's shapes, name and module (interned in the
// trace's tables), from the eager op or, for a replay, from the captured launch it pairs with.
struct Origin {
  std::uint32_t shape = k_no_id, op = k_no_id, module = k_no_id;
  // the call stack's (eager launches)
  std::uint32_t collective = k_no_id, call_site = k_no_id, library = k_no_id;
};

class Origins {
 public:
  Origins(ChromeEvents& ev, const CaptureSet* cap)
      : ev_(ev), cap_(cap), shape_ids_(cap ? cap->shapes.size() : 0, k_no_id) {}
  // An eager launch: its op's shape, name and module; a launch with no op (a custom kernel called
  // from Python) its module from the spans enclosing its runtime call; both what the call stack
  // says (docs/method.md §22.10).
  Origin eager(const GpuOrigin& g, const OpModules& modules, const StackIndex& stacks) {
    if (const ResolvedOrigin* r = g.resolved)  // no module span on its thread
      return {r->shape, r->op, k_no_id, r->collective, r->call_site, r->library};
    const RuntimeRec* launch = g.launch();
    const OpRec* op = g.op();
    Origin o;
    if (op)
      o = {op->shape, op->name, modules.path_id_at(op->thread, op->ts_us, ev_)};
    else if (launch)
      o.module = modules.path_id_at(launch->thread, launch->ts_us, ev_);
    const std::int32_t thread = launch ? launch->thread : op ? op->thread : -1;
    if (thread >= 0 && !stacks.empty()) {
      const LaunchStack s = stacks.at(thread, launch ? launch->ts_us : op->ts_us);
      o.collective = s.collective;
      o.call_site = s.call_site;
      o.library = s.library;
    }
    return o;
  }
  Origin captured(const CapturedLaunch* c) {
    Origin o;
    if (!c || !cap_) return o;
    if (c->shape != k_no_capture_id) {
      std::uint32_t& id = shape_ids_[c->shape];
      if (id == k_no_id) {
        const CaptureShape& s = cap_->shapes[c->shape];
        id = intern_op_shape(ev_, OpShape{s.dims, s.dtypes, s.tensor_types, {}});
      }
      o.shape = id;
    }
    if (c->op != k_no_capture_id) o.op = ev_.labels.intern(cap_->texts[c->op]);
    if (c->module != k_no_capture_id) o.module = ev_.labels.intern(cap_->texts[c->module]);
    return o;
  }

 private:
  ChromeEvents& ev_;
  const CaptureSet* cap_;
  std::vector<std::uint32_t> shape_ids_;  // capture shape -> trace shape
};

// The device most GPU events ran on (ties: the lower id); -1 when none names one.
std::int64_t kernels_device(const ChromeEvents& ev) {
  std::map<std::int32_t, std::size_t> count;
  for (const GpuEventRec& g : ev.gpu)
    if (ev.device_of(g) >= 0) ++count[ev.device_of(g)];
  std::int64_t best = -1;
  std::size_t most = 0;
  for (const auto& [dev, n] : count)
    if (n > most) {
      best = dev;
      most = n;
    }
  return best;
}

StepKind step_kind(const Step* step) {
  if (!step) return StepKind::none;
  if (!step->prefill) return StepKind::decode;
  return step->name.decode_requests().value_or(0.0) > 0 ? StepKind::mixed : StepKind::prefill;
}

// One launch into its kernel's signatures (docs/method.md §22.8): keyed on its op, the op's shape
// (dims, dtypes, key scalars) and its grid and block. A launch whose op recorded no dims (or that
// had none) and is not a graph replay is an orphan: finish() decides whether it inherits.
void add_signature(const ChromeEvents& ev, KernelSum& k, const GpuEventRec& g, const Origin& origin,
                   const Step* step, const OpRec* op, bool replay, bool launched) {
  const bool shaped = origin.shape != k_no_id && !ev.shapes[origin.shape].dims.empty();
  if (origin.shape != k_no_id && origin.shape != k.last_shape) {
    k.shapes.insert(origin.shape);
    k.last_shape = origin.shape;
  }
  SigLaunch l;
  l.us = g.dur_us;
  l.ts_us = g.ts_us;
  l.step = step_kind(step);
  l.step_id = step;
  if (step && step->rows_known) l.rows = step->rows;
  l.module = origin.module;
  l.collective = origin.collective;
  l.call_site = origin.call_site;
  l.library = origin.library;
  l.op = op;
  l.launched = launched;
  // Without shapes, the module and the collective tell the work apart (docs/method.md §22.10).
  const std::uint32_t module = shaped || replay ? k_no_id : origin.module;
  const std::uint32_t collective = shaped || replay ? k_no_id : origin.collective;
  k.signatures.add(SigKey{origin.op, origin.shape, g.geometry, module, collective},
                   !shaped && !replay, replay, l, ev);
}

// GPU event `g` added to its kernel's sums `k`: its time, under its step's regime (none without
// a step), its launcher, and its signature (the launching op `op` is not read for a replay); a
// replay counts with or without shapes (in `stats` too).
void add_event(const ChromeEvents& ev, KernelSum& k, const GpuEventRec& g, const Origin& origin,
               const Step* step, const OpRec* op, bool replay, bool launched,
               GraphReplayStats& stats) {
  k.calls += 1.0;
  k.us += g.dur_us;
  if (step) add_regime(k, step->prefill ? Regime::prefill : Regime::decode, g.dur_us);
  const bool shaped = origin.shape != k_no_id && !ev.shapes[origin.shape].dims.empty();
  if (replay) {
    k.replay_calls += 1.0;
    if (shaped) {
      k.replay_with_shapes += 1.0;
      stats.with_shapes += 1.0;
    }
  }
  const std::pair launcher{origin.op, origin.module};
  if (!k.last_launcher_calls || launcher != k.last_launcher) {
    k.last_launcher = launcher;
    k.last_launcher_calls = &k.launchers[launcher];  // a map's values stay where they are
  }
  *k.last_launcher_calls += 1.0;
  add_signature(ev, k, g, origin, step, replay ? nullptr : op, replay, launched);
}

// The kernels that occur (`seen`), by name, with the quantizations their inputs went through and
// each signature's neighbours on its stream (by its grid and block).
std::vector<TraceKernel> kernels_by_name(const ChromeEvents& ev, std::vector<KernelSum>& sums,
                                         const std::vector<bool>& seen,
                                         std::vector<InputQuantSums>& quant,
                                         std::vector<NeighboursByGeometry>& neighbours) {
  std::vector<TraceKernel> kernels;
  for (std::uint32_t id = 0; id < sums.size(); ++id)
    if (seen[id]) {
      kernels.push_back(kernel_of(ev, id, sums[id]));
      kernels.back().input_quant = std::move(quant[id]);
      for (TraceCase& c : kernels.back().cases)
        if (auto n = neighbours[id].find(
                {c.grid, c.block, c.dims.empty() && !c.replay ? c.module : std::string()});
            n != neighbours[id].end()) {
          c.before = n->second.before;
          c.after = n->second.after;
        }
    }
  std::sort(kernels.begin(), kernels.end(),
            [](const TraceKernel& a, const TraceKernel& b) { return a.name < b.name; });
  return kernels;
}

}  // namespace

TraceProfile aggregate_chrome_events(ChromeEvents& ev, const CaptureSet* captures) {
  const StepIndex steps = build_step_index(ev);
  std::vector<StepSpan>().swap(ev.steps);  // the steps hold what the joins read of the spans
  const EventLookup lookup(ev);
  const OpModules modules(ev);
  const StackIndex stacks(ev.frames);
  ReplayJoin join = join_replays(ev, lookup, steps, captures);
  Origins origins(ev, captures);
  std::vector<KernelSum> sums(ev.names.size());
  std::vector<bool> seen(ev.names.size(), false);
  // Per GPU event, the module that keys its signature (none for most): its neighbours' key too.
  std::vector<std::uint32_t> sig_modules;
  for (std::size_t i = 0; i < ev.gpu.size(); ++i) {
    const GpuEventRec& g = ev.gpu[i];
    KernelSum& k = sums[g.name];
    if (!seen[g.name]) {
      seen[g.name] = true;
      k.kind = g.kind;
    }
    const GpuOrigin o = lookup.origin(i);
    const RuntimeRec* launch = o.launch();
    const OpRec* op = o.op();
    const bool replay = join.replayed(i);
    const Origin origin =
        replay ? origins.captured(join.paired(i)) : origins.eager(o, modules, stacks);
    add_event(ev, k, g, origin, step_of(steps, ev, g, launch, op), op, replay, launch || op,
              join.stats);
    const bool shaped = origin.shape != k_no_id && !ev.shapes[origin.shape].dims.empty();
    if (!shaped && !replay && origin.module != k_no_id) {
      if (sig_modules.empty()) sig_modules.assign(ev.gpu.size(), k_no_id);
      sig_modules[i] = origin.module;
    }
  }

  TraceProfile p;
  p.source = "torch-trace";
  p.device = choose_trace_device(ev.meta, kernels_device(ev));
  p.world_size = ev.meta.world_size;
  std::vector<InputQuantSums> quant = input_quant_by_name(ev, lookup, join);
  std::vector<NeighboursByGeometry> neighbours = stream_neighbours(ev, sig_modules);
  p.kernels = kernels_by_name(ev, sums, seen, quant, neighbours);
  add_step_stats(steps, ev, p.steps);
  p.graph = std::move(join.stats);
  return p;
}

}  // namespace detail

namespace {

void add(PerRegime<double>& into, const PerRegime<double>& from) {
  for (Regime r : {Regime::prefill, Regime::decode})
    if (from.at(r)) into.at(r) = into.at(r).value_or(0.0) + *from.at(r);
}

void add_graph_stats(GraphReplayStats& from, GraphReplayStats& into) {
  into.capture_given = into.capture_given || from.capture_given;
  into.capture_windows = std::max(into.capture_windows, from.capture_windows);  // one set for all
  into.replays += from.replays;
  into.launches += from.launches;
  into.paired += from.paired;
  into.with_shapes += from.with_shapes;
  for (const auto& [reason, n] : from.unpaired_reasons) {
    into.unpaired_reasons[reason].first += n.first;
    into.unpaired_reasons[reason].second += n.second;
  }
  for (UnpairedReplay& u : from.unpaired_examples)
    if (into.unpaired_examples.size() < 10) into.unpaired_examples.push_back(std::move(u));
}

bool same_signature(const TraceCase& a, const TraceCase& b) {
  const bool keyed = a.dims.empty() && !a.replay;  // module and collective key the shapeless
  return a.op == b.op && a.dims == b.dims && a.dtypes == b.dtypes &&
         a.key_scalars == b.key_scalars && a.grid == b.grid && a.block == b.block &&
         (!keyed || (a.module == b.module && a.collective == b.collective));
}

// One rank's signature into the merged kernel's (several traces, docs/method.md §22.8).
void merge_case(TraceCase c, std::vector<TraceCase>& into) {
  auto same = std::find_if(into.begin(), into.end(),
                           [&](const TraceCase& x) { return same_signature(x, c); });
  if (same == into.end()) {
    into.push_back(std::move(c));
    return;
  }
  TraceCase& s = *same;
  s.min_us = std::min(s.min_us, c.min_us);
  s.max_us = std::max(s.max_us, c.max_us);
  s.count += c.count;
  s.total_us += c.total_us;
  s.durations_us.insert(s.durations_us.end(), c.durations_us.begin(), c.durations_us.end());
  s.steps.prefill += c.steps.prefill;
  s.steps.decode += c.steps.decode;
  s.steps.mixed += c.steps.mixed;
  s.step_count += c.step_count;
  if (s.regime != c.regime) s.regime.reset();
  if (s.rows != c.rows) s.rows.reset();
  s.inherited += c.inherited;
  s.replay = s.replay || c.replay;
  for (const auto& [k, n] : c.before) s.before[k] += n;
  for (const auto& [k, n] : c.after) s.after[k] += n;
  for (const ScalarRange& r : c.scalar_ranges) {
    auto it = std::find_if(s.scalar_ranges.begin(), s.scalar_ranges.end(),
                           [&](const ScalarRange& x) { return x.arg == r.arg; });
    if (it == s.scalar_ranges.end()) {
      s.scalar_ranges.push_back(r);
      continue;
    }
    it->min = std::min(it->min, r.min);
    it->max = std::max(it->max, r.max);
    it->sum += r.sum;
    it->n += r.n;
  }
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
    add_graph_stats(p.graph, out.graph);
    detail::merge_trace_device(out, p);
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
      into.replay_calls += k.replay_calls;
      into.replay_with_shapes += k.replay_with_shapes;
      for (const auto& [who, n] : k.launchers) into.launchers[who] += n;
      for (const auto& [how, n] : k.input_quant) into.input_quant[how] += n;
      into.dtypes.insert(into.dtypes.end(), k.dtypes.begin(), k.dtypes.end());
      std::sort(into.dtypes.begin(), into.dtypes.end());
      into.dtypes.erase(std::unique(into.dtypes.begin(), into.dtypes.end()), into.dtypes.end());
      for (TraceCase& c : k.cases) merge_case(std::move(c), into.cases);
    }
  }
  for (auto& [name, k] : kernels) out.kernels.push_back(std::move(k));
  return out;
}

}  // namespace roofline::topn
