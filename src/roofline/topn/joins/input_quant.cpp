// The quantization each matrix kernel's input went through (docs/method.md §23.5): one sweep over
// each device's streams in time order.
#include "roofline/topn/joins/input_quant.hpp"

#include <algorithm>
#include <map>
#include <optional>

#include "roofline/topn/joins/stream_order.hpp"
#include "roofline/topn/layer.hpp"

namespace roofline::topn::detail {
namespace {

// Roles by (kernel name, launching op), classified once each.
class Roles {
 public:
  explicit Roles(const ChromeEvents& ev) : ev_(ev), rules_(shipped_class_rules()) {}
  QuantRole of(std::uint32_t name, std::uint32_t op) {
    const auto [it, fresh] = cache_.try_emplace({name, op}, QuantRole::other);
    if (!fresh) return it->second;
    const std::string_view op_text = op != k_no_id ? std::string_view(ev_.labels.at(op)) : "";
    it->second = quant_role_of(ev_.names.at(name), op_text, rules_);
    return it->second;
  }

 private:
  const ChromeEvents& ev_;
  ClassRules rules_;
  std::map<std::pair<std::uint32_t, std::uint32_t>, QuantRole> cache_;
};

// A quantization waiting for its reader on one stream.
struct Pending {
  QuantWrite write;
  std::optional<OpRec> op;  // its launching op (eager), as kept or made again
};

// Whether the quantization ran inside the matrix kernel's own launching op: launched by that op
// itself, or by an op on the same thread that began after it and before the kernel's launch.
bool inside(const std::optional<OpRec>& quant_op, const OpRec* op, const RuntimeRec* launch) {
  if (!quant_op || !op) return false;
  const OpRec* quant = &*quant_op;
  if (same_op(*quant, *op)) return true;  // both launched by the op itself (a Triton one in it)
  return launch && quant->thread == op->thread && launch->thread == op->thread &&
         quant->ts_us >= op->ts_us && quant->ts_us <= launch->ts_us;
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
    return Pending{*it->second, op ? std::optional<OpRec>(*op) : std::nullopt};
  }

 private:
  std::optional<QuantWrite> by_names(std::uint32_t name, std::uint32_t op_name) const {
    if (op_name != k_no_id) {
      const std::string& op_text = ev_.labels.at(op_name);
      if (std::string dtype = quant_output_dtype(op_text); !dtype.empty())
        return QuantWrite{std::move(dtype), op_text};
    }
    return quantization_by_name(ev_.names.at(name));
  }
  const ChromeEvents& ev_;
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::optional<QuantWrite>> cache_;
};

}  // namespace

std::vector<InputQuantSums> input_quant_by_name(const ChromeEvents& ev, const EventLookup& lookup,
                                                const ReplayJoin& join) {
  std::vector<InputQuantSums> out(ev.names.size());
  Roles roles(ev);
  Quantizations quantizations(ev);
  // A launch's op and runtime event: none for a graph replay.
  const auto origin = [&](std::uint32_t i) {
    GpuOrigin o = lookup.origin(i);
    if (join.replayed(i)) o.found = nullptr, o.has_remade = false;
    return o;
  };
  QuantSweep sweep(
      [&](std::uint32_t i) {
        const GpuOrigin o = origin(i);
        const OpRec* op = o.op();
        return roles.of(ev.gpu[i].name, op ? op->name : k_no_id);
      },
      [&](std::uint32_t i) {
        const GpuOrigin o = origin(i);
        return quantizations.of(ev.gpu[i], o.op());
      },
      [&](std::uint32_t i, const Pending& p) {
        const GpuOrigin o = origin(i);
        out[ev.gpu[i].name]
           [{p.write.dtype, p.write.by,
             inside(p.op, o.op(), o.launch()) ? "inside its own op" : "before it on its stream"}] +=
            1.0;
      });
  in_stream_order(ev, [&](std::uint32_t i, std::int64_t stream) { sweep.visit(i, stream); });
  return out;
}

}  // namespace roofline::topn::detail
