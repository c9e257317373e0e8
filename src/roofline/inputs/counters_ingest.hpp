#pragma once
// Private to the counter ingest: the state of reading one counter CSV. counters_ingest.cpp holds
// the driver and the AMD layouts (rocprofv3, rocprof v1), counters_ncu.cpp the Nsight Compute
// ones (details page, raw page) and their units and numbers.

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "roofline/inputs/counters_table.hpp"
#include "roofline/inputs/csv_stream.hpp"
#include "roofline/inputs/counters.hpp"

namespace roofline::detail {

inline constexpr std::size_t k_none = static_cast<std::size_t>(-1);

// ASCII case-insensitive equality (header names).
bool iequal(std::string_view a, std::string_view b);
// For messages: at most `max` bytes, control bytes shown as '?'.
std::string printable(std::string_view s, std::size_t max);

// An Nsight Compute unit: the factor to this tool's base unit (bytes, nanoseconds for plain
// times, counts; rates per second) and what it measures ("byte", "second", "count", ...).
struct NcuUnit {
  double scale = 1.0;
  std::string_view dimension;
};
// The units ncu prints, with or without --print-units base: "byte", "Kbyte" .. "Tbyte" (SI, powers
// of 1000), "ns"/"nsecond", "usecond", "msecond", "second", "inst", "Minst", "", "%", "hz",
// "cycle", ..., and rates "X/Y". Nothing for a unit it does not know.
std::optional<NcuUnit> ncu_unit(std::string_view unit);
// A number as ncu prints it: thousands separators ("3,968", "1,945,079,576.00") are allowed only
// grouped by three before the point, so a decimal comma is never misread.
bool parse_ncu_number(const CsvField& f, double& out);
// The same for ids: at most 19 digits, separators grouped by three.
bool parse_ncu_u64(const CsvField& f, std::uint64_t& out);

// Where the needed columns are, for every layout.
struct Layout {
  CounterFormat format = CounterFormat::unknown;
  std::size_t columns = 0;
  std::size_t kernel = k_none, dispatch = k_none, pid = k_none, start = k_none, end = k_none;
  // One row per (dispatch, counter): rocprofv3, ncu details (with a unit per row).
  std::size_t counter_name = k_none, counter_value = k_none, counter_unit = k_none;
  // One row per dispatch, counters as columns: rocprof v1, ncu raw (with a units row).
  struct Column {
    std::size_t column, counter;
    double scale;
  };
  std::vector<Column> counter_cols;
  bool ncu = false;
};

enum class RowUse { used, bad, left_out };

class Ingest {
 public:
  Ingest(const std::string& display, const CounterOptions& options)
      : opt_(options), table_(options.dispatch_window) {
    file_.display = display;
  }
  CounterFile run(const ChunkReader& read);

 private:
  std::size_t find(std::initializer_list<std::string_view> names) const {
    for (auto want : names)
      for (std::size_t i = 0; i < header_.size(); ++i)
        if (iequal(header_[i], want)) return i;
    return k_none;
  }
  bool read_header(const CsvRow& row);
  bool read_amd_header();
  bool read_ncu_header();  // counters_ncu.cpp
  void ncu_units_row(const CsvRow& row);
  // Whether the values of this (long layout) counter are read; decided on its first row.
  bool summed(std::size_t counter) {
    if (counter >= unsummed_.size()) register_counters(counter);
    return !unsummed_[counter];
  }
  void register_counters(std::size_t upto);
  bool dispatch_id(const CsvField& f, std::uint64_t& out) const;
  RowUse long_row(const CsvRow& row);
  RowUse ncu_value(const CsvRow& row, std::size_t counter, double& value);
  RowUse wide_row(const CsvRow& row);
  void finish_notes();
  void ncu_notes();
  void bad_row(const CsvRow& row) {
    ++file_.bad_rows;
    if (file_.bad_row_lines.size() < opt_.bad_lines_listed) file_.bad_row_lines.push_back(row.line);
  }
  void error(const std::string& what) { file_.errors.push_back(file_.display + ": " + what); }
  void note(const std::string& what) { file_.notes.push_back(file_.display + ": " + what); }

  const CounterOptions& opt_;
  CounterFile file_;
  CounterTable table_;
  std::vector<std::string> header_;
  Layout lay_;
  std::vector<bool> text_column_;  // by counter id: held text, not a counter
  std::vector<bool> unsummed_;     // by counter id: values not read (all_counter_values off)
  bool chain_ = false;  // the previous row was used and its dispatch fields are the CSV reader's
                        // saved prefix (see long_row)
  std::vector<std::pair<std::size_t, double>> values_;  // scratch for one wide row
  struct SameDispatch {  // the previous used long row's dispatch (see long_row)
    bool valid = false;
    std::string dispatch, pid;
    std::size_t kernel_size = 0;
  } same_;
  // Nsight Compute: the per-launch time metric, the last unit seen (details rows repeat a few),
  // and the metrics left out for a unit this tool does not know or of the wrong kind.
  std::size_t time_counter_ = k_none;
  bool unit_cached_ = false;
  std::string unit_raw_;
  std::optional<NcuUnit> unit_;
  struct UnitProblem {
    std::string unit;
    std::uint64_t values = 0;
  };
  std::map<std::string, UnitProblem> unit_problems_;  // by metric name
  bool units_row_read_ = false, data_rows_begun_ = false;
};

}  // namespace roofline::detail
