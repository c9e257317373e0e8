#pragma once
// Private to src/topn: byte streams for the trace readers — a file, a gzip inflater over any
// stream, and a look at the first bytes before they are consumed (format detection).

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>

#include "roofline/topn/topn.hpp"

namespace roofline::detail {

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

// Inflates a gzip stream (concatenated members too). A stream that ends before the end of the
// compressed data, or corrupt data, stops the output and sets `error`.
class GzipReader {
 public:
  explicit GzipReader(ByteReader raw);
  ~GzipReader();
  GzipReader(const GzipReader&) = delete;
  GzipReader& operator=(const GzipReader&) = delete;
  std::size_t read(char* buf, std::size_t cap);
  const std::string& error() const { return error_; }
  std::uint64_t bytes_out() const { return out_total_; }

 private:
  struct State;
  std::unique_ptr<State> s_;
  ByteReader raw_;
  std::string error_;
  std::uint64_t out_total_ = 0;
  bool done_ = false;
};

// True when the bytes start with the gzip magic number.
inline bool is_gzip(std::string_view head) {
  return head.size() >= 2 && static_cast<unsigned char>(head[0]) == 0x1f &&
         static_cast<unsigned char>(head[1]) == 0x8b;
}

}  // namespace roofline::detail
