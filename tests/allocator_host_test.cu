// The memory pools' bookkeeping (best fit, split, merge, stream arenas,
// limits, out-of-memory retry, deferred frees) with malloc as the upstream,
// and the host side of the staged transfers. Needs no GPU.
#include <cupp/cuda/memory.hpp>
#include <cupp/cuda/caching_allocator.hpp>
#include <cupp/detail/memory/transfer.hpp>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <map>
#include <random>
#include <thread>

#include "cupp_test.hpp"

using cupp::detail::caching_allocator;

namespace {

// An upstream that counts what it hands out and can be told to run dry.
struct fake_upstream {
  std::map<void*, std::size_t> live;
  std::size_t capacity = std::size_t{1} << 40;
  std::size_t held = 0;
  int allocations = 0, releases = 0;
  std::mutex mutex;

  caching_allocator::upstream_t hooks() {
    return {.allocate = [this](std::size_t n) -> void* {
              std::lock_guard lock(mutex);
              if (held + n > capacity) return nullptr;
              void* p = std::malloc(n);
              live[p] = n;
              held += n;
              ++allocations;
              return p;
            },
            .deallocate =
                [this](void* p, std::size_t n) {
                  std::lock_guard lock(mutex);
                  BOOST_TEST(live.at(p) == n);
                  live.erase(p);
                  held -= n;
                  ++releases;
                  std::free(p);
                },
            .token_ready = [](void* t) { return *static_cast<bool*>(t); },
            .token_release = [](void*) {}};
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(caching_allocator_core)

BOOST_AUTO_TEST_CASE(sizes_round_up_to_512_bytes) {
  fake_upstream up;
  caching_allocator pool(up.hooks());
  BOOST_TEST(pool.round_size(1) == 512u);
  BOOST_TEST(pool.round_size(512) == 512u);
  BOOST_TEST(pool.round_size(513) == 1024u);
  auto* c = pool.allocate(1000, 0);
  BOOST_TEST(c->size == 1024u);
  BOOST_TEST(pool.used_bytes() == 1024u);
  BOOST_TEST(pool.total_bytes() == 1024u);
  pool.deallocate(c);
  BOOST_TEST(pool.used_bytes() == 0u);
  BOOST_TEST(pool.free_bytes() == 1024u);
  BOOST_TEST(pool.n_free_blocks() == 1u);
}

BOOST_AUTO_TEST_CASE(freed_memory_is_reused_without_the_upstream) {
  fake_upstream up;
  caching_allocator pool(up.hooks());
  auto* a = pool.allocate(4096, 0);
  char* p = a->ptr;
  pool.deallocate(a);
  auto* b = pool.allocate(4000, 0);
  BOOST_TEST(static_cast<void*>(b->ptr) == static_cast<void*>(p));
  BOOST_TEST(up.allocations == 1);
  pool.deallocate(b);
}

BOOST_AUTO_TEST_CASE(best_fit_split_and_merge) {
  fake_upstream up;
  caching_allocator pool(up.hooks());
  auto* big = pool.allocate(8192, 0);
  auto* mid = pool.allocate(2048, 0);
  char* big_ptr = big->ptr;
  char* mid_ptr = mid->ptr;
  pool.deallocate(big);
  pool.deallocate(mid);
  BOOST_TEST(pool.n_free_blocks() == 2u);
  // 1536 bytes fit both free chunks; the smaller one is taken and split.
  auto* c = pool.allocate(1536, 0);
  BOOST_TEST(static_cast<void*>(c->ptr) == static_cast<void*>(mid_ptr));
  BOOST_TEST(pool.n_free_blocks() == 2u);  // the 8192 block and the 512-byte rest
  auto* d = pool.allocate(1024, 0);        // cut from the 8192 block
  BOOST_TEST(static_cast<void*>(d->ptr) == static_cast<void*>(big_ptr));
  auto* e = pool.allocate(1024, 0);  // the next piece of it
  BOOST_TEST(static_cast<void*>(e->ptr) == static_cast<void*>(big_ptr + 1024));
  BOOST_TEST(up.allocations == 2);
  // Freeing the pieces in any order merges them back into whole blocks.
  pool.deallocate(d);
  pool.deallocate(c);
  pool.deallocate(e);
  BOOST_TEST(pool.n_free_blocks() == 2u);
  pool.free_all_blocks();
  BOOST_TEST(pool.total_bytes() == 0u);
  BOOST_TEST(up.live.empty());
  BOOST_TEST(up.releases == 2);
}

// A chunk cut down to what it filled gives its tail back, merged with the
// free space after it; the tail serves the next request of the arena.
BOOST_AUTO_TEST_CASE(shrink_returns_the_tail) {
  fake_upstream up;
  caching_allocator pool(up.hooks());
  auto* a = pool.allocate(8192, 0);
  auto* b = pool.allocate(1024, 0);  // a block of its own, freed: two free chunks after the shrink
  pool.deallocate(b);
  const std::size_t before = pool.used_bytes();
  pool.shrink(a, 1000);  // rounded to 1024
  BOOST_TEST(a->size == 1024u);
  BOOST_TEST(pool.used_bytes() == before - 7168u);
  BOOST_TEST(pool.n_free_blocks() == 2u);
  auto* c = pool.allocate(7168, 0);  // exactly the tail, no new block
  BOOST_TEST(static_cast<void*>(c->ptr) == static_cast<void*>(a->ptr + 1024));
  BOOST_TEST(up.allocations == 2);
  pool.shrink(c, 7168);  // nothing to give back
  BOOST_TEST(c->size == 7168u);
  pool.deallocate(c);
  pool.deallocate(a);  // merges with the tail into the whole block again
  BOOST_TEST(pool.n_free_blocks() == 2u);
  BOOST_TEST(pool.used_bytes() == 0u);
  pool.free_all_blocks();
  BOOST_TEST(up.live.empty());
}

BOOST_AUTO_TEST_CASE(free_all_blocks_keeps_blocks_in_use) {
  fake_upstream up;
  caching_allocator pool(up.hooks());
  auto* a = pool.allocate(4096, 0);
  pool.deallocate(a);
  auto* b = pool.allocate(1024, 0);  // splits the only block
  pool.free_all_blocks();            // the block is partly in use: stays
  BOOST_TEST(pool.total_bytes() == 4096u);
  pool.deallocate(b);
  pool.free_all_blocks();
  BOOST_TEST(pool.total_bytes() == 0u);
}

BOOST_AUTO_TEST_CASE(arenas_keep_reuse_in_stream_order) {
  fake_upstream up;
  caching_allocator pool(up.hooks());
  auto* a = pool.allocate(1024, 7);
  char* p = a->ptr;
  pool.deallocate(a);
  auto* other = pool.allocate(1024, 8);  // another stream: fresh memory
  BOOST_TEST(static_cast<void*>(other->ptr) != static_cast<void*>(p));
  auto* same = pool.allocate(1024, 7);  // the same stream: reused
  BOOST_TEST(static_cast<void*>(same->ptr) == static_cast<void*>(p));
  pool.deallocate(other);
  pool.deallocate(same);
  const std::uint64_t arena = 8;
  pool.free_all_blocks(&arena);
  BOOST_TEST(pool.total_bytes() == 1024u);
}

BOOST_AUTO_TEST_CASE(limit) {
  fake_upstream up;
  caching_allocator pool(up.hooks(), "device 0");
  pool.set_limit(4096);
  BOOST_TEST(pool.get_limit() == 4096u);
  auto* a = pool.allocate(2048, 0);
  try {
    pool.allocate(4096, 0);
    BOOST_FAIL("limit ignored");
  } catch (const cupp::out_of_memory_error& e) {
    BOOST_TEST(std::string(e.what()) ==
               "Out of memory allocating 4,096 bytes on the device 0 (2,048 bytes in use, 2,048 "
               "bytes held by the pool, limit set to 4,096 bytes)");
    BOOST_TEST(e.requested_bytes() == 4096u);
    BOOST_TEST(e.limit_bytes() == 4096u);
  }
  BOOST_CHECK_THROW(pool.set_limit(1024), cupp::value_error);
  try {
    pool.set_limit(1024);
  } catch (const cupp::value_error& e) {
    BOOST_TEST(std::string(e.what()) ==
               "memory limit of 1,024 bytes is below the 2,048 bytes in use on the device 0");
  }
  BOOST_TEST(pool.get_limit() == 4096u);  // unchanged by the failed call
  // Cached blocks are given back to make room under the limit.
  auto* b = pool.allocate(1024, 0);
  pool.deallocate(b);
  auto* c = pool.allocate(2048, 1);
  BOOST_TEST(pool.total_bytes() == 4096u);
  pool.deallocate(c);
  pool.deallocate(a);
  pool.set_limit(0);
  auto* d = pool.allocate(1 << 20, 0);
  pool.deallocate(d);
}

BOOST_AUTO_TEST_CASE(out_of_memory_empties_the_cache_and_retries) {
  fake_upstream up;
  up.capacity = 8192;
  caching_allocator pool(up.hooks());
  auto* a = pool.allocate(4096, 0);
  auto* b = pool.allocate(4096, 1);
  pool.deallocate(a);
  pool.deallocate(b);
  // 6 KiB fits neither cached chunk and the upstream is full: the cache is
  // emptied and the retry succeeds.
  auto* c = pool.allocate(6144, 2);
  BOOST_TEST(up.releases == 2);
  BOOST_TEST(pool.total_bytes() == 6144u);
  try {
    pool.allocate(4096, 2);
    BOOST_FAIL("allocation past the upstream's capacity succeeded");
  } catch (const cupp::out_of_memory_error& e) {
    BOOST_TEST(e.total_bytes() == 6144u);
  }
  BOOST_TEST(pool.used_bytes() == 6144u);  // the failure changed nothing
  pool.deallocate(c);
}

BOOST_AUTO_TEST_CASE(deferred_frees_wait_for_their_tokens) {
  fake_upstream up;
  caching_allocator pool(up.hooks(), "host", 512, /*track_addresses=*/true);
  auto* a = pool.allocate(2048, 0);
  char* p = a->ptr;
  BOOST_TEST(pool.owns(p + 100));
  BOOST_TEST(!pool.owns(p + 2048));
  bool copy_done = false;
  BOOST_TEST(pool.add_token(p + 10, &copy_done));
  pool.deallocate(a);
  BOOST_TEST(!pool.owns(p));
  BOOST_TEST(pool.n_free_blocks() == 1u);
  auto* b = pool.allocate(2048, 0);  // the copy may still write into p
  BOOST_TEST(static_cast<void*>(b->ptr) != static_cast<void*>(p));
  pool.deallocate(b);
  copy_done = true;
  auto* c = pool.allocate(2048, 0);
  // Either block may come back now; both are free, so nothing new is drawn.
  BOOST_TEST(up.allocations == 2);
  pool.deallocate(c);
  pool.free_all_blocks();
  BOOST_TEST(pool.total_bytes() == 0u);
}

BOOST_AUTO_TEST_CASE(concurrent_use_keeps_the_books_balanced) {
  fake_upstream up;
  caching_allocator pool(up.hooks());
  std::vector<std::jthread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&pool, t] {
      std::mt19937 rng(static_cast<unsigned>(t));
      std::uniform_int_distribution<std::size_t> size(1, 1 << 16);
      std::vector<caching_allocator::chunk*> live;
      for (int i = 0; i < 5000; ++i) {
        if (live.size() < 16 && (live.empty() || rng() % 2)) {
          auto* c = pool.allocate(size(rng), static_cast<std::uint64_t>(t % 2));
          std::memset(c->ptr, t, c->size);  // touch: the chunk must be ours alone
          live.push_back(c);
        } else {
          const std::size_t k = rng() % live.size();
          for (std::size_t j = 0; j < live[k]->size; ++j)
            if (live[k]->ptr[j] != static_cast<char>(t)) throw std::runtime_error("overlap");
          pool.deallocate(live[k]);
          live.erase(live.begin() + static_cast<std::ptrdiff_t>(k));
        }
      }
      for (auto* c : live) pool.deallocate(c);
    });
  threads.clear();
  BOOST_TEST(pool.used_bytes() == 0u);
  BOOST_TEST(pool.peak_total_bytes() >= pool.total_bytes());
  pool.free_all_blocks();
  BOOST_TEST(pool.total_bytes() == 0u);
  BOOST_TEST(up.live.empty());
}

BOOST_AUTO_TEST_CASE(small_requests_share_segments) {
  fake_upstream up;
  caching_allocator pool(up.hooks());
  pool.set_small_segments(4096, 16384);
  auto* a = pool.allocate(1000, 0);
  auto* b = pool.allocate(3000, 0);
  BOOST_TEST(up.allocations == 1);  // one segment serves both
  BOOST_TEST(pool.total_bytes() == 16384u);
  BOOST_TEST(pool.used_bytes() == 1024u + 3072u);
  BOOST_TEST(static_cast<void*>(b->ptr) == static_cast<void*>(a->ptr + 1024));
  // A large request never takes a piece of a segment...
  auto* big = pool.allocate(8192, 0);
  BOOST_TEST(up.allocations == 2);
  BOOST_TEST(big->size == 8192u);
  pool.deallocate(big);
  // ...and a small one never splits a large cached block.
  auto* c = pool.allocate(512, 0);
  BOOST_TEST(static_cast<void*>(c->ptr) == static_cast<void*>(b->ptr + 3072));
  pool.deallocate(a);
  pool.deallocate(b);
  pool.deallocate(c);
  // The segment merged back whole and is released with the large block.
  BOOST_TEST(pool.n_free_blocks() == 2u);
  pool.free_all_blocks();
  BOOST_TEST(pool.total_bytes() == 0u);
  BOOST_TEST(up.live.empty());
  // Under a limit a segment that does not fit gives way to the request.
  pool.set_limit(2048);
  auto* d = pool.allocate(1500, 0);
  BOOST_TEST(pool.total_bytes() == 1536u);
  pool.deallocate(d);
  // A segment the upstream cannot give also falls back to the request.
  pool.set_limit(0);
  pool.free_all_blocks();
  up.capacity = 8000;
  auto* e = pool.allocate(1500, 0);
  BOOST_TEST(pool.total_bytes() == 1536u);
  pool.deallocate(e);
}

BOOST_AUTO_TEST_CASE(byte_counts_read_grouped) {
  BOOST_TEST(cupp::detail::group_digits(0) == "0");
  BOOST_TEST(cupp::detail::group_digits(999) == "999");
  BOOST_TEST(cupp::detail::group_digits(1000) == "1,000");
  BOOST_TEST(cupp::detail::group_digits(1073741824) == "1,073,741,824");
}

BOOST_AUTO_TEST_SUITE_END()

// The device pool's policy (2 MiB pages for large requests, a budget of
// 3x the peak in use, idle segments moving between streams) over an
// upstream that hands out addresses only: no memory is touched, so the soak
// can reach the sizes and stream counts of the GPU soak.
namespace {

constexpr std::size_t MiB = std::size_t{1} << 20;

struct address_upstream {
  std::map<char*, std::size_t> live;  // segment start -> size
  char* next = reinterpret_cast<char*>(std::uintptr_t{1} << 40);
  int allocations = 0, releases = 0;

  caching_allocator::upstream_t hooks() {
    return {.allocate = [this](std::size_t n) -> void* {
              char* p = next;
              next += n + 2 * MiB;  // a gap: a chunk running past its segment shows
              live[p] = n;
              ++allocations;
              return p;
            },
            .deallocate =
                [this](void* p, std::size_t n) {
                  BOOST_TEST(live.at(static_cast<char*>(p)) == n);
                  live.erase(static_cast<char*>(p));
                  ++releases;
                },
            .token_ready = {},
            .token_release = {}};
  }
  bool inside_a_segment(const char* p, std::size_t n) const {
    auto it = live.upper_bound(const_cast<char*>(p));
    if (it == live.begin()) return false;
    --it;
    return p + n <= it->first + it->second;
  }
};

// Streams as the device pool sees them: an owner object per arena (held
// here, as a Stream object holds its stream while it lives) and a record of
// the waits the pool asks for.
struct fake_streams {
  std::map<std::uint64_t, std::shared_ptr<int>> owners;
  std::vector<int> waited_on;  // the arena a move waited for, in order
  bool can_order = true;
  bool settled = true;  // false: a graph capture runs

  void install(caching_allocator& pool) {
    pool.set_mover(
        [this](std::uint64_t arena) -> std::shared_ptr<void> {
          auto it = owners.find(arena);
          return it == owners.end() ? nullptr : it->second;
        },
        [this](const std::shared_ptr<void>& from) {
          if (can_order) waited_on.push_back(*static_cast<int*>(from.get()));
          return can_order;
        },
        [this] { return settled; });
  }
  void add(std::uint64_t arena) { owners[arena] = std::make_shared<int>(static_cast<int>(arena)); }
};

void device_policy(caching_allocator& pool) {
  pool.set_small_segments(MiB, 2 * MiB);
  pool.set_large_granularity(2 * MiB);
  pool.set_budget(3.0, 16 * MiB);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(pool_budget)

BOOST_AUTO_TEST_CASE(large_requests_take_whole_pages) {
  address_upstream up;
  caching_allocator pool(up.hooks());
  device_policy(pool);
  auto* a = pool.allocate(MiB + 1000, 0);  // 1 MiB + 1024 after rounding: one 2 MiB page
  BOOST_TEST(pool.total_bytes() == 2 * MiB);
  BOOST_TEST(pool.used_bytes() == MiB + 1024);
  pool.deallocate(a);
  auto* b = pool.allocate(2 * MiB - 4096, 0);  // larger, and still served by that page
  BOOST_TEST(up.allocations == 1);
  BOOST_TEST(static_cast<void*>(b->ptr) == static_cast<void*>(a->ptr));
  auto* c = pool.allocate(4 * MiB, 0);  // whole pages are taken as they are
  BOOST_TEST(pool.total_bytes() == 6 * MiB);
  auto* d = pool.allocate(5 * MiB + 1, 0);
  BOOST_TEST(pool.total_bytes() == 12 * MiB);
  for (auto* x : {b, c, d}) pool.deallocate(x);
  pool.free_all_blocks();
  BOOST_TEST(up.live.empty());
}

BOOST_AUTO_TEST_CASE(peak_used_follows_the_most_in_use) {
  address_upstream up;
  caching_allocator pool(up.hooks());
  auto* a = pool.allocate(3000, 0);
  auto* b = pool.allocate(5000, 0);
  pool.deallocate(a);
  BOOST_TEST(pool.peak_used_bytes() == 3072u + 5120u);
  pool.reset_peak();
  BOOST_TEST(pool.peak_used_bytes() == 5120u);
  BOOST_TEST(pool.peak_total_bytes() == pool.total_bytes());
  pool.deallocate(b);
  BOOST_TEST(pool.peak_used_bytes() == 5120u);
}

// Past its budget the pool takes another stream's idle segment, after a
// wait on that stream, instead of a new one; under it, streams stay apart.
BOOST_AUTO_TEST_CASE(over_budget_an_idle_segment_moves_to_another_stream) {
  address_upstream up;
  caching_allocator pool(up.hooks());
  fake_streams streams;
  streams.add(1);
  streams.add(2);
  streams.install(pool);
  pool.set_large_granularity(2 * MiB);
  pool.set_budget(1.5, 0);
  auto* a = pool.allocate(8 * MiB, 1);
  char* p = a->ptr;
  pool.deallocate(a);
  // Another 8 MiB segment would hold 16 MiB for 8 in use, past 1.5x.
  auto* b = pool.allocate(6 * MiB, 2);
  BOOST_TEST(static_cast<void*>(b->ptr) == static_cast<void*>(p));
  BOOST_TEST(streams.waited_on == std::vector<int>{1});
  BOOST_TEST(up.allocations == 1);
  BOOST_TEST(pool.stats().adopted == 1u);
  // The 2 MiB left over now belongs to stream 2, not to stream 1.
  auto* c = pool.allocate(2 * MiB, 1);
  BOOST_TEST(up.allocations == 2);
  auto* d = pool.allocate(2 * MiB, 2);
  BOOST_TEST(static_cast<void*>(d->ptr) == static_cast<void*>(p + 6 * MiB));
  for (auto* x : {b, c, d}) pool.deallocate(x);
  // Under the budget (3x of 10 MiB) a stream takes a new segment.
  pool.set_budget(3.0, 0);
  auto* e = pool.allocate(8 * MiB, 3);
  BOOST_TEST(up.allocations == 3);
  pool.deallocate(e);
  BOOST_TEST(pool.stats().adopted == 1u);
  BOOST_TEST(pool.stats().segments == 3u);
}

BOOST_AUTO_TEST_CASE(a_segment_moves_only_after_a_wait) {
  address_upstream up;
  caching_allocator pool(up.hooks());
  fake_streams streams;
  for (std::uint64_t s : {1, 2, 3, 4}) streams.add(s);
  streams.install(pool);
  pool.set_budget(1.0, 0);
  pool.deallocate(pool.allocate(4096, 1));
  // The wait cannot be made: fresh memory, and the idle segment that could
  // not move goes back instead.
  streams.can_order = false;
  auto* b = pool.allocate(4096, 2);
  BOOST_TEST(up.allocations == 2);
  BOOST_TEST(up.releases == 1);
  BOOST_TEST(pool.stats().adopted == 0u);
  pool.deallocate(b);
  // While a capture runs, the budget waits: no move, nothing given back.
  streams.can_order = true;
  streams.settled = false;
  auto* c = pool.allocate(4096, 3);
  BOOST_TEST(up.allocations == 3);
  BOOST_TEST(up.releases == 1);
  BOOST_TEST(streams.waited_on.empty());
  streams.settled = true;
  auto* d = pool.allocate(4096, 4);  // over budget again: stream 2's idle segment
  BOOST_TEST(streams.waited_on == std::vector<int>{2});
  BOOST_TEST(up.allocations == 3);
  pool.deallocate(c);
  pool.deallocate(d);
  // A stream without an owner (the null stream, one made elsewhere) never
  // gives its idle memory away.
  address_upstream up2;
  caching_allocator pool2(up2.hooks());
  fake_streams only2;
  only2.add(2);
  only2.install(pool2);
  pool2.set_budget(1.0, 0);
  pool2.deallocate(pool2.allocate(4096, 1));
  pool2.deallocate(pool2.allocate(4096, 2));
  BOOST_TEST(up2.allocations == 2);
  BOOST_TEST(only2.waited_on.empty());
}

// A stream that is gone gives up its idle segments at any miss, budget or
// not; its owner is let go once it holds none.
BOOST_AUTO_TEST_CASE(a_stream_that_is_gone_leaves_its_memory_to_the_others) {
  address_upstream up;
  caching_allocator pool(up.hooks());
  fake_streams streams;
  streams.add(1);
  streams.add(2);
  streams.install(pool);
  pool.set_budget(3.0, std::size_t{1} << 40);  // far under budget
  auto* a = pool.allocate(4096, 1);
  char* p = a->ptr;
  pool.deallocate(a);
  std::weak_ptr<int> gone = streams.owners.at(1);
  streams.owners.erase(1);      // the program let go of stream 1
  BOOST_TEST(!gone.expired());  // the pool holds it while it holds its segment
  auto* b = pool.allocate(4096, 2);
  BOOST_TEST(static_cast<void*>(b->ptr) == static_cast<void*>(p));
  BOOST_TEST(streams.waited_on == std::vector<int>{1});
  BOOST_TEST(gone.expired());
  pool.deallocate(b);
  // A live stream's idle memory stays its own under the budget.
  streams.add(3);
  pool.free_all_blocks();
  auto* c = pool.allocate(4096, 3);
  char* q = c->ptr;
  pool.deallocate(c);
  auto* d = pool.allocate(4096, 2);
  BOOST_TEST(static_cast<void*>(d->ptr) != static_cast<void*>(q));
  BOOST_TEST(up.allocations == 3);
  pool.deallocate(d);
}

// With nothing to take from another stream, the pool gives idle segments
// back (the largest first) before it takes more; OOM and free_all_blocks
// still empty the cache.
BOOST_AUTO_TEST_CASE(over_budget_idle_segments_go_back_first) {
  address_upstream up;
  caching_allocator pool(up.hooks());
  pool.set_large_granularity(2 * MiB);
  pool.set_budget(1.5, 0);
  auto* a = pool.allocate(4 * MiB, 0);
  auto* b = pool.allocate(2 * MiB, 0);
  auto* c = pool.allocate(2 * MiB, 0);
  pool.deallocate(a);
  pool.deallocate(b);
  // 6 MiB fits no idle segment; with it the pool would hold 14 MiB for a
  // peak of 8 in use, past 1.5x: the 4 MiB segment goes back (10 <= 12).
  auto* d = pool.allocate(6 * MiB, 0);
  BOOST_TEST(up.releases == 1);
  BOOST_TEST(pool.stats().released == 1u);
  BOOST_TEST(pool.total_bytes() == 10 * MiB);
  BOOST_TEST(pool.n_free_blocks() == 1u);  // the idle 2 MiB segment stayed
  pool.deallocate(c);
  pool.deallocate(d);
  // free_all_blocks empties the cache and starts the budget over.
  pool.free_all_blocks();
  BOOST_TEST(up.live.empty());
  BOOST_TEST(pool.stats().segments == 0u);
}

BOOST_AUTO_TEST_CASE(the_budget_yields_to_limits_and_out_of_memory) {
  fake_upstream up;
  up.capacity = 8 * MiB;
  caching_allocator pool(up.hooks());
  fake_streams streams;
  streams.add(1);
  streams.add(2);
  streams.install(pool);
  pool.set_large_granularity(2 * MiB);
  pool.set_budget(3.0, std::size_t{1} << 40);
  pool.deallocate(pool.allocate(6 * MiB, 1));
  // Far under budget, but the upstream is full: the live stream's idle
  // segment is given back and the retry succeeds, as before budgets.
  auto* a = pool.allocate(4 * MiB, 2);
  BOOST_TEST(up.releases == 1);
  BOOST_TEST(pool.total_bytes() == 4 * MiB);
  pool.deallocate(a);
  // Under a limit, an idle segment moves rather than the limit failing.
  pool.set_limit(4 * MiB);
  auto* b = pool.allocate(3 * MiB, 1);
  BOOST_TEST(streams.waited_on == std::vector<int>{2});
  BOOST_CHECK_THROW(pool.allocate(2 * MiB, 1), cupp::out_of_memory_error);
  pool.deallocate(b);
}

// The soak of the GPU test, on the policy alone: 1, 8 and 32 streams, each
// round allocating an input, a result, a reduction's partials and scalar, a
// gather's indices and values (1 to 300,000 doubles), one result kept for
// three rounds (lifetimes interleave), the streams' steps interleaved at
// random. No two live chunks overlap, each lies in a segment, the books
// balance, and the pool holds at most 4x (the budget: 3x) its peak in use.
// The policy before budgets held 5 to 12x on the same workload.
namespace {

struct soak_result {
  double ratio;  // peak held / peak in use
  std::size_t adopted, released;
};

soak_result soak(int streams_n, int rounds, bool budget) {
  address_upstream up;
  caching_allocator pool(up.hooks());
  fake_streams streams;
  for (int s = 1; s <= streams_n; ++s) streams.add(static_cast<std::uint64_t>(s));
  streams.install(pool);
  pool.set_small_segments(MiB, 2 * MiB);
  if (budget) device_policy(pool);
  struct stream_state {
    std::vector<caching_allocator::chunk*> round, kept;
    int step = 0;
    std::size_t n = 0, m = 0;
  };
  std::vector<stream_state> st(static_cast<std::size_t>(streams_n));
  std::map<char*, std::size_t> live;  // every chunk handed out and not yet back
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<std::size_t> doubles(1, 300'000);
  bool overlap = false, outside = false;
  auto take = [&](std::size_t bytes, std::uint64_t arena) {
    auto* c = pool.allocate(bytes, arena);
    auto after = live.lower_bound(c->ptr);
    if (after != live.end() && after->first < c->ptr + c->size) overlap = true;
    if (after != live.begin() && std::prev(after)->first + std::prev(after)->second > c->ptr)
      overlap = true;
    if (!up.inside_a_segment(c->ptr, c->size)) outside = true;
    live.emplace(c->ptr, c->size);
    return c;
  };
  auto give = [&](caching_allocator::chunk* c) {
    live.erase(c->ptr);
    pool.deallocate(c);
  };
  const long steps = static_cast<long>(rounds) * streams_n * 6;
  for (long i = 0; i < steps; ++i) {
    const auto s = static_cast<std::size_t>(rng() % static_cast<std::size_t>(streams_n));
    const std::uint64_t arena = s + 1;
    stream_state& t = st[s];
    switch (t.step) {
      case 0:  // the input and the computed result
        t.n = doubles(rng);
        t.round.push_back(take(8 * t.n, arena));
        t.round.push_back(take(8 * t.n, arena));
        break;
      case 1: {  // a reduction: partials, then the scalar; the partials go
        auto* partials = take(8 * ((t.n + 1023) / 1024), arena);
        t.round.push_back(take(8, arena));
        give(partials);
        break;
      }
      case 2:  // a gather: indices, values and a fault flag
        t.m = doubles(rng);
        t.round.push_back(take(8 * t.m, arena));
        t.round.push_back(take(8 * t.m, arena));
        t.round.push_back(take(16, arena));
        break;
      case 3:  // the indices and the flag go
        give(t.round.back());
        t.round.pop_back();
        give(t.round[t.round.size() - 2]);
        t.round.erase(t.round.end() - 2);
        break;
      case 4:  // the result outlives the round by three rounds
        t.kept.insert(t.kept.begin(), t.round[1]);
        t.round.erase(t.round.begin() + 1);
        if (t.kept.size() > 3) {
          give(t.kept.back());
          t.kept.pop_back();
        }
        break;
      case 5:
        for (auto* c : t.round) give(c);
        t.round.clear();
        break;
    }
    t.step = (t.step + 1) % 6;
  }
  for (auto& t : st) {
    for (auto* c : t.round) give(c);
    for (auto* c : t.kept) give(c);
  }
  BOOST_TEST(!overlap);
  BOOST_TEST(!outside);
  BOOST_TEST(pool.used_bytes() == 0u);
  const auto s = pool.stats();
  const soak_result r{
      static_cast<double>(pool.peak_total_bytes()) / static_cast<double>(pool.peak_used_bytes()),
      s.adopted, s.released};
  BOOST_TEST_MESSAGE(streams_n << " streams, " << (budget ? "budget" : "no budget") << ": held "
                               << r.ratio << "x the peak in use, " << r.adopted << " moves, "
                               << r.released << " segments given back");
  pool.free_all_blocks();
  BOOST_TEST(up.live.empty());
  BOOST_TEST(pool.total_bytes() == 0u);
  return r;
}

}  // namespace

// bench_memory_pool's mixed pattern (64 live allocations, log-uniform 512 B
// to 64 MiB, splitmix64 from seed 42), replayed over 1,010,000 steps as the
// bench runs it on one stream: the pool before 2 MiB pages held 1474.4 MiB
// at the peak (the figure the bench measured on the GPU), the pool now
// holds less, and its budget never acts on one stream under 3x.
namespace {

std::uint64_t splitmix(std::uint64_t seed, std::uint64_t k) {
  std::uint64_t z = seed + (k + 1) * 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

std::size_t replay_mixed(bool pages) {
  address_upstream up;
  caching_allocator pool(up.hooks());
  pool.set_small_segments(MiB, 2 * MiB);
  if (pages) device_policy(pool);
  auto size_of = [](std::uint64_t k) {
    const double u = static_cast<double>(splitmix(42, k) >> 11) * 0x1.0p-53;
    const auto s = static_cast<std::size_t>(std::floor(512.0 * std::exp2(17.0 * u)));
    return std::clamp<std::size_t>(s, 512, 64 * MiB);
  };
  constexpr std::size_t window = 64;
  std::vector<caching_allocator::chunk*> live(window);
  for (std::size_t i = 0; i < window; ++i) live[i] = pool.allocate(size_of(i), 1);
  for (std::uint64_t s = 0; s < 1'010'000; ++s) {
    const std::uint64_t k = window + 2 * s;
    const std::size_t slot = splitmix(42, k) % window;
    pool.deallocate(live[slot]);
    live[slot] = pool.allocate(size_of(k + 1), 1);
  }
  for (auto* c : live) pool.deallocate(c);
  BOOST_TEST(pool.stats().adopted == 0u);
  BOOST_TEST(pool.stats().released == 0u);
  return pool.peak_total_bytes();
}

}  // namespace

BOOST_AUTO_TEST_CASE(bench_mixed_pattern_replayed) {
  const double before = static_cast<double>(replay_mixed(false)) / MiB;
  const double now = static_cast<double>(replay_mixed(true)) / MiB;
  BOOST_TEST_MESSAGE("mixed pattern: " << before << " MiB at the peak before, " << now << " now");
  BOOST_TEST(before == 1474.4, boost::test_tools::tolerance(0.001));
  BOOST_TEST(now == 1336.0, boost::test_tools::tolerance(0.001));
}

BOOST_AUTO_TEST_CASE(soak_holds_at_most_4x_the_peak_in_use) {
  for (int streams_n : {1, 8, 32}) {
    const soak_result r = soak(streams_n, 2000, true);
    BOOST_TEST(r.ratio <= 4.0);
    BOOST_TEST(r.ratio <= 3.05);  // the budget, give or take the last segment
    // Moves are the exception: at most one per stream and round.
    BOOST_TEST(r.adopted <= static_cast<std::size_t>(streams_n) * 2000u);
    BOOST_TEST(r.released <= 100u);
  }
  // The test can fail: without the budget the same soak held far more.
  BOOST_TEST(soak(32, 2000, false).ratio > 4.0);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(memory_limit_setting)

BOOST_AUTO_TEST_CASE(parses_bytes_and_percentages) {
  using cupp::cuda::detail::parse_memory_limit;
  BOOST_TEST(parse_memory_limit(nullptr, 1000) == 0u);
  BOOST_TEST(parse_memory_limit("", 1000) == 0u);
  BOOST_TEST(parse_memory_limit("1073741824", 1000) == 1073741824u);
  BOOST_TEST(parse_memory_limit("50%", 1000) == 500u);
  BOOST_TEST(parse_memory_limit("12.5%", 8000) == 1000u);
  BOOST_CHECK_THROW(parse_memory_limit("lots", 1000), cupp::value_error);
  BOOST_CHECK_THROW(parse_memory_limit("-5", 1000), cupp::value_error);
  BOOST_CHECK_THROW(parse_memory_limit("150%", 1000), cupp::value_error);
  BOOST_CHECK_THROW(parse_memory_limit("10GB", 1000), cupp::value_error);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(staged_copies)

BOOST_AUTO_TEST_CASE(team_steps_run_in_order_with_every_share) {
  for (int team : {1, 2, 3, 8}) {
    const std::size_t steps = 7, len = 1000;
    std::vector<std::vector<int>> covered(steps, std::vector<int>(len, 0));
    std::vector<std::size_t> order;
    cupp::detail::run_team(
        team, steps, 0,
        [&](std::size_t i, int t, int n) {
          auto [b, e] = cupp::detail::share(len, t, n);
          for (std::size_t k = b; k < e; ++k) covered[i][k] += 1;
        },
        [&](std::size_t i) {
          // Every member finished step i before this runs.
          for (std::size_t k = 0; k < len; ++k)
            if (covered[i][k] != 1) throw std::runtime_error("step not complete");
          order.push_back(i);
        });
    std::vector<std::size_t> want(steps);
    std::iota(want.begin(), want.end(), std::size_t{0});
    BOOST_TEST(order == want);
  }
}

BOOST_AUTO_TEST_CASE(team_reports_the_first_error) {
  int calls = 0;
  BOOST_CHECK_THROW(cupp::detail::run_team(
                        4, 10, 0, [](std::size_t, int, int) {},
                        [&](std::size_t i) {
                          ++calls;
                          if (i == 2) throw std::runtime_error("copy failed");
                        }),
                    std::runtime_error);
  BOOST_TEST(calls == 3);
}

BOOST_AUTO_TEST_CASE(shares_cover_the_range_exactly) {
  for (std::size_t len : {0u, 1u, 63u, 64u, 65u, 1000u, 4096u, 100003u})
    for (int team : {1, 2, 5, 8}) {
      std::size_t total = 0, next = 0;
      for (int t = 0; t < team; ++t) {
        auto [b, e] = cupp::detail::share(len, t, team);
        BOOST_TEST(b == std::min(next, len));
        total += e - b;
        next = e;
      }
      BOOST_TEST(total == len);
    }
}

BOOST_AUTO_TEST_SUITE_END()
