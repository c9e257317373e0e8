// Byte streams for the trace readers: files, gzip inflation (zlib here, or ISA-L in gzip_isal.cpp)
// on a thread of its own, peeking at the first bytes.
#include "roofline/topn/bytes/byte_source.hpp"

#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include <fmt/format.h>
#if !defined(ROOFLINE_HAVE_ISAL)
#include <zlib.h>
#endif
#include "roofline/topn/layer.hpp"

namespace roofline::topn::detail {

std::size_t FileReader::read(char* buf, std::size_t cap) {
  if (!file_ || !error_.empty()) return 0;
  const std::size_t n = std::fread(buf, 1, cap, file_);
  if (n < cap && std::ferror(file_)) error_ = fmt::format("read error: {}", std::strerror(errno));
  return n;
}

std::string_view PeekedInput::peek(std::size_t n) {
  while (head_.size() < n) {
    const std::size_t old = head_.size();
    head_.resize(n);
    const std::size_t got = read_(head_.data() + old, n - old);
    head_.resize(old + got);
    if (got == 0) break;
  }
  return std::string_view(head_).substr(0, n);
}

std::size_t PeekedInput::read(char* buf, std::size_t cap) {
  if (head_pos_ < head_.size()) {
    const std::size_t n = std::min(cap, head_.size() - head_pos_);
    std::memcpy(buf, head_.data() + head_pos_, n);
    head_pos_ += n;
    return n;
  }
  return read_(buf, cap);
}

#if !defined(ROOFLINE_HAVE_ISAL)
namespace {

// Whether a read's inflation stops, and why: `error`, or "" at the clean end of the data.
struct GzipStep {
  bool finished = false;
  std::string error;
};

}  // namespace

struct GzipInflater::State {
  z_stream z{};
  std::vector<unsigned char> in = std::vector<unsigned char>(std::size_t{1} << 16);
  bool init = false;
  bool raw_eof = false;
  bool member_open = false;  // inside a gzip member (its end not reached yet)
  std::uint64_t in_total = 0;

  // The next compressed bytes from `raw` as zlib's input; at their end, raw_eof.
  void refill(const ByteReader& raw) {
    const std::size_t n = raw(reinterpret_cast<char*>(in.data()), in.size());
    if (n == 0) {
      raw_eof = true;
      return;
    }
    z.next_in = in.data();
    z.avail_in = static_cast<uInt>(n);
    in_total += n;
  }

  // At a member's end: another member may follow (gzip files can be concatenated); anything
  // else is an error.
  GzipStep next_member(const ByteReader& raw) {
    member_open = false;
    if (z.avail_in == 0 && !raw_eof) refill(raw);
    if (z.avail_in == 0) return {true, ""};
    if (z.avail_in >= 2 && (z.next_in[0] != 0x1f || z.next_in[1] != 0x8b))
      return {true, "trailing data after the end of the gzip stream"};
    inflateReset(&z);
    return {};
  }

  // After inflate returned `rc` (not the stream's end) into `want` bytes of room: on while it
  // progresses or input is to come; finished when no input is left and no output is possible
  // (truncated if the member did not end), or on corrupt data.
  GzipStep after_inflate(int rc, uInt want) const {
    if (rc == Z_BUF_ERROR || (rc == Z_OK && z.avail_in == 0 && raw_eof && z.avail_out == want)) {
      if (z.avail_in > 0 || !raw_eof) return {};  // more input to come: read it first
      if (!member_open) return {true, ""};
      return {true, fmt::format("truncated gzip stream: the compressed data ends after {} bytes, "
                                "before its end marker",
                                in_total)};
    }
    if (rc != Z_OK)
      return {true, fmt::format("corrupt gzip data at compressed byte {}: {}",
                                in_total - z.avail_in, z.msg ? z.msg : "inflate failed")};
    return {};
  }
};

GzipInflater::GzipInflater(ByteReader raw) : s_(std::make_unique<State>()), raw_(std::move(raw)) {
  // 15 window bits + 16: gzip format only (the caller has seen the magic bytes).
  if (inflateInit2(&s_->z, 15 + 16) != Z_OK) {
    error_ = "cannot initialise zlib";
    done_ = true;
    return;
  }
  s_->init = true;
}

GzipInflater::~GzipInflater() {
  if (s_->init) inflateEnd(&s_->z);
}

std::size_t GzipInflater::read(char* buf, std::size_t cap) {
  if (done_ || cap == 0) return 0;
  z_stream& z = s_->z;
  z.next_out = reinterpret_cast<Bytef*>(buf);
  z.avail_out = static_cast<uInt>(std::min<std::size_t>(cap, 1u << 30));
  const uInt want = z.avail_out;
  while (!done_ && z.avail_out == want) {
    if (z.avail_in == 0 && !s_->raw_eof) s_->refill(raw_);
    if (z.avail_in > 0) s_->member_open = true;
    // Called even without new input: inflate may still hold output for a full buffer.
    const int rc = inflate(&z, Z_NO_FLUSH);
    const GzipStep step = rc == Z_STREAM_END ? s_->next_member(raw_) : s_->after_inflate(rc, want);
    if (step.finished) {
      if (!step.error.empty()) error_ = step.error;
      done_ = true;
    }
  }
  return want - z.avail_out;
}

#endif  // zlib

}  // namespace roofline::topn::detail

namespace roofline::topn::detail {
namespace {

// 128 KiB: a chunk is still in the cache when the parser reads it, and a small stream (a fuzz
// input) allocates no block large enough to be mapped and unmapped each time.
constexpr std::size_t k_chunk_bytes = std::size_t{1} << 17;
constexpr std::size_t k_chunks_ahead = 16;  // 2 MiB produced ahead of the reader at most
// A producer that got ahead sleeps until the reader has taken all but this many chunks: one
// wake-up per few chunks, not one per chunk.
constexpr std::size_t k_resume_at = 8;
// The first chunk, read on the reader's thread (a stream that ends inside it starts no thread).
constexpr std::size_t k_first_bytes = std::size_t{1} << 16;

}  // namespace

struct ReadAhead::Shared {
  std::mutex mutex;
  std::condition_variable changed;
  std::deque<Chunk> full;    // produced, not read yet
  std::vector<Chunk> spare;  // read, for reuse
  bool done = false;         // the producer returned 0: `error` is its error
  bool stop = false;         // the reader is gone
  bool producer_waits = false, reader_waits = false;  // asleep on `changed`: wake them
  std::string error;
  Producer produce;
  std::thread worker;

  // The worker: produces chunk after chunk while the reader keeps up.
  void run() {
    for (;;) {
      Chunk chunk;
      {
        std::unique_lock lock(mutex);
        if (full.size() >= k_chunks_ahead) {
          producer_waits = true;
          changed.wait(lock, [&] { return stop || full.size() <= k_resume_at; });
          producer_waits = false;
        }
        if (stop) return;
        if (!spare.empty()) {
          chunk = std::move(spare.back());
          spare.pop_back();
        }
      }
      if (!chunk.bytes) {
        chunk.bytes = std::make_unique_for_overwrite<char[]>(k_chunk_bytes);
        chunk.cap = k_chunk_bytes;
      }
      std::string failed;
      chunk.size = produce(chunk.bytes.get(), k_chunk_bytes, failed);
      const std::lock_guard lock(mutex);
      if (chunk.size == 0) {
        done = true;
        error = std::move(failed);
      } else {
        full.push_back(std::move(chunk));
      }
      if (reader_waits || done) changed.notify_all();
      if (done) return;
    }
  }
};

ReadAhead::ReadAhead(Producer produce) : s_(std::make_unique<Shared>()) {
  s_->produce = std::move(produce);
}

void ReadAhead::first_chunk() {
  started_ = true;
  chunk_ = Chunk{std::make_unique_for_overwrite<char[]>(k_first_bytes), 0, k_first_bytes};
  chunk_pos_ = 0;
  try {
    while (chunk_.size < chunk_.cap) {
      std::string failed;
      const std::size_t n =
          s_->produce(chunk_.bytes.get() + chunk_.size, chunk_.cap - chunk_.size, failed);
      if (n == 0) {
        last_ = true;
        error_ = std::move(failed);
        return;
      }
      chunk_.size += n;
    }
  } catch (const std::exception& e) {
    last_ = true;
    error_ = fmt::format("cannot read: {}", e.what());
    return;
  }
  start_worker();
}

void ReadAhead::start_worker() {
  s_->worker = std::thread([shared = s_.get()] {
    try {
      shared->run();
    } catch (const std::exception& e) {
      const std::lock_guard lock(shared->mutex);
      shared->done = true;
      shared->error = fmt::format("cannot read: {}", e.what());
      shared->changed.notify_all();
    }
  });
}

ReadAhead::~ReadAhead() {
  if (!s_->worker.joinable()) return;
  {
    const std::lock_guard lock(s_->mutex);
    s_->stop = true;
  }
  s_->changed.notify_all();
  s_->worker.join();
}

std::size_t ReadAhead::read(char* buf, std::size_t cap) {
  while (chunk_pos_ == chunk_.size) {
    if (!started_) {
      first_chunk();
      continue;
    }
    if (last_) ended_ = true;
    if (ended_) return 0;
    std::unique_lock lock(s_->mutex);
    s_->reader_waits = true;
    s_->changed.wait(lock, [&] { return !s_->full.empty() || s_->done; });
    s_->reader_waits = false;
    if (s_->full.empty()) {
      ended_ = true;
      error_ = s_->error;
      return 0;
    }
    if (chunk_.bytes && chunk_.cap == k_chunk_bytes) s_->spare.push_back(std::move(chunk_));
    chunk_ = std::move(s_->full.front());
    s_->full.pop_front();
    chunk_pos_ = 0;
    if (s_->producer_waits && s_->full.size() <= k_resume_at) s_->changed.notify_all();
  }
  const std::size_t n = std::min(cap, chunk_.size - chunk_pos_);
  std::memcpy(buf, chunk_.bytes.get() + chunk_pos_, n);
  chunk_pos_ += n;
  return n;
}

ReadAhead::Producer gzip_producer(ByteReader raw) {
  auto inflater = std::make_shared<std::unique_ptr<GzipInflater>>();
  return [inflater, raw = std::move(raw)](char* buf, std::size_t cap, std::string& error) {
    if (!*inflater) *inflater = std::make_unique<GzipInflater>(raw);
    const std::size_t n = (*inflater)->read(buf, cap);
    if (n == 0) error = (*inflater)->error();
    return n;
  };
}

TraceText::TraceText(const ByteReader& raw) : peeked_(raw) {
  gzip_ = is_gzip(peeked_.peek(2));
  // A plain file is read on the parser's thread: a thread ahead of it would only add a copy (the
  // kernel reads ahead of a sequential reader by itself).
  if (gzip_)
    ahead_ = std::make_unique<ReadAhead>(
        gzip_producer([this](char* buf, std::size_t cap) { return peeked_.read(buf, cap); }));
}

std::size_t TraceText::read(char* buf, std::size_t cap) {
  return ahead_ ? ahead_->read(buf, cap) : peeked_.read(buf, cap);
}

const std::string& TraceText::error() const {
  static const std::string none;
  return ahead_ ? ahead_->error() : none;
}

std::string TraceText::failure(const std::string& what) {
  if (gzip_ && error().empty()) {
    std::vector<char> sink(std::size_t{1} << 16);
    while (read(sink.data(), sink.size()) > 0) {
    }
  }
  return gzip_ && !error().empty() ? error() : what;
}

}  // namespace roofline::topn::detail
