#pragma once
// Loading the inputs (docs/method.md §2). Parsing works on text so it can be tested and fuzzed
// without files; reading files is a separate, thin step. Loaders never throw: every problem becomes
// a one-line message naming the file and the field, and whatever could be read is kept.

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "roofline/inputs/inputs.hpp"
#include "roofline/inputs/layer.hpp"

namespace roofline::inputs {

// Defaults of the input limits (`analyze --max-input-size`, `--max-json-depth`,
// `--max-topn-entries`).
inline constexpr std::size_t k_max_json_bytes = 256u * 1024u * 1024u;
inline constexpr int k_max_json_depth = 256;
inline constexpr std::size_t k_max_topn_entries = 100000;

// Limits that keep a hostile or runaway input from exhausting memory, stack or time. Exceeding
// one is a clear error naming the file and the limit, never a crash.
struct InputLimits {
  std::size_t max_bytes = k_max_json_bytes;      // per input file
  int max_depth = k_max_json_depth;              // JSON/YAML nesting levels
  std::size_t max_entries = k_max_topn_entries;  // Top-N top_kernels read
};

// "256 MiB", "64 KiB" or "1000 bytes": a size as the limit messages print it.
std::string describe_size(std::size_t bytes);

template <class T>
struct Loaded {
  std::optional<T> value;           // nullopt when nothing usable could be read
  std::vector<std::string> errors;  // "file: field: what is wrong"
  std::vector<std::string> notes;   // facts worth recording that are not errors
};

struct FileText {
  bool found = false;
  std::string text;
  std::string error;  // set when the file exists but cannot be read (or is too large)
};

// Reads a whole file; refuses files larger than `max_bytes` (without reading them whole).
FileText read_text_file(const std::filesystem::path& path, std::size_t max_bytes);

// The JSON loaders. Text nested deeper than `limits.max_depth` is refused before parsing; a Top-N
// with more than `limits.max_entries` kernels keeps the first ones and says so.
Loaded<TopnDocument> parse_topn(std::string_view text, const std::string& display_name,
                                const InputLimits& limits = {});
Loaded<EnvReport> parse_env_report(std::string_view text, const std::string& display_name,
                                   const InputLimits& limits = {});
Loaded<ModelConfig> parse_model_config(std::string_view text, const std::string& display_name,
                                       const InputLimits& limits = {});

// Parses peaks.md (fenced yaml blocks). Bad blocks are reported and skipped; good ones kept.
// A block nested deeper than `limits.max_depth` is refused before YAML parsing.
Loaded<PeaksTable> parse_peaks_md(std::string_view text, const std::string& display_name,
                                  const InputLimits& limits = {});

// Normalizes a gfx spelling: lower-case, feature suffix after the first ':' removed.
std::string normalize_gfx(std::string_view gfx);

// Normalizes an architecture of either vendor: an NVIDIA spelling ("sm_90", "SM90", "sm_90a",
// "compute_90") becomes "sm_90"; anything else goes through normalize_gfx.
std::string normalize_arch(std::string_view arch);
// An NVIDIA compute capability ("9.0", "10.0", "8.9") as its arch ("sm_90"); "" when the text
// is not one.
std::string arch_from_compute_capability(std::string_view cc);
// True for a normalized NVIDIA arch (sm_ followed by digits).
bool is_nvidia_arch(std::string_view arch);

// Canonical product identity: lower-case; "", "unknown", "none", "n/a" mean no product.
// When one of `known_products` occurs in the spelling as a whole word (e.g. "AMD Radeon AI PRO
// R9700" contains "r9700"), that product is returned.
std::string canonical_product(std::string_view spelling,
                              const std::vector<std::string>& known_products);

}  // namespace roofline::inputs
