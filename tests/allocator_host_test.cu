// The memory pools' bookkeeping (best fit, split, merge, stream arenas,
// limits, out-of-memory retry, deferred frees) with malloc as the upstream,
// and the host side of the staged transfers. Needs no GPU.
#include <cupp/cuda/memory.hpp>
#include <cupp/cuda/caching_allocator.hpp>
#include <cupp/detail/memory/transfer.hpp>

#include <atomic>
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
