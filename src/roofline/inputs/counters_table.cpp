// Dispatch grouping. Each kernel keeps a ring of its last `window` dispatches (pid, id, which
// counters they reported, whether timed). A row of the current dispatch costs one compare; a
// row opening a dispatch whose id is above the kernel's highest (rocprofv3 numbers dispatches in
// increasing order per process) is new without a search; only an id at or below it searches
// the ring. So non-contiguous rows of a dispatch are folded correctly as long as fewer than
// `window` other dispatches of the same kernel started in between, with memory bounded by
// kernels x window; an older one is counted as new and reported through out_of_window().
#include "roofline/inputs/counters_table.hpp"

#include <algorithm>
#include <cstring>
#include <functional>

namespace roofline::detail {

CounterTable::CounterTable(std::size_t dispatch_window)
    : window_(std::max<std::size_t>(dispatch_window, 1)) {}

std::size_t CounterTable::counter_id(std::string_view name) {
  const std::size_t n = counter_names_.size();
  if (n > 0) {
    const std::size_t guess = last_counter_ + 1 < n ? last_counter_ + 1 : 0;
    if (same_bytes(counter_names_[guess], name)) return last_counter_ = guess;
    for (std::size_t i = 0; i < n; ++i)
      if (counter_names_[i] == name) return last_counter_ = i;
  }
  counter_names_.emplace_back(name);
  return last_counter_ = n;
}

std::size_t CounterTable::counter_id_slow(const CsvField& name) {
  if (!name.escaped && name.size > 0 && name.data[0] != ' ' && name.data[name.size - 1] != ' ')
    return counter_id(name.raw());
  return counter_id(field_text(name));
}

// Kernel names run to hundreds of bytes and differ from each other in the middle (template
// arguments): hash the length and four 8-byte samples spread over the name, not every byte. The
// map still compares whole names, so a shared sample only costs a longer bucket.
std::size_t CounterTable::RawHash::operator()(std::string_view s) const {
  std::uint64_t h = s.size() * 0x9E3779B97F4A7C15ull;
  if (s.size() < 32) return std::hash<std::string_view>{}(s) ^ h;
  for (std::size_t at : {std::size_t{0}, s.size() / 3, 2 * s.size() / 3, s.size() - 8}) {
    std::uint64_t w = 0;
    std::memcpy(&w, s.data() + at, 8);
    h = (h ^ w) * 0xFF51AFD7ED558CCDull;
    h ^= h >> 32;
  }
  return static_cast<std::size_t>(h);
}

std::size_t CounterTable::kernel_id(const CsvField& name) {
  const std::string_view raw = name.raw();
  if (last_kernel_ != static_cast<std::size_t>(-1) && raw == last_kernel_raw_) return last_kernel_;
  last_kernel_raw_.assign(raw);
  if (auto it = raw_index_.find(raw); it != raw_index_.end()) return last_kernel_ = it->second;
  std::string text = field_text(name);
  auto [it, inserted] = kernel_index_.try_emplace(text, kernels_.size());
  if (inserted) {
    kernels_.emplace_back();
    kernels_.back().name = std::move(text);
  }
  raw_index_.emplace(std::string(raw), it->second);
  return last_kernel_ = it->second;
}

void CounterTable::begin_dispatch(std::size_t kernel, std::uint64_t pid, std::uint64_t dispatch) {
  Kernel& k = kernels_[kernel];
  if (have_current_ && cur_kernel_ == kernel && cur_r_->id == dispatch && cur_r_->pid == pid)
    return;
  have_current_ = true;
  cur_kernel_ = kernel;
  cur_k_ = &k;
  const bool ascending = k.any && pid == k.last_pid && dispatch > k.max_id;
  if (k.any && !ascending) {
    for (std::size_t i = 0; i < k.ring.size(); ++i) {
      if (k.ring[i].id == dispatch && k.ring[i].pid == pid) {
        cur_rec_ = i;
        cur_r_ = &k.ring[i];
        return;
      }
    }
    if (pid == k.last_pid && k.ring.size() == window_) ++out_of_window_;
  }
  ++k.dispatches;
  if (k.ring.size() < window_) {
    cur_rec_ = k.ring.size();
    k.ring.emplace_back();
  } else {
    cur_rec_ = k.ring_next;
    k.ring_next = (k.ring_next + 1) % window_;
  }
  DispatchRec& rec = k.ring[cur_rec_];
  cur_r_ = &rec;
  rec.pid = pid;
  rec.id = dispatch;
  rec.timed = false;
  std::fill(rec.seen.begin(), rec.seen.end(), std::uint64_t{0});
  if (!k.any || pid != k.last_pid) {
    k.last_pid = pid;
    k.max_id = dispatch;
  } else {
    k.max_id = std::max(k.max_id, dispatch);
  }
  k.any = true;
}

void CounterTable::add_duration(double ns) {
  Kernel& k = *cur_k_;
  cur_r_->timed = true;
  k.duration_ns += ns;
  ++k.timed;
}

std::vector<KernelCounters> CounterTable::finish(const std::vector<bool>& drop,
                                                 const std::vector<bool>& unsummed) const {
  std::vector<KernelCounters> out;
  out.reserve(kernels_.size());
  for (const Kernel& k : kernels_) {
    KernelCounters kc;
    kc.name = k.name;
    kc.dispatches = k.dispatches;
    kc.duration_ns_sum = k.duration_ns;
    kc.timed_dispatches = k.timed;
    for (std::size_t c = 0; c < k.sums.size(); ++c) {
      if (k.sums[c].dispatches == 0 || (c < drop.size() && drop[c])) continue;
      CounterSum sum = k.sums[c];
      if (c < unsummed.size() && unsummed[c]) sum = CounterSum{0.0, sum.dispatches, false};
      kc.counters.emplace(counter_names_[c], sum);
    }
    out.push_back(std::move(kc));
  }
  return out;
}

}  // namespace roofline::detail
