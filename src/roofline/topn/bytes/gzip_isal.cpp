// GzipInflater with ISA-L's streaming inflate (libisal-dev, isa-l/igzip_lib.h), several times
// zlib's speed; built where CMake found it (ROOFLINE_HAVE_ISAL), else byte_source.cpp's zlib one.
// The same stream rules and messages: concatenated members, a truncated stream, trailing data.
#if defined(ROOFLINE_HAVE_ISAL)
#include <isa-l/igzip_lib.h>

#include <fmt/format.h>

#include "roofline/topn/bytes/byte_source.hpp"
#include "roofline/topn/layer.hpp"

namespace roofline::topn::detail {
namespace {

// zlib's words for the header faults, so a message reads alike whichever inflater is built. A
// fault inside the compressed data is one message: ISA-L finds a bad distance or the checksum
// depending on how much output it is given at a time (a fuzz finding,
// tests/fuzz/regressions/trace/isal_fault_by_chunking.bin), and the reader's result must not
// depend on the chunking.
const char* isal_fault(int rc) {
  switch (rc) {
    case ISAL_INVALID_BLOCK:
    case ISAL_INVALID_SYMBOL:
    case ISAL_INVALID_LOOKBACK:
    case ISAL_INCORRECT_CHECKSUM:
      return "the compressed data does not decode (a bad block, code or distance, or the "
             "checksum disagrees)";
    case ISAL_INVALID_WRAPPER:
      return "incorrect header check";
    case ISAL_UNSUPPORTED_METHOD:
      return "unknown compression method";
    default:
      return "inflate failed";
  }
}

}  // namespace

struct GzipInflater::State {
  inflate_state z{};
  // The compressed input, not zeroed: a small stream touches only the pages it fills.
  static constexpr std::size_t k_in_bytes = std::size_t{1} << 16;
  std::unique_ptr<std::uint8_t[]> in = std::make_unique_for_overwrite<std::uint8_t[]>(k_in_bytes);
  bool raw_eof = false;    // every byte of the raw stream is in `in` or consumed
  bool raw_ended = false;  // the raw stream returned 0 (it is not read again)
  std::uint64_t in_total = 0;

  // Fills `in` as far as the raw stream goes: ISA-L given a dynamic block's header a few bytes at
  // a time (a pipe, a chunked reader) can fail on a valid stream, so it is only ever handed a
  // short input at the end of the data.
  void refill(const ByteReader& raw) {
    std::size_t n = 0;
    while (n < k_in_bytes && !raw_ended) {
      const std::size_t got = raw(reinterpret_cast<char*>(in.get()) + n, k_in_bytes - n);
      raw_ended = got == 0;
      n += got;
    }
    if (n == 0) {
      raw_eof = true;
      return;
    }
    z.next_in = in.get();
    z.avail_in = static_cast<std::uint32_t>(n);
    in_total += n;
  }

  // At a member's end: "" and on to the next member, or done (`finished`) with the error if any.
  std::string next_member(const ByteReader& raw, bool& finished) {
    if (z.avail_in == 0 && !raw_eof) refill(raw);
    finished = z.avail_in == 0;
    if (finished) return {};
    if (z.avail_in >= 2 && (z.next_in[0] != 0x1f || z.next_in[1] != 0x8b)) {
      finished = true;
      return "trailing data after the end of the gzip stream";
    }
    // The reset forgets both buffers: the input left and the room left in the caller's output.
    std::uint8_t* const next_in = z.next_in;
    const std::uint32_t avail_in = z.avail_in;
    std::uint8_t* const next_out = z.next_out;
    const std::uint32_t avail_out = z.avail_out;
    isal_inflate_reset(&z);
    z.crc_flag = ISAL_GZIP;
    z.next_in = next_in;
    z.avail_in = avail_in;
    z.next_out = next_out;
    z.avail_out = avail_out;
    return {};
  }
};

GzipInflater::GzipInflater(ByteReader raw) : s_(std::make_unique<State>()), raw_(std::move(raw)) {
  isal_inflate_init(&s_->z);
  s_->z.crc_flag = ISAL_GZIP;  // the gzip header and trailer checked by ISA-L
}

GzipInflater::~GzipInflater() = default;

namespace {

// On corrupt data ISA-L can run past the room it was given (its count of room left wrapped below
// zero by 32 bytes on a fuzz input): it is handed the caller's buffer less this slack, and a short
// read goes through a buffer of its own, so nothing past the caller's buffer is written or counted.
constexpr std::size_t k_out_slack = 64;

}  // namespace

std::size_t GzipInflater::read(char* buf, std::size_t cap) {
  if (done_ || cap == 0) return 0;
  if (cap > 2 * k_out_slack)
    return inflate_into(
        reinterpret_cast<std::uint8_t*>(buf),
        static_cast<std::uint32_t>(std::min<std::size_t>(cap - k_out_slack, 1u << 30)));
  std::uint8_t staged[3 * k_out_slack];
  const std::size_t n = inflate_into(staged, static_cast<std::uint32_t>(cap));
  std::memcpy(buf, staged, n);
  return n;
}

std::size_t GzipInflater::inflate_into(std::uint8_t* out, std::uint32_t room) {
  inflate_state& z = s_->z;
  z.next_out = out;
  z.avail_out = room;
  while (!done_ && z.avail_out > 0 && z.avail_out <= room) {
    if (z.block_state == ISAL_BLOCK_FINISH) {
      error_ = s_->next_member(raw_, done_);
      continue;
    }
    if (z.avail_in == 0 && !s_->raw_eof) s_->refill(raw_);
    const std::uint32_t in_before = z.avail_in, out_before = z.avail_out;
    const int rc = isal_inflate(&z);
    if (rc < 0) {
      error_ = fmt::format("corrupt gzip data: {}", isal_fault(rc));
      done_ = true;
    } else if (z.block_state != ISAL_BLOCK_FINISH && z.avail_in == in_before &&
               z.avail_out == out_before && (s_->raw_eof || z.avail_in > 0)) {
      error_ = s_->raw_eof ? fmt::format(
                                 "truncated gzip stream: the compressed data ends after {} "
                                 "bytes, before its end marker",
                                 s_->in_total)
                           : std::string("corrupt gzip data: inflate made no progress");
      done_ = true;
    }
  }
  return z.avail_out <= room ? room - z.avail_out : room;
}

}  // namespace roofline::topn::detail
#endif
