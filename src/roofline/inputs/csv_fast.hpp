#pragma once
// Private to CsvStream: its fast-path row scanner, compiled once per instruction set (SSE2,
// AVX2, AVX-512BW) from csv_fast_core.inc and picked at run time.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "roofline/inputs/csv_stream.hpp"

namespace roofline::detail {

// The classification of the 64-byte block at `blk`: bits not yet visited of the separators
// outside quotes and of those that are newlines (row ends); of the rare bytes that send a row to
// the lenient scan (a newline inside quotes, a quote opening anywhere but at a field start,
// which includes doubled quotes); plus the carries into the next block (inside a quote, last
// byte a separator).
struct FastState {
  std::size_t blk = 0;
  std::uint64_t sep = 0, nls = 0, rare = 0;
  std::uint64_t carry_inside = 0, carry_sep = 1;
};

struct FastScan {
  const char* data = nullptr;  // the buffer, readable 64 bytes past `end`
  std::size_t begin = 0, end = 0;
  bool eof = false;
  CsvField* fields = nullptr;  // room for max_fields
  std::size_t max_fields = 0;
  const std::size_t* want = nullptr;  // sorted wanted columns (< max_fields): only those are
  std::size_t nwant = 0;              // stored, at fields[column]; none wanted = all, in order
  FastState st;                       // in and out
  std::size_t stored = 0, field_count = 0, next_begin = 0;
};

enum class FastResult { complete, incomplete, malformed };

struct FastKernels {
  // One row from `begin` (fields, stored, field_count, next_begin set when complete).
  FastResult (*scan)(FastScan&);
  // Classifies the block at `at` into `st`, continuing its carries.
  void (*load)(FastState& st, const char* data, std::size_t at, std::size_t end);
  const char* isa;
};

// The widest variant this CPU runs.
FastKernels fast_kernels();
// Every variant this CPU runs, widest first (tests run them all).
std::vector<FastKernels> supported_fast_kernels();

}  // namespace roofline::detail
