// Device and pinned memory pools, limits, out-of-memory handling and the
// allocators a program can choose, on a real GPU.
#include <cupp/advanced_indexing.hpp>
#include <cupp/creation.hpp>
#include <cupp/cuda/memory.hpp>
#include <cupp/reductions.hpp>

#include <atomic>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <random>
#include <string>
#include <thread>

#include "cupp_test.hpp"

namespace {

__global__ void spin(long long cycles) {
  const long long start = clock64();
  while (clock64() - start < cycles) {
  }
}

cudaMemoryType memory_type(const void* p) {
  cudaPointerAttributes a{};
  BOOST_TEST_REQUIRE(cudaPointerGetAttributes(&a, p) == cudaSuccess);
  return a.type;
}

// Every test starts from an empty cache on the null stream.
struct clean_pool {
  clean_pool() { reset(); }
  ~clean_pool() { reset(); }
  static void reset() {
    cudaDeviceSynchronize();
    cupp::cuda::set_allocator();
    cupp::cuda::get_default_memory_pool().set_limit(0);
    cupp::cuda::get_default_memory_pool().free_all_blocks();
  }
};

bool env_limit_set() {
  return std::getenv("CUPP_GPU_MEMORY_LIMIT") != nullptr;
}

}  // namespace

BOOST_FIXTURE_TEST_SUITE(device_pool, clean_pool)

BOOST_AUTO_TEST_CASE(statistics_follow_allocations) {
  auto& pool = cupp::cuda::get_default_memory_pool();
  const std::size_t used0 = pool.used_bytes();
  {
    auto m = cupp::cuda::alloc(1000);
    BOOST_TEST(memory_type(m.get()) == cudaMemoryTypeDevice);
    BOOST_TEST(pool.used_bytes() == used0 + 1024);
    BOOST_TEST(reinterpret_cast<std::uintptr_t>(m.get()) % 256 == 0u);
  }
  BOOST_TEST(pool.used_bytes() == used0);
  BOOST_TEST(pool.free_bytes() >= 1024u);
  BOOST_TEST(pool.n_free_blocks() >= 1u);
  pool.free_all_blocks();
  BOOST_TEST(pool.total_bytes() == pool.used_bytes());
  BOOST_TEST(cupp::cuda::alloc(0) == nullptr);
}

BOOST_AUTO_TEST_CASE(arrays_draw_from_the_pool_and_reuse_it) {
  auto& pool = cupp::cuda::get_default_memory_pool();
  const float* first;
  {
    auto a = cupp::zeros<float>({1 << 20}).eval();
    first = a.data();
    BOOST_TEST(pool.used_bytes() >= std::size_t{4} << 20);
  }
  auto b = cupp::empty<float>({1 << 20});
  BOOST_TEST(b.data() == first);  // same size, same stream: the cached block
}

BOOST_AUTO_TEST_CASE(reuse_is_per_stream) {
  void* on_null;
  { on_null = cupp::cuda::alloc(4096).get(); }
  cupp::cuda::Stream s(true);
  {
    auto scope = s.scope();
    auto m = cupp::cuda::alloc(4096);
    BOOST_TEST(m.get() != on_null);  // another stream: not handed out
    void* on_s = m.get();
    m.reset();
    auto again = cupp::cuda::alloc(4096);
    BOOST_TEST(again.get() == on_s);
  }
  auto back = cupp::cuda::alloc(4096);
  BOOST_TEST(back.get() == on_null);
  cupp::cuda::get_default_memory_pool().free_all_blocks(s);
}

BOOST_AUTO_TEST_CASE(limits) {
  auto& pool = cupp::cuda::get_default_memory_pool();
  auto keep = cupp::asarray(std::vector<int>{1, 2, 3, 4});
  pool.set_limit(std::size_t{1} << 20);
  BOOST_TEST(pool.get_limit() == std::size_t{1} << 20);
  try {
    auto big = cupp::empty<std::uint8_t>({2 << 20});
    BOOST_FAIL("allocation past the limit succeeded");
  } catch (const cupp::out_of_memory_error& e) {
    BOOST_TEST(std::string(e.what()).starts_with("Out of memory allocating 2,097,152 bytes"));
    BOOST_TEST(std::string(e.what()).find("limit set to 1,048,576 bytes") != std::string::npos);
    BOOST_TEST(e.requested_bytes() == std::size_t{2} << 20);
    BOOST_TEST(e.limit_bytes() == std::size_t{1} << 20);
  }
  BOOST_TEST(keep.to_vector() == (std::vector<int>{1, 2, 3, 4}));  // untouched
  BOOST_CHECK_THROW(pool.set_limit(100), cupp::value_error);       // below the bytes in use
  BOOST_TEST(pool.get_limit() == std::size_t{1} << 20);
  BOOST_CHECK_THROW(pool.set_limit_fraction(1.5), cupp::value_error);
  BOOST_CHECK_THROW(pool.set_limit_fraction(-0.1), cupp::value_error);
  pool.set_limit_fraction(0.5);
  const auto total = cupp::cuda::runtime::getDeviceProperties(0).totalGlobalMem;
  BOOST_TEST(pool.get_limit() == static_cast<std::size_t>(0.5 * static_cast<double>(total)));
  pool.set_limit(0);
}

BOOST_AUTO_TEST_CASE(out_of_device_memory_frees_the_cache_then_throws) {
  auto& pool = cupp::cuda::get_default_memory_pool();
  { auto cached = cupp::cuda::alloc(std::size_t{64} << 20); }
  BOOST_TEST(pool.free_bytes() >= std::size_t{64} << 20);
  const auto total = cupp::cuda::runtime::getDeviceProperties(0).totalGlobalMem;
  try {
    auto m = cupp::cuda::alloc(total * 2);
    BOOST_FAIL("allocated twice the device's memory");
  } catch (const cupp::out_of_memory_error& e) {
    BOOST_TEST(std::string(e.what()).starts_with("Out of memory allocating "));
    BOOST_TEST(std::string(e.what()).find("on the device 0") != std::string::npos);
  }
  BOOST_TEST(pool.free_bytes() == 0u);            // the cache was given back before the retry
  BOOST_TEST(cudaGetLastError() == cudaSuccess);  // no sticky error left behind
  auto after = cupp::zeros<float>({256}).eval();
  BOOST_TEST(after.to_vector() == std::vector<float>(256, 0.0f));
}

BOOST_AUTO_TEST_CASE(pools_are_thread_safe) {
  auto& pool = cupp::cuda::get_default_memory_pool();
  const std::size_t used0 = pool.used_bytes();
  std::vector<std::jthread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([t, &failures] {
      cupp::cuda::Stream s(true);
      auto scope = s.scope();
      std::vector<cupp::cuda::memory_ptr> live;
      for (int i = 0; i < 500; ++i) {
        live.push_back(cupp::cuda::alloc(static_cast<std::size_t>(512 * (1 + (i * 7 + t) % 64))));
        if (live.size() > 8) live.erase(live.begin() + (i % 8));
      }
      if (cudaGetLastError() != cudaSuccess) ++failures;
    });
  threads.clear();
  BOOST_TEST(failures.load() == 0);
  BOOST_TEST(pool.used_bytes() == used0);
}

BOOST_AUTO_TEST_CASE(every_device_has_its_own_pool) {
  const int n = cupp::cuda::runtime::getDeviceCount();
  if (n < 2) {
    BOOST_TEST_MESSAGE("one device: per-device pools not exercised");
    return;
  }
  auto& pool = cupp::cuda::get_default_memory_pool();
  const std::size_t used0 = pool.used_bytes();
  auto scope = cupp::cuda::Device(1).scope();
  pool.free_all_blocks();
  const std::size_t used1 = pool.used_bytes();
  auto a = cupp::zeros<float>({1 << 20}).eval();
  BOOST_TEST(a.device_id() == 1);
  cudaPointerAttributes attr{};
  BOOST_TEST_REQUIRE(cudaPointerGetAttributes(&attr, a.data()) == cudaSuccess);
  BOOST_TEST(attr.device == 1);
  BOOST_TEST(pool.used_bytes() == used1 + (std::size_t{4} << 20));
  {
    auto back = cupp::cuda::Device(0).scope();
    BOOST_TEST(pool.used_bytes() == used0);  // device 0's books are separate
  }
  pool.set_limit(std::size_t{8} << 20);
  BOOST_CHECK_THROW(cupp::zeros<float>({4 << 20}).eval(), cupp::out_of_memory_error);
  pool.set_limit(0);
}

BOOST_AUTO_TEST_CASE(a_pool_of_managed_memory) {
  cupp::cuda::MemoryPool managed(/*managed=*/true);
  auto m = managed.malloc(4096);
  BOOST_TEST(memory_type(m.get()) == cudaMemoryTypeManaged);
  BOOST_TEST(managed.used_bytes() == 4096u);
  m.reset();
  BOOST_TEST(managed.n_free_blocks() == 1u);
  managed.free_all_blocks();
  BOOST_TEST(managed.total_bytes() == 0u);
}

// The soak behind the pool's budget: 1, 8 and 32 threads, each on a stream
// of its own, each round making an input of 1 to 300,000 doubles, an
// element-wise result, its sum and a gather of it at random indices, every
// value checked against the host, each result kept three rounds (lifetimes
// interleave across rounds and threads). The pool held up to 20x its peak
// in use under this workload; its budget keeps it near 3x.
BOOST_AUTO_TEST_CASE(soak_holds_at_most_4x_the_peak_in_use) {
  auto& pool = cupp::cuda::get_default_memory_pool();
  BOOST_TEST(pool.get_budget_ratio() == 3.0);
  for (const int threads : {1, 8, 32}) {
    constexpr int rounds = 120;
    clean_pool::reset();
    pool.reset_peak();
    const std::size_t used0 = pool.used_bytes();
    const auto before = pool.pool().core().stats();
    std::atomic<long> wrong{0};
    std::mutex error_mutex;
    std::string first_error;
    {
      std::vector<std::jthread> workers;
      for (int t = 0; t < threads; ++t)
        workers.emplace_back([&, t] {
          try {
            cupp::cuda::Stream s(true);
            auto scope = s.scope();
            std::mt19937_64 rng(static_cast<std::uint64_t>(1000 * threads + t));
            std::uniform_int_distribution<std::int64_t> doubles(1, 300'000);
            std::deque<cupp::ndarray<double>> kept;
            for (int r = 0; r < rounds; ++r) {
              const std::int64_t n = doubles(rng);
              std::vector<double> hx(static_cast<std::size_t>(n));
              for (std::int64_t i = 0; i < n; ++i)
                hx[static_cast<std::size_t>(i)] = static_cast<double>((i * 7 + r + t) % 1024 - 512);
              // Integers below 2^53 throughout: the sum is exact in any order.
              const auto x = cupp::asarray(hx);
              cupp::ndarray<double> y = x * 2.0 + 1.0;
              double want = 0;
              for (double v : hx) want += 2 * v + 1;
              if (cupp::sum(y).item() != want) ++wrong;
              std::vector<std::int64_t> hi(static_cast<std::size_t>(doubles(rng)));
              for (auto& i : hi)
                i = static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(n));
              const auto got = cupp::take(y, cupp::asarray(hi)).to_vector();
              for (std::size_t k = 0; k < hi.size(); ++k)
                if (got[k] != 2 * hx[static_cast<std::size_t>(hi[k])] + 1) {
                  ++wrong;
                  break;
                }
              kept.push_back(std::move(y));
              if (kept.size() > 3) kept.pop_front();
            }
            s.synchronize();
          } catch (const std::exception& e) {
            std::lock_guard lock(error_mutex);
            if (first_error.empty()) first_error = e.what();
          }
        });
    }
    cudaDeviceSynchronize();
    BOOST_TEST(first_error == "");
    BOOST_TEST(wrong.load() == 0);
    BOOST_TEST(pool.used_bytes() == used0);  // nothing leaked
    const auto after = pool.pool().core().stats();
    const double ratio =
        static_cast<double>(pool.peak_total_bytes()) / static_cast<double>(pool.peak_used_bytes());
    BOOST_TEST_MESSAGE(threads << " threads: held " << pool.peak_total_bytes()
                               << " bytes at the peak for " << pool.peak_used_bytes() << " in use ("
                               << ratio << "x), " << after.adopted - before.adopted
                               << " moves between streams, " << after.released - before.released
                               << " segments given back");
    BOOST_TEST(ratio <= 4.0);
  }
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_FIXTURE_TEST_SUITE(allocators, clean_pool)

BOOST_AUTO_TEST_CASE(plain_malloc) {
  auto& pool = cupp::cuda::get_default_memory_pool();
  const std::size_t used0 = pool.used_bytes();
  cupp::cuda::set_allocator(cupp::cuda::malloc_allocator());
  auto a = cupp::zeros<double>({1000}).eval();
  BOOST_TEST(pool.used_bytes() == used0);  // not from the pool
  BOOST_TEST(memory_type(a.data()) == cudaMemoryTypeDevice);
  BOOST_TEST(a.to_vector() == std::vector<double>(1000, 0.0));
  cupp::cuda::set_allocator();
  auto b = cupp::zeros<double>({1000}).eval();
  BOOST_TEST(pool.used_bytes() > used0);
}

BOOST_AUTO_TEST_CASE(managed) {
  cupp::cuda::set_allocator(cupp::cuda::managed_allocator());
  auto a = cupp::asarray(std::vector<float>{1, 2, 3});
  BOOST_TEST(memory_type(a.data()) == cudaMemoryTypeManaged);
  BOOST_TEST(a.to_vector() == (std::vector<float>{1, 2, 3}));
}

BOOST_AUTO_TEST_CASE(stream_ordered_async_pool) {
  cupp::cuda::MemoryAsyncPool async;
  const std::size_t used0 = async.used_bytes();
  {
    cupp::cuda::using_allocator scope(cupp::cuda::malloc_async_allocator());
    auto a = cupp::asarray(std::vector<int>{5, 6, 7});
    BOOST_TEST(async.used_bytes() > used0);
    BOOST_TEST(a.to_vector() == (std::vector<int>{5, 6, 7}));
  }
  cudaDeviceSynchronize();
  BOOST_TEST(async.used_bytes() == used0);
  BOOST_TEST(async.total_bytes() >= async.used_bytes());
  BOOST_TEST(async.peak_total_bytes() >= async.total_bytes());
  async.free_all_blocks();
}

BOOST_AUTO_TEST_CASE(user_functions) {
  std::atomic<int> allocs{0}, frees{0};
  std::atomic<cudaStream_t> seen{nullptr};
  cupp::cuda::Stream s(true);
  auto fn = cupp::cuda::user_allocator(
      [&](std::size_t n, cudaStream_t st) -> void* {
        ++allocs;
        seen = st;
        void* p = nullptr;
        return cudaMalloc(&p, n) == cudaSuccess ? p : nullptr;
      },
      [&](void* p, std::size_t, cudaStream_t st) {
        ++frees;
        BOOST_TEST(st == seen.load());
        cudaFree(p);
      });
  {
    cupp::cuda::using_allocator use(fn);
    auto scope = s.scope();
    auto a = cupp::zeros<float>({10}).eval();
    BOOST_TEST(allocs.load() == 1);
    BOOST_TEST(seen.load() == s.handle());
    BOOST_TEST(a.get().to_vector() == std::vector<float>(10, 0.0f));
  }
  BOOST_TEST(frees.load() == 1);
  // A user allocator that runs dry makes arrays throw out_of_memory_error.
  cupp::cuda::using_allocator dry(
      cupp::cuda::user_allocator([](std::size_t, cudaStream_t) -> void* { return nullptr; },
                                 [](void*, std::size_t, cudaStream_t) {}));
  BOOST_CHECK_THROW(cupp::empty<float>({10}), cupp::out_of_memory_error);
}

BOOST_AUTO_TEST_CASE(using_allocator_is_per_thread) {
  auto& pool = cupp::cuda::get_default_memory_pool();
  cupp::cuda::using_allocator scope(cupp::cuda::malloc_allocator());
  std::size_t before = pool.used_bytes(), during = 0;
  std::thread t([&] {
    auto a = cupp::empty<std::uint8_t>({4096});
    during = pool.used_bytes();
  });
  t.join();
  BOOST_TEST(during == before + 4096);  // the other thread used the pool
  const std::size_t mine = pool.used_bytes();
  auto b = cupp::empty<std::uint8_t>({4096});  // this thread: plain cudaMalloc
  BOOST_TEST(pool.used_bytes() == mine);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(pinned_pool)

BOOST_AUTO_TEST_CASE(page_locked_and_cached) {
  auto& pool = cupp::cuda::get_default_pinned_memory_pool();
  pool.free_all_blocks();
  const std::size_t used0 = pool.used_bytes();
  void* first;
  {
    auto m = cupp::cuda::alloc_pinned_memory(1000);
    first = m.get();
    BOOST_TEST(memory_type(m.get()) == cudaMemoryTypeHost);
    BOOST_TEST(pool.used_bytes() == used0 + 1024);
  }
  BOOST_TEST(pool.n_free_blocks() >= 1u);
  auto again = cupp::cuda::alloc_pinned_memory(1024);
  BOOST_TEST(again.get() == first);
  again.reset();
  pool.free_all_blocks();
  BOOST_TEST(pool.total_bytes() == pool.used_bytes());
  auto h = cupp::host::zeros_pinned<double>({3, 3});
  BOOST_TEST(memory_type(h.data()) == cudaMemoryTypeHost);
  BOOST_TEST(h.flags().owndata);
}

// A pinned block that an asynchronous copy still uses is not handed out
// again when its owner lets go early.
BOOST_AUTO_TEST_CASE(blocks_in_flight_are_not_reused) {
  auto& pool = cupp::cuda::get_default_pinned_memory_pool();
  pool.free_all_blocks();
  cupp::cuda::Stream s(true);
  auto d = cupp::zeros<float>({1 << 16}).eval();
  void* busy_block;
  {
    auto h = cupp::host::empty_pinned<float>({1 << 16});
    busy_block = h.data();
    spin<<<1, 1, 0, s.handle()>>>(200'000'000);
    d.get_into(h, {.stream = s, .blocking = false});
  }  // h dropped while the copy waits behind the spinning kernel
  auto other = cupp::cuda::alloc_pinned_memory(std::size_t{4} << 16);
  BOOST_TEST(other.get() != busy_block);
  other.reset();
  s.synchronize();
  auto reused = cupp::cuda::alloc_pinned_memory(std::size_t{4} << 16);
  BOOST_TEST(pool.n_free_blocks() >= 1u);
  (void)reused;
}

BOOST_AUTO_TEST_SUITE_END()

// Run as its own ctest entry with CUPP_GPU_MEMORY_LIMIT=1048576.
BOOST_AUTO_TEST_SUITE(env_limit)

BOOST_AUTO_TEST_CASE(read_from_the_environment,
                     *boost::unit_test::precondition([](boost::unit_test::test_unit_id) {
                       return env_limit_set();
                     })) {
  auto& pool = cupp::cuda::get_default_memory_pool();
  BOOST_TEST(pool.get_limit() == std::size_t{1} << 20);
  cupp::cuda::MemoryPool fresh;
  BOOST_TEST(fresh.get_limit() == std::size_t{1} << 20);
  auto small = cupp::zeros<std::uint8_t>({1000}).eval();
  BOOST_CHECK_THROW(cupp::zeros<std::uint8_t>({2 << 20}).eval(), cupp::out_of_memory_error);
}

BOOST_AUTO_TEST_SUITE_END()
