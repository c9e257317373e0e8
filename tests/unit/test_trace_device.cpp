// The device of a Chrome trace (docs/method.md §22.7): deviceProperties, the vendor from the
// top-level version keys (never warpSize), the entry matching the kernels' device,
// distributedInfo's world size, merged over rank traces, rendered into the Top-N and read back by
// parse_topn.
#include <string>
#include <vector>

#include <fmt/format.h>

#include "roofline/cli/layer.hpp"
#include "roofline/inputs/kernel_classes.hpp"
#include "roofline/inputs/load.hpp"
#include "roofline/topn/readers/trace_device.hpp"
#include "test_helpers.hpp"
#include "topn_test_io.hpp"

namespace unit_trace_device {
using namespace roofline::cli;
using roofline::test::chunked;

namespace {

std::string props(int id, const std::string& name, int major, int minor, int sms = 304,
                  int warp = 64) {
  return fmt::format(
      R"({{"id": {}, "name": "{}", "totalGlobalMem": 206141652992, "computeMajor": {},)"
      R"( "computeMinor": {}, "maxThreadsPerBlock": 1024, "warpSize": {}, "numSms": {}}})",
      id, name, major, minor, warp, sms);
}

// A trace whose kernels run on GPU `pid`, with these top-level keys before traceEvents.
std::string trace(const std::string& top, int pid = 0) {
  return fmt::format(
      R"({{"schemaVersion": 1, {}, "traceEvents": [)"
      R"({{"ph": "X", "cat": "kernel", "name": "k", "pid": {}, "tid": 1, "ts": 1, "dur": 2}},)"
      R"({{"ph": "X", "cat": "kernel", "name": "k", "pid": {}, "tid": 1, "ts": 5, "dur": 2}}]}})",
      top, pid, pid);
}

TraceProfile read_ok(const std::string& text) {
  TraceRead r = read_trace_stream(chunked(text, 7), "t.json");
  INFO(r.error);
  REQUIRE(r.profile);
  return *r.profile;
}

const std::string k_rocm = R"("roctracer_version": 4, "hip_runtime_version": 60342134)";
const std::string k_cuda = R"("cuda_runtime_version": 12080, "cupti_version": 26)";

}  // namespace

TEST_CASE("trace device: the AMD MI300X of the SGLang fixture, kernels on a renumbered device",
          "[topn][device]") {
  // the fixture's kernels run on device 9; its only entry is id 0 (HIP_VISIBLE_DEVICES)
  const TraceProfile p = read_ok(
      trace(R"("deviceProperties": [)" + props(0, "AMD Instinct MI300X", 9, 4) + "], " + k_rocm +
                R"(, "distributedInfo": {"backend": "nccl", "rank": 0, "world_size": 1})",
            9));
  REQUIRE(p.device);
  CHECK(p.device->name == "AMD Instinct MI300X");
  CHECK(p.device->vendor == "AMD");
  CHECK(p.device->arch == "gfx942");
  CHECK(p.device->cu_count == 304);
  CHECK(p.device->memory_bytes == 206141652992.0);
  CHECK(p.device->id == 0);
  CHECK(p.device->note ==
        "the kernels ran on device 9, which deviceProperties does not list (ids: 0; "
        "HIP_VISIBLE_DEVICES / CUDA_VISIBLE_DEVICES renumber); its only entry (id 0) is taken");
  CHECK(p.world_size == 1);
}

TEST_CASE("trace device: the entry whose id is the kernels' device", "[topn][device]") {
  // the vLLM fixture: eight entries with no name, kernels on device 2
  std::string list;
  for (int i = 0; i < 8; ++i) list += (i ? ", " : "") + props(i, "", 9, i == 2 ? 5 : 4);
  const TraceProfile p = read_ok(trace(R"("deviceProperties": [)" + list + "], " + k_rocm, 2));
  REQUIRE(p.device);
  CHECK(p.device->id == 2);
  CHECK(p.device->arch == "gfx950");  // 9.5: the entry of device 2, not the first
  CHECK(p.device->name.empty());
  CHECK(p.device->note.empty());
  CHECK_FALSE(p.world_size);
}

TEST_CASE("trace device: no entry matches — agreeing entries, differing ones", "[topn][device]") {
  const std::string two_same =
      props(0, "AMD Instinct MI300X", 9, 4) + ", " + props(1, "AMD Instinct MI300X", 9, 4);
  const TraceProfile same =
      read_ok(trace(R"("deviceProperties": [)" + two_same + "], " + k_rocm, 5));
  REQUIRE(same.device);
  CHECK(same.device->id == 0);
  CHECK(same.device->note.find("its 2 entries agree, so id 0 is taken") != std::string::npos);
  CHECK(same.device->note.find("ids: 0, 1") != std::string::npos);

  const std::string two_differ =
      props(0, "AMD Instinct MI300X", 9, 4) + ", " + props(1, "AMD Instinct MI355X", 9, 5, 256);
  const TraceProfile differ =
      read_ok(trace(R"("deviceProperties": [)" + two_differ + "], " + k_rocm, 5));
  REQUIRE(differ.device);
  CHECK(differ.device->name == "AMD Instinct MI300X");
  CHECK(differ.device->note.find("its 2 entries differ: the first (id 0) is taken") !=
        std::string::npos);
}

TEST_CASE("trace device: the vendor from the version keys, else the device name, never warpSize",
          "[topn][device]") {
  // an RDNA part reports warpSize 32, like NVIDIA: the ROCm keys still make it AMD
  const TraceProfile rdna =
      read_ok(trace(R"("deviceProperties": [)" + props(0, "AMD Radeon PRO W7900", 11, 0, 48, 32) +
                    "], " + k_rocm));
  REQUIRE(rdna.device);
  CHECK(rdna.device->vendor == "AMD");
  CHECK(rdna.device->arch.empty());  // 11.0 names no arch here
  CHECK(rdna.device->note.find("compute capability 11.0 names no AMD arch") != std::string::npos);

  const TraceProfile h200 = read_ok(
      trace(k_cuda + R"(, "deviceProperties": [)" + props(0, "NVIDIA H200", 9, 0, 132, 32) + "]"));
  REQUIRE(h200.device);
  CHECK(h200.device->vendor == "NVIDIA");
  CHECK(h200.device->arch == "sm_90");
  CHECK(h200.device->cu_count == 132);

  // no version key (a trimmed or re-exported trace): the device name says the vendor, noted
  const TraceProfile bare =
      read_ok(trace(R"("deviceProperties": [)" + props(0, "NVIDIA H200", 9, 0, 132, 32) + "]"));
  REQUIRE(bare.device);
  CHECK(bare.device->vendor == "NVIDIA");
  CHECK(bare.device->arch == "sm_90");
  CHECK(bare.device->note.find("vendor (NVIDIA) is read from the device name") !=
        std::string::npos);
  const TraceProfile mi300 = read_ok(
      trace(R"("deviceProperties": [)" + props(0, "AMD Instinct MI300X", 9, 4, 304, 64) + "]"));
  REQUIRE(mi300.device);
  CHECK(mi300.device->vendor == "AMD");
  CHECK(mi300.device->arch == "gfx942");
  // a name that states no vendor (ROCm writes "" for some parts): no vendor, so no arch, whatever
  // the warp size
  const TraceProfile unnamed =
      read_ok(trace(R"("deviceProperties": [)" + props(0, "", 9, 4, 304, 64) + "]"));
  REQUIRE(unnamed.device);
  CHECK(unnamed.device->vendor.empty());
  CHECK(unnamed.device->arch.empty());
  // both vendors' keys: none, noted
  const TraceProfile both = read_ok(
      trace(k_rocm + ", " + k_cuda + R"(, "deviceProperties": [)" + props(0, "x", 9, 4) + "]"));
  REQUIRE(both.device);
  CHECK(both.device->vendor.empty());
  CHECK(both.device->note.find("both ROCm and CUDA") != std::string::npos);
}

TEST_CASE("device_arch: NVIDIA sm_NN, AMD 9.4 and 9.5 only", "[topn][device]") {
  using detail::device_arch;
  CHECK(device_arch("NVIDIA", 9.0, 0.0) == "sm_90");
  CHECK(device_arch("NVIDIA", 10.0, 0.0) == "sm_100");
  CHECK(device_arch("NVIDIA", 12.0, 1.0) == "sm_121");
  CHECK(device_arch("AMD", 9.0, 4.0) == "gfx942");
  CHECK(device_arch("AMD", 9.0, 5.0) == "gfx950");
  CHECK(device_arch("AMD", 9.0, 0.0).empty());
  CHECK(device_arch("AMD", 11.0, 0.0).empty());
  CHECK(device_arch("", 9.0, 4.0).empty());
  CHECK(device_arch("NVIDIA", 9.5, 0.0).empty());
  CHECK(device_arch("NVIDIA", -1.0, 0.0).empty());
  CHECK(device_arch("NVIDIA", std::nullopt, 0.0).empty());
}

TEST_CASE("trace device: odd deviceProperties are skipped, never an error", "[topn][device]") {
  for (const char* top :
       {R"("deviceProperties": [])", R"("deviceProperties": {"id": 0})",
        R"("deviceProperties": [1, "x", null, [2]])", R"("deviceProperties": "MI300X")",
        R"("distributedInfo": [1], "deviceProperties": [{"id": "zero", "name": 7}])"}) {
    INFO(top);
    const TraceProfile p = read_ok(trace(top));
    if (p.device) {
      CHECK(p.device->name.empty());
      CHECK_FALSE(p.device->cu_count);
    }
  }
  const TraceProfile ctl =
      read_ok(trace(R"("deviceProperties": [{"id": 0, "name": "MI\n300X\u0007"}])"));
  REQUIRE(ctl.device);
  CHECK(ctl.device->name == "MI?300X?");  // it lands in one-line notes
  const TraceProfile huge = read_ok(trace(
      R"("deviceProperties": [{"id": 0, "numSms": 1e400, "computeMajor": NaN}], "distributedInfo": {"world_size": -3})"));
  REQUIRE(huge.device);
  CHECK_FALSE(huge.device->cu_count);
  CHECK_FALSE(huge.world_size);
}

TEST_CASE("trace device: merged over rank traces, a different device noted", "[topn][device]") {
  const std::string a = trace(R"("deviceProperties": [)" + props(0, "NVIDIA H200", 9, 0, 132) +
                              "], " + k_cuda + R"(, "distributedInfo": {"world_size": 2})");
  const std::string b = trace(R"("deviceProperties": [)" + props(0, "NVIDIA H100", 9, 0, 132) +
                              "], " + k_cuda + R"(, "distributedInfo": {"world_size": 2})");
  const TraceProfile same = merge_profiles({read_ok(a), read_ok(a)});
  REQUIRE(same.device);
  CHECK(same.device->note.empty());
  CHECK(same.world_size == 2);
  const TraceProfile mixed = merge_profiles({read_ok(a), read_ok(b), read_ok(b)});
  REQUIRE(mixed.device);
  CHECK(mixed.device->name == "NVIDIA H200");
  CHECK(mixed.device->note ==
        "the traces name different devices ('NVIDIA H200' sm_90, then 'NVIDIA H100' sm_90): the "
        "first is taken");
}

TEST_CASE("trace device: written into the Top-N and read back", "[topn][device]") {
  const TraceProfile p =
      read_ok(trace(R"("deviceProperties": [)" + props(0, "AMD Instinct MI300X", 9, 4) + "], " +
                        k_rocm + R"(, "distributedInfo": {"world_size": 8})",
                    9));
  TopnOptions o;
  const TopnDocument doc =
      build_topn(p, o, builtin_kernel_classes_rules(), builtin_kernel_backends_rules()).topn;
  const std::string text = render_topn_json(doc);
  CHECK(text.find(R"("device": {
    "name": "AMD Instinct MI300X",
    "vendor": "AMD",
    "arch": "gfx942",
    "cu_count": 304,
    "memory_bytes": 206141652992,
    "source": "trace deviceProperties",
    "note": "the kernels ran on device 9)") != std::string::npos);
  CHECK(text.find(R"("world_size": 8,)") != std::string::npos);
  const auto loaded = parse_topn(text, "profile_topN.json");
  REQUIRE(loaded.value);
  CHECK(loaded.errors.empty());
  REQUIRE(loaded.value->device);
  const TopnDevice& d = *loaded.value->device;
  CHECK(d.name == "AMD Instinct MI300X");
  CHECK(d.vendor == "AMD");
  CHECK(d.arch == "gfx942");
  CHECK(d.cu_count == 304);
  CHECK(d.memory_bytes == 206141652992.0);
  CHECK(d.source == "trace deviceProperties");
  CHECK(d.note.find("device 9") != std::string::npos);
  CHECK(loaded.value->world_size == 8);
}

TEST_CASE("parse_topn: device and world_size are optional; wrong types are reported",
          "[topn][device]") {
  const auto none = parse_topn(R"({"top_kernels": []})", "t.json");
  REQUIRE(none.value);
  CHECK_FALSE(none.value->device);
  CHECK_FALSE(none.value->world_size);
  const auto nulls = parse_topn(
      R"({"device": {"name": null, "arch": null, "cu_count": null}, "top_kernels": []})", "t.json");
  REQUIRE(nulls.value);
  REQUIRE(nulls.value->device);
  CHECK(nulls.value->device->name.empty());
  CHECK(nulls.errors.empty());
  const auto bad = parse_topn(
      R"({"device": {"name": 3, "cu_count": "304", "memory_bytes": -1}, "world_size": "8",)"
      R"( "top_kernels": []})",
      "t.json");
  REQUIRE(bad.value);
  CHECK(roofline::test::any_contains(bad.errors, {"device.name"}));
  CHECK(roofline::test::any_contains(bad.errors, {"device.cu_count"}));
  CHECK(roofline::test::any_contains(bad.errors, {"device.memory_bytes", "negative"}));
  CHECK(roofline::test::any_contains(bad.errors, {"world_size"}));
  const auto not_object = parse_topn(R"({"device": "MI300X", "top_kernels": []})", "t.json");
  REQUIRE(not_object.value);
  CHECK_FALSE(not_object.value->device);
  CHECK(roofline::test::any_contains(not_object.errors, {"device"}));
}

}  // namespace unit_trace_device
