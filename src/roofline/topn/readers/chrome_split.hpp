#pragma once
// Private to src/topn: a large plain Chrome trace read in parts by a parser per core at once (two
// on two cores) — the first part from the start, the others from event boundaries spread over
// the traceEvents array — whichever parser is free taking the next part, so they end together.
// Their records are joined in file order. A boundary is a guess from the bytes alone (`}` `,`
// `{`, which a string can hold too): it counts only when the parser of the part before it, reading
// on, finds an event starting exactly there; otherwise that parser reads on to the next boundary
// and the part it passed is dropped. Either way the records are what one parser would have made.

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "roofline/topn/bytes/byte_reader.hpp"
#include "roofline/topn/layer.hpp"
#include "roofline/topn/readers/chrome_events.hpp"

namespace roofline::topn::detail {

// A plain file the Chrome parser may read in parts: its path and size, the file offset of the
// parsed stream's first byte (after a BOM), the least events to split (smaller: one parser),
// about how long a part is (at most k_max_parts parts, at least two) and how many threads read
// parts beside the first parser (0: one per core but the first's, at most k_max_workers).
struct SplitSource {
  std::filesystem::path path;
  std::uint64_t size = 0;
  std::uint64_t origin = 0;
  std::uint64_t min_bytes = std::uint64_t{64} << 20;
  std::uint64_t part_bytes = std::uint64_t{32} << 20;
  std::size_t workers = 0;
};

inline constexpr std::size_t k_max_parts = 256;  // 8 GB in parts of 32 MB; then longer parts
inline constexpr std::size_t k_max_workers = 7;
inline constexpr std::size_t k_no_part = static_cast<std::size_t>(-1);

// The boundaries ahead of one parser, in order: it stops where it finds an event starting at the
// next one (landed() is then that boundary's index), and passes those it reads past.
class PartStops {
 public:
  PartStops(const std::vector<std::uint64_t>& bounds, std::size_t next)
      : bounds_(&bounds), next_(next) {}
  // At stream offset `at`, where the next event starts: true to stop there.
  bool stop_at(std::uint64_t at) {
    while (next_ < bounds_->size() && at > (*bounds_)[next_]) ++next_;
    stopped_ = next_ < bounds_->size() && at == (*bounds_)[next_];
    return stopped_;
  }
  bool pending() const { return next_ < bounds_->size(); }
  // The boundary it stopped at, k_no_part when it read on to the end.
  std::size_t landed() const { return stopped_ ? next_ : k_no_part; }

 private:
  const std::vector<std::uint64_t>* bounds_;
  std::size_t next_;
  bool stopped_ = false;
};

// The parts after the first, as the first parser sees them.
class SplitParts {
 public:
  SplitParts() = default;
  SplitParts(const SplitParts&) = delete;
  SplitParts& operator=(const SplitParts&) = delete;
  ~SplitParts();  // parsers still running are told to stop, and joined

  // Finds the boundaries in what follows stream offset `from` (inside the containers `open`, the
  // events array last) and starts parsing the parts they begin on a thread, each with the
  // metadata `first` (the first part's records) read so far and its way of reading launches;
  // nothing when the rest is shorter than `src.min_bytes` or no boundary shows.
  void start(const SplitSource& src, std::uint64_t from, std::string_view open,
             const ChromeEvents& first);
  // The first parser's stops (nullptr: not split).
  PartStops* first_stops() { return bounds_.empty() ? nullptr : &first_; }
  // The first parser stopped at boundary first_stops()->landed(): the parts from there on, each
  // begun by the one before it, joined to `into` in order (this thread parsing the parts no one
  // has begun, rather than waiting). Returns their verdict on the rest of the document ("" or
  // what is wrong).
  std::string finish(ChromeEvents& into);

  // The boundaries found (tests).
  const std::vector<std::uint64_t>& bounds() const { return bounds_; }

 private:
  struct Part {
    ChromeEvents events;
    std::string error;
    std::size_t landed = k_no_part;  // the boundary its parser stopped at; k_no_part: the end
    std::atomic<int> state{0};       // 0 waiting, 1 being read, 2 read
  };
  bool take(std::size_t k);  // claims part k for the calling thread
  void read_part(std::size_t k);

  std::vector<std::uint64_t> bounds_;  // stream offsets where the parts after the first begin
  PartStops first_{bounds_, 0};
  std::deque<Part> parts_;
  std::filesystem::path path_;
  std::uint64_t origin_ = 0;
  std::string open_;
  std::vector<std::thread> workers_;
  std::atomic<bool> cancel_{false};
  std::mutex mutex_;
  std::condition_variable read_;  // a part was read
};

// The work of a part's parser: the events of a traceEvents array from stream offset `at` (an
// event's '{', inside the containers `open`) to the first boundary of `stops` it lands on, else to
// the end of the document.
std::string parse_chrome_part(const ByteReader& read, std::uint64_t at, std::string_view open,
                              PartStops& stops, ChromeEvents& out, const std::atomic<bool>& cancel);

// Appends the records of `from` (read after everything in `into`) to `into`, its ids made
// `into`'s, as if one parser had read both; `from` is emptied as it goes.
void join_events(ChromeEvents& into, ChromeEvents& from);

}  // namespace roofline::topn::detail
