// Round names as strings, the round folders of an evaluation folder, and step counts.
#include "roofline/rounds.hpp"

#include <algorithm>
#include <charconv>
#include <system_error>

#include <fmt/format.h>

namespace roofline {
namespace fs = std::filesystem;

namespace {

constexpr std::string_view k_round_prefix = "round_";

// A round name made of digits only, as a number (for ordering); nullopt otherwise.
std::optional<unsigned long long> round_number(const std::string& name) {
  if (name.empty() || name.size() > 18) return std::nullopt;
  unsigned long long v = 0;
  auto [ptr, ec] = std::from_chars(name.data(), name.data() + name.size(), v);
  if (ec != std::errc() || ptr != name.data() + name.size()) return std::nullopt;
  return v;
}

// 0 baseline, 1 config, 2 tuning, 3 other names, 4 numbered milestones.
int round_group(const std::string& name) {
  const auto n = round_number(name);
  if (n) return *n == 0 ? 0 : 4;
  if (name == "config") return 1;
  if (name == "tuning") return 2;
  return 3;
}

}  // namespace

bool valid_round_name(std::string_view name) {
  if (name.empty()) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-';
  });
}

fs::path round_folder(const fs::path& eval_dir, const std::string& round) {
  return eval_dir / "profile" / fmt::format("{}{}", k_round_prefix, round);
}

bool round_before(const std::string& a, const std::string& b) {
  const int ga = round_group(a), gb = round_group(b);
  if (ga != gb) return ga < gb;
  if (ga == 4) {
    const auto na = round_number(a), nb = round_number(b);
    if (*na != *nb) return *na < *nb;
  }
  return a < b;  // "01" and "1" are different folders: keep them apart, deterministically
}

std::vector<std::string> list_rounds(const fs::path& eval_dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (fs::directory_iterator it(eval_dir / "profile", ec), end; !ec && it != end;
       it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.rfind(k_round_prefix, 0) != 0) continue;
    const std::string round = name.substr(k_round_prefix.size());
    std::error_code dir_ec;
    if (valid_round_name(round) && it->is_directory(dir_ec)) out.push_back(round);
  }
  std::sort(out.begin(), out.end(), round_before);
  return out;
}

void set_input_round(InputPaths& paths, const std::string& round) {
  // InputPaths::round is still a number; naming the Top-N of the round folder reads any round
  // name the same way (load_inputs then looks for the env report beside it too).
  paths.topn = round_folder(paths.eval_dir, round) / "profile_topN.json";
}

StepCount round_step_count(const TopN& topn) {
  StepCount s;
  const ServingInfo& sv = topn.serving;
  if (!sv.n_prefill_steps && !sv.n_decode_steps) {
    s.reason = sv.present ? "the Top-N's serving block has no step counts"
                          : "the Top-N has no serving step counts (no step annotations)";
    return s;
  }
  const double prefill = sv.n_prefill_steps.value_or(0.0);
  const double decode = sv.n_decode_steps.value_or(0.0);
  if (!(prefill + decode > 0)) {
    s.reason = "the Top-N's serving step counts are zero";
    return s;
  }
  s.steps = prefill + decode;
  s.source = fmt::format("profiler serving: {:g} prefill + {:g} decode steps", prefill, decode);
  return s;
}

}  // namespace roofline
