#pragma once
// Option checks shared by compare, outcomes and calibrate.

#include <filesystem>
#include <string>

namespace roofline::cli {

// Throws UsageError unless `round` is a round name with a folder D/profile/round_<round>; the
// message names the option and the value and lists the rounds that exist.
void require_round(const std::filesystem::path& dir, const std::string& round,
                   const std::string& option);

// The ledger file: `option` when given, else $ROOFLINE_LEDGER, else `fallback`.
std::filesystem::path ledger_path(const std::string& option, const std::filesystem::path& fallback);

}  // namespace roofline::cli
