// The spellings of the kernel-family rule details (class_detail.hpp). The parser
// (src/roofline/inputs/kernel_classes.cpp) accepts exactly these.
#include "roofline/base/class_detail.hpp"
#include "roofline/base/layer.hpp"

namespace roofline::base {

const char* to_string(MoeStage s) {
  switch (s) {
    case MoeStage::stage1:
      return "stage1";
    case MoeStage::stage2:
      return "stage2";
    case MoeStage::both:
      return "both";
    case MoeStage::unnamed:
      break;
  }
  return "";
}

const char* to_string(AttnVariant v) {
  switch (v) {
    case AttnVariant::decode:
      return "decode";
    case AttnVariant::prefill:
      return "prefill";
    case AttnVariant::auto_regime:
      return "auto";
    case AttnVariant::decode_reduce:
      return "decode_reduce";
    case AttnVariant::mla_decode:
      return "mla_decode";
    case AttnVariant::indexer:
      return "indexer";
    case AttnVariant::unnamed:
      break;
  }
  return "";
}

const char* to_string(StateRole r) {
  switch (r) {
    case StateRole::gdn:
      return "gdn";
    case StateRole::kda:
      return "kda";
    case StateRole::lightning:
      return "lightning";
    case StateRole::conv:
      return "conv";
    case StateRole::conv_prefill:
      return "conv_prefill";
    case StateRole::prefill:
      return "prefill";
    case StateRole::update:
      return "update";
    case StateRole::mamba1:
      return "mamba1";
    case StateRole::mamba2:
      return "mamba2";
    case StateRole::unnamed:
      break;
  }
  return "";
}

const char* to_string(CommAlgorithm a) {
  switch (a) {
    case CommAlgorithm::oneshot:
      return "oneshot";
    case CommAlgorithm::twoshot:
      return "twoshot";
    case CommAlgorithm::unnamed:
      break;
  }
  return "";
}

const char* to_string(ElementwiseKind k) {
  switch (k) {
    case ElementwiseKind::norm:
      return "norm";
    case ElementwiseKind::add_norm:
      return "add_norm";
    case ElementwiseKind::act_and_mul:
      return "act_and_mul";
    case ElementwiseKind::rope:
      return "rope";
    case ElementwiseKind::quant:
      return "quant";
    case ElementwiseKind::kv_write:
      return "kv_write";
    case ElementwiseKind::copy:
      return "copy";
    case ElementwiseKind::cat:
      return "cat";
    case ElementwiseKind::fill:
      return "fill";
    case ElementwiseKind::cast:
      return "cast";
    case ElementwiseKind::softmax:
      return "softmax";
    case ElementwiseKind::reduce:
      return "reduce";
    case ElementwiseKind::index:
      return "index";
    case ElementwiseKind::unnamed:
      break;
  }
  return "";
}

const char* to_string(UnknownDetail d) {
  return d == UnknownDetail::sampling ? "sampling" : "";
}

const char* to_string(GemmKind k) {
  return k == GemmKind::conv ? "conv" : "";
}

std::string to_string(const ClassDetail& d) {
  std::string out;
  auto add = [&out](std::string_view part) {
    if (part.empty()) return;
    if (!out.empty()) out += '+';
    out += part;
  };
  add(to_string(d.moe.stage));
  if (d.moe.stream_all) add("all");
  if (d.moe.fused_shared) add("shared");
  if (d.moe.onchip) add("onchip");
  add(to_string(d.attn));
  add(to_string(d.state));
  add(to_string(d.comm));
  add(to_string(d.elementwise));
  if (d.row_blocks) add("rows");
  add(to_string(d.unknown));
  add(to_string(d.gemm));
  return out;
}

}  // namespace roofline::base
