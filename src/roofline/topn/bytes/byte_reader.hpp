#pragma once
// The one way bytes reach a reader: a function that fills a buffer.

#include <cstddef>
#include <functional>

namespace roofline::topn {

// Streaming byte source: fills up to `cap` bytes, returns how many (0 = end of input).
using ByteReader = std::function<std::size_t(char* buf, std::size_t cap)>;

}  // namespace roofline::topn
