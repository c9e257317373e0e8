#pragma once
// Private to src/topn: byte streams for the trace readers — a file, a gzip inflater over any
// stream, and a look at the first bytes before they are consumed (format detection).

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "roofline/topn/layer.hpp"
#include "roofline/topn/topn.hpp"

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
  std::unique_ptr<State> s_;
  ByteReader raw_;
  std::string error_;
  bool done_ = false;
};

// A GzipInflater on its own thread, ahead of the reader by at most a few chunks (a bounded
// buffer): a .gz costs about the slower of inflating and parsing, not their sum. The bytes and
// the error are those of the inflater; the error is known once read() has returned 0.
class GzipReader {
 public:
  explicit GzipReader(ByteReader raw);
  ~GzipReader();  // stops the thread (when the reader stops early) and joins it
  GzipReader(const GzipReader&) = delete;
  GzipReader& operator=(const GzipReader&) = delete;
  std::size_t read(char* buf, std::size_t cap);
  const std::string& error() const { return error_; }

 private:
  struct Chunk {
    std::unique_ptr<char[]> bytes;  // k_chunk_bytes, not zeroed
    std::size_t size = 0;
  };
  struct Shared;
  std::unique_ptr<Shared> s_;
  Chunk chunk_;  // the chunk being read
  std::size_t chunk_pos_ = 0;
  bool ended_ = false;
  std::string error_;
};

// True when the bytes start with the gzip magic number.
inline bool is_gzip(std::string_view head) {
  return head.size() >= 2 && static_cast<unsigned char>(head[0]) == 0x1f &&
         static_cast<unsigned char>(head[1]) == 0x8b;
}

}  // namespace roofline::topn::detail
