// The quantization each matrix kernel's input went through (docs/method.md §23.5): one sweep over
// each device's streams in time order.
#include "roofline/topn/input_quant.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <numeric>
#include <optional>

#include "roofline/classify/classify.hpp"
#include "roofline/inputs/kernel_classes.hpp"
#include "roofline/inputs/pattern.hpp"
#include "roofline/topn/layer.hpp"
#include "roofline/topn/record_arena.hpp"

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

// The quantization a kernel performs by its name alone (a dispatch without an op).
std::optional<Pending> quantization_by_name(const std::string& name) {
  TopnEntry e;
  fill_entry_names(name, GpuEventKind::kernel, e);
  Pending p;
  p.dtype = quant_output_dtype(e.demangled.empty() ? e.name : e.demangled);
  // A mangled name only its prefix was read from keeps its template types in the raw spelling.
  if (p.dtype.empty() && !e.demangled.empty() && e.demangled.find('<') == std::string::npos)
    p.dtype = quant_output_dtype(e.name);
  p.by = e.short_name;
  if (p.dtype.empty()) return std::nullopt;
  return p;
}

// The quantization a launch performs, from its op's name (eager), else its kernel's name: worked
// out once per (kernel name, op name), as Roles does (a trace repeats them launch after launch,
// and each reading demangles).
class Quantizations {
 public:
  explicit Quantizations(const ChromeEvents& ev) : ev_(ev) {}
  std::optional<Pending> of(const GpuEventRec& g, const OpRec* op) {
    const std::uint32_t op_name = op ? op->name : k_no_id;
    auto [it, fresh] = cache_.try_emplace({g.name, op_name});
    if (fresh) it->second = by_names(g.name, op_name);
    if (!it->second) return std::nullopt;
    Pending p = *it->second;
    p.op = op;
    return p;
  }

 private:
  std::optional<Pending> by_names(std::uint32_t name, std::uint32_t op_name) const {
    if (op_name != k_no_id) {
      const std::string& op_text = ev_.labels.at(op_name);
      if (std::string dtype = quant_output_dtype(op_text); !dtype.empty())
        return Pending{std::move(dtype), op_text, nullptr};
    }
    return quantization_by_name(ev_.names.at(name));
  }
  const ChromeEvents& ev_;
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::optional<Pending>> cache_;
};

// One launch in the sweep: its stream (device and stream), start and the caller's index.
struct SweepLaunch {
  std::int64_t stream = 0;
  double ts = 0.0;
  std::uint32_t index = 0;
};

// Per stream in time order: a quantization waits for the next matrix launch, which reads it
// (`reads(index, pending)`); any matrix launch ends the wait. `role(index)` and `quant(index)` say
// what a launch is and what it writes.
template <class RoleOf, class QuantOf, class Reads>
void sweep(std::vector<SweepLaunch>& launches, RoleOf role, QuantOf quant, Reads reads) {
  const auto order = [](const SweepLaunch& a, const SweepLaunch& b) {
    return std::tie(a.stream, a.ts, a.index) < std::tie(b.stream, b.ts, b.index);
  };
  // A trace with one stream lists its launches in this order already: one pass, no sort.
  if (!std::is_sorted(launches.begin(), launches.end(), order))
    std::sort(launches.begin(), launches.end(), order);
  std::optional<Pending> pending;
  for (std::size_t i = 0; i < launches.size(); ++i) {
    if (i == 0 || launches[i].stream != launches[i - 1].stream) pending.reset();
    const std::uint32_t at = launches[i].index;
    const Role r = role(at);
    if (r == Role::quant) {
      pending = quant(at);
    } else if (r == Role::matrix) {
      if (pending) reads(at, *pending);
      pending.reset();  // the quantized tensor's reader: a later matrix kernel reads something else
    }
  }
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
  // ck_tile's and aiter's fp8_t is `_BitInt(8)` (mangled `DB8_`), bf8_t `unsigned _BitInt(8)`
  // (`DU8_`): a quantization's 8-bit template type is what it writes.
  const bool bitint8 = name.find("DB8_") != std::string_view::npos ||
                       name.find("DU8_") != std::string_view::npos ||
                       name.find("_BitInt(8)") != std::string_view::npos;
  if (bitint8 && (found.empty() || found == "fp8")) return "fp8";
  return std::string(found);
}

std::vector<InputQuantSums> input_quant_by_name(const ChromeEvents& ev, const EventLookup& lookup,
                                                const ReplayJoin& join) {
  std::vector<InputQuantSums> out(ev.names.size());
  std::vector<SweepLaunch> launches;
  reserve_huge(launches, ev.gpu.size());  // one allocation: no doubling through fresh pages
  for (std::uint32_t i = 0; i < ev.gpu.size(); ++i) {
    const GpuEventRec& g = ev.gpu[i];
    if (g.kind == GpuEventKind::kernel)
      launches.push_back({(std::int64_t{g.device} << 32) | std::uint32_t(g.stream), g.ts_us, i});
  }
  Roles roles(ev);
  Quantizations quantizations(ev);
  // A launch's op and runtime event: none for a graph replay.
  const auto origin = [&](std::uint32_t i) {
    const GpuOrigin& o = lookup.origin(i);
    return std::pair{join.replayed(i) ? nullptr : o.op, o.launch};
  };
  sweep(
      launches,
      [&](std::uint32_t i) {
        const OpRec* op = origin(i).first;
        return roles.of(ev.gpu[i].name, op ? op->name : k_no_id);
      },
      [&](std::uint32_t i) { return quantizations.of(ev.gpu[i], origin(i).first); },
      [&](std::uint32_t i, const Pending& p) {
        const auto [op, launch] = origin(i);
        out[ev.gpu[i].name]
           [{p.dtype, p.by,
             inside(p.op, op, launch) ? "inside its own op" : "before it on its stream"}] += 1.0;
      });
  return out;
}

std::vector<InputQuantSums> input_quant_of_dispatches(std::vector<QueuedDispatch>& dispatches,
                                                      const std::vector<std::string>& names) {
  std::vector<InputQuantSums> out(names.size());
  std::vector<Role> roles(names.size(), Role::other);
  std::vector<std::optional<Pending>> writes(names.size());
  ClassRules rules;
  rules.families = builtin_kernel_classes_rules();
  for (std::size_t n = 0; n < names.size(); ++n) {
    TopnEntry e;
    fill_entry_names(names[n], GpuEventKind::kernel, e);
    roles[n] = role_of(classify::classify(e, rules));
    if (roles[n] == Role::quant) writes[n] = quantization_by_name(names[n]);
  }
  std::vector<SweepLaunch> launches;
  launches.reserve(dispatches.size());
  for (std::uint32_t i = 0; i < dispatches.size(); ++i)
    launches.push_back({dispatches[i].queue, dispatches[i].start, i});
  sweep(
      launches, [&](std::uint32_t i) { return roles[dispatches[i].name]; },
      [&](std::uint32_t i) { return writes[dispatches[i].name]; },
      [&](std::uint32_t i, const Pending& p) {
        out[dispatches[i].name][{p.dtype, p.by, "before it on its queue"}] += 1.0;
      });
  return out;
}

void DispatchLog::add(std::int64_t queue, double start, const std::string& name) {
  auto [it, fresh] = ids_.try_emplace(name, static_cast<std::uint32_t>(names_.size()));
  if (fresh) names_.push_back(name);
  list_.push_back({queue, start, it->second});
}

void DispatchLog::attach(std::vector<TraceKernel>& kernels) {
  std::vector<InputQuantSums> quant = input_quant_of_dispatches(list_, names_);
  for (TraceKernel& k : kernels)
    if (auto id = ids_.find(k.name); id != ids_.end()) k.input_quant = std::move(quant[id->second]);
}

}  // namespace roofline::topn::detail
