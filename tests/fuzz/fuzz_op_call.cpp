// libFuzzer target: the op-table reader (docs/method.md §23) on arbitrary argument lists. The
// input's first line is the op name; every further line one argument, `dims|dtype|scalar` with
// dims comma-separated integers (a list argument: tensors separated by ';'). A first byte that is
// odd makes the call not positional (the tensors alone, as the Top-N keeps them). Must never
// crash, hang or throw; a reading is either read with finite bytes and FLOPs, or says why not.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "roofline/analyze/evidence/op_reading.hpp"

namespace {

std::vector<std::int64_t> ints(std::string_view s) {
  std::vector<std::int64_t> out;
  std::string cur;
  for (char c : std::string(s) + ",") {
    if ((c >= '0' && c <= '9') || c == '-') {
      cur += c;
    } else if (!cur.empty()) {
      out.push_back(std::strtoll(cur.c_str(), nullptr, 10));
      cur.clear();
    }
  }
  return out;
}

roofline::analyze::OpArg arg(std::string_view line) {
  roofline::analyze::OpArg a;
  const std::size_t b1 = line.find('|');
  const std::size_t b2 = b1 == std::string_view::npos ? b1 : line.find('|', b1 + 1);
  const std::string_view dims = line.substr(0, b1);
  if (dims.find(';') != std::string_view::npos) {
    std::size_t at = 0;
    while (at <= dims.size()) {
      const std::size_t semi = std::min(dims.find(';', at), dims.size());
      a.list.push_back(ints(dims.substr(at, semi - at)));
      at = semi + 1;
    }
  } else {
    a.dims = ints(dims);
  }
  if (b1 != std::string_view::npos) a.dtype = std::string(line.substr(b1 + 1, b2 - b1 - 1));
  if (b2 != std::string_view::npos) a.scalar = std::string(line.substr(b2 + 1));
  return a;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  roofline::analyze::OpCall call;
  call.positional = size == 0 || (data[0] & 1) == 0;
  std::size_t at = 0;
  bool first = true;
  while (at < text.size() && call.args.size() < 64) {
    const std::size_t nl = std::min(text.find('\n', at), text.size());
    const std::string_view line = text.substr(at, nl - at);
    if (first)
      call.op = std::string(line);
    else
      call.args.push_back(arg(line));
    first = false;
    at = nl + 1;
  }
  const roofline::analyze::OpReading r = roofline::analyze::read_op_call(call);
  if (r.read && (!std::isfinite(r.bytes) || !std::isfinite(r.flops) || r.bytes < 0))
    __builtin_trap();
  if (!r.read && r.why_not.empty()) __builtin_trap();
  return 0;
}
