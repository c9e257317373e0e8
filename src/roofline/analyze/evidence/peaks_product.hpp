#pragma once
// Which peaks section describes a run's part (docs/method.md §5.2, §22.2), and the section to add
// when none does.

#include <optional>
#include <string>
#include <vector>

#include "roofline/analyze/layer.hpp"
#include "roofline/inputs/inputs.hpp"

namespace roofline::analyze {

// Client RDNA4 ("gfx120" and digits): numbers only for a product the run names.
bool is_client_rdna4(const std::string& gfx);

// The product whose section of `arch` describes the run ("" = the section without product), or
// nullopt when the part is none of the arch's rows (named in notes). In order: device_target (a
// product key, or on NVIDIA a row's device name); the device name (a spelling a row lists; on AMD
// also a product key inside it; on NVIDIA an unlisted name is its own, unmatched product); else
// the trace's CU/SM count and memory against the rows' `cu` and `memory_gib`. Parts the trace
// cannot tell apart fall to the section without product (the figures they share, the lower where
// they differ), said in notes; without such a section they match none.
std::optional<std::string> product_for(const PeaksTable& table, const std::string& arch,
                                       const std::string& product_spelling,
                                       const std::string& device_name, const DeviceProps& props,
                                       std::vector<std::string>& notes);

// The peaks.md section (a heading and a fenced yaml block) for a part no section describes
// (docs/method.md §5.4), pre-filled with the trace's arch, device name, CU/SM count and memory;
// every figure reads FILL for the user to replace with the datasheet's. Once filled it parses
// with `roofline peaks check`, and the same run matches it.
std::string section_to_add(const std::string& arch, const std::string& device_name,
                           const DeviceProps& props);

}  // namespace roofline::analyze
