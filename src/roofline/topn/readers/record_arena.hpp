#pragma once
// Private to src/topn: the memory of the per-event record lists (ChromeEvents). A std::deque
// allocates a 512-byte block per few records, and each new 4 KiB page of them costs a page fault
// on first touch: on a virtual machine, a tenth of a trace's parse. Here the blocks come from
// chunks that grow to 2 MiB, those advised as transparent huge pages (one fault per 2 MiB). Blocks
// are not given back one by one (the lists only grow): the chunks go with the last list using them.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <memory>
#include <new>
#include <vector>
#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace roofline::topn::detail {

class RecordArena {
 public:
  RecordArena() = default;
  RecordArena(const RecordArena&) = delete;
  RecordArena& operator=(const RecordArena&) = delete;
  ~RecordArena() {
    for (void* c : chunks_) std::free(c);
  }

  void* allocate(std::size_t bytes, std::size_t align) {
    std::size_t at = (used_ + align - 1) / align * align;
    if (chunks_.empty() || at + bytes > size_) {
      grow(bytes);
      at = 0;
    }
    used_ = at + bytes;
    return static_cast<char*>(chunks_.back()) + at;
  }

 private:
  static constexpr std::size_t k_first = std::size_t{64} << 10;  // small traces stay small
  static constexpr std::size_t k_huge = std::size_t{2} << 20;

  // A new chunk, twice the last up to 2 MiB (larger when one block needs it).
  void grow(std::size_t bytes) {
    size_ = std::max(chunks_.empty() ? k_first : std::min(size_ * 2, k_huge), bytes);
    const std::size_t align = size_ >= k_huge ? k_huge : k_first;  // a huge page's bounds
    size_ = (size_ + align - 1) / align * align;  // aligned_alloc: a multiple of the alignment
    void* c = std::aligned_alloc(align, size_);
    if (!c) throw std::bad_alloc();
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (size_ >= k_huge) madvise(c, size_, MADV_HUGEPAGE);  // advice only: ignored where refused
#endif
    chunks_.push_back(c);
    used_ = 0;
  }

  std::vector<void*> chunks_;
  std::size_t size_ = 0, used_ = 0;
};

// A std allocator over one RecordArena, shared by its copies (a deque's map and blocks).
template <class T>
struct ArenaAllocator {
  using value_type = T;
  std::shared_ptr<RecordArena> arena = std::make_shared<RecordArena>();

  ArenaAllocator() = default;
  template <class U>
  ArenaAllocator(const ArenaAllocator<U>& other) noexcept : arena(other.arena) {}
  T* allocate(std::size_t n) { return static_cast<T*>(arena->allocate(n * sizeof(T), alignof(T))); }
  void deallocate(T*, std::size_t) noexcept {}
  template <class U>
  bool operator==(const ArenaAllocator<U>& other) const noexcept {
    return arena == other.arena;
  }
};

// Reserves room for `n` elements of a vector that will hold one entry per event (megabytes), the
// 2 MiB-aligned part of it advised as transparent huge pages before its first touch: one fault
// per 2 MiB instead of one per 4 KiB (each ~7 µs on a virtual machine).
template <class T>
void reserve_huge(std::vector<T>& v, std::size_t n) {
  v.reserve(n);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  constexpr std::uintptr_t k_huge = std::uintptr_t{2} << 20;
  const auto begin = reinterpret_cast<std::uintptr_t>(v.data());
  const std::uintptr_t end = begin + v.capacity() * sizeof(T);
  const std::uintptr_t from = (begin + k_huge - 1) / k_huge * k_huge, to = end / k_huge * k_huge;
  if (to > from) madvise(reinterpret_cast<void*>(from), to - from, MADV_HUGEPAGE);  // advice only
#endif
}

// A list of per-event records: a deque (no reallocation that briefly holds two copies) in arena
// memory.
template <class T>
using RecordList = std::deque<T, ArenaAllocator<T>>;

}  // namespace roofline::topn::detail
