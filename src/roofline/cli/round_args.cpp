// Option checks shared by compare, outcomes and calibrate.
#include "roofline/cli/round_args.hpp"

#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

#include "roofline/cli/common.hpp"
#include "roofline/outcomes/rounds.hpp"

namespace roofline::cli {
namespace fs = std::filesystem;

void require_round(const fs::path& dir, const std::string& round, const std::string& option) {
  const std::vector<std::string> rounds = rounds_in(dir);
  std::string existing;
  for (const auto& r : rounds) existing += (existing.empty() ? "" : ", ") + r;
  const std::string listing = rounds.empty()
                                  ? fmt::format("{} has no profile/round_* folders", dir.string())
                                  : "rounds that exist: " + existing;
  if (!valid_round_name(round))
    throw UsageError(fmt::format(
        "{} '{}': a round name is letters, digits, '_' and '-' (e.g. 0, config, tuning, 1); {}",
        option, round, listing));
  std::error_code ec;
  if (!fs::is_directory(round_dir(dir, round), ec))
    throw UsageError(fmt::format("{} {}: no folder {}; {}", option, round,
                                 round_dir(dir, round).string(), listing));
}

fs::path ledger_path(const std::string& option, const fs::path& fallback) {
  if (!option.empty()) return option;
  if (const char* env = std::getenv("ROOFLINE_LEDGER"); env && *env) return env;
  return fallback;
}

}  // namespace roofline::cli
