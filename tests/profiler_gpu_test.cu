// Memory hooks and profiling on a real GPU: every allocation and free of a
// sequence of array operations reaches the hooks with exact sizes and in
// order (the pool's 2 MiB segments for small arrays, blocks of their own for
// large ones); nested scopes; a hook on another thread sees nothing of this
// one; the uncached and cudaMallocAsync allocators report too; the line
// profiler under array operations; benchmark's GPU times on the current
// stream; NVTX ranges under nvcc.
#include <cupp/creation.hpp>
#include <cupp/cuda/memory.hpp>
#include <cupp/elementwise.hpp>
#include <cupp/manipulation.hpp>
#include <cupp/profiler.hpp>
#include <cupp/ufunc.hpp>

#include <condition_variable>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "cupp_test.hpp"

namespace cc = cupp::cuda;
namespace prof = cupp::profiler;

namespace {

// Spins for `ns` nanoseconds of the GPU's global timer: work of a known
// length whatever the clock rate.
__global__ void spin_ns(unsigned long long ns) {
  unsigned long long start = 0, now = 0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (now - start < ns);
}

// Events as lines with pointers named in order of appearance (p0, p1, ...).
struct recording_hook : cc::memory_hook {
  std::vector<std::string> events;
  std::vector<void*> pointers;
  std::string name(void* p) {
    if (!p) return "null";
    for (std::size_t i = 0; i < pointers.size(); ++i)
      if (pointers[i] == p) return "p" + std::to_string(i);
    pointers.push_back(p);
    return "p" + std::to_string(pointers.size() - 1);
  }
  static std::string n(std::size_t v) { return std::to_string(v); }
  void alloc_preprocess(int d, std::size_t m) override {
    events.push_back("alloc_pre " + n(d) + " " + n(m));
  }
  void alloc_postprocess(int d, std::size_t m, void* p) override {
    events.push_back("alloc_post " + n(d) + " " + n(m) + " " + name(p));
  }
  void malloc_preprocess(int d, std::size_t s, std::size_t m) override {
    events.push_back("malloc_pre " + n(d) + " " + n(s) + " " + n(m));
  }
  void malloc_postprocess(int d, std::size_t s, std::size_t m, void* p) override {
    events.push_back("malloc_post " + n(d) + " " + n(s) + " " + n(m) + " " + name(p));
  }
  void free_preprocess(int d, void* p, std::size_t m) override {
    events.push_back("free_pre " + n(d) + " " + name(p) + " " + n(m));
  }
  void free_postprocess(int d, void* p, std::size_t m) override {
    events.push_back("free_post " + n(d) + " " + name(p) + " " + n(m));
  }
};

using lines = std::vector<std::string>;

std::string dev() {
  return std::to_string(cc::runtime::getDevice());
}

// x, y: 1000 float32 filled; z = x * y + 1; a reshaped view of z (no
// memory); a 2 MiB float64 array (a block of its own: over the 1 MiB of
// requests that share segments). All freed in reverse order at the end.
void array_sequence() {
  cupp::ndarray<float> x = cupp::empty<float>({1000});
  cupp::ndarray<float> y = cupp::empty<float>({1000});
  cupp::copyto(x, 2.0);
  cupp::copyto(y, 3.0);
  cupp::ndarray<float> z = x * y + 1;
  auto v = z.reshape({10, 100});
  cupp::ndarray<double> big = cupp::empty<double>({std::int64_t{1} << 18});
  BOOST_TEST(v.item(9, 99) == 7.0f);
}

lines array_sequence_events(const std::string& d) {
  return {"malloc_pre " + d + " 4000 4096",       "alloc_pre " + d + " 2097152",
          "alloc_post " + d + " 2097152 p0",      "malloc_post " + d + " 4000 4096 p0",
          "malloc_pre " + d + " 4000 4096",       "malloc_post " + d + " 4000 4096 p1",
          "malloc_pre " + d + " 4000 4096",       "malloc_post " + d + " 4000 4096 p2",
          "malloc_pre " + d + " 2097152 2097152", "alloc_pre " + d + " 2097152",
          "alloc_post " + d + " 2097152 p3",      "malloc_post " + d + " 2097152 2097152 p3",
          "free_pre " + d + " p3 2097152",        "free_post " + d + " p3 2097152",
          "free_pre " + d + " p2 4096",           "free_post " + d + " p2 4096",
          "free_pre " + d + " p1 4096",           "free_post " + d + " p1 4096",
          "free_pre " + d + " p0 4096",           "free_post " + d + " p0 4096"};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(hooks)

BOOST_AUTO_TEST_CASE(see_every_allocation_and_free_of_array_operations) {
  cc::MemoryPool pool;  // fresh: nothing cached
  cc::using_allocator use(pool.as_allocator());
  recording_hook h;
  {
    auto on = h.activate();
    array_sequence();
  }
  BOOST_TEST(h.events == array_sequence_events(dev()), boost::test_tools::per_element());
  BOOST_TEST(pool.used_bytes() == 0u);
  BOOST_TEST(pool.total_bytes() == 2u * 2097152u);
  // Run again: everything comes from the cache, no alloc events.
  recording_hook again;
  {
    cc::memory_hook_scope on(again);
    array_sequence();
  }
  std::size_t allocs = 0, mallocs = 0, frees = 0;
  for (const auto& e : again.events) {
    allocs += e.rfind("alloc_", 0) == 0;
    mallocs += e.rfind("malloc_post", 0) == 0;
    frees += e.rfind("free_post", 0) == 0;
  }
  BOOST_TEST(allocs == 0u);
  BOOST_TEST(mallocs == 4u);
  BOOST_TEST(frees == 4u);
}

BOOST_AUTO_TEST_CASE(nested_scopes_both_see_the_inner_part) {
  cc::MemoryPool pool;
  cc::using_allocator use(pool.as_allocator());
  recording_hook outer, inner;
  cc::memory_hook_scope on_outer(outer);
  cupp::ndarray<float> a = cupp::empty<float>({256});  // 1024 bytes, a new segment
  {
    cc::memory_hook_scope on_inner(inner);
    cupp::ndarray<float> b = cupp::empty<float>({512});  // 2048 bytes from the segment
  }
  const std::string d = dev();
  BOOST_TEST(
      inner.events == (lines{"malloc_pre " + d + " 2048 2048", "malloc_post " + d + " 2048 2048 p0",
                             "free_pre " + d + " p0 2048", "free_post " + d + " p0 2048"}),
      boost::test_tools::per_element());
  BOOST_TEST(outer.events.size() == 8u);
  BOOST_TEST(outer.events[0] == "malloc_pre " + d + " 1024 1024");
  BOOST_TEST(outer.events[1] == "alloc_pre " + d + " 2097152");
  BOOST_TEST(outer.events[4] == "malloc_pre " + d + " 2048 2048");
}

BOOST_AUTO_TEST_CASE(a_hook_installed_on_another_thread_sees_nothing_of_this_one) {
  cc::MemoryPool pool;
  cc::using_allocator use(pool.as_allocator());
  recording_hook there, here;
  std::mutex m;
  std::condition_variable cv;
  int stage = 0;  // 1: the other thread's hook is on; 2: this thread is done
  const int device = cc::runtime::getDevice();
  std::thread other([&] {
    cc::runtime::setDevice(device);
    cc::memory_hook_scope on(there);
    std::unique_lock lock(m);
    stage = 1;
    cv.notify_all();
    cv.wait(lock, [&] { return stage == 2; });
  });
  {
    std::unique_lock lock(m);
    cv.wait(lock, [&] { return stage == 1; });
  }
  {
    cc::memory_hook_scope on(here);
    array_sequence();
  }
  {
    std::lock_guard lock(m);
    stage = 2;
  }
  cv.notify_all();
  other.join();
  BOOST_TEST(there.events.empty());
  BOOST_TEST(here.events == array_sequence_events(dev()), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(uncached_and_async_allocators_report) {
  const std::string d = dev();
  recording_hook h;
  {
    cc::using_allocator use(cc::malloc_allocator());
    cc::memory_hook_scope on(h);
    cupp::ndarray<float> a = cupp::empty<float>({1000});
  }
  BOOST_TEST(
      h.events == (lines{"malloc_pre " + d + " 4000 4000", "alloc_pre " + d + " 4000",
                         "alloc_post " + d + " 4000 p0", "malloc_post " + d + " 4000 4000 p0",
                         "free_pre " + d + " p0 4000", "free_post " + d + " p0 4000"}),
      boost::test_tools::per_element());
  if (!cc::runtime::getDeviceProperties(cc::runtime::getDevice()).memoryPoolsSupported) return;
  recording_hook a;
  {
    cc::using_allocator use(cc::malloc_async_allocator());
    cc::memory_hook_scope on(a);
    cupp::ndarray<float> b = cupp::empty<float>({1000});
  }
  BOOST_TEST(
      a.events == (lines{"malloc_pre " + d + " 4000 4000", "malloc_post " + d + " 4000 4000 p0",
                         "free_pre " + d + " p0 4000", "free_post " + d + " p0 4000"}),
      boost::test_tools::per_element());
  cudaDeviceSynchronize();
}

BOOST_AUTO_TEST_CASE(debug_print_and_line_profile_under_array_operations) {
  cc::MemoryPool pool;
  cc::using_allocator use(pool.as_allocator());
  std::ostringstream out;
  cc::debug_print_hook printer(out);
  cc::line_profile_hook lp;
  auto on_print = printer.activate();
  auto on_lp = lp.activate();
  std::string site;
  {
    cc::alloc_site here("sequence");
    site = here.name();
    array_sequence();
  }
  std::size_t n_lines = 0;
  for (char c : out.str()) n_lines += c == '\n';
  BOOST_TEST(n_lines == 2u + 4u + 4u);  // two allocs, four mallocs, four frees
  BOOST_TEST(out.str().rfind(
                 "{\"hook\":\"alloc\",\"device_id\":" + dev() + ",\"mem_size\":2097152,", 0) == 0u);
  const auto rows = lp.report();
  BOOST_TEST_REQUIRE(rows.size() == 1u);
  BOOST_TEST(rows[0].site == site);
  BOOST_TEST(rows[0].n_malloc == 4u);
  BOOST_TEST(rows[0].requested_bytes == 3u * 4000u + 2097152u);
  BOOST_TEST(rows[0].used_bytes == 3u * 4096u + 2097152u);
  BOOST_TEST(rows[0].n_alloc == 2u);
  BOOST_TEST(rows[0].acquired_bytes == 2u * 2097152u);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(profiling)

BOOST_AUTO_TEST_CASE(benchmark_gpu_times_follow_the_work_on_the_current_stream) {
  cc::Stream s(/*non_blocking=*/true);
  auto on = s.scope();
  const int device = cc::runtime::getDevice();
  auto launch = [&](unsigned long long ns) {
    return [&s, ns] {
      spin_ns<<<1, 1, 0, s.handle()>>>(ns);
      cc::check(cudaGetLastError(), "spin_ns");
    };
  };
  const auto short_run = prof::benchmark(launch(100'000), {.name = "spin_100us", .n_repeat = 20});
  const auto long_run = prof::benchmark(launch(1'000'000), {.name = "spin_1ms", .n_repeat = 20});
  BOOST_TEST_MESSAGE(short_run);
  BOOST_TEST_MESSAGE(long_run);
  BOOST_TEST((short_run.devices == std::vector<int>{device}));
  BOOST_TEST_REQUIRE(short_run.gpu_times.size() == 1u);
  BOOST_TEST(short_run.gpu_times[0].size() == 20u);
  BOOST_TEST(long_run.cpu_times.size() == 20u);
  for (double t : short_run.gpu_times[0]) BOOST_TEST(t >= 100e-6);
  for (double t : long_run.gpu_times[0]) BOOST_TEST(t >= 1e-3);
  BOOST_TEST(long_run.median_gpu() > 5 * short_run.median_gpu());
  // The launch returns long before the kernel ends.
  BOOST_TEST(long_run.median_cpu() < long_run.median_gpu());
  BOOST_TEST(long_run.to_string().find("GPU-" + std::to_string(device) + ":") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(nvtx_ranges_run_under_nvcc) {
  {
    prof::range r("profiler_gpu_test", 0xff0000ffu);
    prof::mark("launch");
    spin_ns<<<1, 1>>>(1000);
  }
  prof::range_push("sync");
  BOOST_TEST(cudaDeviceSynchronize() == cudaSuccess);
  prof::range_pop();
}

BOOST_AUTO_TEST_SUITE_END()
