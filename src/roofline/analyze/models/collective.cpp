// Collectives (docs/method.md §8.14): the bytes one GPU receives over its links for one launch. The
// roof is the link roof (judged in verdict.cpp), not HBM.
#include <fmt/format.h>

#include "roofline/analyze/layer.hpp"
#include "roofline/analyze/models/models.hpp"
#include "roofline/inputs/pattern.hpp"

namespace roofline::analyze::detail {

std::string collective_op(std::string_view name, std::string_view short_name) {
  const auto has = [&](std::initializer_list<std::string_view> tokens) {
    for (std::string_view t : tokens)
      if (icontains(name, t) || icontains(short_name, t)) return true;
    return false;
  };
  if (has({"all_gather", "allgather"})) return "all_gather";
  if (has({"reduce_scatter", "reducescatter"})) return "reduce_scatter";
  if (has({"alltoall", "all_to_all", "all2all", "sendrecv"})) return "all_to_all";
  if (has({"allreduce", "all_reduce", "cross_device_reduce", "quickreduce", "custom_ar"}))
    return "all_reduce";
  return {};
}

namespace {

bool name_has(const TopnEntry& e, std::initializer_list<std::string_view> tokens) {
  for (std::string_view t : tokens)
    if (icontains(e.name, t) || icontains(e.short_name, t)) return true;
  return false;
}

std::string collective_op(const TopnEntry& e) {
  return detail::collective_op(e.name, e.short_name);
}

// QuickReduce codecs scale the wire bytes (docs/method.md §8.14), read from the template arguments.
double quickreduce_codec(const TopnEntry& e, std::string& what) {
  const bool quick = name_has(e, {"quickreduce", "allreduce_prototype"});
  if (!quick) return 1.0;
  struct Codec {
    std::string_view token;
    double scale;
    const char* name;
  };
  for (const Codec& c :
       {Codec{"CodecQ4", 1152.0 / 4096.0, "Q4 (1152/4096)"},
        Codec{"CodecQ6", 1664.0 / 4096.0, "Q6 (1664/4096)"},
        Codec{"CodecQ8", 2176.0 / 4096.0, "Q8 (2176/4096)"}, Codec{"CodecFP", 1.0, "FP (1)"}}) {
    if (name_has(e, {c.token})) {
      what = fmt::format("QuickReduce codec {} from the kernel's template arguments", c.name);
      return c.scale;
    }
  }
  what = "QuickReduce with no codec in the name: FP (1) assumed";
  return 1.0;
}

// The link bytes per GPU for the collective's algorithm: wire = factor · m, times the
// QuickReduce codec; sets the algorithm and the codec of `f`.
Term link_bytes(const ModelInput& in, const Term& message, CommFacts& f) {
  const TopnEntry& e = in.entry;
  const std::string& op = f.op;
  const double n = f.group;
  // The wire bytes per message byte for the algorithm: wire = factor · m.
  Term factor;
  std::string algo_how;
  if (op == "all_reduce") {
    const CommAlgorithm algo = in.cls.detail.comm;
    const bool one =
        algo == CommAlgorithm::oneshot ||
        (algo != CommAlgorithm::twoshot && name_has(e, {"1stage", "oneshot", "one_shot"}));
    f.algorithm = one ? "one-shot" : "two-shot";
    factor = one ? part("(n−1)", n - 1.0, TermUnit::count) : part("2·(n−1)/n", 2.0 * (n - 1.0) / n);
    if (!one) factor.display = Shown::sig4;
    algo_how = fmt::format(
        "{}: {}·m = {}·m ({})",
        one ? "one-shot all-reduce"
            : "two-shot all-reduce (reduce-scatter + all-gather; ring/tree/two-stage cost the "
              "same)",
        factor.formula, shown(factor),
        algo == CommAlgorithm::unnamed ? "algorithm from the kernel name" : "kernel-family table");
  } else {
    f.algorithm = "ring";
    factor = part("(n−1)/n", (n - 1.0) / n);
    factor.display = Shown::sig4;
    algo_how = fmt::format("{}: {}·m = {}·m (m the full gathered / scattered / exchanged tensor)",
                           op, factor.formula, shown(factor));
  }
  std::string codec_how;
  f.codec = quickreduce_codec(e, codec_how);
  const Term link = term(
      "link bytes per GPU (inbound)",
      algo_how + (codec_how.empty() ? "" : fmt::format(" × codec {:.6g} ({})", f.codec, codec_how)),
      factor.value * message.value * f.codec);
  return link;
}

// The message m: the first operand's bytes, else M · hidden · a (the hidden state of the step's
// rows); nullopt, with the reason in `work`, where neither is known or the message is the logits'.
std::optional<Term> comm_message(const ModelInput& in, WorkEstimate& work) {
  const TopnEntry& e = in.entry;
  Term message;
  if (!e.shapes.empty() && !e.shapes[0].empty()) {
    auto dt = !e.dtypes.empty() ? parse_dtype(e.dtypes[0]) : std::nullopt;
    const Dtype d = dt ? *dt : in.dtypes.act;
    std::string dims;
    for (auto v : e.shapes[0]) dims += fmt::format("{}{}", dims.empty() ? "" : ", ", v);
    return term("message m", fmt::format("the first operand [{}] {}", dims, d.key),
                elements(e.shapes[0]) * d.bytes);
  }
  if (!(in.rows && in.ctx.config && in.ctx.config->hidden)) {
    work.unmodeled_reason =
        "collective message size unknown: no operand shapes and no rows·hidden_size";
    return std::nullopt;
  }
  if (icontains(e.module, "Logits") || icontains(e.module, "LMHead")) {
    work.unmodeled_reason =
        "collective of the logits (its module is the logits processor or lm_head): its message "
        "is the requests' vocabulary slice, not the hidden state, and no operand shapes give it";
    return std::nullopt;
  }
  message =
      term("message m", "M·hidden·a", *in.rows * *in.ctx.config->hidden * in.dtypes.act.bytes);
  message.expansion =
      fmt::format("{}·{}·{} ({})", format_g(*in.rows), format_g(*in.ctx.config->hidden),
                  in.dtypes.act.bytes, in.rows_source);
  message.source = in.rows_source;
  return message;
}

}  // namespace

void model_comm(const ModelInput& in, WorkEstimate& work) {
  const TopnEntry& e = in.entry;
  work.has_compute_peak_class = false;
  work.compute_dtype = in.dtypes.act;
  std::string op = collective_op(e);
  const bool from_stack = op.empty() && !e.collective.empty();
  if (from_stack) op = e.collective;
  if (op.empty() || op == "broadcast") {
    work.unmodeled_reason =
        op.empty() ? "collective: neither the name nor the call stack says which collective "
                     "(all-reduce, all-gather, reduce-scatter, all-to-all)"
                   : "collective: a broadcast (the call stack's word) has no byte model here";
    return;
  }
  if (from_stack)
    work.notes.push_back(
        fmt::format("collective {} as the call stack names it (docs/method.md §22.10){}", op,
                    e.module.empty() ? "" : fmt::format(", launched in '{}'", e.module)));
  const double n = in.tp;
  if (!(n > 1)) {
    work.unmodeled_reason = fmt::format(
        "collective with group size n = tp = {}{}: no peers, no link traffic to judge", format_g(n),
        in.ctx.env && in.ctx.env->tp_given
            ? ""
            : " (no tp given; --tp, or tp in the env report, would settle it)");
    return;
  }
  const std::optional<Term> message = comm_message(in, work);
  if (!message) return;
  CommFacts f;
  f.op = op;
  f.message_bytes = message->value;
  f.group = n;
  const Term link = link_bytes(in, *message, f);
  f.link_bytes = link.value;
  work.comm = f;
  work.notes.push_back(
      fmt::format("collective {}: group n = tp = {}, {}", op, format_g(n), render(*message)));
  work.notes.push_back(
      render(link) +
      "; no FLOPs counted (the reduction adds are negligible); judged on the link roof, not HBM");
  add_candidate(work, "link bytes", link, term("flops", "", 0.0, TermUnit::flops));
}

}  // namespace roofline::analyze::detail
