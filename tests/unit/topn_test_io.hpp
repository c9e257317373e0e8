#pragma once
// In-memory byte streams for the topn reader tests: text served in chunks of a chosen size (so
// every buffer refill path runs), and gzip compression of a string.

#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

#include <zlib.h>

#include "roofline/topn/topn.hpp"

namespace roofline::test {

// Serves `data` (which must outlive the reader) at most `chunk` bytes per call.
inline ByteReader chunked(const std::string& data, std::size_t chunk) {
  auto pos = std::make_shared<std::size_t>(0);
  return [&data, pos, chunk](char* buf, std::size_t cap) {
    const std::size_t n = std::min({cap, chunk, data.size() - *pos});
    std::memcpy(buf, data.data() + *pos, n);
    *pos += n;
    return n;
  };
}

// gzip-compressed `text` (one member).
inline std::string gzip(std::string_view text) {
  z_stream z{};
  if (deflateInit2(&z, Z_BEST_SPEED, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    throw std::runtime_error("deflateInit2");
  std::string out(deflateBound(&z, static_cast<uLong>(text.size())) + 64, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  z.avail_in = static_cast<uInt>(text.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  const int rc = deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  if (rc != Z_STREAM_END) throw std::runtime_error("deflate");
  return out;
}

}  // namespace roofline::test
