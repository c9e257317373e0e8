// Crash-safe artifact writes: temp file in the target folder, (optionally fsync), rename.
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <fcntl.h>
#include <sys/types.h>
#include <unistd.h>

#include <fmt/format.h>

#include "roofline/render/report.hpp"

namespace roofline {
namespace {

namespace fs = std::filesystem;

// Test hook (tests/tools/crash_safe_write.py), compiled into test builds only
// (ROOFLINE_TEST_HOOKS, set with ROOFLINE_TESTS): ROOFLINE_TEST_WRITE_FAULT=fail makes the write
// stop halfway with ENOSPC, as on a full disk; =kill makes the process SIGKILL itself halfway,
// as a crash would.
enum class Fault { none, fail, kill };
Fault write_fault() {
#ifdef ROOFLINE_TEST_HOOKS
  const char* v = std::getenv("ROOFLINE_TEST_WRITE_FAULT");
  if (!v) return Fault::none;
  const std::string s = v;
  return s == "fail" ? Fault::fail : s == "kill" ? Fault::kill : Fault::none;
#else
  return Fault::none;
#endif
}

// ".<name>.tmp.<pid>": one temp name per process, beside the target so rename stays atomic.
std::string temp_prefix(const fs::path& path) {
  return fmt::format(".{}.tmp.", path.filename().string());
}

// Removes temp files a killed earlier run left beside `path` (their pid no longer exists).
void sweep_stale_temps(const fs::path& dir, const fs::path& path) {
  const std::string prefix = temp_prefix(path);
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.rfind(prefix, 0) != 0) continue;
    const std::string pid_text = name.substr(prefix.size());
    if (pid_text.empty() || pid_text.find_first_not_of("0123456789") != std::string::npos ||
        pid_text.size() > 9)
      continue;
    const auto pid = static_cast<pid_t>(std::stol(pid_text));
    if (pid == ::getpid() || (::kill(pid, 0) != 0 && errno == ESRCH)) ::unlink(it->path().c_str());
  }
}

}  // namespace

std::optional<std::string> write_atomic(const fs::path& path, std::string_view content,
                                        bool durable) {
  const fs::path dir = path.has_parent_path() ? path.parent_path() : fs::path(".");
  const fs::path tmp = dir / fmt::format("{}{}", temp_prefix(path), ::getpid());
  const std::string tmp_s = tmp.string();
  sweep_stale_temps(dir, path);
  // O_EXCL: never write through a file or symlink someone planted at the temp name.
  int fd = ::open(tmp_s.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd < 0)
    return fmt::format("{}: cannot create temp file: {}", path.string(), std::strerror(errno));
  auto fail = [&](const char* what) {
    std::string msg = fmt::format("{}: {}: {}", path.string(), what, std::strerror(errno));
    ::close(fd);
    ::unlink(tmp_s.c_str());
    return msg;
  };
  const Fault fault = write_fault();
  const char* p = content.data();
  std::size_t left = fault == Fault::none ? content.size() : content.size() / 2;
  while (left > 0) {
    ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      return fail("write failed");
    }
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  if (fault == Fault::kill) ::raise(SIGKILL);
  if (fault == Fault::fail) {
    errno = ENOSPC;
    return fail("write failed");
  }
  if (durable && ::fsync(fd) != 0 && errno != EINVAL && errno != EROFS) return fail("fsync failed");
  if (::close(fd) != 0) {
    std::string msg = fmt::format("{}: close failed: {}", path.string(), std::strerror(errno));
    ::unlink(tmp_s.c_str());
    return msg;
  }
  if (std::rename(tmp_s.c_str(), path.string().c_str()) != 0) {
    std::string msg = fmt::format("{}: cannot replace: {}", path.string(), std::strerror(errno));
    ::unlink(tmp_s.c_str());
    return msg;
  }
  return std::nullopt;
}

}  // namespace roofline
