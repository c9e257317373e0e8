// docs/method.md §5.2, §5.4, §22.2: the product rules that tell parts of one arch apart (device
// name, else CU/SM count and memory), the published achievable ceilings, and the section a user
// adds for a part no section describes.
#include <regex>

#include <catch2/catch.hpp>

#include "roofline/analyze/evidence/peaks_product.hpp"
#include "roofline/cli/common.hpp"
#include "roofline/cli/given_env.hpp"
#include "roofline/cli/layer.hpp"
#include "roofline/inputs/peaks_alias.hpp"
#include "unit/test_helpers.hpp"

namespace unit_peaks_products {
using namespace roofline::cli;
using roofline::test::any_contains;
using roofline::test::contains;
using roofline::test::rel;

namespace {

constexpr double k_gib = 1073741824.0;

DeviceProps sized(double cu, double memory_bytes) {
  DeviceProps p;
  p.multi_processor_count = cu;
  p.memory_bytes = memory_bytes;
  return p;
}

ResolvedPeaks by_name(const char* arch, const char* name) {
  return resolve_peaks(builtin_peaks(), arch, "", {}, name);
}

}  // namespace

TEST_CASE("built-in peaks: every section names its source and passes the build's checks",
          "[peaks][products]") {
  const PeaksTable& t = builtin_peaks();
  CHECK(t.sections.size() >= 36);
  CHECK(check_peaks(t).empty());
  CHECK(check_peaks_warnings(t).empty());
  CHECK(check_peaks_sources(t).empty());
  for (const PeaksSection& s : t.sections) {
    CHECK_FALSE(s.source.empty());
    // Dense figures only: bf16 and fp16 are one rate wherever both are given.
    if (s.flops.count(DtypeKey::bf16) && s.flops.count(DtypeKey::fp16))
      CHECK(s.flops.at(DtypeKey::bf16) == rel(s.flops.at(DtypeKey::fp16)));
  }
  // The two published MAF pairs differ by more than 5 %: warned about, accepted.
  const auto pairs = check_peaks_bf16_fp16(t);
  CHECK(pairs.size() == 2);
  CHECK(any_contains(pairs, {"gfx942", "measured bf16 7.08e+14 and fp16 6.54e+14"}));
  CHECK(any_contains(pairs, {"mi325x", "measured bf16 8.43e+14 and fp16 7.94e+14"}));
}

TEST_CASE("NVIDIA parts by device name", "[peaks][products][nvidia]") {
  struct Row {
    const char* arch;
    const char* name;
    const char* product;
    double bw;
  };
  for (const Row& r : {Row{"sm_80", "NVIDIA A100-SXM4-40GB", "a100-sxm-40gb", 1.555e12},
                       Row{"sm_80", "NVIDIA A100 80GB PCIe", "a100-pcie-80gb", 1.935e12},
                       Row{"sm_80", "NVIDIA A100-PCIE-40GB", "a100-pcie-40gb", 1.555e12},
                       Row{"sm_86", "NVIDIA A10", "a10", 6.0e11},
                       Row{"sm_89", "NVIDIA L4", "l4", 3.0e11},
                       Row{"sm_89", "NVIDIA L40", "l40", 8.64e11},
                       Row{"sm_89", "NVIDIA RTX 6000 Ada Generation", "rtx-6000-ada", 9.6e11},
                       Row{"sm_89", "NVIDIA GeForce RTX 4090", "rtx-4090", 1.008e12},
                       Row{"sm_90", "NVIDIA H100 PCIe", "h100-pcie", 2.0e12},
                       Row{"sm_90", "NVIDIA H100 NVL", "h100-nvl", 3.9e12},
                       Row{"sm_90", "NVIDIA H800", "h800", 3.35e12},
                       Row{"sm_90", "NVIDIA H20", "h20", 4.0e12},
                       Row{"sm_90", "NVIDIA GH200 480GB", "gh200", 4.0e12},
                       Row{"sm_90", "NVIDIA GH200 144G HBM3e", "gh200-144gb", 4.9e12},
                       Row{"sm_100", "NVIDIA GB200", "gb200", 8.0e12},
                       Row{"sm_103", "NVIDIA GB300", "gb300", 8.0e12},
                       Row{"sm_120", "NVIDIA GeForce RTX 5090", "rtx-5090", 1.792e12},
                       Row{"sm_120", "NVIDIA RTX PRO 6000 Blackwell Workstation Edition",
                           "rtx-pro-6000-ws", 1.792e12},
                       Row{"sm_120", "NVIDIA RTX PRO 6000 Blackwell Server Edition",
                           "rtx-pro-6000-server", 1.597e12},
                       Row{"sm_121", "NVIDIA GB10", "gb10", 2.73e11}}) {
    INFO(r.name);
    const ResolvedPeaks p = by_name(r.arch, r.name);
    CHECK(p.source == PeaksSource::table);
    CHECK(p.product == r.product);
    CHECK(p.hbm_bw_bytes_s.value() == rel(r.bw));
  }
  // GeForce rows carry the fp32-accumulate matrix rate; dense fp4 is half the sparse AI TOPS.
  CHECK(by_name("sm_89", "NVIDIA GeForce RTX 4090").flops.at(DtypeKey::bf16) == rel(165.2e12));
  CHECK(by_name("sm_120", "NVIDIA GeForce RTX 5090").flops.at(DtypeKey::fp4) == rel(1676e12));
  // The H800 keeps the H100's tensor rates and loses fp64 and half the NVLink.
  const ResolvedPeaks h800 = by_name("sm_90", "NVIDIA H800");
  CHECK(h800.flops.at(DtypeKey::bf16) == rel(989.4e12));
  CHECK(h800.flops.at(DtypeKey::fp64) == rel(1e12));
  CHECK(h800.link->bytes_s == rel(200e9));
  // The Server Edition's data sheet gives no dense tensor figure: derived from its own fp32 figure
  // by the same SMs' ratio (4 x), never the Workstation's figures.
  const ResolvedPeaks server = by_name("sm_120", "NVIDIA RTX PRO 6000 Blackwell Server Edition");
  CHECK(server.flops.at(DtypeKey::fp32) == rel(120e12));
  CHECK(server.flops.at(DtypeKey::bf16) == rel(480e12));
  CHECK(server.flops.at(DtypeKey::fp8) == rel(960e12));
  CHECK(server.compute_validated);
  const ResolvedPeaks ws = by_name("sm_120", "NVIDIA RTX PRO 6000 Blackwell Workstation Edition");
  CHECK(ws.flops.at(DtypeKey::bf16) == rel(503.8e12));
  CHECK(ws.flops.at(DtypeKey::fp8) == rel(1007.6e12));
  // GB10: only the fp4 rate is published; fp8 and bf16 by the Blackwell ratio (fp4 / 2, / 4).
  const ResolvedPeaks gb10 = by_name("sm_121", "NVIDIA GB10");
  CHECK(gb10.flops.at(DtypeKey::fp4) == rel(500e12));
  CHECK(gb10.flops.at(DtypeKey::fp8) == rel(250e12));
  CHECK(gb10.flops.at(DtypeKey::bf16) == rel(125e12));
}

TEST_CASE("NVIDIA parts without a device name: SM count and memory", "[peaks][products][nvidia]") {
  SECTION("one row has both: that row, said in notes") {
    // The wild trace's own deviceProperties: 188 SMs, 101973950464 B. Two rows (Workstation and
    // Server) share them: no row, named.
    const ResolvedPeaks pro =
        resolve_peaks(builtin_peaks(), "sm_120", "", sized(188, 101973950464.0));
    CHECK(pro.source != PeaksSource::table);
    CHECK(any_contains(pro.notes, {"sm_120 with 188 CUs and 95 GiB cannot be told apart",
                                   "no section without product"}));
    // 170 SMs and 32 GB: the RTX 5090 alone.
    const ResolvedPeaks rtx =
        resolve_peaks(builtin_peaks(), "sm_120", "", sized(170, 31.4 * k_gib));
    CHECK(rtx.product == "rtx-5090");
    CHECK(any_contains(rtx.notes, {"sm_120 with 170 CUs and 31 GiB is the GeForce RTX 5090"}));
    // 78 SMs and 96 GB: the H20 alone (an H100 NVL has 132 SMs).
    CHECK(resolve_peaks(builtin_peaks(), "sm_90", "", sized(78, 95.6 * k_gib)).product == "h20");
    CHECK(resolve_peaks(builtin_peaks(), "sm_90", "", sized(132, 140.4 * k_gib)).product == "h200");
    CHECK(resolve_peaks(builtin_peaks(), "sm_90", "", sized(132, 93.6 * k_gib)).product ==
          "h100-nvl");
  }
  SECTION("H100 SXM and H800 share SMs and memory: neither") {
    const ResolvedPeaks p = resolve_peaks(builtin_peaks(), "sm_90", "", sized(132, 79.2 * k_gib));
    CHECK(p.source == PeaksSource::none);
    CHECK(any_contains(p.notes, {"cannot be told apart", "H100 SXM", "H800 SXM"}));
  }
  SECTION("memory far from every row of that SM count: none") {
    const ResolvedPeaks p = resolve_peaks(builtin_peaks(), "sm_90", "", sized(132, 40.0 * k_gib));
    CHECK(p.source == PeaksSource::none);
    CHECK(any_contains(p.notes, {"no sm_90 row describes it"}));
  }
}

TEST_CASE("AMD parts: name, else CUs and memory; MI350X and MI355X not told apart",
          "[peaks][products][amd]") {
  SECTION("gfx950 with 256 CUs and 288 GiB, no name: the shared section, the lower figures") {
    const ResolvedPeaks p = resolve_peaks(builtin_peaks(), "gfx950", "", sized(256, 288.0 * k_gib));
    CHECK(p.source == PeaksSource::table);
    CHECK(p.product.empty());
    CHECK(p.flops.at(DtypeKey::bf16) == rel(2.3e15));  // the MI350X's, lower than the MI355X's
    CHECK(p.flops.at(DtypeKey::fp4) == rel(9.2e15));
    CHECK(any_contains(
        p.notes, {"cannot be told apart", "MI350X", "MI355X", "the lower where they differ"}));
  }
  SECTION("a device name decides") {
    const ResolvedPeaks p = resolve_peaks(builtin_peaks(), "gfx950", "", sized(256, 288.0 * k_gib),
                                          "AMD Instinct MI355X");
    CHECK(p.product == "mi355x");
    CHECK(p.flops.at(DtypeKey::bf16) == rel(2.5e15));
    CHECK(resolve_peaks(builtin_peaks(), "gfx950", "MI350X", {}).flops.at(DtypeKey::fp8) ==
          rel(4.6e15));
  }
  SECTION("gfx942: MI300A by 228 CUs and 128 GiB; MI308X has no section") {
    const ResolvedPeaks a = resolve_peaks(builtin_peaks(), "gfx942", "", sized(228, 128.0 * k_gib));
    CHECK(a.product == "mi300a");
    CHECK(a.flops.at(DtypeKey::bf16) == rel(980.6e12));
    CHECK(any_contains(a.notes, {"gfx942 with 228 CUs and 128 GiB is the MI300A"}));
    const ResolvedPeaks x = resolve_peaks(builtin_peaks(), "gfx942", "", sized(80, 192.0 * k_gib));
    CHECK(x.source == PeaksSource::none);
    CHECK(contains(x.section_to_add, "cu: 80"));
  }
  SECTION("gfx90a: an MI250X GCD (110 CUs) gets one GCD's share; an MI210 its own") {
    const ResolvedPeaks gcd =
        resolve_peaks(builtin_peaks(), "gfx90a", "", sized(110, 64.0 * k_gib));
    CHECK(gcd.product == "mi250x");
    CHECK(gcd.hbm_bw_bytes_s.value() == rel(1.6e12));
    CHECK(gcd.flops.at(DtypeKey::bf16) == rel(191.5e12));
    CHECK(resolve_peaks(builtin_peaks(), "gfx90a", "", sized(104, 64.0 * k_gib)).product ==
          "mi210");
  }
  SECTION("gfx1100: the W7900 by 96 CUs and 48 GiB; a 24 GiB RX 7900 XTX is not it") {
    CHECK(resolve_peaks(builtin_peaks(), "gfx1100", "", sized(96, 47.98 * k_gib)).product ==
          "w7900");
    CHECK(resolve_peaks(builtin_peaks(), "gfx1100", "", sized(96, 24.0 * k_gib)).source ==
          PeaksSource::none);
    CHECK(resolve_peaks(builtin_peaks(), "gfx1100", "", {}, "AMD Radeon PRO W7900").product ==
          "w7900");
  }
  SECTION("client RDNA4 stays gated: 64 CUs and 32 GiB without a name is no R9700") {
    const ResolvedPeaks p = resolve_peaks(builtin_peaks(), "gfx1201", "", sized(64, 32.0 * k_gib));
    CHECK(p.hard_unknown);
  }
}

TEST_CASE("published ceilings: AMD's MAF figures are the MI300X's and MI325X's measured ones",
          "[peaks][products][ceiling]") {
  const ResolvedPeaks p = resolve_peaks(builtin_peaks(), "gfx942", "", sized(304, 192.0 * k_gib));
  REQUIRE(p.source == PeaksSource::table);
  CHECK(p.flops.at(DtypeKey::bf16) == rel(708e12));
  CHECK(p.flops.at(DtypeKey::fp16) == rel(654e12));
  CHECK(p.flops.at(DtypeKey::fp8) == rel(1273e12));
  CHECK(p.datasheet_flops.at(DtypeKey::bf16) == rel(1.31e15));  // feasibility stays here
  CHECK(compute_ceiling_for(p, DtypeKey::bf16) == CeilingKind::measured);
  CHECK(p.memory_ceiling == CeilingKind::datasheet);
  CHECK(p.compute_validated);
  CHECK(any_contains(p.notes, {"Measuring Max-Achievable FLOPs"}));
  CHECK(any_contains(p.notes, {"bf16 kernels are judged against the measured bf16 7.08e+14"}));
  const ResolvedPeaks m = resolve_peaks(builtin_peaks(), "gfx942", "MI325X", {});
  CHECK(m.flops.at(DtypeKey::bf16) == rel(843e12));
  CHECK(m.flops.at(DtypeKey::fp8) == rel(1519e12));
}

TEST_CASE("an unknown part: the section to add, which parses once its figures are filled",
          "[peaks][products][unknown]") {
  DeviceProps props = sized(188, 101973950464.0);
  // A part no table knows (an empty table stands for tomorrow's part).
  PeaksTable empty;
  empty.source_name = "t.md";
  const ResolvedPeaks p =
      resolve_peaks(empty, "sm_120", "", props, "NVIDIA RTX PRO 6000 Blackwell Server Edition");
  CHECK(p.source == PeaksSource::none);
  const std::string& section = p.section_to_add;
  CHECK(contains(section, "## NVIDIA RTX PRO 6000 Blackwell Server Edition (added by hand)"));
  CHECK(contains(section, "arch: sm_120\n"));
  CHECK(contains(section, "device_names: [\"NVIDIA RTX PRO 6000 Blackwell Server Edition\"]"));
  CHECK(contains(section, "cu: 188"));
  CHECK(contains(section, "memory_gib: 95.0"));
  CHECK(contains(section, "hbm_bw_bytes_s: FILL"));
  // As printed, `peaks check` names every figure left to fill.
  Loaded<PeaksTable> raw = parse_peaks_md(section, "section.md");
  CHECK(any_contains(raw.errors, {"hbm_bw_bytes_s: expected a non-negative number, got 'FILL'"}));
  CHECK(any_contains(raw.errors, {"flops.bf16: expected a non-negative number, got 'FILL'"}));
  // Filled in: it parses, passes every check, and the same run then matches it.
  const std::string filled = std::regex_replace(section, std::regex(": FILL"), ": 1.5e12");
  Loaded<PeaksTable> t = parse_peaks_md(filled, "section.md");
  CHECK(t.errors.empty());
  REQUIRE(t.value);
  CHECK(check_peaks(*t.value).empty());
  CHECK(check_peaks_warnings(*t.value).empty());
  CHECK(check_peaks_sources(*t.value).empty());
  const ResolvedPeaks again =
      resolve_peaks(*t.value, "sm_120", "", props, "NVIDIA RTX PRO 6000 Blackwell Server Edition");
  CHECK(again.source == PeaksSource::table);
  CHECK(again.hbm_bw_bytes_s.value() == rel(1.5e12));
  // AMD spells the arch `gfx:`; a device name with quotes stays one YAML string.
  const std::string amd = section_to_add("gfx942", "AMD \"Instinct\" MI308X", sized(80, 0));
  CHECK(contains(amd, "gfx: gfx942\n"));
  CHECK(contains(amd, "product: \"\\\"instinct\\\" mi308x\""));
  Loaded<PeaksTable> a =
      parse_peaks_md(std::regex_replace(amd, std::regex(": FILL"), ": 1e12"), "amd.md");
  CHECK(a.errors.empty());
}

}  // namespace unit_peaks_products

// docs/method.md §22.9: a part named as people write it.
namespace unit_peaks_products {

TEST_CASE("--product names a part by its key, name or device name, spelling ignored") {
  const PeaksTable& t = builtin_peaks();
  for (const char* spelling : {"mi300x", "MI300X", "AMD Instinct MI300X", "amd-instinct-mi300x"}) {
    const ProductMatch m = match_product(t, spelling);
    INFO(spelling);
    REQUIRE(m.sections.size() == 1);
    CHECK(m.exact);
    CHECK(m.sections[0]->gfx == "gfx942");
    CHECK(m.sections[0]->product.empty());  // the section without product is the MI300X
  }
  for (const char* spelling :
       {"h100", "H100 SXM", "h100-sxm", "h100sxm", "NVIDIA H100 80GB HBM3"}) {
    const ProductMatch m = match_product(t, spelling);
    INFO(spelling);
    REQUIRE(m.sections.size() == 1);
    CHECK(m.sections[0]->product == "h100");
  }
  CHECK(match_product(t, "h200").sections.at(0)->product == "h200");
  CHECK(match_product(t, "mi300").sections.empty());  // words are whole: no MI300X nor MI300A
  CHECK(match_product(t, "").sections.empty());
}

TEST_CASE("a name of several parts of one arch takes their lower figures") {
  PeaksTable t = builtin_peaks();
  const ProductMatch m = match_product(t, "rtx-pro-6000");
  REQUIRE(m.sections.size() == 2);
  CHECK_FALSE(m.exact);
  // resolve_given_part appends the lower section: m's pointers into the table are read first.
  const double lower_bw = std::min(*m.sections[0]->hbm_bw_bytes_s, *m.sections[1]->hbm_bw_bytes_s);
  const GivenPart part = resolve_given_part(t, "rtx-pro-6000");
  CHECK(part.arch == "sm_120");
  CHECK(part.product == "rtx-pro-6000");
  CHECK(contains(part.note, "names 2 parts"));
  const PeaksSection& lower = t.sections.back();
  CHECK(lower.product == "rtx-pro-6000");
  CHECK(lower.hbm_bw_bytes_s == lower_bw);
  CHECK(lower.flops.at(DtypeKey::bf16) == 4.8e14);
  CHECK(lower.flops.count(DtypeKey::fp4) == 0);  // only one of them lists fp4: not shared
  const ResolvedPeaks r = resolve_peaks(t, part.arch, part.product, {}, "", true);
  CHECK(r.source == PeaksSource::table);
  CHECK(r.hbm_bw_bytes_s == lower.hbm_bw_bytes_s);
}

TEST_CASE("an unknown part, or parts of several archs, is a usage error") {
  PeaksTable t = builtin_peaks();
  CHECK_THROWS_AS(resolve_given_part(t, "zz9000"), UsageError);
  CHECK_THROWS_WITH(resolve_given_part(t, "zz9000"), Catch::Contains("peaks list"));
}

}  // namespace unit_peaks_products
