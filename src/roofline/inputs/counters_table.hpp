#pragma once
// Private to the counter ingest: folds counter rows into per-kernel sums, each dispatch counted
// once, in memory bounded by (kernels x dispatch window), not by the number of rows.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "roofline/inputs/csv_stream.hpp"
#include "roofline/inputs/counters.hpp"

namespace roofline::detail {

// Byte equality of short fields without a library call: 8 bytes at a time, the last word
// overlapping (never reads outside either string).
inline bool same_bytes(std::string_view a, std::string_view b) {
  const std::size_t n = a.size();
  if (n != b.size()) return false;
  if (n < 8) {
    for (std::size_t i = 0; i < n; ++i)
      if (a[i] != b[i]) return false;
    return true;
  }
  auto word = [](const char* p) {
    std::uint64_t w = 0;
    std::memcpy(&w, p, 8);
    return w;
  };
  for (std::size_t i = 0; i + 8 < n; i += 8)
    if (word(a.data() + i) != word(b.data() + i)) return false;
  return word(a.data() + n - 8) == word(b.data() + n - 8);
}

class CounterTable {
 public:
  explicit CounterTable(std::size_t dispatch_window);

  // The id of a counter name (registered on first sight). Consecutive rows of one dispatch
  // usually cycle through the same names, so the name after the previous one is tried first.
  std::size_t counter_id(const CsvField& name) {
    const std::size_t n = counter_names_.size();
    if (!name.escaped && n > 0) {  // the hot path, inline: the name after the previous one
      const std::size_t guess = last_counter_ + 1 < n ? last_counter_ + 1 : 0;
      if (same_bytes(counter_names_[guess], name.raw())) return last_counter_ = guess;
    }
    return counter_id_slow(name);
  }
  std::size_t counter_id(std::string_view name);
  std::size_t counter_count() const { return counter_names_.size(); }
  const std::string& counter_name(std::size_t id) const { return counter_names_[id]; }
  // The kernel of a name field; the hash lookup only runs when the name differs from the
  // previous row's (consecutive rows nearly always share it).
  std::size_t kernel_id(const CsvField& name);

  // Makes (pid, dispatch) of `kernel` the current dispatch: a new one is counted, a recently
  // seen one is resumed (its rows need not be contiguous).
  void begin_dispatch(std::size_t kernel, std::uint64_t pid, std::uint64_t dispatch);
  bool dispatch_timed() const { return cur_r_->timed; }
  void add_duration(double ns);
  // Adds a value to the current dispatch; the counter's dispatch count rises once per dispatch.
  void add(std::size_t counter, double value) {
    Kernel& k = *cur_k_;
    if (counter >= k.sums.size()) k.sums.resize(counter + 1);
    CounterSum& s = k.sums[counter];
    s.sum += value;
    auto& seen = cur_r_->seen;
    const std::size_t word = counter / 64;
    if (word >= seen.size()) seen.resize(word + 1, 0);
    const std::uint64_t bit = std::uint64_t{1} << (counter % 64);
    if ((seen[word] & bit) == 0) {
      seen[word] |= bit;
      ++s.dispatches;
    }
  }

  // Dispatches whose id was not above the kernel's latest one and that were no longer in the
  // window: counted as new (a resumed dispatch that old would be counted twice).
  std::uint64_t out_of_window() const { return out_of_window_; }
  // The kernels in order of first appearance; counters flagged in `drop` are left out, those
  // flagged in `unsummed` keep their dispatch counts with CounterSum::summed false.
  std::vector<KernelCounters> finish(const std::vector<bool>& drop,
                                     const std::vector<bool>& unsummed = {}) const;

 private:
  struct DispatchRec {
    std::uint64_t pid = 0, id = 0;
    bool timed = false;
    std::vector<std::uint64_t> seen;  // bit per counter id reported by this dispatch
  };
  struct Kernel {
    std::string name;
    std::vector<CounterSum> sums;  // by counter id
    std::uint64_t dispatches = 0, timed = 0;
    double duration_ns = 0.0;
    std::vector<DispatchRec> ring;  // the last `window_` dispatches, oldest overwritten first
    std::size_t ring_next = 0;
    bool any = false;
    std::uint64_t last_pid = 0, max_id = 0;
  };

  std::size_t counter_id_slow(const CsvField& name);

  std::size_t window_;
  std::deque<Kernel> kernels_;
  // Raw field bytes -> kernel (looked up without building a string), and display name -> kernel
  // (two spellings of one name, e.g. quoted and not, meet there).
  struct RawHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const;
  };
  std::unordered_map<std::string, std::size_t, RawHash, std::equal_to<>> raw_index_;
  std::unordered_map<std::string, std::size_t> kernel_index_;
  std::string last_kernel_raw_;
  std::size_t last_kernel_ = static_cast<std::size_t>(-1);
  std::vector<std::string> counter_names_;
  std::size_t last_counter_ = 0;
  bool have_current_ = false;
  std::size_t cur_kernel_ = 0, cur_rec_ = 0;
  Kernel* cur_k_ = nullptr;       // kernels_[cur_kernel_] (a deque: stays valid)
  DispatchRec* cur_r_ = nullptr;  // cur_k_->ring[cur_rec_], set by begin_dispatch
  std::uint64_t out_of_window_ = 0;
};

}  // namespace roofline::detail
