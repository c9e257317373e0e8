// The ledger file: an exclusive flock on F.lock around read-merge-write (the lock file removed
// when done), the write through write_atomic (temp file + rename), so concurrent writers and
// crashes never lose a record.
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <thread>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include "roofline/inputs/json_input.hpp"
#include "roofline/inputs/load.hpp"
#include "roofline/outcomes/layer.hpp"
#include "roofline/outcomes/ledger.hpp"
#include "roofline/outcomes/util.hpp"
#include "roofline/render/report.hpp"

namespace roofline::outcomes {
namespace fs = std::filesystem;

namespace {

// A ledger is shared by many runs; it may grow well past the input-file default.
constexpr std::size_t k_max_ledger_bytes = std::size_t{1} << 30;

// Holds an exclusive flock on the lock file for its lifetime, and removes the file when done:
// no `F.lock` is left beside the ledger. Removing it while another writer waits on it would let
// a third open a new file and lock it at the same time, so a lock is held only on the file the
// path still names: after each flock the two are compared (device and inode) and, if the path was
// removed or replaced meanwhile, the lock is taken again on the new file. The file is removed
// before the lock is released. A crash leaves the file behind (the kernel still releases the
// lock); the next writer locks it and removes it.
class FileLock {
 public:
  explicit FileLock(fs::path path) : path_(std::move(path)) {
    for (int tries = 0; tries < 1000 && fd_ < 0 && error_.empty(); ++tries) acquire();
    if (fd_ < 0 && error_.empty())
      error_ = path_.string() + ": cannot lock: it keeps being replaced";
  }
  ~FileLock() {
    if (fd_ < 0) return;
    ::unlink(path_.c_str());
    ::close(fd_);
  }
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;
  const std::string& error() const { return error_; }

 private:
  // One try: open (creating) and lock the file; keep it when the path still names it.
  void acquire() {
    const int fd = ::open(path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
      error_ =
          fmt::format("{}: cannot open the lock file: {}", path_.string(), std::strerror(errno));
      return;
    }
    while (::flock(fd, LOCK_EX) != 0) {
      if (errno == EINTR) continue;
      error_ = fmt::format("{}: cannot lock: {}", path_.string(), std::strerror(errno));
      ::close(fd);
      return;
    }
    struct stat held {
    }, named{};
    if (::fstat(fd, &held) == 0 && ::stat(path_.c_str(), &named) == 0 &&
        held.st_dev == named.st_dev && held.st_ino == named.st_ino) {
      fd_ = fd;
      return;
    }
    ::close(fd);  // removed by the writer before us: lock the file the path names now
  }

  fs::path path_;
  int fd_ = -1;
  std::string error_;
};

// Test hook (tests/tools/ledger_race.py), compiled into test builds only (ROOFLINE_TEST_HOOKS):
// ROOFLINE_TEST_LEDGER_PAUSE_MS=N holds the ledger for N ms (at most 1000) between reading it
// and writing it back, so that concurrent writers surely overlap — without the lock they would
// lose each other's records.
void test_pause() {
#ifdef ROOFLINE_TEST_HOOKS
  const char* v = std::getenv("ROOFLINE_TEST_LEDGER_PAUSE_MS");
  if (!v || !*v) return;
  const long ms = std::strtol(v, nullptr, 10);
  if (ms > 0 && ms <= 1000) std::this_thread::sleep_for(std::chrono::milliseconds(ms));
#endif
}

}  // namespace

LedgerUpdate update_ledger(const fs::path& path, const std::vector<LedgerRecord>& records,
                           const std::string& display) {
  LedgerUpdate u;
  std::error_code ec;
  if (path.has_parent_path()) fs::create_directories(path.parent_path(), ec);
  if (ec) {
    u.error = fmt::format("{}: cannot create its folder: {}", display, ec.message());
    return u;
  }
  FileLock lock(fs::path(path.string() + ".lock"));
  if (!lock.error().empty()) {
    u.error = lock.error();
    return u;
  }
  FileText old = read_text_file(path, k_max_ledger_bytes);
  if (old.found && !old.error.empty()) {
    u.error = fmt::format("{}: {}; the ledger is left as it is", display, old.error);
    return u;
  }
  test_pause();
  u.merge = merge_ledger(old.text, records, display);
  if (u.merge.changed) {
    if (const auto error = write_atomic(path, u.merge.text)) {
      u.error = *error;
      return u;
    }
  }
  u.ok = true;
  return u;
}

LedgerRead read_ledger(const fs::path& path, const std::string& display) {
  LedgerRead r;
  FileText text = read_text_file(path, k_max_ledger_bytes);
  r.found = text.found;
  if (!text.found) {
    r.problems.push_back(fmt::format("{}: not found", display));
    return r;
  }
  if (!text.error.empty()) {
    r.problems.push_back(fmt::format("{}: {}", display, text.error));
    return r;
  }
  std::size_t line_no = 0, start = 0;
  const std::string& t = text.text;
  while (start < t.size()) {
    const std::size_t nl = t.find('\n', start);
    const std::size_t end = nl == std::string::npos ? t.size() : nl;
    const std::string_view line(t.data() + start, end - start);
    start = end + 1;
    ++line_no;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    std::string error;
    auto doc = parse_json(line, "", detail::k_max_line_depth, error);
    std::optional<LedgerRecord> rec;
    if (doc) rec = parse_ledger_record(*doc, error);
    if (!rec) {
      if (error.rfind(": ", 0) == 0) error = error.substr(2);
      r.problems.push_back(fmt::format("{}:{}: {}: line skipped", display, line_no, error));
      continue;
    }
    r.records.push_back(std::move(*rec));
  }
  return r;
}

}  // namespace roofline::outcomes
