// Collectives (docs/method.md §8.14): link bytes per algorithm and codec, the link roof (mesh and
// switch), the two MiniMax anchors, n = 1, a part without a link row.
#include <catch2/catch.hpp>

#include "roofline/cli/layer.hpp"
#include "unit/test_helpers.hpp"

namespace unit_model_comm {
using namespace roofline::cli;
using roofline::test::any_contains;
using roofline::test::detail_of;
using roofline::test::rel;

namespace {

struct Comm : roofline::test::ModelCase {
  Comm() {
    env.tp = 8;
    env.tp_given = true;
    config.hidden = 6144;
    peaks.link = LinkPeak{"mesh", 76.5e9, 7};
    entry.name = entry.short_name = "cross_device_reduce_2stage";
    entry.shapes = {{64, 6144}};
    entry.dtypes = {"torch.bfloat16"};
    regime.t_ms = 0.0188;
    cls.op_class = OpClass::comm;
    cls.collective = true;
  }
  Verdict verdict(const WorkEstimate& w) const {
    return judge(w, OpClass::comm, 10.0, peaks, VerdictParams{});
  }
};

}  // namespace

TEST_CASE("comm: MiniMax anchor 1 — QuickReduce two-shot Q4, 201 MB, ≈ 30 % of the link roof",
          "[model][comm]") {
  Comm x;
  x.entry.name =
      "void quickreduce::allreduce_prototype_twoshot<quickreduce::AllReduceTwoshot<__hip_bfloat16, "
      "quickreduce::CodecQ4<__hip_bfloat16>, false>>(...)";
  x.entry.shapes = {{16384, 6144}};
  x.regime.t_ms = 0.606;
  WorkEstimate w = x.run();
  REQUIRE(w.modeled);
  REQUIRE(w.comm);
  const double m = 16384.0 * 6144 * 2;
  CHECK(w.comm->message_bytes == rel(m));
  CHECK(w.comm->algorithm == "two-shot");
  CHECK(w.comm->codec == rel(1152.0 / 4096));
  CHECK(w.comm->link_bytes == rel(2.0 * 7 / 8 * m * 1152 / 4096));
  CHECK(w.comm->link_bytes == Approx(99.09e6).epsilon(0.001));  // ≈ 99 MB on the wire
  CHECK(w.bytes == rel(w.comm->link_bytes));
  const Verdict v = x.verdict(w);
  CHECK(v.roof == Roof::link);
  CHECK(v.achieved_bw_bytes_s.value() == Approx(0.1635e12).epsilon(0.001));  // ≈ 0.16 TB/s
  CHECK(v.link_util.value() == rel(w.comm->link_bytes / 606e-6 / (7 * 76.5e9)));
  CHECK(v.link_util.value() == Approx(0.3053).epsilon(0.001));
  CHECK_FALSE(v.hbm_util.has_value());
  CHECK_FALSE(v.compute_util.has_value());
  CHECK(v.bound == Bound::latency);
  CHECK(v.target_eff.value() == rel(0.75));
  CHECK(v.headroom == Headroom::underperforming);
}

TEST_CASE("comm: MiniMax anchor 2 — cross_device_reduce_2stage at decode, ≈ 14 %",
          "[model][comm]") {
  Comm x;
  WorkEstimate w = x.run();
  const double m = 64.0 * 6144 * 2;  // 786 432
  CHECK(w.comm->link_bytes == rel(2.0 * 7 / 8 * m));
  const Verdict v = x.verdict(w);
  CHECK(v.link_util.value() == Approx(0.1367).epsilon(0.001));
  CHECK(v.bound == Bound::latency);
}

TEST_CASE("comm: link bytes per algorithm", "[model][comm]") {
  Comm x;
  const double m = 64.0 * 6144 * 2;
  auto link = [&](const std::string& name, const std::string& detail = "") {
    x.entry.name = x.entry.short_name = name;
    x.cls.detail = detail_of(OpClass::comm, detail);
    return x.run().comm->link_bytes;
  };
  CHECK(link("cross_device_reduce_1stage<__hip_bfloat16, 8>") == rel(7 * m));
  CHECK(link("all_reduce_one_shot_kernel") == rel(7 * m));
  CHECK(link("my_allreduce", "oneshot") == rel(7 * m));  // the table's detail
  CHECK(link("ncclDevKernel_AllReduce_Sum_bf16_RING_LL") == rel(2.0 * 7 / 8 * m));
  CHECK(link("ncclDevKernel_AllGather_RING_LL") == rel(7.0 / 8 * m));
  CHECK(link("reduce_scatter_ring_kernel") == rel(7.0 / 8 * m));
  CHECK(link("all_to_all_kernel") == rel(7.0 / 8 * m));
  CHECK(link("allreduce_prototype_oneshot<CodecQ8>") == rel(7 * m * 2176 / 4096));
  CHECK(link("allreduce_prototype_twoshot<CodecQ6>") == rel(2.0 * 7 / 8 * m * 1664 / 4096));
  CHECK(link("allreduce_prototype_twoshot<CodecFP>") == rel(2.0 * 7 / 8 * m));
}

TEST_CASE("comm: message from M·hidden·a without shapes; n = 1 is L2", "[model][comm]") {
  Comm x;
  x.entry.shapes.clear();
  x.entry.dtypes.clear();
  WorkEstimate w = x.run();
  CHECK(w.comm->message_bytes == rel(64.0 * 6144 * 2));  // conc 64 rows, bf16
  x.env.tp = 1;
  WorkEstimate solo = x.run();
  CHECK_FALSE(solo.modeled);
  CHECK(solo.unmodeled_reason.find("no peers") != std::string::npos);
}

TEST_CASE("comm: the link roof — mesh fan-out, switch, no row", "[verdict][comm]") {
  Comm x;
  x.env.tp = 2;
  WorkEstimate w = x.run();  // one-shot at n = 2 reaches one peer: one link
  x.peaks.link = LinkPeak{"mesh", 64e9, 7};
  Verdict v = x.verdict(w);
  CHECK(v.link_util.value() == rel(w.bytes / 18.8e-6 / 64e9));
  x.peaks.link = LinkPeak{"switch", 450e9, 0};
  v = x.verdict(w);
  CHECK(v.link_util.value() == rel(w.bytes / 18.8e-6 / 450e9));  // whatever n
  // A saturated link: memory-bound, verdict against 0.75.
  x.entry.shapes = {{4096, 6144}};
  x.regime.t_ms = 4096.0 * 6144 * 2 / (0.7 * 450e9) * 1000.0;  // two-shot at n = 2: m
  WorkEstimate fast = x.run();
  v = x.verdict(fast);
  CHECK(v.link_util.value() == Approx(0.7).epsilon(1e-6));
  CHECK(v.bound == Bound::memory);
  CHECK(v.headroom == Headroom::saturated);
  x.peaks.link.reset();
  x.regime.t_ms = 0.0188;
  v = x.verdict(x.run());
  CHECK_FALSE(v.link_util.has_value());
  CHECK(v.headroom == Headroom::unknown);
  CHECK(v.roof == Roof::link);
  CHECK(any_contains(v.notes, {"no link row"}));
}

TEST_CASE("comm: above the link roof is L3", "[verdict][comm]") {
  Comm x;
  x.regime.t_ms = 0.001;  // 1 µs for 1.4 MB on the wire
  const Verdict v = x.verdict(x.run());
  CHECK(v.suspect);
  CHECK(v.bytes_upper_bound.value() == rel(7 * 76.5e9 * 1e-6));
  CHECK(v.headroom == Headroom::unknown);
}

}  // namespace unit_model_comm
