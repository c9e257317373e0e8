// Byte streams for the trace readers: files, gzip inflation (zlib), peeking at the first bytes.
#include "roofline/topn/byte_source.hpp"

#include <cerrno>
#include <cstring>
#include <vector>

#include <fmt/format.h>
#include <zlib.h>
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

namespace {

// Whether a read's inflation stops, and why: `error`, or "" at the clean end of the data.
struct GzipStep {
  bool finished = false;
  std::string error;
};

}  // namespace

struct GzipReader::State {
  z_stream z{};
  std::vector<unsigned char> in = std::vector<unsigned char>(std::size_t{1} << 18);
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
  const std::size_t produced = want - z.avail_out;
  out_total_ += produced;
  return produced;
}

}  // namespace roofline::topn::detail
