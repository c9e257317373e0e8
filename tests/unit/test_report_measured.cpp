// report_measured.hpp (docs/method.md §11.4): the report's "Measured vs model" line of a stage-C
// entry — a ratio far from 1 (beyond ±25 %) in words, one within it as a figure.
#include <catch2/catch.hpp>

#include "roofline/cli/layer.hpp"
#include "roofline/render/report_measured.hpp"
#include "unit/test_helpers.hpp"

namespace unit_report_measured {
using namespace roofline::cli;
using roofline::render::detail::measured_vs_model_md;
using roofline::test::contains;

namespace {

HeadEntry measured(std::optional<double> bytes, std::optional<double> flops, bool timed = true) {
  HeadEntry e;
  MeasuredVsModel r;
  r.bytes = bytes;
  r.flops = flops;
  r.model_bytes = 1.0e9;
  r.measured_bytes = bytes ? *bytes * 1.0e9 : 2.0e6;
  r.model_flops = 9.0e9;
  if (flops) r.measured_flops = *flops * 9.0e9;
  r.timed = timed;
  e.work.measured_vs_model = r;
  return e;
}

}  // namespace

TEST_CASE("measured_vs_model_md: nothing before stage C", "[report][measured]") {
  CHECK(measured_vs_model_md(HeadEntry{}).empty());
}

TEST_CASE("measured_vs_model_md: ratios within ±25 % are figures, far ones are words",
          "[report][measured]") {
  // The H200 SDPA decode kernel: bytes exact (+0.27 %), tensor ops 2.0× the model's FLOPs.
  const std::string sdpa = measured_vs_model_md(measured(1.0027486, 2.0));
  CHECK(contains(sdpa, "bytes 1.00× (0.3 % more) of the model's (within ±25 %)"));
  CHECK(contains(sdpa, "**the counters show 2.00× (100 % more) the FLOPs the model counts**"));
  CHECK(contains(sdpa, "the verdict uses the measured figures\n"));

  // 93 % fewer bytes than the model: said, with both figures and what it can mean.
  const std::string low = measured_vs_model_md(measured(0.0683, std::nullopt));
  CHECK(contains(low, "**the kernel moved 0.07× (93 % less) the bytes the model counts**"));
  CHECK(contains(low, "never reached DRAM"));
  CHECK(contains(low, "FLOPs not measured (the model's kept)"));

  // More bytes than the model: the other reading.
  CHECK(contains(measured_vs_model_md(measured(1.5, 1.0)), "(50 % more)"));
  CHECK(
      contains(measured_vs_model_md(measured(1.5, 1.0)), "DRAM traffic the model does not count"));

  // A difference below 0.05 % never reads "0.0 %"; exactly 1 has no direction.
  CHECK(contains(measured_vs_model_md(measured(1.0002, 1.0)), "1.00× (< 0.1 % more)"));
  CHECK(contains(measured_vs_model_md(measured(1.0, 1.0)), "FLOPs 1.00× of the model's"));
}

TEST_CASE("measured_vs_model_md: untimed counters and collectives say which time and bytes",
          "[report][measured]") {
  CHECK(contains(measured_vs_model_md(measured(0.99, std::nullopt, false)),
                 "at the profile's time (the counters did not time the dispatches)"));
  HeadEntry comm = measured(std::nullopt, std::nullopt);
  comm.work.comm = CommFacts{};
  const std::string c = measured_vs_model_md(comm);
  CHECK(contains(c, "bytes not compared (the counters' DRAM bytes are not link bytes)"));
  CHECK(contains(c, "the verdict uses the link model at the counters' time"));
}

}  // namespace unit_report_measured
