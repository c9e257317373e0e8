// The quantization each matrix kernel's input went through (docs/method.md §23.5): one sweep over
// each device's streams in time order.
#include "roofline/topn/input_quant.hpp"

#include <algorithm>
#include <cctype>
#include <numeric>
#include <optional>

#include "roofline/classify/classify.hpp"
#include "roofline/inputs/kernel_classes.hpp"
#include "roofline/inputs/pattern.hpp"
#include "roofline/topn/layer.hpp"

namespace roofline::topn::detail {
namespace {

// The format one lower-case identifier word names: fp8, fp4, int8, or "".
std::string_view word_format(std::string_view w) {
  const auto starts = [&](std::string_view p) { return w.substr(0, p.size()) == p; };
  if (starts("ue4m3") || starts("ue8m0")) return {};  // block-scale types, not the values
  if (starts("e4m3") || starts("e5m2") || w == "fp8" || w == "float8" || w == "mxfp8" || w == "f8")
    return "fp8";
  if (starts("e2m1") || w == "fp4" || w == "nvfp4" || w == "mxfp4" || w == "float4") return "fp4";
  if (w == "int8" || w == "i8" || w == "s8") return "int8";
  return {};
}

// Where a matrix kernel stands in the sweep: it reads a quantized input (matrix), it quantizes
// (quant), or neither.
enum class Role : std::uint8_t { other, matrix, quant };

Role role_of(const Classification& c) {
  switch (c.op_class) {
    case OpClass::gemm:
    case OpClass::moe:
    case OpClass::linear_attn:
    case OpClass::ssm:
      return Role::matrix;
    case OpClass::attn:  // the split-KV combine reads partial outputs, not a quantized input
      return c.detail.attn == AttnVariant::decode_reduce ? Role::other : Role::matrix;
    case OpClass::elementwise:
      return c.detail.elementwise == ElementwiseKind::quant ? Role::quant : Role::other;
    default:
      return Role::other;
  }
}

// Roles by (kernel name, launching op), classified once each with the shipped tables (what
// `roofline topn` classifies its entries with).
class Roles {
 public:
  explicit Roles(const ChromeEvents& ev) : ev_(ev) {
    rules_.families = builtin_kernel_classes_rules();
  }
  Role of(std::uint32_t name, std::uint32_t op) {
    const auto [it, fresh] = cache_.try_emplace({name, op}, Role::other);
    if (!fresh) return it->second;
    TopnEntry e;
    fill_entry_names(ev_.names.at(name), GpuEventKind::kernel, e);
    if (op != k_no_id) e.op = ev_.labels.at(op);
    it->second = role_of(classify::classify(e, rules_));
    return it->second;
  }

 private:
  const ChromeEvents& ev_;
  ClassRules rules_;
  std::map<std::pair<std::uint32_t, std::uint32_t>, Role> cache_;
};

// A quantization waiting for its reader on one stream.
struct Pending {
  std::string dtype, by;
  const OpRec* op = nullptr;  // its launching op (eager)
};

// Whether the quantization ran inside the matrix kernel's own launching op: launched by that op
// itself, or by an op on the same thread that began after it and before the kernel's launch.
bool inside(const OpRec* quant, const OpRec* op, const RuntimeRec* launch) {
  if (!quant || !op) return false;
  if (quant == op) return true;  // both launched by the op itself (a Triton quantization in it)
  return launch && quant->thread == op->thread && launch->thread == op->thread &&
         quant->ts_us >= op->ts_us && quant->ts_us <= launch->ts_us;
}

// The quantization a launch performs, from its op's name (eager), else its kernel's name.
std::optional<Pending> quantization(const ChromeEvents& ev, const GpuEventRec& g, const OpRec* op) {
  Pending p;
  p.op = op;
  if (op && op->name != k_no_id) {
    p.dtype = quant_output_dtype(ev.labels.at(op->name));
    p.by = ev.labels.at(op->name);
  }
  if (p.dtype.empty()) {
    TopnEntry e;
    fill_entry_names(ev.names.at(g.name), GpuEventKind::kernel, e);
    p.dtype = quant_output_dtype(e.demangled.empty() ? e.name : e.demangled);
    if (p.by.empty()) p.by = e.short_name;
  }
  if (p.dtype.empty()) return std::nullopt;
  return p;
}

}  // namespace

std::string quant_output_dtype(std::string_view name) {
  if (icontains(name, "dequant")) return {};
  std::string_view found;
  std::string word;
  const auto close = [&]() -> bool {
    const std::string_view f = word_format(word);
    word.clear();
    if (f.empty() || f == found) return true;
    if (!found.empty()) return false;  // two formats: the name does not say which it writes
    found = f;
    return true;
  };
  for (char c : name) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else if (!close()) {
      return {};
    }
  }
  if (!close()) return {};
  return std::string(found);
}

std::vector<InputQuantSums> input_quant_by_name(const ChromeEvents& ev, const EventLookup& lookup,
                                                const ReplayJoin& join) {
  std::vector<InputQuantSums> out(ev.names.size());
  std::vector<std::uint32_t> order;
  for (std::uint32_t i = 0; i < ev.gpu.size(); ++i)
    if (ev.gpu[i].kind == GpuEventKind::kernel) order.push_back(i);
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    const GpuEventRec &x = ev.gpu[a], &y = ev.gpu[b];
    return std::tie(x.device, x.stream, x.ts_us, a) < std::tie(y.device, y.stream, y.ts_us, b);
  });
  Roles roles(ev);
  std::optional<Pending> pending;
  const GpuEventRec* prev = nullptr;
  for (std::uint32_t i : order) {
    const GpuEventRec& g = ev.gpu[i];
    if (!prev || prev->device != g.device || prev->stream != g.stream) pending.reset();
    prev = &g;
    const bool replay = join.replayed(i);
    const RuntimeRec* launch = lookup.runtime(g.correlation);
    const OpRec* op = replay ? nullptr
                             : lookup.op(g.external_id >= 0 ? g.external_id
                                         : launch           ? launch->external_id
                                                            : -1);
    const Role role = roles.of(g.name, op ? op->name : k_no_id);
    if (role == Role::quant) {
      pending = quantization(ev, g, op);
    } else if (role == Role::matrix) {
      if (pending)
        out[g.name]
           [{pending->dtype, pending->by,
             inside(pending->op, op, launch) ? "inside its own op" : "before it on its stream"}] +=
            1.0;
      pending.reset();  // the quantized tensor's reader: a later matrix kernel reads something else
    }
  }
  return out;
}

}  // namespace roofline::topn::detail
