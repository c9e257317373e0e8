#pragma once
// Private to src/topn: the memory of the per-event record lists (ChromeEvents). Each new 4 KiB
// page of them costs a page fault on first touch: on a virtual machine, a tenth of a trace's
// parse. Memory is advised as transparent huge pages (one fault per 2 MiB).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>
#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace roofline::topn::detail {

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

// A list of per-event records (trivially copyable), contiguous in memory of its own: on Linux an
// anonymous mapping that grows by moving its pages (mremap), so growing never copies the records
// nor holds two copies for a moment (a vector's doubling does both), and pages are touched only as
// records are added; advised as transparent huge pages. Elsewhere, realloc. Iterators are
// pointers: the joins sort and search it like an array.
template <class T>
class RecordList {
  static_assert(std::is_trivially_copyable_v<T>, "records are moved as bytes");

 public:
  using value_type = T;
  using iterator = T*;
  using const_iterator = const T*;

  RecordList() = default;
  RecordList(const RecordList& o) { append(o.begin(), o.end()); }
  RecordList(RecordList&& o) noexcept
      : data_(std::exchange(o.data_, nullptr)),
        size_(std::exchange(o.size_, 0)),
        cap_(std::exchange(o.cap_, 0)) {}
  RecordList& operator=(RecordList o) noexcept {
    std::swap(data_, o.data_);
    std::swap(size_, o.size_);
    std::swap(cap_, o.cap_);
    return *this;
  }
  ~RecordList() { unmap(data_, cap_); }

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  T& front() { return data_[0]; }
  T& back() { return data_[size_ - 1]; }
  const T& back() const { return data_[size_ - 1]; }

  void push_back(const T& v) {
    if (size_ == cap_) grow(size_ + 1);
    // As bytes: an assignment may read the slot first (a bit-field's word is merged), and a read
    // of a page not yet written maps the zero page, so its first write faults a second time and
    // flushes the TLB of every core the process runs on.
    std::memcpy(static_cast<void*>(data_ + size_), &v, sizeof(T));
    ++size_;
  }
  template <class... A>
  T& emplace_back(A&&... a) {
    push_back(T{std::forward<A>(a)...});
    return back();
  }
  void clear() { size_ = 0; }
  void pop_back() { --size_; }
  // Shrinks (or grows with default records) to `n`.
  void resize(std::size_t n) {
    if (n > cap_) grow(n);
    for (std::size_t i = size_; i < n; ++i) data_[i] = T{};
    size_ = n;
  }
  template <class It>
  void append(It first, It last) {
    for (; first != last; ++first) push_back(*first);
  }
  // Gives the memory of the records before `i` back (whole pages; they read as zero after):
  // a list being moved elsewhere record by record costs no more than one copy of it.
  void release_before(std::size_t i) {
#if defined(__linux__)
    constexpr std::uintptr_t k_page = 4096;
    const auto begin = reinterpret_cast<std::uintptr_t>(data_);
    const std::uintptr_t from = (begin + k_page - 1) / k_page * k_page;
    const std::uintptr_t to = (begin + i * sizeof(T)) / k_page * k_page;
    if (to > from) madvise(reinterpret_cast<void*>(from), to - from, MADV_DONTNEED);
#else
    (void)i;
#endif
  }
  // Gives back the pages past the last record (a list that will not grow: a part of a file read
  // in parts, whose half-used huge page would otherwise stay whole).
  void shrink_to_fit() {
#if defined(__linux__)
    constexpr std::size_t k_page = 4096;
    const std::size_t keep = (size_ * sizeof(T) + k_page - 1) / k_page * k_page;
    if (!data_ || keep >= cap_ * sizeof(T)) return;
    if (keep == 0) {
      unmap(data_, cap_);
      data_ = nullptr;
      cap_ = 0;
      return;
    }
    data_ = static_cast<T*>(remap(data_, cap_ * sizeof(T), keep));
    cap_ = keep / sizeof(T);
#endif
  }
  // Puts [first, last) before the records held.
  void prepend(const T* first, const T* last) {
    const auto n = static_cast<std::size_t>(last - first);
    if (n == 0) return;
    if (size_ + n > cap_) grow(size_ + n);
    if (size_ > 0) std::memmove(static_cast<void*>(data_ + n), data_, size_ * sizeof(T));
    std::memcpy(static_cast<void*>(data_), first, n * sizeof(T));
    size_ += n;
  }

 private:
  static constexpr std::size_t k_first_bytes = std::size_t{64} << 10;  // small traces stay small

  void grow(std::size_t need) {
    std::size_t cap = cap_ ? cap_ : std::max<std::size_t>(1, k_first_bytes / sizeof(T));
    while (cap < need) cap *= 2;
    data_ = static_cast<T*>(remap(data_, cap_ * sizeof(T), cap * sizeof(T)));
    cap_ = cap;
  }
  static void* remap(void* old, std::size_t old_bytes, std::size_t bytes) {
#if defined(__linux__)
    void* p =
        old ? mremap(old, old_bytes, bytes, MREMAP_MAYMOVE)
            : mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
#if defined(MADV_HUGEPAGE)
    if (bytes >= (std::size_t{2} << 20)) madvise(p, bytes, MADV_HUGEPAGE);  // advice only
#endif
    return p;
#else
    (void)old_bytes;
    void* p = std::realloc(old, bytes);
    if (!p) throw std::bad_alloc();
    return p;
#endif
  }
  static void unmap(T* p, std::size_t cap) {
    if (!p) return;
#if defined(__linux__)
    munmap(p, cap * sizeof(T));
#else
    (void)cap;
    std::free(p);
#endif
  }

  T* data_ = nullptr;
  std::size_t size_ = 0, cap_ = 0;
};

// Records read in parts (a large file's parsers, chrome_split.hpp): one RecordList per part,
// chained in file order. Joining a part moves its list in, records untouched — no copy of the
// records, no new pages — where one list would copy each part's records after the others. Indexed
// like an array (the part of the last index asked is tried first: sweeps and searches ask near
// it); its iterators are random access, so the joins sort and search it as before.
template <class T>
class RecordChain {
 public:
  using value_type = T;

  template <class Chain, class Ref>
  class Iter {
   public:
    using iterator_category = std::random_access_iterator_tag;
    using value_type = T;
    using difference_type = std::ptrdiff_t;
    using pointer = std::remove_reference_t<Ref>*;
    using reference = Ref;
    Iter() = default;
    Iter(Chain* c, std::size_t i) : c_(c), i_(i) {}
    Ref operator*() const { return (*c_)[i_]; }
    pointer operator->() const { return &(*c_)[i_]; }
    Ref operator[](difference_type n) const { return (*c_)[at(n)]; }
    Iter& operator++() {
      ++i_;
      return *this;
    }
    Iter operator++(int) {
      Iter t = *this;
      ++i_;
      return t;
    }
    Iter& operator--() {
      --i_;
      return *this;
    }
    Iter operator--(int) {
      Iter t = *this;
      --i_;
      return t;
    }
    Iter& operator+=(difference_type n) {
      i_ = at(n);
      return *this;
    }
    Iter& operator-=(difference_type n) {
      i_ = at(-n);
      return *this;
    }
    Iter operator+(difference_type n) const { return {c_, at(n)}; }
    friend Iter operator+(difference_type n, const Iter& it) { return it + n; }
    Iter operator-(difference_type n) const { return {c_, at(-n)}; }
    difference_type operator-(const Iter& o) const {
      return static_cast<difference_type>(i_) - static_cast<difference_type>(o.i_);
    }
    bool operator==(const Iter& o) const { return i_ == o.i_; }
    bool operator!=(const Iter& o) const { return i_ != o.i_; }
    bool operator<(const Iter& o) const { return i_ < o.i_; }
    bool operator>(const Iter& o) const { return i_ > o.i_; }
    bool operator<=(const Iter& o) const { return i_ <= o.i_; }
    bool operator>=(const Iter& o) const { return i_ >= o.i_; }
    std::size_t index() const { return i_; }

   private:
    std::size_t at(difference_type n) const {
      return static_cast<std::size_t>(static_cast<difference_type>(i_) + n);
    }
    Chain* c_ = nullptr;
    std::size_t i_ = 0;
  };
  using iterator = Iter<RecordChain, T&>;
  using const_iterator = Iter<const RecordChain, const T&>;

  // What is cached of the part asked last belongs to one chain: never copied, never moved.
  RecordChain() = default;
  RecordChain(const RecordChain& o) : parts_(o.parts_), starts_(o.starts_), size_(o.size_) {}
  RecordChain(RecordChain&& o) noexcept
      : parts_(std::move(o.parts_)),
        starts_(std::move(o.starts_)),
        size_(std::exchange(o.size_, 0)) {
    o.forget_part();
  }
  RecordChain& operator=(RecordChain o) noexcept {
    std::swap(parts_, o.parts_);
    std::swap(starts_, o.starts_);
    std::swap(size_, o.size_);
    forget_part();
    return *this;
  }
  ~RecordChain() = default;

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T& operator[](std::size_t i) { return locate(i); }
  const T& operator[](std::size_t i) const { return locate(i); }
  iterator begin() { return {this, 0}; }
  iterator end() { return {this, size_}; }
  const_iterator begin() const { return {this, 0}; }
  const_iterator end() const { return {this, size_}; }
  T& back() { return parts_.back().back(); }
  const T& back() const { return parts_.back().back(); }

  void push_back(const T& v) {
    if (parts_.empty()) add_part();
    parts_.back().push_back(v);
    ++size_;
    forget_part();  // the last part may have moved as it grew
  }
  // Drops the last record when it is in the last part (a list being read); false otherwise.
  bool pop_back() {
    if (parts_.empty() || parts_.back().empty()) return false;
    parts_.back().pop_back();
    --size_;
    forget_part();
    return true;
  }
  // Moves `from`'s parts after these, calling `remap` on each of its records in place.
  template <class Remap>
  void join(RecordChain& from, Remap remap) {
    forget_part();
    if (!parts_.empty()) parts_.back().shrink_to_fit();  // no record comes after it now
    for (RecordList<T>& part : from.parts_) {
      for (T& r : part) remap(r);
      part.shrink_to_fit();
      if (part.empty()) continue;
      starts_.push_back(size_);
      size_ += part.size();
      parts_.push_back(std::move(part));
    }
    from = RecordChain();
  }

 private:
  void add_part() {
    starts_.push_back(size_);
    parts_.emplace_back();
  }
  // Record i: in the part asked last (one comparison against what is cached of it), else the part
  // a binary search over the parts' starts finds.
  T& locate(std::size_t i) const {
    if (i - last_start_ >= last_size_) [[unlikely]]
      find_part(i);
    return last_data_[i - last_start_];
  }
  [[gnu::noinline]] void find_part(std::size_t i) const {
    const auto it = std::upper_bound(starts_.begin(), starts_.end(), i);
    const auto part = static_cast<std::size_t>(it - starts_.begin()) - 1;
    last_start_ = starts_[part];
    last_size_ = parts_[part].size();
    last_data_ = const_cast<T*>(parts_[part].begin());
  }
  // Records are added to the last part only: what is cached of it must follow.
  void forget_part() const { last_start_ = last_size_ = 0; }

  std::vector<RecordList<T>> parts_;
  std::vector<std::size_t> starts_;  // per part, the index of its first record
  std::size_t size_ = 0;
  // The part asked last: its first index, its size when asked, its records.
  mutable std::size_t last_start_ = 0, last_size_ = 0;
  mutable T* last_data_ = nullptr;
};

}  // namespace roofline::topn::detail
