// Stage C ingest: recognises the counter CSV layout from its header column names, then streams
// the rows into a CounterTable. Only the columns a layout needs are converted to numbers. This
// file: the driver, the AMD layouts and the row logic they share with Nsight Compute's
// (counters_ncu.cpp).
#include "roofline/inputs/counters_ingest.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>

#include <fmt/format.h>

#include "roofline/inputs/csv_numbers.hpp"
#include "roofline/inputs/layer.hpp"

namespace roofline::inputs {
namespace detail {

bool iequal(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i])))
      return false;
  return true;
}

std::string printable(std::string_view s, std::size_t max) {
  std::string out;
  for (char c : s.substr(0, max)) out.push_back(static_cast<unsigned char>(c) < 0x20 ? '?' : c);
  return out;
}

namespace {

// Columns that describe a dispatch rather than count something (rocprof v1/v2 and rocprofv3
// spellings). In a one-row-per-dispatch file every other numeric column is a counter.
constexpr std::array<std::string_view, 48> k_metadata{"Index",
                                                      "KernelName",
                                                      "Kernel_Name",
                                                      "gpu-id",
                                                      "queue-id",
                                                      "queue-index",
                                                      "pid",
                                                      "tid",
                                                      "grd",
                                                      "wgr",
                                                      "lds",
                                                      "scr",
                                                      "arch_vgpr",
                                                      "accum_vgpr",
                                                      "vgpr",
                                                      "sgpr",
                                                      "wave_size",
                                                      "sig",
                                                      "obj",
                                                      "DispatchNs",
                                                      "BeginNs",
                                                      "EndNs",
                                                      "CompleteNs",
                                                      "Dispatch_Id",
                                                      "Correlation_Id",
                                                      "Agent_Id",
                                                      "Queue_Id",
                                                      "Process_Id",
                                                      "Thread_Id",
                                                      "Grid_Size",
                                                      "Kernel_Id",
                                                      "Workgroup_Size",
                                                      "LDS_Block_Size",
                                                      "Scratch_Size",
                                                      "VGPR_Count",
                                                      "Accum_VGPR_Count",
                                                      "SGPR_Count",
                                                      "Start_Timestamp",
                                                      "End_Timestamp",
                                                      "GPU_Id",
                                                      "LDS_Per_Workgroup",
                                                      "Scratch_Per_Workitem",
                                                      "Arch_VGPR",
                                                      "Wave_Size",
                                                      "Stream_Id",
                                                      "Private_Segment_Size",
                                                      "Group_Segment_Size",
                                                      "Kind"};

bool is_metadata(std::string_view name) {
  for (auto m : k_metadata)
    if (iequal(m, name)) return true;
  return name.rfind("Grid_Size_", 0) == 0 || name.rfind("Workgroup_Size_", 0) == 0;
}

}  // namespace

bool Ingest::read_header(const CsvRow& row) {
  for (const CsvField& f : row.fields()) header_.push_back(detail::field_text(f));
  lay_.columns = row.field_count;
  if (header_.size() < lay_.columns)  // CsvRow keeps k_csv_max_fields; every index stays below
    note(fmt::format("{} columns: only the first {} are read", lay_.columns, header_.size()));
  if (find({"ID"}) != k_none && find({"Kernel Name"}) != k_none) return read_ncu_header();
  if (read_amd_header()) return true;
  if (lay_.format != CounterFormat::unknown) return false;  // recognised, but unusable
  if (find({"Name"}) != k_none && find({"Instances"}) != k_none &&
      find({"Total Time (ns)"}) != k_none) {
    error(
        "an Nsight Systems kernel summary (nsys stats cuda_gpu_kern_sum: columns Name, Instances, "
        "Total Time (ns)): kernel times, no counters; stage C needs Nsight Compute `ncu --csv` "
        "or rocprofv3 counter output (this file is an input of `roofline topn`)");
    return false;
  }
  std::string first;
  for (std::size_t i = 0; i < header_.size() && i < 4; ++i)
    first += (i ? ", " : "") + printable(header_[i], 40);
  error(
      fmt::format("unrecognised header (first columns: {}); expected a rocprofv3 "
                  "*_counter_collection.csv (Kernel_Name, Counter_Name, Counter_Value, "
                  "Dispatch_Id), a rocprof v1 results.csv (KernelName, counter columns) or "
                  "Nsight Compute `ncu --csv` output (ID, Kernel Name, and Metric Name/Metric "
                  "Value on the details page or metric columns with --page raw)",
                  first));
  return false;
}

bool Ingest::read_amd_header() {
  lay_.kernel = find({"Kernel_Name", "KernelName", "kernel-name"});
  lay_.counter_name = find({"Counter_Name"});
  lay_.counter_value = find({"Counter_Value"});
  lay_.dispatch = find({"Dispatch_Id", "Index", "Correlation_Id"});
  lay_.pid = find({"Process_Id", "pid"});
  lay_.start = find({"Start_Timestamp", "BeginNs"});
  lay_.end = find({"End_Timestamp", "EndNs"});
  const bool has_time = lay_.start != k_none && lay_.end != k_none;
  if (lay_.kernel != k_none && lay_.counter_name != k_none && lay_.counter_value != k_none &&
      lay_.dispatch != k_none) {
    lay_.format = CounterFormat::rocprofv3;
    const char* gen = find({"Accum_VGPR_Count"}) != k_none        ? "ROCm 6.4+/7.x"
                      : has_time || find({"Kernel_Id"}) != k_none ? "ROCm 6.3"
                                                                  : "ROCm 6.2";
    file_.format_detail =
        fmt::format("rocprofv3 counter_collection, {} columns ({})", lay_.columns, gen);
    if (header_[lay_.dispatch] != "Dispatch_Id")
      note("no Dispatch_Id column: dispatches told apart by " + header_[lay_.dispatch]);
  } else if (lay_.kernel != k_none && lay_.counter_name == k_none) {
    lay_.format = CounterFormat::rocprof_v1;
    for (std::size_t i = 0; i < header_.size(); ++i) {
      if (header_[i].empty() || is_metadata(header_[i])) continue;
      lay_.counter_cols.push_back({i, table_.counter_id(std::string_view(header_[i])), 1.0});
    }
    if (lay_.counter_cols.empty()) {
      error(
          "a kernel list without counters (no Counter_Name column and no counter columns); "
          "expected a rocprofv3 *_counter_collection.csv or a rocprof v1 results.csv (a rocprofv3 "
          "kernel_trace.csv is an input of `roofline topn`)");
      return false;
    }
    file_.format_detail = fmt::format("rocprof v1 results.csv, {} columns ({} counters)",
                                      lay_.columns, lay_.counter_cols.size());
  } else {
    return false;
  }
  file_.format = lay_.format;
  if (!has_time)
    note("no Start_Timestamp/End_Timestamp (or BeginNs/EndNs) columns: no per-dispatch time");
  return true;
}

// Counters seen for the first time: whether their values are read (and which one is ncu's
// launch time).
void Ingest::register_counters(std::size_t upto) {
  while (unsummed_.size() <= upto) {
    const std::string& name = table_.counter_name(unsummed_.size());
    if (lay_.ncu && name == "gpu__time_duration.sum") time_counter_ = unsummed_.size();
    unsummed_.push_back(!opt_.all_counter_values && !counter_used_by_measure(name));
  }
}

bool Ingest::dispatch_id(const CsvField& f, std::uint64_t& out) const {
  return lay_.ncu ? parse_ncu_u64(f, out) : parse_u64(f, out);
}

// One (dispatch, counter) pair per row: rocprofv3, ncu details. The rows of a dispatch are
// normally adjacent and a dispatch runs one kernel. A row whose dispatch fields the CSV reader
// took from its saved prefix, right after a used row that had the same prefix, is in that row's
// dispatch; else a row whose dispatch and process fields are byte for byte those of the previous
// used row (kernel field of the same length) is. Either skips the id parsing, the kernel lookup
// and the dispatch search: only its counter is read.
RowUse Ingest::long_row(const CsvRow& f) {
  const bool chained = chain_ && f.prefix_reused;
  chain_ = false;
  const CsvField& name = f[lay_.counter_name];
  // Nsight Compute's details page interleaves its rule findings (Rule Name, Description) with
  // the metrics: a row without a metric name is one of them, not a broken row.
  if (name.size == 0 || trimmed(name).empty()) return lay_.ncu ? RowUse::left_out : RowUse::bad;
  const std::size_t counter = table_.counter_id(name);
  double value = 0.0;
  if (summed(counter)) {
    if (lay_.ncu) {
      const RowUse use = ncu_value(f, counter, value);
      if (use != RowUse::used) return use;
    } else if (!parse_number(f[lay_.counter_value], value)) {
      return RowUse::bad;
    }
  }
  if (!chained) {
    const CsvField& dispatch = f[lay_.dispatch];
    const std::string_view pid_raw = lay_.pid != k_none ? f[lay_.pid].raw() : std::string_view{};
    const bool same = same_.valid && f[lay_.kernel].size == same_.kernel_size &&
                      same_bytes(dispatch.raw(), same_.dispatch) && same_bytes(pid_raw, same_.pid);
    if (!same) {
      std::uint64_t id = 0, pid = 0;
      if (!dispatch_id(dispatch, id)) return RowUse::bad;
      if (lay_.pid != k_none && !dispatch_id(f[lay_.pid], pid)) pid = 0;
      table_.begin_dispatch(table_.kernel_id(f[lay_.kernel]), pid, id);
      same_ = {true, std::string(dispatch.raw()), std::string(pid_raw), f[lay_.kernel].size};
    }
  }
  chain_ = f.prefix_reused || f.prefix_saved;
  std::uint64_t t0 = 0, t1 = 0;
  if (counter == time_counter_) {  // ncu: the launch's duration, in ns
    if (!table_.dispatch_timed()) table_.add_duration(value);
  } else if (lay_.start != k_none && lay_.end != k_none && !table_.dispatch_timed() &&
             parse_u64(f[lay_.start], t0) && parse_u64(f[lay_.end], t1) && t1 >= t0) {
    table_.add_duration(static_cast<double>(t1 - t0));
  }
  table_.add(counter, value);
  return RowUse::used;
}

// One dispatch per row, counters as columns: rocprof v1, ncu raw. A column that holds text is
// not a counter: it is dropped (with a note), the row still counts.
RowUse Ingest::wide_row(const CsvRow& row) {
  const CsvRow& f = row;
  std::uint64_t id = file_.lines, pid = 0;  // no dispatch column: every row is a dispatch
  if (lay_.dispatch != k_none && !dispatch_id(f[lay_.dispatch], id)) return RowUse::bad;
  if (lay_.pid != k_none && !dispatch_id(f[lay_.pid], pid)) pid = 0;
  values_.clear();
  for (const auto& c : lay_.counter_cols) {
    if (text_column_[c.counter] || trimmed(f[c.column]).empty()) continue;
    double v = 0.0;
    if (lay_.ncu ? parse_ncu_number(f[c.column], v) : parse_number(f[c.column], v))
      values_.emplace_back(c.counter, v * c.scale);
    else
      text_column_[c.counter] = true;
  }
  table_.begin_dispatch(table_.kernel_id(f[lay_.kernel]), pid, id);
  std::uint64_t t0 = 0, t1 = 0;
  if (lay_.start != k_none && lay_.end != k_none && !table_.dispatch_timed() &&
      parse_u64(f[lay_.start], t0) && parse_u64(f[lay_.end], t1) && t1 >= t0)
    table_.add_duration(static_cast<double>(t1 - t0));
  for (auto [counter, v] : values_) {
    if (counter == time_counter_ && !table_.dispatch_timed()) table_.add_duration(v);
    table_.add(counter, v);
  }
  return RowUse::used;
}

CounterFile Ingest::run(const ChunkReader& read) {
  CsvStream csv(read, opt_.buffer_bytes, opt_.max_row_bytes);
  csv.skip_lines_starting_with("==");  // ncu's ==PROF==/==WARNING== lines before the header
  CsvRow row;
  if (!csv.next(row)) {
    error(csv.empty_input() ? "empty file" : "no header line (only blank lines)");
    return std::move(file_);
  }
  if (row.oversized || !read_header(row)) {
    if (row.oversized) error("the header line is longer than the row limit");
    return std::move(file_);
  }
  text_column_.assign(table_.counter_count(), false);
  const bool long_rows = lay_.counter_name != k_none;
  // A row has every column of the header; a long row may stop after the last one it is read for
  // (Nsight Compute 2025 leaves the empty Rule columns off the details page).
  std::size_t fewest = lay_.columns;
  if (long_rows) {  // the CSV reader then locates only these fields of each row
    std::vector<std::size_t> cols{lay_.kernel, lay_.dispatch, lay_.counter_name,
                                  lay_.counter_value};
    for (auto c : {lay_.pid, lay_.start, lay_.end, lay_.counter_unit})
      if (c != k_none) cols.push_back(c);
    fewest = *std::max_element(cols.begin(), cols.end()) + 1;
    csv.want(std::move(cols));
    // The rows of a dispatch repeat every field before the counter's name and value.
    csv.reuse_prefix(std::min({lay_.counter_name, lay_.counter_value, lay_.counter_unit}));
  }
  while (csv.next(row)) {
    if (lay_.format == CounterFormat::ncu_raw && !data_rows_begun_ && !row.oversized &&
        row.field_count == lay_.columns && trimmed(row[lay_.dispatch]).empty()) {
      ncu_units_row(row);  // the units under the header: not a data row
      data_rows_begun_ = true;
      continue;
    }
    data_rows_begun_ = true;
    ++file_.lines;
    const RowUse use = row.oversized || row.unterminated || row.field_count > lay_.columns ||
                               row.field_count < fewest
                           ? RowUse::bad
                       : long_rows ? long_row(row)
                                   : wide_row(row);
    if (use == RowUse::used) ++file_.rows_used;
    if (use == RowUse::bad) {
      chain_ = false;
      bad_row(row);
    }
  }
  if (csv.skipped_lines() > 0 && !lay_.ncu)
    note(fmt::format("{} lines starting with == before the header skipped", csv.skipped_lines()));
  file_.kernels = table_.finish(text_column_, unsummed_);
  finish_notes();
  return std::move(file_);
}

void Ingest::finish_notes() {
  std::string lines;
  for (auto l : file_.bad_row_lines) lines += (lines.empty() ? "" : ", ") + std::to_string(l);
  if (file_.lines == 0) {
    error("header only: no data rows");
  } else if (file_.rows_used == 0 && file_.bad_rows > 0) {
    error(
        fmt::format("no usable rows: all {} rows have the wrong column count (header: {}), an "
                    "unparsable number or an unterminated quote (lines {})",
                    file_.bad_rows, lay_.columns, lines));
  } else if (file_.bad_rows > 0) {
    note(
        fmt::format("{} of {} rows skipped (wrong column count, unparsable number or "
                    "unterminated quote), first at lines {}",
                    file_.bad_rows, file_.lines, lines));
  }
  for (std::size_t c = 0; c < text_column_.size(); ++c)
    if (text_column_[c])
      note(fmt::format("{} {} holds text: not a counter", lay_.ncu ? "metric" : "column",
                       table_.counter_name(c)));
  if (lay_.ncu) ncu_notes();
  if (table_.out_of_window() > 0)
    note(
        fmt::format("{} times a dispatch's rows resumed after more than {} newer dispatches of "
                    "its kernel: counted again as a new dispatch",
                    table_.out_of_window(), opt_.dispatch_window));
}

}  // namespace detail

CounterFile parse_counters(const ChunkReader& read, const std::string& display,
                           const CounterOptions& options) {
  try {  // the promise is "never throws": out of memory or a throwing reader becomes an error
    return detail::Ingest(display, options).run(read);
  } catch (const std::exception& e) {
    CounterFile f;
    f.display = display;
    f.errors.push_back(display + ": not read: " + e.what());
    return f;
  }
}

CounterFile parse_counters_text(std::string_view text, const std::string& display,
                                const CounterOptions& options) {
  std::size_t pos = 0;
  const ChunkReader read = [&](char* buf, std::size_t cap) {
    const std::size_t n = std::min(cap, text.size() - pos);
    std::memcpy(buf, text.data() + pos, n);
    pos += n;
    return n;
  };
  return parse_counters(read, display, options);
}

CounterFile read_counters_file(const std::filesystem::path& path, const std::string& display,
                               const CounterOptions& options) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    CounterFile f;
    f.display = display;
    f.errors.push_back(display + ": is a directory, not a counter CSV");
    return f;
  }
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> fp(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!fp) {
    CounterFile f;
    f.display = display;
    f.errors.push_back(display + ": cannot open: " + std::strerror(errno));
    return f;
  }
  std::setvbuf(fp.get(), nullptr, _IONBF, 0);  // our buffer is the only copy
  bool failed = false;
  const ChunkReader read = [&](char* buf, std::size_t cap) {
    const std::size_t n = std::fread(buf, 1, cap, fp.get());
    if (n == 0 && std::ferror(fp.get())) failed = true;
    return n;
  };
  CounterFile f = parse_counters(read, display, options);
  if (failed) f.errors.push_back(display + ": read error: the file was not read to its end");
  return f;
}

}  // namespace roofline::inputs
