#pragma once
// Private to src/topn: a large plain Chrome trace read by two parsers at once, one core each —
// the first from the start, the second from an event boundary near the middle of the traceEvents
// array — their records joined at that boundary. The boundary is a guess from the bytes alone
// (`}` `,` `{`, which a string can hold too): it counts only when the first parser, reading on,
// finds an event starting exactly there; otherwise the second parser's work is dropped and the
// first reads to the end alone. Either way the records are what one parser would have made.

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <thread>

#include "roofline/topn/bytes/byte_reader.hpp"
#include "roofline/topn/layer.hpp"
#include "roofline/topn/readers/chrome_events.hpp"

namespace roofline::topn::detail {

// A plain file the Chrome parser may read in two parts: its path and size, the file offset of the
// parsed stream's first byte (after a BOM), and the least events to split (smaller: one parser).
struct SplitSource {
  std::filesystem::path path;
  std::uint64_t size = 0;
  std::uint64_t origin = 0;
  std::uint64_t min_bytes = std::uint64_t{64} << 20;
};

// The second parser, as the first one sees it.
class SecondPart {
 public:
  SecondPart() = default;
  SecondPart(const SecondPart&) = delete;
  SecondPart& operator=(const SecondPart&) = delete;
  ~SecondPart();  // a second parser still running is told to stop, and joined

  // Starts the second parser at an event boundary near the middle of what follows stream offset
  // `from` (inside the containers `open`, the events array last), with the metadata read so
  // far; nothing when the rest is shorter than `src.min_bytes` or no boundary shows.
  void start(const SplitSource& src, std::uint64_t from, std::string_view open,
             const TraceMeta& meta);
  // Started and not cancelled: the first parser stops where the next event starts at at().
  bool waiting() const { return running_ && !cancel_.load(std::memory_order_relaxed); }
  std::uint64_t at() const { return at_; }
  void cancel() { cancel_.store(true); }
  // The first parser stopped at at(): waits for the second and joins its records to `into`.
  // Returns its verdict on the rest of the document ("" or what is wrong).
  std::string finish(ChromeEvents& into);

 private:
  std::thread worker_;
  std::atomic<bool> cancel_{false};
  bool running_ = false;
  std::uint64_t at_ = 0;
  ChromeEvents events_;
  std::string error_;
};

// The second parser's work: the events of a traceEvents array from stream offset `at` (an
// event's '{', inside the containers `open`) to the end of the document.
std::string parse_chrome_tail(const ByteReader& read, std::uint64_t at, std::string_view open,
                              ChromeEvents& out, const std::atomic<bool>& cancel);

// Appends the records of `from` (read after everything in `into`) to `into`, its ids made
// `into`'s, as if one parser had read both; `from` is emptied as it goes.
void join_events(ChromeEvents& into, ChromeEvents& from);

}  // namespace roofline::topn::detail
