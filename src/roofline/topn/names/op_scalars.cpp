// Which recorded scalars of an op (`Concrete Inputs`) change its work, and the names of the
// positions the attention ops record (docs/method.md §22.8).
#include <algorithm>
#include <charconv>
#include <iterator>

#include "roofline/topn/names/names.hpp"

namespace roofline::topn {
namespace {

struct ScalarPosition {
  std::string_view op;
  std::size_t arg;
  std::string_view name;
  bool key;  // changes the work's shape (a window), though it is a number
};

// The positions seen in real traces (docs/method.md §22.8); causal flags are keys by being
// booleans.
constexpr ScalarPosition k_positions[] = {
    {"_vllm_fa2_C::varlen_fwd", 10, "max_seqlen_q", false},
    {"_vllm_fa2_C::varlen_fwd", 11, "max_seqlen_k", false},
    {"_vllm_fa2_C::varlen_fwd", 13, "softmax_scale", false},
    {"_vllm_fa2_C::varlen_fwd", 15, "causal", true},
    {"_vllm_fa2_C::varlen_fwd", 16, "window_size_left", true},
    {"_vllm_fa2_C::varlen_fwd", 17, "window_size_right", true},
    {"flash_attn::_flash_attn_varlen_forward", 5, "max_seqlen_q", false},
    {"flash_attn::_flash_attn_varlen_forward", 6, "max_seqlen_k", false},
    {"flash_attn::_flash_attn_varlen_forward", 8, "softmax_scale", false},
    {"flash_attn::_flash_attn_varlen_forward", 9, "causal", true},
    {"flash_attn::_flash_attn_varlen_forward", 10, "window_size_left", true},
    {"flash_attn::_flash_attn_varlen_forward", 11, "window_size_right", true},
    {"aten::_flash_attention_forward", 5, "max_q", false},
    {"aten::_flash_attention_forward", 6, "max_k", false},
    {"aten::_flash_attention_forward", 8, "is_causal", true},
    {"aten::_flash_attention_forward", 10, "scale", false},
    {"aten::_flash_attention_forward", 11, "window_size_left", true},
    {"aten::_flash_attention_forward", 12, "window_size_right", true},
    {"aten::_cudnn_attention_forward", 6, "max_q", false},
    {"aten::_cudnn_attention_forward", 7, "max_k", false},
    {"aten::_cudnn_attention_forward", 10, "is_causal", true},
    {"aiter::mha_batch_prefill", 6, "max_seqlen_q", false},
    {"aiter::mha_batch_prefill", 7, "max_seqlen_k", false},
    {"aiter::mha_batch_prefill", 12, "causal", true},
};

const ScalarPosition* position_of(std::string_view op, std::size_t arg) {
  const auto it = std::find_if(std::begin(k_positions), std::end(k_positions),
                               [&](const ScalarPosition& p) { return p.op == op && p.arg == arg; });
  return it == std::end(k_positions) ? nullptr : &*it;
}

}  // namespace

std::optional<double> op_scalar_number(std::string_view text) {
  if (text.empty()) return std::nullopt;
  double v = 0.0;
  const auto r = std::from_chars(text.data(), text.data() + text.size(), v);
  if (r.ec != std::errc() || r.ptr != text.data() + text.size()) return std::nullopt;
  return v;
}

bool op_scalar_is_key(std::string_view op, std::size_t arg, std::string_view text) {
  if (text.empty()) return false;
  if (const ScalarPosition* p = position_of(op, arg)) return p->key;
  return !op_scalar_number(text).has_value();  // a flag, a mode: "True", "tanh"
}

std::string op_scalar_name(std::string_view op, std::size_t arg) {
  if (const ScalarPosition* p = position_of(op, arg)) return std::string(p->name);
  return "arg" + std::to_string(arg);
}

}  // namespace roofline::topn
