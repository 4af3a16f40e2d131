// The bookkeeping behind cupp's memory pools, free of any CUDA call so that
// the host test suite can exercise it with malloc as the upstream.
//
// Memory comes from an upstream allocator in blocks. A block is cut into
// chunks; every size is rounded up to `rounding` bytes. Free chunks sit in
// per-arena sets ordered by size, so an allocation takes the smallest free
// chunk that fits (best fit) and splits off the rest. A freed chunk merges
// with free neighbours of the same block. Arenas stand for CUDA streams:
// memory freed on a stream is reused only by later work on that stream,
// which runs after the free in stream order.
//
// Small requests (up to `small_limit` bytes) may be served from segments of
// `segment` bytes kept apart from the large blocks, as PyTorch's allocator
// does: a small allocation then never pins down a split of a large cached
// block, which is what otherwise makes a pool hold far more than it uses
// under mixed sizes.
//
// A chunk may be freed while an asynchronous copy still uses it (pinned host
// staging buffers). Such a chunk carries tokens (events); it waits in a
// deferred list until every token reports ready.
//
// An allocator given a device id (report_to_hooks) tells the calling
// thread's memory hooks (memory_hook.hpp) of its mallocs, frees and upstream
// allocations; with no hook installed that costs one thread-local load.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <cupp/cuda/memory_hook.hpp>
#include <cupp/errors.hpp>

namespace cupp::detail {

// "1,048,576": byte counts in messages are easier to read grouped.
// Built by appending: g++ 12 warns (-Wrestrict, a false positive) on the
// overlapping copy that std::string::insert inlines.
inline std::string group_digits(std::size_t n) {
  const std::string digits = std::to_string(n);
  std::string s;
  s.reserve(digits.size() + digits.size() / 3);
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) s += ',';
    s += digits[i];
  }
  return s;
}

class caching_allocator {
 public:
  struct upstream_t {
    // Returns nullptr when memory is exhausted; throws on other failures.
    std::function<void*(std::size_t)> allocate;
    std::function<void(void*, std::size_t)> deallocate;
    // Token hooks for deferred frees (may be empty when unused).
    std::function<bool(void*)> token_ready;
    std::function<void(void*)> token_release;
  };

  enum class state : std::uint8_t { in_use, free, deferred };

  struct chunk {
    char* ptr = nullptr;
    std::size_t size = 0;
    chunk* prev = nullptr;  // neighbours within the same upstream block
    chunk* next = nullptr;
    std::uint64_t arena = 0;  // free-list key: stream arena and size class
    state st = state::in_use;
    std::vector<void*> tokens;
  };

  static constexpr std::size_t default_rounding = 512;

  explicit caching_allocator(upstream_t upstream, std::string what = "device",
                             std::size_t rounding = default_rounding, bool track_addresses = false)
      : up_(std::move(upstream)),
        what_(std::move(what)),
        rounding_(rounding),
        track_addresses_(track_addresses) {}

  caching_allocator(const caching_allocator&) = delete;
  caching_allocator& operator=(const caching_allocator&) = delete;

  // Serves requests of at most `small_limit` bytes from segments of
  // `segment` bytes (0: every block is exactly one rounded request).
  void set_small_segments(std::size_t small_limit, std::size_t segment) {
    std::lock_guard lock(mutex_);
    small_limit_ = small_limit;
    segment_ = segment;
  }

  // Releases every cached block. Chunks still in use are the caller's bug;
  // their memory is left alone rather than freed under a live pointer.
  ~caching_allocator() {
    std::lock_guard lock(mutex_);
    sweep_deferred(/*wait_all=*/true);
    release_free_blocks(nullptr);
  }

  std::size_t round_size(std::size_t n) const noexcept {
    if (n == 0) n = 1;
    return (n + rounding_ - 1) / rounding_ * rounding_;
  }

  // A chunk of at least `n` bytes for `arena`. Throws out_of_memory_error
  // when neither the cache nor the upstream (after the cache was emptied)
  // can provide it, or when it would exceed the limit.
  chunk* allocate(std::size_t n, std::uint64_t arena) {
    if (cupp::cuda::detail::hook_stack() && hook_device_ != no_hooks) [[unlikely]] {
      chunk* c = nullptr;
      cupp::cuda::detail::report_malloc(hook_device_, n, round_size(n), [&]() -> void* {
        c = allocate_chunk(n, arena);
        return c->ptr;
      });
      return c;
    }
    return allocate_chunk(n, arena);
  }

  // Returns a chunk. With tokens, it waits until all of them are ready.
  void deallocate(chunk* c, std::vector<void*> tokens = {}) {
    if (cupp::cuda::detail::hook_stack() && hook_device_ != no_hooks) [[unlikely]] {
      // The chunk is the caller's until it is given back: its size is stable.
      cupp::cuda::detail::report_free(hook_device_, c->ptr, c->size,
                                      [&] { deallocate_chunk(c, std::move(tokens)); });
      return;
    }
    deallocate_chunk(c, std::move(tokens));
  }

  // Makes mallocs, frees and upstream allocations visible to the memory
  // hooks of the calling thread, as events of `device` (-1 for host memory).
  void report_to_hooks(int device) noexcept { hook_device_ = device; }

 private:
  chunk* allocate_chunk(std::size_t n, std::uint64_t arena) {
    const std::size_t size = round_size(n);
    const bool small = segment_ != 0 && size <= small_limit_;
    const std::uint64_t key = (arena << 1) | (small ? 1u : 0u);
    std::lock_guard lock(mutex_);
    if (!deferred_.empty()) sweep_deferred(false);
    if (chunk* c = take_best_fit(size, key)) return mark_used(c);

    // A whole segment for a small request where it fits; the request alone
    // where it does not.
    std::size_t block = small ? segment_ : size;
    if (limit_ != 0 && total_ + block > limit_) {
      block = size;
      if (total_ + size > limit_) {
        release_free_blocks(nullptr);
        if (total_ + size > limit_) throw_oom(size);
      }
    }
    void* p = upstream_allocate(block);
    if (!p && block != size) p = upstream_allocate(block = size);
    if (!p) {
      // Emptying the cache may leave room; the upstream call is the only
      // thing that knows.
      sweep_deferred(false);
      release_free_blocks(nullptr);
      p = upstream_allocate(block = size);
      if (!p) throw_oom(size);
    }
    auto* c = new chunk;
    c->ptr = static_cast<char*>(p);
    c->size = block;
    c->arena = key;
    total_ += block;
    if (total_ > peak_total_) peak_total_ = total_;
    split(c, size);
    return mark_used(c);
  }

  void deallocate_chunk(chunk* c, std::vector<void*> tokens) {
    std::lock_guard lock(mutex_);
    used_ -= c->size;
    if (track_addresses_) in_use_.erase(c->ptr);
    for (void* t : c->tokens) tokens.push_back(t);
    c->tokens.clear();
    if (!tokens.empty()) {
      c->tokens = std::move(tokens);
      c->st = state::deferred;
      ++n_deferred_;
      deferred_.push_back(c);
      return;
    }
    make_free(c);
  }

  // The upstream's allocate, between the hooks' alloc callbacks.
  void* upstream_allocate(std::size_t n) {
    if (cupp::cuda::detail::hook_stack() && hook_device_ != no_hooks) [[unlikely]]
      return cupp::cuda::detail::report_alloc(hook_device_, n, [&] { return up_.allocate(n); });
    return up_.allocate(n);
  }

 public:
  // Gives the tail of the in-use chunk `c` beyond `n` bytes (rounded) back
  // to the free list of its arena, merged with a free neighbour: a buffer
  // sized for the worst case (a selection) keeps only what it filled. Work
  // already queued on the arena's stream that touches the tail must come
  // before any later use, which stream order gives.
  void shrink(chunk* c, std::size_t n) {
    std::lock_guard lock(mutex_);
    const std::size_t size = round_size(std::max<std::size_t>(n, 1));
    if (c->size <= size) return;
    chunk* rest = cut(c, size);
    used_ -= rest->size;
    make_free(rest);
  }

  // Attaches a token to the in-use chunk containing `p`; the chunk will not
  // be reused before the token is ready. Returns false if `p` lies in no
  // chunk of this allocator (it was not allocated here).
  bool add_token(const void* p, void* token) {
    std::lock_guard lock(mutex_);
    chunk* c = find_in_use(p);
    if (!c) return false;
    c->tokens.push_back(token);
    return true;
  }

  bool owns(const void* p) {
    std::lock_guard lock(mutex_);
    return find_in_use(p) != nullptr;
  }

  // Gives back to the upstream every cached block that is entirely free,
  // in all arenas or only in `arena`.
  void free_all_blocks(const std::uint64_t* arena = nullptr) {
    std::lock_guard lock(mutex_);
    sweep_deferred(false);
    release_free_blocks(arena);
  }

  // Limit on bytes held from the upstream; 0 means none. Throws value_error
  // for a limit below the bytes in use, and gives back cached blocks to come
  // under it where possible.
  void set_limit(std::size_t bytes) {
    std::lock_guard lock(mutex_);
    if (bytes != 0 && bytes < used_)
      throw value_error("memory limit of " + group_digits(bytes) + " bytes is below the " +
                        group_digits(used_) + " bytes in use on the " + what_);
    limit_ = bytes;
    if (limit_ != 0 && total_ > limit_) release_free_blocks(nullptr);
  }
  std::size_t get_limit() const {
    std::lock_guard lock(mutex_);
    return limit_;
  }

  std::size_t used_bytes() const {
    std::lock_guard lock(mutex_);
    return used_;
  }
  std::size_t total_bytes() const {
    std::lock_guard lock(mutex_);
    return total_;
  }
  std::size_t free_bytes() const {
    std::lock_guard lock(mutex_);
    return total_ - used_;
  }
  std::size_t peak_total_bytes() const {
    std::lock_guard lock(mutex_);
    return peak_total_;
  }
  void reset_peak() {
    std::lock_guard lock(mutex_);
    peak_total_ = total_;
  }
  // Free chunks, including those waiting on tokens.
  std::size_t n_free_blocks() const {
    std::lock_guard lock(mutex_);
    return n_free_ + n_deferred_;
  }

 private:
  struct by_size {
    bool operator()(const chunk* a, const chunk* b) const noexcept {
      return a->size != b->size ? a->size < b->size : a->ptr < b->ptr;
    }
  };
  using free_set = std::set<chunk*, by_size>;

  chunk* mark_used(chunk* c) {
    c->st = state::in_use;
    used_ += c->size;
    if (track_addresses_) in_use_.emplace(c->ptr, c);
    return c;
  }

  chunk* take_best_fit(std::size_t size, std::uint64_t key) {
    auto a = arenas_.find(key);
    if (a == arenas_.end() || a->second.empty()) return nullptr;
    chunk probe;
    probe.size = size;
    probe.ptr = nullptr;
    auto it = a->second.lower_bound(&probe);
    if (it == a->second.end()) return nullptr;
    chunk* c = *it;
    a->second.erase(it);
    --n_free_;
    split(c, size);
    return c;
  }

  // Cuts `c` down to `size`; the remainder stays free under the same key.
  void split(chunk* c, std::size_t size) {
    if (c->size <= size) return;
    chunk* rest = cut(c, size);
    rest->st = state::free;
    arenas_[c->arena].insert(rest);
    ++n_free_;
  }

  // Ends `c` after `size` bytes; the rest becomes a chunk of its own,
  // linked after it, in no free list yet.
  chunk* cut(chunk* c, std::size_t size) {
    auto* rest = new chunk;
    rest->ptr = c->ptr + size;
    rest->size = c->size - size;
    rest->arena = c->arena;
    rest->prev = c;
    rest->next = c->next;
    if (c->next) c->next->prev = rest;
    c->next = rest;
    c->size = size;
    return rest;
  }

  void make_free(chunk* c) {
    free_set& set = arenas_[c->arena];
    if (chunk* n = c->next; n && n->st == state::free) {
      set.erase(n);
      --n_free_;
      c->size += n->size;
      c->next = n->next;
      if (c->next) c->next->prev = c;
      delete n;
    }
    if (chunk* p = c->prev; p && p->st == state::free) {
      set.erase(p);
      --n_free_;
      p->size += c->size;
      p->next = c->next;
      if (p->next) p->next->prev = p;
      delete c;
      c = p;
    }
    c->st = state::free;
    set.insert(c);
    ++n_free_;
  }

  void sweep_deferred(bool wait_all) {
    for (std::size_t i = 0; i < deferred_.size();) {
      chunk* c = deferred_[i];
      bool ready = true;
      if (!wait_all)
        for (void* t : c->tokens)
          if (up_.token_ready && !up_.token_ready(t)) {
            ready = false;
            break;
          }
      if (!ready) {
        ++i;
        continue;
      }
      for (void* t : c->tokens)
        if (up_.token_release) up_.token_release(t);
      c->tokens.clear();
      deferred_[i] = deferred_.back();
      deferred_.pop_back();
      --n_deferred_;
      make_free(c);
    }
  }

  void release_free_blocks(const std::uint64_t* only_arena) {
    for (auto& [key, set] : arenas_) {
      if (only_arena && (key >> 1) != *only_arena) continue;
      for (auto it = set.begin(); it != set.end();) {
        chunk* c = *it;
        if (c->prev == nullptr && c->next == nullptr) {
          up_.deallocate(c->ptr, c->size);
          total_ -= c->size;
          --n_free_;
          delete c;
          it = set.erase(it);
        } else {
          ++it;
        }
      }
    }
  }

  chunk* find_in_use(const void* p) {
    if (!track_addresses_ || in_use_.empty()) return nullptr;
    const char* q = static_cast<const char*>(p);
    auto it = in_use_.upper_bound(const_cast<char*>(q));
    if (it == in_use_.begin()) return nullptr;
    --it;
    chunk* c = it->second;
    return q < c->ptr + c->size ? c : nullptr;
  }

  [[noreturn]] void throw_oom(std::size_t size) {
    std::string msg = "Out of memory allocating " + group_digits(size) + " bytes on the " + what_ +
                      " (" + group_digits(used_) + " bytes in use, " + group_digits(total_) +
                      " bytes held by the pool";
    if (limit_ != 0) msg += ", limit set to " + group_digits(limit_) + " bytes";
    msg += ")";
    throw out_of_memory_error(msg, size, total_, limit_);
  }

  upstream_t up_;
  std::string what_;
  std::size_t rounding_;
  bool track_addresses_;
  mutable std::mutex mutex_;
  std::unordered_map<std::uint64_t, free_set> arenas_;
  std::vector<chunk*> deferred_;
  std::map<char*, chunk*> in_use_;
  std::size_t used_ = 0, total_ = 0, peak_total_ = 0, limit_ = 0;
  std::size_t n_free_ = 0, n_deferred_ = 0;
  std::size_t small_limit_ = 0, segment_ = 0;
  static constexpr int no_hooks = std::numeric_limits<int>::min();
  int hook_device_ = no_hooks;
};

}  // namespace cupp::detail
