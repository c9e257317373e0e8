#pragma once
// Private to src/topn: what a kernel's (or op's) name says about quantization, and the sweep that
// gives each matrix kernel the quantization just before it on its stream (docs/method.md §23.5).
// Both the Chrome join (joins/input_quant) and the kernel-trace readers (readers/dispatch_quant)
// run the same sweep, so it lives below them both.

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "roofline/classify/classify.hpp"
#include "roofline/topn/layer.hpp"

namespace roofline::topn::detail {

// The output format a quantization kernel's name spells: a template type (`c10::Float8_e4m3fn`,
// `__nv_fp8_e4m3`, `float_e2m1_t`), else a word of its own identifier
// (`_per_token_group_quant_fp8`, `cvt_fp16_to_fp4`: `fp8`, `fp4`, `int8`). "" when it names none or
// more than one format, or when it dequantizes.
std::string quant_output_dtype(std::string_view kernel_name);

// Where a kernel stands in the sweep: it reads a quantized input (matrix), it quantizes (quant),
// or neither.
enum class QuantRole : std::uint8_t { other, matrix, quant };

QuantRole quant_role(const Classification& c);
// The shipped class tables: what `roofline topn` classifies its entries with.
ClassRules shipped_class_rules();
// The role of a kernel by its name and launching op ("" none), classified with `rules`.
QuantRole quant_role_of(std::string_view kernel_name, std::string_view op, const ClassRules& rules);

// What a quantization writes: its output format and who wrote it (the op, or the kernel's short
// name).
struct QuantWrite {
  std::string dtype, by;
};

// The quantization a kernel performs by its name alone (a dispatch without an op).
std::optional<QuantWrite> quantization_by_name(std::string_view kernel_name);

// One launch in the sweep: its stream (device and stream), start and the caller's index.
struct SweepLaunch {
  std::int64_t stream = 0;
  double ts = 0.0;
  std::uint32_t index = 0;
};

// Per stream in time order: a quantization waits for the next matrix launch, which reads it
// (`reads(index, pending)`); any matrix launch ends the wait. `role(index)` and `quant(index)` (an
// optional write) say what a launch is and what it writes. Launches are visited in the order of
// their streams (stream, start, index).
template <class RoleOf, class QuantOf, class Reads>
class QuantSweep {
 public:
  QuantSweep(RoleOf role, QuantOf quant, Reads reads)
      : role_(std::move(role)), quant_(std::move(quant)), reads_(std::move(reads)) {}
  void visit(std::uint32_t index, std::int64_t stream) {
    if (!started_ || stream != stream_) pending_.reset();
    started_ = true;
    stream_ = stream;
    const QuantRole r = role_(index);
    if (r == QuantRole::quant) {
      pending_ = quant_(index);
    } else if (r == QuantRole::matrix) {
      if (pending_) reads_(index, *pending_);
      pending_
          .reset();  // the quantized tensor's reader: a later matrix kernel reads something else
    }
  }

 private:
  RoleOf role_;
  QuantOf quant_;
  Reads reads_;
  decltype(std::declval<QuantOf&>()(std::uint32_t{})) pending_;
  std::int64_t stream_ = 0;
  bool started_ = false;
};

// The same over a list of launches, sorted here into the order of their streams.
template <class RoleOf, class QuantOf, class Reads>
void quant_sweep(std::vector<SweepLaunch>& launches, RoleOf role, QuantOf quant, Reads reads) {
  const auto order = [](const SweepLaunch& a, const SweepLaunch& b) {
    return std::tie(a.stream, a.ts, a.index) < std::tie(b.stream, b.ts, b.index);
  };
  // A trace with one stream lists its launches in this order already: one pass, no sort.
  if (!std::is_sorted(launches.begin(), launches.end(), order))
    std::sort(launches.begin(), launches.end(), order);
  QuantSweep sweep(std::move(role), std::move(quant), std::move(reads));
  for (const SweepLaunch& l : launches) sweep.visit(l.index, l.stream);
}

}  // namespace roofline::topn::detail
