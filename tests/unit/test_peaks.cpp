// peaks.hpp / load.hpp: parse_peaks_md (docs/method.md §2.6), check_peaks (§2.1, §10.6), the
// built-in table.
#include <algorithm>
#include <catch2/catch.hpp>

#include "roofline/cli/layer.hpp"
#include "roofline/inputs/embedded_data.hpp"
#include "roofline/inputs/load.hpp"
#include "roofline/inputs/peaks.hpp"
#include "unit/test_helpers.hpp"

namespace unit_peaks {
using namespace roofline::cli;
using roofline::test::any_contains;
using roofline::test::rel;

namespace {

const PeaksSection* find_section(const PeaksTable& t, const std::string& gfx,
                                 const std::string& product) {
  for (const auto& s : t.sections)
    if (s.gfx == gfx && s.product == product) return &s;
  return nullptr;
}

}  // namespace

TEST_CASE("parse_peaks_md: yaml blocks, comments, other fences ignored", "[peaks]") {
  const char* md = R"(# My peaks

Prose with `inline code` and a shell fence that must be ignored:

```bash
gfx: gfx000
hbm_bw_bytes_s: 1
```

```yaml
gfx: gfx942:sramecc+:xnack-   # feature suffix is stripped
cu: 304
hbm_bw_bytes_s: 5.3e12        # HBM3
flops:
  bf16: 1.31e15
  fp16: 1.31e15
  float8_e4m3fnuz: 2.61e15    # alias -> fp8
l2_bytes: 4194304
```

```yml
gfx: gfx1201
product: R9700
hbm_bw_bytes_s: 6.4e11
```
)";
  auto loaded = parse_peaks_md(md, "my_peaks.md");
  REQUIRE(loaded.value);
  INFO((loaded.errors.empty() ? std::string() : loaded.errors.front()));
  CHECK(loaded.errors.empty());
  const PeaksTable& t = *loaded.value;
  REQUIRE(t.sections.size() == 2);
  CHECK(find_section(t, "gfx000", "") == nullptr);
  const PeaksSection* mi300 = find_section(t, "gfx942", "");
  REQUIRE(mi300);
  CHECK(mi300->cu.value() == rel(304));
  CHECK(mi300->hbm_bw_bytes_s.value() == rel(5.3e12));
  CHECK(mi300->flops.at(DtypeKey::bf16) == rel(1.31e15));
  CHECK(mi300->flops.at(DtypeKey::fp8) == rel(2.61e15));
  CHECK(mi300->l2_bytes.value() == rel(4194304));
  CHECK(mi300->line == 10);  // 1-based line of the opening fence
  const PeaksSection* r9700 = find_section(t, "gfx1201", "r9700");
  REQUIRE(r9700);
  CHECK(r9700->hbm_bw_bytes_s.value() == rel(6.4e11));
}

TEST_CASE("parse_peaks_md: a bad block is skipped with a message, good ones kept", "[peaks]") {
  const char* md = R"(```yaml
gfx: gfx950
hbm_bw_bytes_s: 8.0e12
```

```yaml
gfx: [gfx942
hbm_bw_bytes_s: 5.3e12
```

```yaml
hbm_bw_bytes_s: 1.0e12
```

```yaml
gfx: gfx1151
hbm_bw_bytes_s: fast
flops:
  bf16: 6.0e13
  qbit9: 1.0e13
```
)";
  auto loaded = parse_peaks_md(md, "peaks.md");
  REQUIRE(loaded.value);
  const PeaksTable& t = *loaded.value;
  CHECK(find_section(t, "gfx950", ""));
  CHECK_FALSE(find_section(t, "gfx942", ""));
  CHECK(any_contains(loaded.errors, {"peaks.md:6", "invalid YAML"}));
  CHECK(any_contains(loaded.errors, {"peaks.md:11", "no gfx"}));
  CHECK(any_contains(loaded.errors, {"peaks.md:15", "hbm_bw_bytes_s", "fast"}));
  CHECK(any_contains(loaded.errors, {"peaks.md:15", "flops.qbit9"}));
  const PeaksSection* apu = find_section(t, "gfx1151", "");
  REQUIRE(apu);
  CHECK_FALSE(apu->hbm_bw_bytes_s.has_value());
  CHECK(apu->flops.at(DtypeKey::bf16) == rel(6.0e13));
}

TEST_CASE("parse_peaks_md: no yaml blocks at all is an error", "[peaks]") {
  auto loaded = parse_peaks_md("# nothing here\n", "empty.md");
  CHECK(any_contains(loaded.errors, {"empty.md", "no ```yaml blocks"}));
}

TEST_CASE("check_peaks: bf16 != fp16 and duplicate (gfx, product) are flagged", "[peaks]") {
  PeaksTable t;
  t.source_name = "peaks.md";
  PeaksSection a;
  a.gfx = "gfx942";
  a.hbm_bw_bytes_s = 5.3e12;
  a.flops = {{DtypeKey::bf16, 1.31e15}, {DtypeKey::fp16, 1.31e15}};
  a.line = 3;
  PeaksSection b = a;  // same (gfx, no product): duplicate
  b.line = 20;
  PeaksSection c;
  c.gfx = "gfx1201";
  c.product = "r9700";
  c.hbm_bw_bytes_s = 6.4e11;
  c.flops = {{DtypeKey::bf16, 1.91e14},
             {DtypeKey::fp16, 3.83e14}};  // mis-calibrated: sparse fp16 figure
  c.line = 40;
  PeaksSection d = c;  // same gfx, no product: not a duplicate of c
  d.product.clear();
  d.flops = {{DtypeKey::bf16, 1.91e14}, {DtypeKey::fp16, 1.91e14}};
  d.line = 60;

  SECTION("a sound table has no problems") {
    t.sections = {a, d};
    CHECK(check_peaks(t).empty());
  }
  SECTION("flagged") {
    t.sections = {a, b, c, d};
    auto problems = check_peaks(t);
    CHECK(problems.size() == 2);
    CHECK(any_contains(problems, {"peaks.md:20", "duplicate", "gfx942"}));
    CHECK(any_contains(problems, {"peaks.md:40", "bf16", "fp16", "r9700"}));
    CHECK_FALSE(any_contains(problems, {"peaks.md:60"}));
  }
}

TEST_CASE("builtin_peaks: the shipped table matches SPEC §2.4 exactly", "[peaks]") {
  const PeaksTable& t = builtin_peaks();
  CHECK(check_peaks(t).empty());
  REQUIRE(t.sections.size() >= 10);  // the parts SPEC §2.4 names, and those TRACES §6 adds

  SECTION("gfx950 MI350X/MI355X not told apart: the lower (MI350X) figures") {
    const PeaksSection* s = find_section(t, "gfx950", "");
    REQUIRE(s);
    CHECK(s->hbm_bw_bytes_s.value() == rel(8.0e12));
    CHECK(s->flops.at(DtypeKey::bf16) == rel(2.3e15));
    CHECK(s->flops.at(DtypeKey::fp16) == rel(2.3e15));
    CHECK(s->flops.at(DtypeKey::fp8) == rel(4.6e15));
    CHECK(s->flops.at(DtypeKey::fp4) == rel(9.2e15));
    CHECK(s->flops.at(DtypeKey::fp32) == rel(1.442e14));
    CHECK(s->flops.at(DtypeKey::fp64) == rel(7.21e13));
    CHECK(s->l2_bytes.value() == rel(4.0 * 1024 * 1024));
  }
  SECTION("gfx950 MI355X by name: the SPEC §2.4 figures") {
    const PeaksSection* s = find_section(t, "gfx950", "mi355x");
    REQUIRE(s);
    CHECK(s->hbm_bw_bytes_s.value() == rel(8.0e12));
    CHECK(s->flops.at(DtypeKey::bf16) == rel(2.5e15));
    CHECK(s->flops.at(DtypeKey::fp8) == rel(5.0e15));
    CHECK(s->flops.at(DtypeKey::fp4) == rel(1.01e16));
  }
  SECTION("gfx942 MI300X") {
    const PeaksSection* s = find_section(t, "gfx942", "");
    REQUIRE(s);
    CHECK(s->hbm_bw_bytes_s.value() == rel(5.3e12));
    CHECK(s->flops.at(DtypeKey::bf16) == rel(1.31e15));
    CHECK(s->flops.at(DtypeKey::fp16) == rel(1.31e15));
    CHECK(s->flops.at(DtypeKey::fp8) == rel(2.61e15));
    CHECK(s->flops.at(DtypeKey::fp32) == rel(1.63e14));
    CHECK(s->flops.at(DtypeKey::fp64) == rel(1.63e14));
    CHECK(s->flops.count(DtypeKey::fp4) == 0);
  }
  SECTION("gfx942 MI325X (product-gated, SERVING §3)") {
    const PeaksSection* s = find_section(t, "gfx942", "mi325x");
    REQUIRE(s);
    CHECK(s->cu.value() == rel(304));
    CHECK(s->hbm_bw_bytes_s.value() == rel(6.0e12));
    CHECK(s->flops.at(DtypeKey::bf16) == rel(1.31e15));  // the MI300X's matrix rates
    CHECK(s->flops.at(DtypeKey::fp8) == rel(2.61e15));
  }
  SECTION("gfx1151 Strix Halo") {
    const PeaksSection* s = find_section(t, "gfx1151", "");
    REQUIRE(s);
    CHECK(s->hbm_bw_bytes_s.value() == rel(2.56e11));
    CHECK(s->flops.at(DtypeKey::bf16) == rel(6.0e13));
    CHECK(s->flops.at(DtypeKey::fp16) == rel(6.0e13));
    CHECK(s->flops.at(DtypeKey::int8) == rel(6.0e13));
    CHECK(s->flops.at(DtypeKey::fp32) == rel(3.0e13));
    CHECK(s->flops.count(DtypeKey::fp8) == 0);
  }
  SECTION("r9700 (gfx1201, product-gated)") {
    CHECK(find_section(t, "gfx1201", "") == nullptr);  // never a bare gfx1201 section
    const PeaksSection* s = find_section(t, "gfx1201", "r9700");
    REQUIRE(s);
    CHECK(s->cu.value() == rel(64));
    CHECK(s->hbm_bw_bytes_s.value() == rel(6.4e11));
    CHECK(s->flops.at(DtypeKey::bf16) == rel(1.91e14));
    CHECK(s->flops.at(DtypeKey::fp16) == rel(1.91e14));
    CHECK(s->flops.at(DtypeKey::fp8) == rel(3.83e14));
    CHECK(s->flops.at(DtypeKey::int8) == rel(3.83e14));
    CHECK(s->flops.at(DtypeKey::fp32) == rel(4.78e13));
    CHECK(s->flops.count(DtypeKey::fp4) == 0);
  }
  SECTION("NVIDIA rows of REACH §1, dense datasheet figures") {
    struct Row {
      const char* arch;
      const char* product;
      double bw, fp32, bf16, l2, cu;
      std::vector<std::string> names;
    };
    for (const Row& r :
         {Row{"sm_80", "a100", 2.039e12, 19.5e12, 312e12, 40e6, 108, {"nvidia a100-sxm4-80gb"}},
          Row{"sm_89", "l40s", 0.864e12, 91.6e12, 362e12, 0, 142, {"nvidia l40s"}},
          Row{"sm_90",
              "h100",
              3.35e12,
              67e12,
              989.4e12,
              50e6,
              132,
              {"nvidia h100 80gb hbm3", "nvidia h100 sxm5 80gb"}},
          Row{"sm_90",
              "h200",
              4.8e12,
              67e12,
              989.4e12,
              62914560,
              132,
              {"nvidia h200", "nvidia h200 141gb hbm3e"}},
          Row{"sm_100", "b200", 8.0e12, 75e12, 2250e12, 132644864, 148, {"nvidia b200"}}}) {
      INFO(r.product);
      const PeaksSection* s = find_section(t, r.arch, r.product);
      REQUIRE(s);
      CHECK(s->hbm_bw_bytes_s.value() == rel(r.bw));
      CHECK(s->flops.at(DtypeKey::fp32) == rel(r.fp32));
      CHECK(s->flops.at(DtypeKey::bf16) == rel(r.bf16));
      CHECK(s->flops.at(DtypeKey::fp16) == rel(r.bf16));
      if (r.l2 > 0)
        CHECK(s->l2_bytes.value() == rel(r.l2));
      else
        CHECK_FALSE(s->l2_bytes);  // no NVIDIA document gives it
      CHECK(s->cu.value() == rel(r.cu));
      CHECK(s->device_names == r.names);
    }
    CHECK(find_section(t, "sm_90", "") == nullptr);  // never a bare sm_90 section
    CHECK(find_section(t, "sm_89", "l40s")->flops.count(DtypeKey::fp64) == 0);
    CHECK(find_section(t, "sm_80", "a100")->flops.count(DtypeKey::fp8) == 0);
    CHECK(find_section(t, "sm_100", "b200")->flops.at(DtypeKey::fp4) == rel(9.0e15));
    CHECK(find_section(t, "sm_90", "h200")->flops.at(DtypeKey::fp8) == rel(1978.9e12));
    CHECK(find_section(t, "sm_90", "h100")->flops.at(DtypeKey::tf32) == rel(494.7e12));
  }
  const std::vector<std::string> products = known_products(t);
  for (const char* p : {"mi355x", "mi350x", "r9700", "mi325x", "mi210", "mi250x", "a100", "l40s",
                        "h100", "h20", "h200", "b200", "rtx-pro-6000-server", "rtx-5090"}) {
    INFO(p);
    CHECK(std::find(products.begin(), products.end(), p) != products.end());
  }
}

TEST_CASE("builtin_peaks: the build-time table equals a runtime parse of the shipped text",
          "[peaks]") {
  auto parsed =
      roofline::inputs::parse_peaks_md(roofline::inputs::builtin_peaks_md(), "built-in peaks.md");
  REQUIRE(parsed.errors.empty());
  REQUIRE(parsed.value);
  const auto& generated = roofline::inputs::builtin_peaks();
  REQUIRE(generated.sections.size() == parsed.value->sections.size());
  for (std::size_t i = 0; i < generated.sections.size(); ++i) {
    const auto& g = generated.sections[i];
    const auto& p = parsed.value->sections[i];
    CHECK(g.gfx == p.gfx);
    CHECK(g.product == p.product);
    CHECK(g.line == p.line);
    CHECK(g.cu == p.cu);
    CHECK(g.hbm_bw_bytes_s == p.hbm_bw_bytes_s);  // exact: written as hex floats
    CHECK(g.l2_bytes == p.l2_bytes);
    CHECK(g.mall_bytes == p.mall_bytes);
    CHECK(g.flops == p.flops);
    CHECK(g.device_names == p.device_names);
  }
}

TEST_CASE("parse_peaks_md: NVIDIA sections by arch, with their device names", "[peaks][nvidia]") {
  const char* md = R"(
```yaml
arch: SM_90
product: H200
device_names:
  - NVIDIA H200
  - "  NVIDIA H200 141GB HBM3e "
hbm_bw_bytes_s: 4.8e12
```

```yaml
arch: sm_90
product: h100
device_names: NVIDIA H100 80GB HBM3
hbm_bw_bytes_s: 3.35e12
```

```yaml
gfx: gfx942
arch: sm_90
hbm_bw_bytes_s: 1
```

```yaml
arch: sm_90
product: other
device_names: [NVIDIA H200]
hbm_bw_bytes_s: 1
```
)";
  auto loaded = parse_peaks_md(md, "p.md");
  REQUIRE(loaded.value);
  const auto& t = *loaded.value;
  REQUIRE(t.sections.size() == 3);
  CHECK(t.sections[0].gfx == "sm_90");
  CHECK(t.sections[0].product == "h200");
  CHECK(t.sections[0].device_names ==
        std::vector<std::string>{"nvidia h200", "nvidia h200 141gb hbm3e"});
  CHECK(t.sections[1].device_names == std::vector<std::string>{"nvidia h100 80gb hbm3"});
  CHECK(any_contains(loaded.errors, {"p.md:", "gfx 'gfx942' and arch 'sm_90' disagree"}));
  auto problems = check_peaks(t);
  REQUIRE(problems.size() == 1);
  CHECK(any_contains(problems, {"device name 'nvidia h200' is also listed for h200"}));
}

TEST_CASE("peaks: link rows parse and are checked (MODELS.md §8)", "[peaks][link]") {
  auto l = parse_peaks_md(R"(
```yaml
gfx: gfx950
hbm_bw_bytes_s: 8.0e12
link: {topology: mesh, bytes_s: 76.5e9, links: 7}
```
```yaml
gfx: gfx942
hbm_bw_bytes_s: 5.3e12
link:
  topology: switch
  bytes_s: 450e9
```
)",
                          "p.md");
  REQUIRE(l.value);
  CHECK(l.errors.empty());
  REQUIRE(l.value->sections[0].link);
  CHECK(l.value->sections[0].link->topology == "mesh");
  CHECK(l.value->sections[0].link->bytes_s == rel(76.5e9));
  CHECK(l.value->sections[0].link->links == rel(7));
  CHECK(l.value->sections[1].link->topology == "switch");
  CHECK(check_peaks(*l.value).empty());  // a switch needs no link count

  auto bad = parse_peaks_md(R"(
```yaml
gfx: gfx950
hbm_bw_bytes_s: 8.0e12
link: {topology: ring, bytes_s: 0, links: 7}
```
```yaml
gfx: gfx942
hbm_bw_bytes_s: 5.3e12
link: {topology: mesh, bytes_s: 64e9}
```
```yaml
gfx: gfx1151
hbm_bw_bytes_s: 2.56e11
link: 450e9
```
)",
                            "p.md");
  REQUIRE(bad.value);
  CHECK(any_contains(bad.errors, {"gfx1151", "link: expected a mapping"}));
  const auto problems = check_peaks(*bad.value);
  CHECK(any_contains(problems, {"gfx950", "link.topology 'ring'", "mesh or switch"}));
  CHECK(any_contains(problems, {"gfx950", "link.bytes_s must be > 0"}));
  CHECK(any_contains(problems, {"gfx942", "link.links must be >= 1 for a mesh"}));
}

TEST_CASE("builtin_peaks: the MI300X/MI325X and MI355X link rows", "[peaks][link]") {
  const PeaksTable& t = builtin_peaks();
  const PeaksSection* mi355 = find_section(t, "gfx950", "");
  REQUIRE(mi355);
  REQUIRE(mi355->link);
  CHECK(mi355->link->topology == "mesh");
  CHECK(mi355->link->bytes_s == rel(76.8e9));
  CHECK(mi355->link->links == rel(7));
  const PeaksSection* mi300 = find_section(t, "gfx942", "");
  REQUIRE(mi300);
  REQUIRE(mi300->link);
  CHECK(mi300->link->bytes_s == rel(64e9));
  CHECK(mi300->link->links == rel(7));
  CHECK_FALSE(find_section(t, "gfx1151", "")->link);  // an APU: no link row
  // The build-time table carries the same link rows as a runtime parse.
  auto parsed = parse_peaks_md(builtin_peaks_md(), "built-in peaks.md");
  REQUIRE(parsed.value);
  for (std::size_t i = 0; i < t.sections.size(); ++i) {
    const auto& g = t.sections[i].link;
    const auto& p = parsed.value->sections[i].link;
    REQUIRE(g.has_value() == p.has_value());
    if (!g) continue;
    CHECK(g->topology == p->topology);
    CHECK(g->bytes_s == p->bytes_s);
    CHECK(g->links == p->links);
  }
}

}  // namespace unit_peaks
