// Graph replays -> their capture windows (docs/method.md §22.7, steps 1-3). A replay is the set of
// GPU events sharing the correlation of one *GraphLaunch; in GPU order each is paired with a
// captured launch by (name, occurrence), so it gets that launch's op, shapes and module.
#include <algorithm>
#include <filesystem>
#include <map>
#include <tuple>

#include <fmt/format.h>

#include "roofline/topn/joins/capture_join.hpp"
#include "roofline/topn/layer.hpp"

namespace roofline::topn::detail {
namespace {

constexpr std::size_t k_max_examples = 10;
constexpr std::uint32_t k_unknown_name = 0xFFFFFFFEu;  // a captured name the trace never ran

struct Replay {
  std::size_t begin = 0, end = 0;  // range of `members` (ev.gpu indexes, GPU order)
  const RuntimeRec* launch = nullptr;
};

// A window as the join sees it: its kernel launches' names as trace name ids.
struct WindowKey {
  std::vector<std::uint32_t> kernels;  // name ids (k_no_id when the launch names none)
  std::vector<std::uint32_t> sorted;   // the same, sorted (the multi-stream match)
};

std::string clip_name(const std::string& s, std::size_t n = 90) {
  return s.size() <= n ? s : s.substr(0, n) + "...";
}

std::string join_sizes(const std::vector<std::int64_t>& sizes) {
  if (sizes.size() <= 12) return fmt::format("{}", fmt::join(sizes, ", "));
  return fmt::format("{}, ... {} ({} sizes)", fmt::join(sizes.begin(), sizes.begin() + 6, ", "),
                     sizes.back(), sizes.size());
}

class Joiner {
 public:
  Joiner(const ChromeEvents& ev, const CaptureSet& cap) : ev_(ev), cap_(cap) {
    for (const CaptureWindow& w : cap.windows) {
      WindowKey k;
      for (const CapturedLaunch& l : w.launches) {
        if (l.kind != GpuEventKind::kernel) continue;
        std::uint32_t id = k_no_id;
        if (l.kernel != k_no_capture_id)
          id = ev.names.find(cap.texts[l.kernel]).value_or(k_unknown_name);
        k.kernels.push_back(id);
      }
      k.sorted = k.kernels;
      std::sort(k.sorted.begin(), k.sorted.end());
      keys_.push_back(std::move(k));
      if (w.size) sizes_.push_back(*w.size);
    }
    std::sort(sizes_.begin(), sizes_.end());
    sizes_.erase(std::unique(sizes_.begin(), sizes_.end()), sizes_.end());
  }

  // The window a replay of kernel names `seq` (GPU order) at step size `size` pairs with, or
  // nullopt with `reason` set.
  std::optional<std::size_t> choose(const std::vector<std::uint32_t>& seq,
                                    std::optional<double> size, std::string& reason) {
    if (cap_.windows.empty()) {
      reason = "the capture traces hold no capture window";
      return std::nullopt;
    }
    std::optional<std::int64_t> chosen;
    if (size && !sizes_.empty()) {
      auto it = std::lower_bound(sizes_.begin(), sizes_.end(), *size, [](std::int64_t a, double b) {
        return static_cast<double>(a) < b;
      });
      if (it != sizes_.end()) chosen = *it;
    }
    std::vector<std::size_t> cands;
    for (std::size_t i = 0; i < cap_.windows.size(); ++i) {
      const auto& w = cap_.windows[i];
      if (!w.size || !size || sizes_.empty() || (chosen && *w.size == *chosen)) cands.push_back(i);
    }
    if (cands.empty()) {
      reason = fmt::format("no window captured for a size >= {} (captured sizes: {})", *size,
                           join_sizes(sizes_));
      return std::nullopt;
    }
    std::vector<std::uint32_t> sorted = seq;
    std::sort(sorted.begin(), sorted.end());
    std::vector<std::size_t> matches;
    for (std::size_t i : cands)
      if (cap_.windows[i].named ? keys_[i].kernels == seq : keys_[i].kernels.size() == seq.size())
        matches.push_back(i);
    if (matches.empty())  // a multi-stream graph: GPU order interleaves the streams
      for (std::size_t i : cands)
        if (cap_.windows[i].named && keys_[i].sorted == sorted) matches.push_back(i);
    if (matches.empty()) {
      reason = mismatch(seq, cands, chosen);
      return std::nullopt;
    }
    std::size_t& next = cursor_[matches];  // equal windows: in capture order, round and round
    return matches[next++ % matches.size()];
  }
  const WindowKey& key(std::size_t window) const { return keys_[window]; }

 private:
  std::string mismatch(const std::vector<std::uint32_t>& seq, const std::vector<std::size_t>& cands,
                       std::optional<std::int64_t> chosen) const {
    const std::string where = chosen ? fmt::format("of size {}", *chosen) : std::string("at all");
    const bool named = std::any_of(cands.begin(), cands.end(),
                                   [&](std::size_t i) { return cap_.windows[i].named; });
    for (std::size_t i : cands) {
      const auto& k = keys_[i].kernels;
      if (!cap_.windows[i].named || k.size() != seq.size()) continue;
      std::size_t at = 0;
      while (at < k.size() && k[at] == seq[at]) ++at;
      const auto& w = cap_.windows[i];
      const CapturedLaunch* captured = nullptr;
      for (std::size_t j = 0, n = 0; j < w.launches.size(); ++j)
        if (w.launches[j].kind == GpuEventKind::kernel && n++ == at) captured = &w.launches[j];
      return fmt::format(
          "no window {} has its {} kernels in order (a window of {} with as many differs at "
          "kernel {}: '{}' replayed, '{}' captured)",
          where, seq.size(), std::filesystem::path(cap_.files[w.file]).filename().string(), at + 1,
          clip_name(ev_.names.at(seq[at])),
          captured ? clip_name(cap_.texts[captured->kernel]) : std::string());
    }
    std::vector<std::size_t> counts;
    for (std::size_t i : cands) counts.push_back(keys_[i].kernels.size());
    std::sort(counts.begin(), counts.end());
    counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
    return fmt::format("no window {} has {} kernel launches{} (the candidates have {})", where,
                       seq.size(), named ? "" : " (the capture launches name no kernel)",
                       join_sizes(std::vector<std::int64_t>(counts.begin(), counts.end())));
  }

  const ChromeEvents& ev_;
  const CaptureSet& cap_;
  std::vector<WindowKey> keys_;
  std::vector<std::int64_t> sizes_;
  std::map<std::vector<std::size_t>, std::size_t> cursor_;
};

// Pairs the replay's events with the window's launches (flat indexes from `first`): kernels by
// (name, occurrence) — by position where the window names none — and copies by (kind,
// occurrence).
void pair_events(const ChromeEvents& ev, const std::vector<std::uint32_t>& members, const Replay& r,
                 const CaptureWindow& w, const WindowKey& key, std::uint32_t first,
                 ReplayJoin& out) {
  std::map<std::pair<std::uint32_t, std::size_t>, std::uint32_t> by_name;
  std::map<std::pair<int, std::size_t>, std::uint32_t> copies;
  std::vector<std::uint32_t> kernels;
  std::map<std::uint32_t, std::size_t> seen;
  std::map<int, std::size_t> seen_copies;
  for (std::size_t j = 0, k = 0; j < w.launches.size(); ++j) {
    const auto flat = first + static_cast<std::uint32_t>(j);
    const CapturedLaunch& l = w.launches[j];
    if (l.kind == GpuEventKind::kernel) {
      by_name[{key.kernels[k], seen[key.kernels[k]]++}] = flat;
      kernels.push_back(flat);
      ++k;
    } else {
      const int kind = static_cast<int>(l.kind);
      copies[{kind, seen_copies[kind]++}] = flat;
    }
  }
  seen.clear();
  seen_copies.clear();
  std::size_t position = 0;
  for (std::size_t m = r.begin; m < r.end; ++m) {
    const GpuEventRec& g = ev.gpu[members[m]];
    std::uint32_t found = k_unpaired;
    if (g.kind == GpuEventKind::kernel) {
      if (w.named) {
        auto it = by_name.find({g.name, seen[g.name]++});
        if (it != by_name.end()) found = it->second;
      } else if (position < kernels.size()) {
        found = kernels[position];
      }
      ++position;
    } else {
      const int kind = static_cast<int>(g.kind);
      auto it = copies.find({kind, seen_copies[kind]++});
      if (it != copies.end()) found = it->second;
    }
    if (found == k_unpaired) continue;
    out.origin[members[m]] = found;
    out.stats.paired += 1.0;
  }
}

void unpaired(ReplayJoin& out, const Replay& r, std::optional<double> size,
              const std::string& reason) {
  const double n = static_cast<double>(r.end - r.begin);
  auto& slot = out.stats.unpaired_reasons[reason];
  slot.first += 1.0;
  slot.second += n;
  if (out.stats.unpaired_examples.size() < k_max_examples)
    out.stats.unpaired_examples.push_back({r.launch->correlation, n, size, reason});
}

}  // namespace

namespace {

// The replays of `ev`: its replayed GPU events (`members`, by correlation then GPU time), grouped
// per *GraphLaunch, in GPU order of their first event; `out.origin` marks every member unpaired.
std::vector<Replay> find_replays(const ChromeEvents& ev, const EventLookup& lookup,
                                 std::vector<std::uint32_t>& members, ReplayJoin& out) {
  for (std::size_t i = 0; i < ev.gpu.size(); ++i) {
    // A graph launch is never joined as read (it launches many): its record is kept.
    const RuntimeRec* r = lookup.origin(i).kept;
    if (r && r->kind == RuntimeKind::graph_launch) members.push_back(static_cast<std::uint32_t>(i));
  }
  if (members.empty()) return {};
  std::sort(members.begin(), members.end(), [&](std::uint32_t a, std::uint32_t b) {
    return std::make_tuple(ev.gpu[a].correlation(), ev.gpu[a].ts_us, a) <
           std::make_tuple(ev.gpu[b].correlation(), ev.gpu[b].ts_us, b);
  });
  out.origin.assign(ev.gpu.size(), k_not_replay);
  std::vector<Replay> replays;
  for (std::size_t m = 0; m < members.size(); ++m) {
    out.origin[members[m]] = k_unpaired;
    if (m == 0 || ev.gpu[members[m]].correlation() != ev.gpu[members[m - 1]].correlation())
      replays.push_back({m, m, lookup.origin(members[m]).kept});
    replays.back().end = m + 1;
  }
  const auto first_ts = [&](const Replay& r) { return ev.gpu[members[r.begin]].ts_us; };
  std::sort(replays.begin(), replays.end(), [&](const Replay& a, const Replay& b) {
    return std::make_pair(first_ts(a), a.launch->correlation) <
           std::make_pair(first_ts(b), b.launch->correlation);
  });
  return replays;
}

// The graph size of the step a replay ran in (its *GraphLaunch's step), when annotated.
std::optional<double> replay_size(const ChromeEvents& ev, const StepIndex& steps, const Replay& r,
                                  const std::vector<std::uint32_t>& members) {
  const Step* s = nullptr;
  if (steps.by_launch) {
    s = steps.find(r.launch->thread, r.launch->ts_us);
  } else if (!steps.steps.empty()) {
    const GpuEventRec& g = ev.gpu[members[r.begin]];
    s = steps.find(ev.device_of(g), g.ts_us);
  }
  return s ? s->graph_size : std::nullopt;
}

}  // namespace

ReplayJoin join_replays(const ChromeEvents& ev, const EventLookup& lookup, const StepIndex& steps,
                        const CaptureSet* captures) {
  ReplayJoin out;
  std::vector<std::uint32_t> members;  // 4 bytes per replayed GPU event
  const std::vector<Replay> replays = find_replays(ev, lookup, members, out);
  if (replays.empty()) return out;
  out.stats.capture_given = captures != nullptr;
  out.stats.capture_windows = captures ? static_cast<double>(captures->windows.size()) : 0.0;
  out.stats.replays = static_cast<double>(replays.size());
  out.stats.launches = static_cast<double>(members.size());
  std::optional<Joiner> joiner;
  std::vector<std::uint32_t> first;  // each window's first flat launch index
  if (captures) {
    joiner.emplace(ev, *captures);
    for (const CaptureWindow& w : captures->windows) {
      first.push_back(static_cast<std::uint32_t>(out.launches.size()));
      for (const CapturedLaunch& l : w.launches) out.launches.push_back(&l);
    }
  }
  for (const Replay& r : replays) {
    const std::optional<double> size = replay_size(ev, steps, r, members);
    if (!joiner) {
      unpaired(out, r, size, "no capture trace given (--capture)");
      continue;
    }
    std::vector<std::uint32_t> seq;
    for (std::size_t m = r.begin; m < r.end; ++m)
      if (ev.gpu[members[m]].kind == GpuEventKind::kernel) seq.push_back(ev.gpu[members[m]].name);
    std::string reason;
    if (const auto w = joiner->choose(seq, size, reason))
      pair_events(ev, members, r, captures->windows[*w], joiner->key(*w), first[*w], out);
    else
      unpaired(out, r, size, reason);
  }
  return out;
}

void graph_notes(const GraphReplayStats& g, std::vector<std::string>& notes) {
  if (!g.any()) return;
  if (!g.capture_given) {
    notes.push_back(fmt::format(
        "{:.0f} GPU launches come from {:.0f} CUDA/HIP graph replay(s): no op and no shapes "
        "without the graph-capture trace (--capture)",
        g.launches, g.replays));
    return;
  }
  notes.push_back(fmt::format(
      "graph replays: {:.0f} of {:.0f} launches ({:.0f} replays) paired with a captured launch, "
      "{:.0f} with shapes",
      g.paired, g.launches, g.replays, g.with_shapes));
  for (const auto& [reason, n] : g.unpaired_reasons)
    notes.push_back(
        fmt::format("{:.0f} replay(s), {:.0f} launches unpaired: {}", n.first, n.second, reason));
}

std::optional<std::string> describe_capture_trace(const ChromeEvents& ev) {
  std::size_t begins = 0, replays = 0;
  for (const RuntimeRec& r : ev.runtime) {
    begins += r.kind == RuntimeKind::begin_capture;
    replays += r.kind == RuntimeKind::graph_launch;
  }
  if (begins == 0 || replays > 0) return std::nullopt;
  std::vector<std::int64_t> sizes;
  for (const CaptureMark& m : ev.capture_marks) sizes.push_back(m.size);
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  return fmt::format(
      "this is a graph-capture trace ({} *StreamBeginCapture{}), not an execution trace: give it "
      "with --capture beside the execution trace (its own GPU events, if any, are only the "
      "capture run's eager launches)",
      begins, sizes.empty() ? "" : fmt::format(", captured sizes {}", join_sizes(sizes)));
}

}  // namespace roofline::topn::detail
