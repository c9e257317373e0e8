// Stage C ingest of Nsight Compute `ncu --csv` output (docs/method.md §2.8): the details page (one
// row per launch per metric: ID, Process ID, Kernel Name, ..., Metric Name, Metric Unit, Metric
// Value; older versions lack some columns, so every column is found by name) and the raw page (one
// row per launch, one column per metric, a units row under the header). Numbers carry thousands
// separators and, without --print-units base, auto-scaled units: both are undone here, and a
// unit this file does not know leaves that metric out with an error, never a wrong number.
#include <algorithm>
#include <array>
#include <cstring>

#include <fmt/format.h>

#include "roofline/inputs/counters_ingest.hpp"
#include "roofline/inputs/csv_numbers.hpp"
#include "roofline/inputs/layer.hpp"

namespace roofline::inputs::detail {
namespace {

// Raw-page columns that describe the device, the launch or the profiler run, not the work.
constexpr std::array<std::string_view, 6> k_attribute_prefixes{
    "device__", "launch__", "numa__", "nvlink__", "c2clink__", "profiler__"};

bool starts_with(std::string_view s, std::string_view p) {
  return s.substr(0, p.size()) == p;
}

// The kind of unit a metric measure() reads must have ("" = any).
std::string_view needed_dimension(std::string_view metric) {
  if (starts_with(metric, "dram__bytes")) return "byte";
  if (starts_with(metric, "gpu__time_duration")) return "second";
  if (starts_with(metric, "sm__ops_path_tensor_") ||
      starts_with(metric, "smsp__sass_thread_inst_executed_op_"))
    return "count";
  return "";
}

struct BaseUnit {
  std::string_view name, dimension;
  double scale;
  bool prefixable;
};
// Plain times are kept in nanoseconds (ncu's base unit for gpu__time_duration is "ns").
constexpr std::array<BaseUnit, 27> k_units{{
    {"", "count", 1, false},
    {"inst", "count", 1, true},
    {"op", "count", 1, true},
    {"byte", "byte", 1, true},
    {"bit", "bit", 1, true},
    {"ns", "second", 1, false},
    {"nsecond", "second", 1, false},
    {"us", "second", 1e3, false},
    {"usecond", "second", 1e3, false},
    {"ms", "second", 1e6, false},
    {"msecond", "second", 1e6, false},
    {"s", "second", 1e9, false},
    {"second", "second", 1e9, false},
    {"cycle", "cycle", 1, true},
    {"hz", "hz", 1, true},
    {"warp", "warp", 1, true},
    {"thread", "thread", 1, true},
    {"block", "block", 1, true},
    {"sector", "sector", 1, true},
    {"request", "request", 1, true},
    {"wavefront", "wavefront", 1, true},
    {"transaction", "transaction", 1, true},
    {"pass", "pass", 1, false},
    {"register", "register", 1, false},
    {"SM", "SM", 1, false},
    {"cluster", "cluster", 1, false},
    {"%", "%", 1, false},
}};

std::optional<NcuUnit> plain_unit(std::string_view u) {
  for (const auto& b : k_units)
    if (u == b.name) return NcuUnit{b.scale, b.dimension};
  if (u.size() < 2) return std::nullopt;
  double prefix = 0.0;  // SI prefixes, powers of 1000 as ncu prints them ("Kbyte", "Minst")
  switch (u[0]) {
    case 'K':
    case 'k':
      prefix = 1e3;
      break;
    case 'M':
      prefix = 1e6;
      break;
    case 'G':
      prefix = 1e9;
      break;
    case 'T':
      prefix = 1e12;
      break;
    case 'P':
      prefix = 1e15;
      break;
    default:
      return std::nullopt;
  }
  for (const auto& b : k_units)
    if (b.prefixable && u.substr(1) == b.name) return NcuUnit{prefix * b.scale, b.dimension};
  return std::nullopt;
}

// Copies v (at most 64 bytes) into out without its thousands separators; false unless they
// group the integer part by three.
bool strip_separators(std::string_view v, char* out, std::size_t& n) {
  if (v.size() > 64) return false;
  std::size_t i = 0, group = 0;
  bool any = false;
  n = 0;
  if (i < v.size() && v[i] == '-') out[n++] = v[i++];
  for (; i < v.size(); ++i) {
    const char c = v[i];
    if (c >= '0' && c <= '9') {
      out[n++] = c;
      ++group;
    } else if (c == ',') {
      if (group == 0 || group > 3 || (any && group != 3)) return false;
      any = true;
      group = 0;
    } else {
      break;
    }
  }
  if (any && group != 3) return false;
  for (; i < v.size(); ++i) {
    if (v[i] == ',') return false;
    out[n++] = v[i];
  }
  return true;
}

}  // namespace

std::optional<NcuUnit> ncu_unit(std::string_view unit) {
  while (!unit.empty() && unit.front() == ' ') unit.remove_prefix(1);
  while (!unit.empty() && unit.back() == ' ') unit.remove_suffix(1);
  const std::size_t slash = unit.find('/');
  if (slash == std::string_view::npos) return plain_unit(unit);
  // A rate: the numerator scaled, per the denominator's unit (a time: per second).
  const auto num = plain_unit(unit.substr(0, slash));
  const auto den = plain_unit(unit.substr(slash + 1));
  if (!num || !den || num->dimension == "second" || unit.find('/', slash + 1) != unit.npos)
    return std::nullopt;
  const double per = den->dimension == "second" ? den->scale / 1e9 : den->scale;
  return NcuUnit{num->scale / per, "rate"};
}

bool parse_ncu_number(const CsvField& f, double& out) {
  const std::string_view v = trimmed(f);
  if (v.find(',') == std::string_view::npos) return parse_number(f, out);
  char buf[64 + k_csv_field_slack] = {};
  std::size_t n = 0;
  return strip_separators(v, buf, n) && parse_number(CsvField{buf, n, false, false}, out);
}

bool parse_ncu_u64(const CsvField& f, std::uint64_t& out) {
  const std::string_view v = trimmed(f);
  if (v.find(',') == std::string_view::npos) return parse_digits(v, out);
  char buf[64 + k_csv_field_slack] = {};
  std::size_t n = 0;
  return strip_separators(v, buf, n) && parse_digits({buf, n}, out);
}

bool Ingest::read_ncu_header() {
  lay_.ncu = true;
  lay_.kernel = find({"Kernel Name"});
  lay_.dispatch = find({"ID"});
  lay_.pid = find({"Process ID"});
  lay_.counter_name = find({"Metric Name"});
  lay_.counter_value = find({"Metric Value"});
  lay_.counter_unit = find({"Metric Unit"});
  if (lay_.counter_name != k_none && lay_.counter_value != k_none) {
    lay_.format = CounterFormat::ncu_details;
    file_.format_detail =
        fmt::format("Nsight Compute details page (ncu --csv), {} columns", lay_.columns);
    if (lay_.counter_unit == k_none)
      note("no Metric Unit column: values taken as printed, in the metrics' base units");
  } else {
    lay_.counter_name = lay_.counter_value = lay_.counter_unit = k_none;
    lay_.format = CounterFormat::ncu_raw;
    for (std::size_t i = 0; i < header_.size(); ++i) {
      const std::string& name = header_[i];
      if (name.find("__") == std::string::npos ||
          std::any_of(k_attribute_prefixes.begin(), k_attribute_prefixes.end(),
                      [&](std::string_view p) { return starts_with(name, p); }))
        continue;
      const std::size_t id = table_.counter_id(std::string_view(name));
      lay_.counter_cols.push_back({i, id, 1.0});
      if (name == "gpu__time_duration.sum") time_counter_ = id;
    }
    if (lay_.counter_cols.empty()) {
      error(
          "an Nsight Compute CSV without metrics: no Metric Name/Metric Value columns (details "
          "page) and no metric columns (--page raw)");
      file_.format = lay_.format;
      return false;
    }
    file_.format_detail =
        fmt::format("Nsight Compute raw page (ncu --csv --page raw), {} columns ({} metrics)",
                    lay_.columns, lay_.counter_cols.size());
  }
  file_.format = lay_.format;
  return true;
}

// The raw page's second line: each metric's unit. A metric whose unit is not understood (or is
// of the wrong kind for what measure() reads from it) is left out.
void Ingest::ncu_units_row(const CsvRow& row) {
  units_row_read_ = true;
  std::vector<Layout::Column> kept;
  for (auto c : lay_.counter_cols) {
    const std::string unit = field_text(row[c.column]);
    const std::string& name = table_.counter_name(c.counter);
    const auto u = ncu_unit(unit);
    const std::string_view need = needed_dimension(name);
    if (!u || (!need.empty() && u->dimension != need)) {
      unit_problems_[name].unit = unit;
      if (c.counter == time_counter_) time_counter_ = k_none;
      continue;
    }
    c.scale = u->scale;
    kept.push_back(c);
  }
  lay_.counter_cols = std::move(kept);
}

// A details-page row's value in base units. A text value is a bad row for a metric measure()
// reads, else it marks the metric as text (left out, with a note).
RowUse Ingest::ncu_value(const CsvRow& row, std::size_t counter, double& value) {
  const std::string& name = table_.counter_name(counter);
  if (!parse_ncu_number(row[lay_.counter_value], value)) {
    // "n/a": the metric does not exist for this kernel or part (a tensor path it has no pipe
    // for); the measurement goes without it.
    if (iequal(trimmed(row[lay_.counter_value]), "n/a")) return RowUse::left_out;
    if (counter_used_by_measure(name)) return RowUse::bad;
    if (text_column_.size() <= counter) text_column_.resize(counter + 1, false);
    text_column_[counter] = true;
    return RowUse::left_out;
  }
  if (lay_.counter_unit == k_none) return RowUse::used;
  const CsvField& uf = row[lay_.counter_unit];
  if (!unit_cached_ || !same_bytes(uf.raw(), unit_raw_)) {
    unit_cached_ = true;
    unit_raw_.assign(uf.raw());
    unit_ = ncu_unit(field_text(uf));
  }
  const std::string_view need = needed_dimension(name);
  if (!unit_ || (!need.empty() && unit_->dimension != need)) {
    UnitProblem& p = unit_problems_[name];
    p.unit = field_text(uf);
    ++p.values;
    return RowUse::left_out;
  }
  value *= unit_->scale;
  return RowUse::used;
}

void Ingest::ncu_notes() {
  std::string others;
  std::size_t n_others = 0;
  for (const auto& [name, p] : unit_problems_) {
    const std::string_view need = needed_dimension(name);
    const std::string why =
        ncu_unit(p.unit) ? fmt::format("unit '{}' is not a {} unit", printable(p.unit, 40), need)
                         : fmt::format("unit '{}' not understood", printable(p.unit, 40));
    if (counter_used_by_measure(name)) {
      error(fmt::format(
          "metric {}: {}: its values are left out{}", name, why,
          p.values > 0 ? fmt::format(" ({} row{})", p.values, p.values == 1 ? "" : "s") : ""));
    } else if (++n_others <= 3) {
      others += fmt::format("{}{} ({})", others.empty() ? "" : ", ", name, why);
    }
  }
  if (n_others > 0)
    note(fmt::format("{} metric{} left out for their unit: {}{}", n_others,
                     n_others == 1 ? "" : "s", others, n_others > 3 ? ", ..." : ""));
  if (lay_.format == CounterFormat::ncu_raw && !units_row_read_ && file_.lines > 0)
    note("no units row under the header: values taken as printed, in base units");
  if (time_counter_ == k_none && file_.lines > 0)
    note("no gpu__time_duration.sum metric: no per-launch time");
}

}  // namespace roofline::inputs::detail
