// The files of `--capture`: a capture trace, or a folder searched for *.json / *.json.gz with its
// execution_details.json; each file streamed (gzip by its magic bytes) like an execution trace.
// A broken file is a warning naming it; the others are still read.
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include <fmt/format.h>

#include "roofline/topn/bytes/byte_source.hpp"
#include "roofline/topn/layer.hpp"
#include "roofline/topn/topn.hpp"

namespace roofline::topn {
namespace {

namespace fs = std::filesystem;

bool is_trace_name(const std::string& name) {
  const auto ends = [&](std::string_view s) {
    return name.size() >= s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0;
  };
  return (ends(".json") || ends(".json.gz")) && name != "execution_details.json";
}

// execution_details.json of `dir`, when present (a broken one is a warning).
CaptureDetails details_in(const fs::path& dir, CaptureRead& out) {
  const fs::path file = dir / "execution_details.json";
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) return {};
  const FileText text = read_text_file(file, std::size_t{16} << 20);
  std::string error = text.error;
  CaptureDetails details;
  if (error.empty()) details = parse_capture_details(text.text, error);
  if (!error.empty()) {
    out.warnings.push_back(
        fmt::format("{}: {}; capture sizes come from the capture_<size>_<mode> annotations only",
                    file.string(), error));
    return {};
  }
  return details;
}

void read_one(const fs::path& path, const CaptureDetails& details, CaptureRead& out) {
  const std::string display = path.string();
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"),
                                                       &std::fclose);
  std::string error;
  const std::size_t windows = out.set.windows.size();
  if (!file) {
    error = fmt::format("cannot open: {}", std::strerror(errno));
  } else {
    detail::FileReader reader(file.get());
    error =
        read_capture_stream([&reader](char* buf, std::size_t cap) { return reader.read(buf, cap); },
                            display, details, out.set, out.notes);
    if (error.empty() && !reader.error().empty()) error = reader.error();
  }
  if (error.empty()) return;
  out.set.windows.resize(windows);  // nothing of a broken file is joined
  out.warnings.push_back(
      fmt::format("capture trace {}: {}; its graphs are not joined", display, error));
}

}  // namespace

CaptureRead read_capture_traces(const std::vector<fs::path>& paths) {
  CaptureRead out;
  for (const fs::path& path : paths) {
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
      std::vector<fs::path> files;
      for (const auto& entry : fs::directory_iterator(path, ec))
        if (entry.is_regular_file(ec) && is_trace_name(entry.path().filename().string()))
          files.push_back(entry.path());
      std::sort(files.begin(), files.end());
      if (files.empty())
        out.warnings.push_back(
            fmt::format("--capture {}: no *.json or *.json.gz trace in the folder", path.string()));
      const CaptureDetails details = details_in(path, out);
      for (const fs::path& f : files) read_one(f, details, out);
    } else {
      read_one(path, details_in(path.parent_path().empty() ? "." : path.parent_path(), out), out);
    }
  }
  return out;
}

}  // namespace roofline::topn
