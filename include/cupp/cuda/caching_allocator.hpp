// The bookkeeping behind cupp's memory pools, free of any CUDA call so that
// the host test suite can exercise it with malloc as the upstream.
//
// Memory comes from an upstream allocator in segments. A segment is cut into
// chunks; every size is rounded up to `rounding` bytes. Free chunks sit in
// per-arena sets ordered by size, so an allocation takes the smallest free
// chunk that fits (best fit) and splits off the rest. A freed chunk merges
// with free neighbours of the same segment. Arenas stand for CUDA streams:
// memory freed on a stream is reused by later work on that stream, which
// runs after the free in stream order.
//
// Small requests (up to `small_limit` bytes) may be served from segments of
// `segment` bytes kept apart from the large ones, as PyTorch's allocator
// does: a small allocation then never pins down a split of a large cached
// segment. Large requests may draw segments rounded up to a granularity (2
// MiB for the device pool, the driver's page): the slack then serves the
// next request that is a little larger instead of a new segment.
//
// A pool that only ever takes from the upstream holds, under mixed sizes
// and several streams, many times what it uses: every stream keeps its own
// idle memory. With a budget (set_budget), a miss that would take the pool
// past `ratio` times the most it has had in use (and past `floor` bytes)
// first takes an idle segment of another arena, once the mover (set_mover:
// an event on the device) has ordered it after that arena's work, and
// failing that gives idle segments back before it takes more. Under budget,
// streams stay apart: a move makes the taking stream wait for everything
// the other has queued. An arena that nobody but the pool holds (a stream
// that is gone) gives up its idle segments at any miss.
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
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <cupp/config.hpp>
#include <cupp/cuda/memory_hook.hpp>
#include <cupp/errors.hpp>

namespace cupp::detail {

// "1,048,576": byte counts in messages are easier to read grouped.
// Built by appending: g++ 12 warns (-Wrestrict, a false positive) on the
// overlapping copy that std::string::insert inlines.
inline std::string group_digits(std::size_t n) CUPP_HOST_BODY({
  const std::string digits = std::to_string(n);
  std::string s;
  s.reserve(digits.size() + digits.size() / 3);
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) s += ',';
    s += digits[i];
  }
  return s;
});

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
    chunk* prev = nullptr;  // neighbours within the same upstream segment
    chunk* next = nullptr;
    std::uint64_t arena = 0;  // free-list key: stream arena and size class
    state st = state::in_use;
    std::vector<void*> tokens;
    std::uint64_t idle_since = 0;  // when it was last freed, in frees
  };

  // What the budget did, for tests and benchmarks.
  struct statistics {
    std::size_t segments = 0;  // held from the upstream now
    std::size_t adopted = 0;   // idle segments taken from another arena
    std::size_t released = 0;  // idle segments given back to stay in budget
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
  // `segment` bytes (0: every segment is exactly one rounded request).
  void set_small_segments(std::size_t small_limit, std::size_t segment) CUPP_HOST_BODY({
    std::lock_guard lock(mutex_);
    small_limit_ = small_limit;
    segment_ = segment;
  });
  // Rounds the segments of larger requests up to a multiple of
  // `granularity` bytes (0: exactly the rounded request).
  void set_large_granularity(std::size_t granularity) CUPP_HOST_BODY({
    std::lock_guard lock(mutex_);
    granularity_ = granularity;
  });
  // Keeps total_bytes() near `ratio` times the most in use (see the top of
  // this file); ratio 0 turns the budget off. Below `floor` bytes the pool
  // grows freely.
  void set_budget(double ratio, std::size_t floor) CUPP_HOST_BODY({
    std::lock_guard lock(mutex_);
    ratio_ = ratio > 0 ? ratio : 0;
    floor_ = floor;
  });
  // How idle segments move between arenas (without it, an arena's memory
  // serves that arena alone). `owner` runs on a thread whose arena is
  // `arena` when the arena takes its first segment; the pool keeps what it
  // returns while the arena holds segments (empty: this arena's segments
  // never move). `order_after` makes the work that the calling thread
  // enqueues from now on wait for all the work enqueued so far in the arena
  // of `owner`; false when it cannot (the segment then stays). While
  // `settled` says false (a graph capture runs), the budget waits: no moves,
  // and idle segments stay.
  void set_mover(std::function<std::shared_ptr<void>(std::uint64_t arena)> owner,
                 std::function<bool(const std::shared_ptr<void>& owner)> order_after,
                 std::function<bool()> settled = {}) {
    std::lock_guard lock(mutex_);
    arena_owner_ = std::move(owner);
    order_after_ = std::move(order_after);
    settled_ = std::move(settled);
  }

  // Releases every cached segment. Chunks still in use are the caller's bug;
  // their memory is left alone rather than freed under a live pointer.
  ~caching_allocator() CUPP_HOST_BODY({
    std::lock_guard lock(mutex_);
    sweep_deferred(/*wait_all=*/true);
    release_free_blocks(nullptr);
  });

  std::size_t round_size(std::size_t n) const noexcept CUPP_HOST_BODY({
    if (n == 0) n = 1;
    return (n + rounding_ - 1) / rounding_ * rounding_;
  });

  // A chunk of at least `n` bytes for `arena`. Throws out_of_memory_error
  // when neither the cache nor the upstream (after the cache was emptied)
  // can provide it, or when it would exceed the limit.
  chunk* allocate(std::size_t n, std::uint64_t arena) CUPP_HOST_BODY({
    if (cupp::cuda::detail::hook_stack() && hook_device_ != no_hooks) [[unlikely]] {
      chunk* c = nullptr;
      cupp::cuda::detail::report_malloc(hook_device_, n, round_size(n), [&]() -> void* {
        c = allocate_chunk(n, arena);
        return c->ptr;
      });
      return c;
    }
    return allocate_chunk(n, arena);
  });

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
  chunk* allocate_chunk(std::size_t n, std::uint64_t arena) CUPP_HOST_BODY({
    const std::size_t size = round_size(n);
    const bool small = segment_ != 0 && size <= small_limit_;
    const std::uint64_t key = (arena << 1) | (small ? 1u : 0u);
    std::lock_guard lock(mutex_);
    if (!deferred_.empty()) sweep_deferred(false);
    if (chunk* c = take_best_fit(size, key)) return mark_used(c);
    return grow(size, key, small);
  });

  // The miss: an idle segment of another arena, or a new segment.
  chunk* grow(std::size_t size, std::uint64_t key, bool small) CUPP_HOST_BODY({
    std::size_t block = small ? segment_ : size;
    if (!small && granularity_ != 0)
      block = (size + granularity_ - 1) / granularity_ * granularity_;
    if (!settled_ || settled_()) {
      const std::size_t cap = budget(size);
      const bool pressed = total_ + block > cap || (limit_ != 0 && total_ + block > limit_);
      if (chunk* c = adopt(size, key, /*any_owner=*/pressed)) return mark_used(c);
      if (total_ + block > cap) release_free_blocks(nullptr, total_ + block - cap);
    }

    // A whole segment where it fits; the request alone where it does not.
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
    join(key >> 1);
    split(c, size);
    return mark_used(c);
  });

  void deallocate_chunk(chunk* c, std::vector<void*> tokens) CUPP_HOST_BODY({
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
  });

  // The upstream's allocate, between the hooks' alloc callbacks.
  void* upstream_allocate(std::size_t n) CUPP_HOST_BODY({
    if (cupp::cuda::detail::hook_stack() && hook_device_ != no_hooks) [[unlikely]]
      return cupp::cuda::detail::report_alloc(hook_device_, n, [&] { return up_.allocate(n); });
    return up_.allocate(n);
  });

 public:
  // Gives the tail of the in-use chunk `c` beyond `n` bytes (rounded) back
  // to the free list of its arena, merged with a free neighbour: a buffer
  // sized for the worst case (a selection) keeps only what it filled. Work
  // already queued on the arena's stream that touches the tail must come
  // before any later use, which stream order gives.
  void shrink(chunk* c, std::size_t n) CUPP_HOST_BODY({
    std::lock_guard lock(mutex_);
    const std::size_t size = round_size(std::max<std::size_t>(n, 1));
    if (c->size <= size) return;
    chunk* rest = cut(c, size);
    used_ -= rest->size;
    make_free(rest);
  });

  // Attaches a token to the in-use chunk containing `p`; the chunk will not
  // be reused before the token is ready. Returns false if `p` lies in no
  // chunk of this allocator (it was not allocated here).
  bool add_token(const void* p, void* token) CUPP_HOST_BODY({
    std::lock_guard lock(mutex_);
    chunk* c = find_in_use(p);
    if (!c) return false;
    c->tokens.push_back(token);
    return true;
  });

  bool owns(const void* p) CUPP_HOST_BODY({
    std::lock_guard lock(mutex_);
    return find_in_use(p) != nullptr;
  });

  // Gives back to the upstream every cached segment that is entirely free,
  // in all arenas or only in `arena`. Emptying all arenas also starts the
  // budget over from the bytes in use now.
  void free_all_blocks(const std::uint64_t* arena = nullptr) CUPP_HOST_BODY({
    std::lock_guard lock(mutex_);
    sweep_deferred(false);
    release_free_blocks(arena);
    if (!arena) high_used_ = used_;
  });

  // Limit on bytes held from the upstream; 0 means none. Throws value_error
  // for a limit below the bytes in use, and gives back cached segments to
  // come under it where possible.
  void set_limit(std::size_t bytes) CUPP_HOST_BODY({
    std::lock_guard lock(mutex_);
    if (bytes != 0 && bytes < used_)
      throw value_error("memory limit of " + group_digits(bytes) + " bytes is below the " +
                        group_digits(used_) + " bytes in use on the " + what_);
    limit_ = bytes;
    if (limit_ != 0 && total_ > limit_) release_free_blocks(nullptr);
  });
  std::size_t get_limit() const CUPP_HOST_BODY({
    std::lock_guard lock(mutex_);
    return limit_;
  });

  std::size_t used_bytes() const CUPP_HOST_BODY({
    std::lock_guard lock(mutex_);
    return used_;
  });
  std::size_t total_bytes() const CUPP_HOST_BODY({
    std::lock_guard lock(mutex_);
    return total_;
  });
  std::size_t free_bytes() const CUPP_HOST_BODY({
    std::lock_guard lock(mutex_);
    return total_ - used_;
  });
  std::size_t peak_total_bytes() const CUPP_HOST_BODY({
    std::lock_guard lock(mutex_);
    return peak_total_;
  });
  std::size_t peak_used_bytes() const CUPP_HOST_BODY({
    std::lock_guard lock(mutex_);
    return peak_used_;
  });
  double budget_ratio() const CUPP_HOST_BODY({
    std::lock_guard lock(mutex_);
    return ratio_;
  });
  // Free chunks, including those waiting on tokens.
  std::size_t n_free_blocks() const CUPP_HOST_BODY({
    std::lock_guard lock(mutex_);
    return n_free_ + n_deferred_;
  });
  statistics stats() const CUPP_HOST_BODY({
    std::lock_guard lock(mutex_);
    return statistics{segments_, adopted_, released_};
  });
  // Starts both peaks over from the bytes held and in use now.
  void reset_peak() CUPP_HOST_BODY({
    std::lock_guard lock(mutex_);
    peak_total_ = total_;
    peak_used_ = used_;
  });

 private:
  struct by_size {
    bool operator()(const chunk* a, const chunk* b) const noexcept {
      return a->size != b->size ? a->size < b->size : a->ptr < b->ptr;
    }
  };
  using free_set = std::set<chunk*, by_size>;

  // An arena that holds segments: what stands for its stream, and how many.
  struct arena_record {
    std::shared_ptr<void> owner;
    std::size_t segments = 0;
  };

  static bool whole(const chunk* c) noexcept { return !c->prev && !c->next; }

  chunk* mark_used(chunk* c) CUPP_HOST_BODY({
    c->st = state::in_use;
    used_ += c->size;
    if (used_ > peak_used_) peak_used_ = used_;
    if (used_ > high_used_) high_used_ = used_;
    if (track_addresses_) in_use_.emplace(c->ptr, c);
    return c;
  });

  chunk* take_best_fit(std::size_t size, std::uint64_t key) CUPP_HOST_BODY({
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
  });

  // Cuts `c` down to `size`; the remainder stays free under the same key.
  void split(chunk* c, std::size_t size) CUPP_HOST_BODY({
    if (c->size <= size) return;
    chunk* rest = cut(c, size);
    rest->st = state::free;
    arenas_[c->arena].insert(rest);
    ++n_free_;
  });

  // Ends `c` after `size` bytes; the rest becomes a chunk of its own,
  // linked after it, in no free list yet.
  chunk* cut(chunk* c, std::size_t size) CUPP_HOST_BODY({
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
  });

  void make_free(chunk* c) CUPP_HOST_BODY({
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
    c->idle_since = ++frees_;
    set.insert(c);
    ++n_free_;
  });

  void sweep_deferred(bool wait_all) CUPP_HOST_BODY({
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
  });

  // What the pool may hold before a miss reuses or gives back idle memory.
  std::size_t budget(std::size_t need) const CUPP_HOST_BODY({
    if (ratio_ <= 0) return std::numeric_limits<std::size_t>::max();
    const double high = static_cast<double>(std::max(high_used_, used_ + need));
    return std::max(floor_, static_cast<std::size_t>(ratio_ * high));
  });

  // An arena takes a segment; its first one asks the upstream who owns it.
  void join(std::uint64_t arena) CUPP_HOST_BODY({
    ++segments_;
    arena_record& r = owners_[arena];
    if (r.segments++ == 0 && arena_owner_) r.owner = arena_owner_(arena);
  });
  // An arena gives one up; the last one lets go of its owner and lists.
  void leave(std::uint64_t arena) CUPP_HOST_BODY({
    --segments_;
    auto r = owners_.find(arena);
    if (r == owners_.end() || --r->second.segments != 0) return;
    owners_.erase(r);
    for (std::uint64_t k : {arena << 1, (arena << 1) | 1u})
      if (auto a = arenas_.find(k); a != arenas_.end() && a->second.empty()) arenas_.erase(a);
  });

  // The idle segment of another arena (same size class, `size` bytes or
  // more) that has been idle longest, moved to `key`'s arena after the mover
  // ordered the two arenas' work. The longest idle rather than the best fit:
  // a segment freed a moment ago is most likely wanted again by its own
  // stream (the soak in allocator_host_test halves its moves this way). Only
  // arenas whose owner is gone qualify unless `any_owner`.
  chunk* adopt(std::size_t size, std::uint64_t key, bool any_owner) CUPP_HOST_BODY({
    if (!order_after_ || owners_.size() <= owners_.count(key >> 1)) return nullptr;
    chunk* best = nullptr;
    std::uint64_t from = 0;
    chunk probe;
    probe.size = size;
    for (auto& [k, set] : arenas_) {
      if (k == key || ((k ^ key) & 1u) != 0 || set.empty()) continue;
      auto r = owners_.find(k >> 1);
      if (r == owners_.end() || !r->second.owner) continue;
      if (!any_owner && r->second.owner.use_count() > 1) continue;
      for (auto it = set.lower_bound(&probe); it != set.end(); ++it)
        if (whole(*it) && (!best || (*it)->idle_since < best->idle_since)) {
          best = *it;
          from = k;
        }
    }
    if (!best || !order_after_(owners_.at(from >> 1).owner)) return nullptr;
    arenas_.at(from).erase(best);
    --n_free_;
    ++adopted_;
    leave(from >> 1);
    best->arena = key;
    join(key >> 1);
    split(best, size);
    return best;
  });

  void release(chunk* c) CUPP_HOST_BODY({
    up_.deallocate(c->ptr, c->size);
    total_ -= c->size;
    --n_free_;
    const std::uint64_t arena = c->arena >> 1;
    delete c;
    leave(arena);
  });

  // Gives back idle segments (of `only_arena`, or all): every one, or the
  // largest first until `excess` bytes are gone, for the budget. Released
  // after the walk: the last segment of an arena drops its lists.
  void release_free_blocks(const std::uint64_t* only_arena, std::size_t excess = 0) CUPP_HOST_BODY({
    std::vector<chunk*> idle;
    for (auto& [key, set] : arenas_)
      for (chunk* c : set)
        if (whole(c) && (!only_arena || (key >> 1) == *only_arena)) idle.push_back(c);
    if (excess != 0)
      std::sort(idle.begin(), idle.end(), [](chunk* a, chunk* b) { return a->size > b->size; });
    std::size_t freed = 0;
    for (chunk* c : idle) {
      if (excess != 0 && freed >= excess) break;
      freed += c->size;
      if (excess != 0) ++released_;
      arenas_.at(c->arena).erase(c);
      release(c);
    }
  });

  chunk* find_in_use(const void* p) CUPP_HOST_BODY({
    if (!track_addresses_ || in_use_.empty()) return nullptr;
    const char* q = static_cast<const char*>(p);
    auto it = in_use_.upper_bound(const_cast<char*>(q));
    if (it == in_use_.begin()) return nullptr;
    --it;
    chunk* c = it->second;
    return q < c->ptr + c->size ? c : nullptr;
  });

  [[noreturn]] void throw_oom(std::size_t size) CUPP_HOST_BODY({
    std::string msg = "Out of memory allocating " + group_digits(size) + " bytes on the " + what_ +
                      " (" + group_digits(used_) + " bytes in use, " + group_digits(total_) +
                      " bytes held by the pool";
    if (limit_ != 0) msg += ", limit set to " + group_digits(limit_) + " bytes";
    msg += ")";
    throw out_of_memory_error(msg, size, total_, limit_);
  });

  upstream_t up_;
  std::function<std::shared_ptr<void>(std::uint64_t)> arena_owner_;
  std::function<bool(const std::shared_ptr<void>&)> order_after_;
  std::function<bool()> settled_;
  std::string what_;
  std::size_t rounding_;
  bool track_addresses_;
  mutable std::mutex mutex_;
  std::unordered_map<std::uint64_t, free_set> arenas_;
  std::unordered_map<std::uint64_t, arena_record> owners_;
  std::vector<chunk*> deferred_;
  std::map<char*, chunk*> in_use_;
  std::size_t used_ = 0, total_ = 0, peak_total_ = 0, peak_used_ = 0, limit_ = 0;
  std::size_t n_free_ = 0, n_deferred_ = 0;
  std::size_t small_limit_ = 0, segment_ = 0, granularity_ = 0;
  // The budget: ratio_ times the most in use since the pool was emptied.
  double ratio_ = 0;
  std::size_t floor_ = 0, high_used_ = 0;
  std::size_t segments_ = 0, adopted_ = 0, released_ = 0;
  std::uint64_t frees_ = 0;
  static constexpr int no_hooks = std::numeric_limits<int>::min();
  int hook_device_ = no_hooks;
};

}  // namespace cupp::detail
