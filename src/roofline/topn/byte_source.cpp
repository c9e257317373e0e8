// Byte streams for the trace readers: files, gzip inflation (zlib), peeking at the first bytes.
#include "roofline/topn/byte_source.hpp"

#include <cerrno>
#include <cstring>
#include <vector>

#include <fmt/format.h>
#include <zlib.h>

namespace roofline::detail {

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

struct GzipReader::State {
  z_stream z{};
  std::vector<unsigned char> in = std::vector<unsigned char>(std::size_t{1} << 18);
  bool init = false;
  bool raw_eof = false;
  bool member_open = false;  // inside a gzip member (its end not reached yet)
  std::uint64_t in_total = 0;
};

GzipReader::GzipReader(ByteReader raw) : s_(std::make_unique<State>()), raw_(std::move(raw)) {
  // 15 window bits + 16: gzip format only (the caller has seen the magic bytes).
  if (inflateInit2(&s_->z, 15 + 16) != Z_OK) {
    error_ = "cannot initialise zlib";
    done_ = true;
    return;
  }
  s_->init = true;
}

GzipReader::~GzipReader() {
  if (s_->init) inflateEnd(&s_->z);
}

std::size_t GzipReader::read(char* buf, std::size_t cap) {
  if (done_ || cap == 0) return 0;
  z_stream& z = s_->z;
  z.next_out = reinterpret_cast<Bytef*>(buf);
  z.avail_out = static_cast<uInt>(std::min<std::size_t>(cap, 1u << 30));
  const uInt want = z.avail_out;
  while (z.avail_out == want) {
    if (z.avail_in == 0 && !s_->raw_eof) {
      const std::size_t n = raw_(reinterpret_cast<char*>(s_->in.data()), s_->in.size());
      if (n == 0) {
        s_->raw_eof = true;
      } else {
        z.next_in = s_->in.data();
        z.avail_in = static_cast<uInt>(n);
        s_->in_total += n;
      }
    }
    if (z.avail_in > 0) s_->member_open = true;
    // Called even without new input: inflate may still hold output for a full buffer.
    const int rc = inflate(&z, Z_NO_FLUSH);
    if (rc == Z_STREAM_END) {
      s_->member_open = false;
      // Another member may follow (gzip files can be concatenated); anything else is an error.
      if (z.avail_in == 0 && !s_->raw_eof) {
        const std::size_t n = raw_(reinterpret_cast<char*>(s_->in.data()), s_->in.size());
        if (n == 0) s_->raw_eof = true;
        z.next_in = s_->in.data();
        z.avail_in = static_cast<uInt>(n);
        s_->in_total += n;
      }
      if (z.avail_in == 0) {
        done_ = true;
        break;
      }
      if (z.avail_in >= 2 && (z.next_in[0] != 0x1f || z.next_in[1] != 0x8b)) {
        error_ = "trailing data after the end of the gzip stream";
        done_ = true;
        break;
      }
      inflateReset(&z);
    } else if (rc == Z_BUF_ERROR ||
               (rc == Z_OK && z.avail_in == 0 && s_->raw_eof && z.avail_out == want)) {
      if (z.avail_in > 0 || !s_->raw_eof) continue;  // more input to come: read it above
      if (s_->member_open)  // no input left, no output possible, and the member did not end
        error_ = fmt::format(
            "truncated gzip stream: the compressed data ends after {} bytes, before its end "
            "marker",
            s_->in_total);
      done_ = true;
      break;
    } else if (rc != Z_OK) {
      error_ = fmt::format("corrupt gzip data at compressed byte {}: {}", s_->in_total - z.avail_in,
                           z.msg ? z.msg : "inflate failed");
      done_ = true;
      break;
    }
  }
  const std::size_t produced = want - z.avail_out;
  out_total_ += produced;
  return produced;
}

}  // namespace roofline::detail
