// Crash-safe artifact writes: temp file in the target folder, (optionally fsync), rename.
#include <cerrno>
#include <cstdio>
#include <cstring>

#include <fcntl.h>
#include <unistd.h>

#include <fmt/format.h>

#include "roofline/report.hpp"

namespace roofline {

std::string write_atomic(const std::filesystem::path& path, std::string_view content,
                         bool durable) {
  namespace fs = std::filesystem;
  const fs::path dir = path.has_parent_path() ? path.parent_path() : fs::path(".");
  const fs::path tmp = dir / fmt::format(".{}.tmp.{}", path.filename().string(), ::getpid());
  const std::string tmp_s = tmp.string();
  int fd = ::open(tmp_s.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0)
    return fmt::format("{}: cannot create temp file: {}", path.string(), std::strerror(errno));
  auto fail = [&](const char* what) {
    std::string msg = fmt::format("{}: {}: {}", path.string(), what, std::strerror(errno));
    ::close(fd);
    ::unlink(tmp_s.c_str());
    return msg;
  };
  const char* p = content.data();
  std::size_t left = content.size();
  while (left > 0) {
    ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      return fail("write failed");
    }
    p += n;
    left -= static_cast<std::size_t>(n);
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
  return {};
}

}  // namespace roofline
