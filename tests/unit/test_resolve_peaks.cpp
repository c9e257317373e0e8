// Stage 1 (docs/method.md §5): product gating, RDNA4 hard unknown, derived bandwidth, dtype lookup.
#include <catch2/catch.hpp>

#include "roofline/cli/layer.hpp"
#include "roofline/inputs/peaks.hpp"
#include "roofline/render/report.hpp"
#include "unit/test_helpers.hpp"

namespace unit_resolve_peaks {
using namespace roofline::cli;
using roofline::test::any_contains;
using roofline::test::contains;
using roofline::test::rel;

namespace {

DeviceProps mi_props(double clock_khz, double bus_bits) {
  DeviceProps p;
  p.memory_clock_rate_khz = clock_khz;
  p.memory_bus_width_bits = bus_bits;
  p.multi_processor_count = 256;
  return p;
}

}  // namespace

TEST_CASE("resolve_peaks: gfx950 with a feature suffix and device_target unknown",
          "[peaks][resolve]") {
  ResolvedPeaks p = resolve_peaks(builtin_peaks(), "gfx950:sramecc+:xnack-", "unknown", {});
  CHECK(p.gfx == "gfx950");
  CHECK(p.product.empty());
  CHECK(p.source == PeaksSource::table);
  CHECK(p.confidence == Confidence::high);
  CHECK(p.hbm_bw_bytes_s.value() == rel(8.0e12));
  CHECK(p.compute_validated);
  CHECK_FALSE(p.hard_unknown);
}

TEST_CASE("resolve_peaks: r9700 numbers only with the product", "[peaks][resolve]") {
  SECTION("product spelled as a marketing name") {
    ResolvedPeaks p = resolve_peaks(builtin_peaks(), "gfx1201", "AMD Radeon AI PRO R9700", {});
    CHECK(p.product == "r9700");
    CHECK(p.source == PeaksSource::table);
    CHECK(p.hbm_bw_bytes_s.value() == rel(6.4e11));
    CHECK(p.flops.at(DtypeKey::fp8) == rel(3.83e14));
  }
  SECTION("bare gfx1201 is a hard unknown, even with device_props") {
    ResolvedPeaks p = resolve_peaks(builtin_peaks(), "gfx1201", "unknown", mi_props(2.5e6, 256));
    CHECK(p.hard_unknown);
    CHECK(p.source == PeaksSource::none);
    CHECK_FALSE(p.hbm_bw_bytes_s.has_value());
    CHECK(p.flops.empty());
  }
  SECTION("gfx1200 (another RDNA4 SKU) is a hard unknown") {
    ResolvedPeaks p = resolve_peaks(builtin_peaks(), "gfx1200", "", mi_props(2.5e6, 128));
    CHECK(p.hard_unknown);
    CHECK_FALSE(p.hbm_bw_bytes_s.has_value());
  }
  SECTION("gfx1201 with another product is still a hard unknown") {
    ResolvedPeaks p =
        resolve_peaks(builtin_peaks(), "gfx1201", "Radeon RX 9070 XT", mi_props(2.5e6, 256));
    CHECK(p.hard_unknown);
    CHECK_FALSE(p.hbm_bw_bytes_s.has_value());
  }
}

TEST_CASE("resolve_peaks: gfx1250 is CDNA5, not RDNA4: derived from device_props",
          "[peaks][resolve]") {
  // clock_khz·1e3 · bus_bits/8 · 2
  ResolvedPeaks p = resolve_peaks(builtin_peaks(), "gfx1250", "", mi_props(2.0e6, 8192));
  CHECK_FALSE(p.hard_unknown);
  CHECK(p.source == PeaksSource::derived);
  CHECK(p.confidence == Confidence::low);
  CHECK(p.hbm_bw_bytes_s.value() == rel(2.0e6 * 1e3 * 8192.0 / 8.0 * 2.0));
  CHECK(p.hbm_bw_bytes_s.value() == rel(4.096e12));
  CHECK(p.flops.empty());  // FLOPs unknown
}

TEST_CASE("resolve_peaks: unknown gfx without props is unknown", "[peaks][resolve]") {
  ResolvedPeaks p = resolve_peaks(builtin_peaks(), "gfx1250", "", {});
  CHECK(p.source == PeaksSource::none);
  CHECK_FALSE(p.hard_unknown);
  CHECK_FALSE(p.hbm_bw_bytes_s.has_value());
  ResolvedPeaks none = resolve_peaks(builtin_peaks(), "", "", {});
  CHECK(none.source == PeaksSource::none);
  CHECK_FALSE(none.hbm_bw_bytes_s.has_value());
}

TEST_CASE("resolve_peaks: a product-less section matches only runs without a product",
          "[peaks][resolve]") {
  // gfx950 has a section without product (MI350X or MI355X, not told apart) and one per part: a
  // run naming the MI355X gets its own; one naming a product no section has gets none.
  ResolvedPeaks named = resolve_peaks(builtin_peaks(), "gfx950", "MI355X", {});
  CHECK(named.source == PeaksSource::table);
  CHECK(named.product == "mi355x");
  CHECK(named.flops.at(DtypeKey::bf16) == rel(2.5e15));
  ResolvedPeaks other = resolve_peaks(builtin_peaks(), "gfx950", "MI358X", {});
  CHECK(other.source != PeaksSource::table);
  CHECK_FALSE(other.hbm_bw_bytes_s.has_value());
  ResolvedPeaks derived = resolve_peaks(builtin_peaks(), "gfx950", "MI358X", mi_props(4.0e6, 8192));
  CHECK(derived.source == PeaksSource::derived);
  CHECK(derived.hbm_bw_bytes_s.value() == rel(8.192e12));
}

TEST_CASE("resolve_peaks: compute_validated follows bf16 == fp16", "[peaks][resolve]") {
  PeaksTable t;
  t.source_name = "custom.md";
  PeaksSection good;
  good.gfx = "gfx942";
  good.hbm_bw_bytes_s = 5.3e12;
  good.flops = {{DtypeKey::bf16, 1.31e15}, {DtypeKey::fp16, 1.31e15}};
  PeaksSection bad = good;
  bad.gfx = "gfx90a";
  bad.flops = {{DtypeKey::bf16, 3.83e14}, {DtypeKey::fp16, 1.915e14}};
  PeaksSection half = good;
  half.gfx = "gfx908";
  half.flops = {{DtypeKey::fp32, 4.6e13}};
  t.sections = {good, bad, half};
  CHECK(resolve_peaks(t, "gfx942", "", {}).compute_validated);
  CHECK_FALSE(resolve_peaks(t, "gfx90a", "", {}).compute_validated);
  CHECK_FALSE(resolve_peaks(t, "gfx908", "", {}).compute_validated);
  CHECK(resolve_peaks(t, "gfx90a", "", {}).source == PeaksSource::table);
}

TEST_CASE("peak_flops_for: a missing dtype is unknown, never the table maximum",
          "[peaks][resolve]") {
  ResolvedPeaks strix = resolve_peaks(builtin_peaks(), "gfx1151", "", {});
  REQUIRE(strix.source == PeaksSource::table);
  CHECK_FALSE(peak_flops_for(strix, DtypeKey::fp8).has_value());
  CHECK_FALSE(peak_flops_for(strix, DtypeKey::fp4).has_value());
  CHECK(peak_flops_for(strix, DtypeKey::bf16).value() == rel(6.0e13));
  ResolvedPeaks mi300 = resolve_peaks(builtin_peaks(), "gfx942", "", {});
  CHECK_FALSE(peak_flops_for(mi300, DtypeKey::fp4).has_value());
  // fp8 is judged against AMD's published achievable figure; feasibility against the datasheet.
  CHECK(peak_flops_for(mi300, DtypeKey::fp8).value() == rel(1.273e15));
  CHECK(datasheet_flops_for(mi300, DtypeKey::fp8).value() == rel(2.61e15));
  CHECK_FALSE(peak_flops_for(mi300, DtypeKey()).has_value());
}

TEST_CASE("resolve_peaks: sm_90 is H100 or H200 by the device name, never by default",
          "[peaks][resolve][nvidia]") {
  SECTION("NVIDIA H200 (trimmed, case-folded) -> the h200 row") {
    ResolvedPeaks p = resolve_peaks(builtin_peaks(), "sm_90", "", {}, "  nvidia h200 ");
    CHECK(p.product == "h200");
    CHECK(p.source == PeaksSource::table);
    // The built-in row's measured ceilings (docs/method.md §5.7); the datasheet figures stay beside
    // them.
    CHECK(p.hbm_bw_bytes_s.value() == rel(4.20e12));
    CHECK(p.datasheet_hbm_bw_bytes_s.value() == rel(4.8e12));
    CHECK(p.memory_ceiling == CeilingKind::measured);
    CHECK(p.flops.at(DtypeKey::bf16) == rel(779e12));
    CHECK(p.datasheet_flops.at(DtypeKey::bf16) == rel(989.4e12));
    CHECK(compute_ceiling_for(p, DtypeKey::bf16) == CeilingKind::measured);
    CHECK(p.flops.at(DtypeKey::fp16) == rel(989.4e12));  // not measured: the datasheet's
    CHECK(compute_ceiling_for(p, DtypeKey::fp16) == CeilingKind::datasheet);
    CHECK(feasibility_bw(p).value() == rel(4.8e12));
    CHECK(p.l2_bytes.value() == rel(62914560));
    CHECK(p.compute_validated);
  }
  SECTION("both H100 spellings -> the h100 row") {
    for (const char* name : {"NVIDIA H100 80GB HBM3", "NVIDIA H100 SXM5 80GB"}) {
      ResolvedPeaks p = resolve_peaks(builtin_peaks(), "sm_90", "", {}, name);
      CHECK(p.product == "h100");
      CHECK(p.hbm_bw_bytes_s.value() == rel(3.35e12));
      CHECK(p.flops.at(DtypeKey::fp8) == rel(1978.9e12));
    }
  }
  SECTION("no product: L1, derived from device_props, not the H100 row") {
    DeviceProps props;
    props.memory_clock_rate_khz = 2.619e6;
    props.memory_bus_width_bits = 5120;
    ResolvedPeaks p = resolve_peaks(builtin_peaks(), "sm_90", "unknown", props, "");
    CHECK(p.product.empty());
    CHECK(p.source == PeaksSource::derived);
    CHECK(p.confidence == Confidence::low);
    CHECK(p.hbm_bw_bytes_s.value() == rel(2.619e9 * 5120 / 8 * 2));
    CHECK(p.flops.empty());
    CHECK(any_contains(p.notes, {"sm_90 is shared by h100, h100-pcie", "h200"}));
  }
  SECTION("no product and no device_props: unknown") {
    ResolvedPeaks p = resolve_peaks(builtin_peaks(), "sm_90", "", {}, "");
    CHECK(p.source == PeaksSource::none);
    CHECK_FALSE(p.hbm_bw_bytes_s);
  }
  SECTION("a name no row lists (H200 NVL) is L1, not a near match") {
    for (const char* name : {"NVIDIA H200 NVL", "NVIDIA H200 141GB", "NVIDIA H100 PCIe 96GB"}) {
      ResolvedPeaks p = resolve_peaks(builtin_peaks(), "sm_90", "", {}, name);
      CHECK(p.source == PeaksSource::none);
      CHECK_FALSE(p.product.empty());
      CHECK(any_contains(p.notes, {"not a spelling any sm_90 section lists", "no near matches"}));
    }
  }
  SECTION("device_target names the product (key or device name); it wins over device_name") {
    CHECK(resolve_peaks(builtin_peaks(), "sm_90", "H200", {}, "NVIDIA H100 80GB HBM3").product ==
          "h200");
    CHECK(resolve_peaks(builtin_peaks(), "sm_90", "NVIDIA H100 SXM5 80GB", {}, "").product ==
          "h100");
    CHECK(resolve_peaks(builtin_peaks(), "sm_90", "h100 pcie", {}, "").source == PeaksSource::none);
  }
  SECTION("other archs and the arch-specific spelling") {
    CHECK(
        resolve_peaks(builtin_peaks(), "sm_100a", "", {}, "NVIDIA B200").flops.at(DtypeKey::fp4) ==
        rel(9.0e15));
    CHECK(resolve_peaks(builtin_peaks(), "sm_80", "", {}, "NVIDIA A100-SXM4-80GB")
              .hbm_bw_bytes_s.value() == rel(2.039e12));
    // A device name of another arch does not cross over.
    CHECK(resolve_peaks(builtin_peaks(), "sm_89", "", {}, "NVIDIA H200").source ==
          PeaksSource::none);
    ResolvedPeaks l40s = resolve_peaks(builtin_peaks(), "sm_89", "", {}, "NVIDIA L40S");
    CHECK(l40s.flops.count(DtypeKey::fp64) == 0);
    CHECK(l40s.flops.at(DtypeKey::fp8) == rel(733e12));
  }
  SECTION("on AMD the device name is display only") {
    ResolvedPeaks p = resolve_peaks(builtin_peaks(), "gfx950", "", {}, "NVIDIA H200");
    CHECK(p.product.empty());
    CHECK(p.source == PeaksSource::table);
  }
}

// docs/method.md §8.14 / docs/method.md §5.2: NVLink through NVSwitch, one direction, per GPU
// whatever the group.
TEST_CASE("resolve_peaks: NVIDIA parts carry their NVLink roof, and peaks show prints it",
          "[peaks][resolve][nvidia][link]") {
  const std::pair<const char*, double> parts[] = {{"NVIDIA A100-SXM4-80GB", 300e9},
                                                  {"NVIDIA H100 80GB HBM3", 450e9},
                                                  {"NVIDIA H200", 450e9},
                                                  {"NVIDIA B200", 900e9}};
  for (const auto& [name, bytes_s] : parts) {
    const std::string arch = bytes_s == 300e9 ? "sm_80" : bytes_s == 900e9 ? "sm_100" : "sm_90";
    const ResolvedPeaks p = resolve_peaks(builtin_peaks(), arch, "", {}, name);
    REQUIRE(p.source == PeaksSource::table);
    REQUIRE(p.link);
    CHECK(p.link->topology == "switch");
    CHECK(p.link->bytes_s == rel(bytes_s));
    CHECK(peaks_json(p, PeaksFields::full)["link"]["bytes_s"].get<double>() == rel(bytes_s));
    CHECK(peaks_json(p, PeaksFields::full)["link"]["links"].is_null());  // a switch counts no links
  }
  const ResolvedPeaks h200 = resolve_peaks(builtin_peaks(), "sm_90", "", {}, "NVIDIA H200");
  CHECK(contains(peaks_text(h200),
                 "  link            switch, 4.5e+11 B/s per GPU per direction, whatever the group "
                 "size\n"));
  // No NVLink on the L40S: no link row, nothing printed, JSON null.
  const ResolvedPeaks l40s = resolve_peaks(builtin_peaks(), "sm_89", "", {}, "NVIDIA L40S");
  REQUIRE(l40s.source == PeaksSource::table);
  CHECK_FALSE(l40s.link);
  CHECK_FALSE(contains(peaks_text(l40s), "link"));
  CHECK(peaks_json(l40s, PeaksFields::full)["link"].is_null());
  // An AMD mesh prints its links and the min(n-1, links) rule.
  const ResolvedPeaks mi355 = resolve_peaks(builtin_peaks(), "gfx950", "", {});
  CHECK(peaks_json(mi355, PeaksFields::full)["link"]["links"].get<double>() == rel(7));
  CHECK(contains(peaks_text(mi355),
                 "  link            mesh, 7 links x 7.68e+10 B/s per direction "
                 "(a group of n GPUs: min(n-1, 7) x 7.68e+10 B/s)\n"));
}

TEST_CASE("resolve_peaks: gfx942 is MI300X or MI325X by name, else by CUs and memory",
          "[peaks][resolve][serving]") {
  DeviceProps props;
  props.multi_processor_count = 304;
  SECTION("304 CUs and 192 GiB (as a trace reports it) -> the MI300X row") {
    props.memory_bytes = 206141652992.0;
    ResolvedPeaks p = resolve_peaks(builtin_peaks(), "gfx942", "", props);
    CHECK(p.product.empty());
    CHECK(p.source == PeaksSource::table);
    CHECK(p.hbm_bw_bytes_s.value() == rel(5.3e12));
  }
  SECTION("304 CUs and 256 GiB -> the MI325X row, said in notes") {
    props.memory_bytes = 274877906944.0;
    ResolvedPeaks p = resolve_peaks(builtin_peaks(), "gfx942", "", props);
    CHECK(p.product == "mi325x");
    CHECK(p.source == PeaksSource::table);
    CHECK(p.hbm_bw_bytes_s.value() == rel(6.0e12));
    CHECK(p.flops.at(DtypeKey::bf16) == rel(8.43e14));  // AMD's measured achievable (MAF)
    CHECK(datasheet_flops_for(p, DtypeKey::bf16).value() == rel(1.31e15));
    CHECK(any_contains(p.notes, {"304 CUs and 256 GiB is the MI325X"}));
  }
  SECTION("the device name decides over memory") {
    ResolvedPeaks p = resolve_peaks(builtin_peaks(), "gfx942", "", props, "AMD Instinct MI325X");
    CHECK(p.product == "mi325x");
    CHECK(p.hbm_bw_bytes_s.value() == rel(6.0e12));
  }
  SECTION("device_target names the product") {
    ResolvedPeaks p = resolve_peaks(builtin_peaks(), "gfx942", "MI325X", {});
    CHECK(p.product == "mi325x");
    CHECK(p.source == PeaksSource::table);
  }
  SECTION("another CU count is neither row: L1, named in notes") {
    for (double cu : {228.0, 80.0, 152.0, 38.0, 100.0}) {
      props.multi_processor_count = cu;
      props.memory_bytes = 206141652992.0;
      ResolvedPeaks p = resolve_peaks(builtin_peaks(), "gfx942", "", props);
      CHECK(p.source != PeaksSource::table);
      CHECK(p.confidence == Confidence::low);
      CHECK_FALSE(p.hbm_bw_bytes_s.has_value());  // no clock and bus width to derive from
      CHECK(any_contains(p.notes, {"no gfx942 row describes it"}));
    }
  }
  SECTION("no CU count at all: the MI300X row, as before") {
    ResolvedPeaks p = resolve_peaks(builtin_peaks(), "gfx942", "", {});
    CHECK(p.source == PeaksSource::table);
    CHECK(p.hbm_bw_bytes_s.value() == rel(5.3e12));
  }
}

}  // namespace unit_resolve_peaks
