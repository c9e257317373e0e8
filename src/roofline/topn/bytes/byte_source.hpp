#pragma once
// Private to src/topn: byte streams for the trace readers — a file, a gzip inflater over any
// stream, and a look at the first bytes before they are consumed (format detection).

#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "roofline/topn/bytes/byte_reader.hpp"
#include "roofline/topn/layer.hpp"

namespace roofline::topn::detail {

// Reads a file in chunks; a read error is kept in `error` (the stream then ends).
class FileReader {
 public:
  explicit FileReader(std::FILE* file) : file_(file) {}
  std::size_t read(char* buf, std::size_t cap);
  const std::string& error() const { return error_; }

 private:
  std::FILE* file_;
  std::string error_;
};

// Holds the first bytes of a stream so they can be inspected and still be read.
class PeekedInput {
 public:
  explicit PeekedInput(ByteReader read) : read_(std::move(read)) {}
  // Up to `n` first bytes of the stream (fewer when it is shorter). Call before read().
  std::string_view peek(std::size_t n);
  std::size_t read(char* buf, std::size_t cap);

 private:
  ByteReader read_;
  std::string head_;
  std::size_t head_pos_ = 0;
};

// Inflates a gzip stream (concatenated members too) on the calling thread. A stream that ends
// before the end of the compressed data, or corrupt data, stops the output and sets `error`.
class GzipInflater {
 public:
  explicit GzipInflater(ByteReader raw);
  ~GzipInflater();
  GzipInflater(const GzipInflater&) = delete;
  GzipInflater& operator=(const GzipInflater&) = delete;
  std::size_t read(char* buf, std::size_t cap);
  const std::string& error() const { return error_; }

 private:
  struct State;
  std::size_t inflate_into(std::uint8_t* out, std::uint32_t room);  // ISA-L only
  std::unique_ptr<State> s_;
  ByteReader raw_;
  std::string error_;
  bool done_ = false;
};

// A byte producer on a thread of its own (reading a file, inflating gzip), ahead of the reader by
// at most a few chunks (a bounded buffer): the reader's parse runs beside the producer's system
// calls or inflation, so a .gz costs about the slower of inflating and parsing, not their sum.
// The first 64 KiB are produced on the reader's thread: a stream that ends inside them (a small
// capture file, a fuzz input) costs no thread. The error is the producer's, known once read()
// has returned 0.
class ReadAhead {
 public:
  // Fills up to `cap` bytes and returns how many; 0 ends the stream, with `error` set or not.
  using Producer = std::function<std::size_t(char* buf, std::size_t cap, std::string& error)>;
  explicit ReadAhead(Producer produce);
  ~ReadAhead();  // stops the thread (when the reader stops early) and joins it
  ReadAhead(const ReadAhead&) = delete;
  ReadAhead& operator=(const ReadAhead&) = delete;
  std::size_t read(char* buf, std::size_t cap);
  const std::string& error() const { return error_; }

 private:
  struct Chunk {
    std::unique_ptr<char[]> bytes;  // `cap` bytes, not zeroed
    std::size_t size = 0, cap = 0;
  };
  struct Shared;
  void first_chunk();
  void start_worker();
  std::unique_ptr<Shared> s_;
  Chunk chunk_;  // the chunk being read
  std::size_t chunk_pos_ = 0;
  bool started_ = false;  // the first chunk was read (on the reader's thread)
  bool last_ = false;     // the stream ended inside the first chunk: no thread, no more chunks
  bool ended_ = false;
  std::string error_;
};

// A GzipInflater over `raw`, made on the producer's thread, as a ReadAhead producer.
ReadAhead::Producer gzip_producer(ByteReader raw);

// The text of a trace file: inflated on a thread ahead of the parser when its first bytes are
// gzip's, else read as the parser asks. A broken gzip stream is the root cause of whatever the
// parser then saw: failure() reads the rest of the compressed data first, so the message does not
// depend on where the parser stopped.
class TraceText {
 public:
  explicit TraceText(const ByteReader& raw);
  TraceText(const TraceText&) = delete;
  TraceText& operator=(const TraceText&) = delete;
  std::size_t read(char* buf, std::size_t cap);
  bool gzip() const { return gzip_; }
  // The inflater's error once the stream has ended ("" for a plain file, whose read errors
  // its FileReader keeps).
  const std::string& error() const;
  // What to report when the parser failed with `what`: the gzip error, when there is one.
  std::string failure(const std::string& what);

 private:
  PeekedInput peeked_;
  bool gzip_ = false;
  std::unique_ptr<ReadAhead> ahead_;  // gzip only
};

// True when the bytes start with the gzip magic number.
inline bool is_gzip(std::string_view head) {
  return head.size() >= 2 && static_cast<unsigned char>(head[0]) == 0x1f &&
         static_cast<unsigned char>(head[1]) == 0x8b;
}

}  // namespace roofline::topn::detail
