// Memory hooks and profiling without a GPU: the hook stack of a thread, the
// events a pool's bookkeeping (caching_allocator, with malloc as the
// upstream) reports in order and with their sizes, the printed lines of
// debug_print_hook, the line profiler's sites and report, and benchmark
// timing a host function (CPU times only) and printing its result.
#include <cupp/cuda/caching_allocator.hpp>
#include <cupp/cuda/memory_hook.hpp>
#include <cupp/profiler.hpp>

#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

using cupp::detail::caching_allocator;
namespace cc = cupp::cuda;
namespace prof = cupp::profiler;

namespace {

// Every event as a line: "malloc_pre 0 1000 1024", with pointers named
// by the order they were first seen (p0, p1, ...) so that tests can spell
// the expected sequence.
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
  void add(std::string s) { events.push_back(std::move(s)); }
  static std::string n(std::size_t v) { return std::to_string(v); }

  void alloc_preprocess(int d, std::size_t m) override { add("alloc_pre " + n(d) + " " + n(m)); }
  void alloc_postprocess(int d, std::size_t m, void* p) override {
    add("alloc_post " + n(d) + " " + n(m) + " " + name(p));
  }
  void malloc_preprocess(int d, std::size_t s, std::size_t m) override {
    add("malloc_pre " + n(d) + " " + n(s) + " " + n(m));
  }
  void malloc_postprocess(int d, std::size_t s, std::size_t m, void* p) override {
    add("malloc_post " + n(d) + " " + n(s) + " " + n(m) + " " + name(p));
  }
  void free_preprocess(int d, void* p, std::size_t m) override {
    add("free_pre " + n(d) + " " + name(p) + " " + n(m));
  }
  void free_postprocess(int d, void* p, std::size_t m) override {
    add("free_post " + n(d) + " " + name(p) + " " + n(m));
  }
};

// A malloc upstream that can be told to have nothing.
struct upstream {
  bool dry = false;
  caching_allocator::upstream_t hooks() {
    return {.allocate = [this](std::size_t n) -> void* { return dry ? nullptr : std::malloc(n); },
            .deallocate = [](void* p, std::size_t) { std::free(p); },
            .token_ready = {},
            .token_release = {}};
  }
};

using lines = std::vector<std::string>;

}  // namespace

BOOST_AUTO_TEST_SUITE(hook_stack)

BOOST_AUTO_TEST_CASE(scopes_nest_and_unwind) {
  recording_hook a, b;
  BOOST_TEST(cc::get_memory_hooks().empty());
  {
    cc::memory_hook_scope on_a(a);
    BOOST_TEST((cc::get_memory_hooks() == std::vector<cc::memory_hook*>{&a}));
    {
      auto on_b = b.activate();
      BOOST_TEST((cc::get_memory_hooks() == std::vector<cc::memory_hook*>{&a, &b}));
    }
    BOOST_TEST((cc::get_memory_hooks() == std::vector<cc::memory_hook*>{&a}));
  }
  BOOST_TEST(cc::get_memory_hooks().empty());
}

BOOST_AUTO_TEST_CASE(another_threads_hooks_are_its_own) {
  recording_hook mine;
  cc::memory_hook_scope on(mine);
  std::size_t seen_there = 99;
  std::thread([&] { seen_there = cc::get_memory_hooks().size(); }).join();
  BOOST_TEST(seen_there == 0u);
  BOOST_TEST(cc::get_memory_hooks().size() == 1u);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(pool_events)

BOOST_AUTO_TEST_CASE(malloc_encloses_the_upstream_alloc_and_reuse_takes_none) {
  upstream up;
  caching_allocator pool(up.hooks());
  pool.report_to_hooks(3);
  recording_hook h;
  {
    cc::memory_hook_scope on(h);
    auto* c = pool.allocate(1000, 0);
    pool.deallocate(c);
    auto* d = pool.allocate(600, 0);  // the cached chunk again
    pool.deallocate(d);
  }
  BOOST_TEST(
      h.events == (lines{"malloc_pre 3 1000 1024", "alloc_pre 3 1024", "alloc_post 3 1024 p0",
                         "malloc_post 3 1000 1024 p0", "free_pre 3 p0 1024", "free_post 3 p0 1024",
                         "malloc_pre 3 600 1024", "malloc_post 3 600 1024 p0", "free_pre 3 p0 1024",
                         "free_post 3 p0 1024"}),
      boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(small_requests_take_a_whole_segment_once) {
  upstream up;
  caching_allocator pool(up.hooks());
  pool.set_small_segments(1 << 20, 2 << 20);
  pool.report_to_hooks(0);
  recording_hook h;
  cc::memory_hook_scope on(h);
  auto* a = pool.allocate(100, 0);
  auto* b = pool.allocate(513, 0);
  BOOST_TEST(h.events == (lines{"malloc_pre 0 100 512", "alloc_pre 0 2097152",
                                "alloc_post 0 2097152 p0", "malloc_post 0 100 512 p0",
                                "malloc_pre 0 513 1024", "malloc_post 0 513 1024 p1"}),
             boost::test_tools::per_element());
  BOOST_TEST(static_cast<void*>(b->ptr) == static_cast<void*>(a->ptr + 512));
  pool.deallocate(a);
  pool.deallocate(b);
  BOOST_TEST(h.events.size() == 10u);
  BOOST_TEST(h.events[9] == "free_post 0 p1 1024");
}

BOOST_AUTO_TEST_CASE(nested_hooks_see_every_event_in_install_order) {
  upstream up;
  caching_allocator pool(up.hooks());
  pool.report_to_hooks(0);
  std::vector<std::string> order;
  struct tagged : cc::memory_hook {
    std::vector<std::string>* order;
    std::string tag;
    tagged(std::vector<std::string>* o, std::string t) : order(o), tag(std::move(t)) {}
    void malloc_preprocess(int, std::size_t, std::size_t) override { order->push_back(tag + "<"); }
    void malloc_postprocess(int, std::size_t, std::size_t, void*) override {
      order->push_back(tag + ">");
    }
  } outer(&order, "outer"), inner(&order, "inner");
  cc::memory_hook_scope a(outer);
  {
    cc::memory_hook_scope b(inner);
    pool.deallocate(pool.allocate(1, 0));
  }
  pool.deallocate(pool.allocate(1, 0));
  BOOST_TEST(order == (lines{"outer<", "inner<", "outer>", "inner>", "outer<", "outer>"}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(a_pool_not_reporting_calls_no_hook) {
  upstream up;
  caching_allocator pool(up.hooks());  // as the pinned host pool
  recording_hook h;
  cc::memory_hook_scope on(h);
  pool.deallocate(pool.allocate(4096, 0));
  BOOST_TEST(h.events.empty());
}

BOOST_AUTO_TEST_CASE(failures_report_null_pointers_then_throw) {
  upstream up;
  caching_allocator pool(up.hooks());
  pool.report_to_hooks(1);
  recording_hook h;
  cc::memory_hook_scope on(h);
  up.dry = true;  // the upstream is tried, the cache emptied, and tried again
  BOOST_CHECK_THROW(pool.allocate(5000, 0), cupp::out_of_memory_error);
  BOOST_TEST(h.events == (lines{"malloc_pre 1 5000 5120", "alloc_pre 1 5120",
                                "alloc_post 1 5120 null", "alloc_pre 1 5120",
                                "alloc_post 1 5120 null", "malloc_post 1 5000 5120 null"}),
             boost::test_tools::per_element());
  h.events.clear();
  up.dry = false;
  pool.set_limit(4096);  // over the limit: no upstream call at all
  BOOST_CHECK_THROW(pool.allocate(5000, 0), cupp::out_of_memory_error);
  BOOST_TEST(h.events == (lines{"malloc_pre 1 5000 5120", "malloc_post 1 5000 5120 null"}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(a_hook_on_another_thread_sees_nothing_of_this_one) {
  upstream up;
  caching_allocator pool(up.hooks());
  pool.report_to_hooks(0);
  recording_hook there, here;
  cc::memory_hook_scope on(here);
  std::thread([&] {
    cc::memory_hook_scope on_there(there);
    pool.deallocate(pool.allocate(512, 0));
  }).join();
  pool.deallocate(pool.allocate(2048, 0));
  BOOST_TEST(there.events.size() == 6u);
  BOOST_TEST(there.events[0] == "malloc_pre 0 512 512");
  BOOST_TEST(here.events.size() == 6u);
  BOOST_TEST(here.events[0] == "malloc_pre 0 2048 2048");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(provided_hooks)

BOOST_AUTO_TEST_CASE(debug_print_hook_writes_one_line_per_event) {
  upstream up;
  caching_allocator pool(up.hooks());
  pool.report_to_hooks(0);
  std::ostringstream out;
  cc::debug_print_hook printer(out);
  void* p = nullptr;
  {
    cc::memory_hook_scope on(printer);
    auto* c = pool.allocate(100, 0);
    p = c->ptr;
    pool.deallocate(c);
  }
  pool.deallocate(pool.allocate(100, 0));  // after the scope: not printed
  char hex[32];
  std::snprintf(hex, sizeof hex, "0x%llx",
                static_cast<unsigned long long>(reinterpret_cast<std::uintptr_t>(p)));
  const std::string h(hex);
  BOOST_TEST(
      out.str() ==
      "{\"hook\":\"alloc\",\"device_id\":0,\"mem_size\":512,\"mem_ptr\":\"" + h + "\"}\n" +
          "{\"hook\":\"malloc\",\"device_id\":0,\"size\":100,\"mem_size\":512,\"mem_ptr\":\"" + h +
          "\"}\n" + "{\"hook\":\"free\",\"device_id\":0,\"mem_size\":512,\"mem_ptr\":\"" + h +
          "\"}\n");
}

BOOST_AUTO_TEST_CASE(line_profile_hook_attributes_to_the_innermost_site) {
  upstream up;
  caching_allocator pool(up.hooks());
  pool.report_to_hooks(0);
  cc::line_profile_hook lp;
  cc::memory_hook_scope on(lp);
  std::string outer_name, inner_name;
  pool.deallocate(pool.allocate(100, 0));  // no site: 512 used, 512 acquired
  {
    cc::alloc_site outer("outer");
    outer_name = outer.name();
    pool.deallocate(pool.allocate(3000, 0));  // 3072 used and acquired
    {
      CUPP_ALLOC_SITE();
      inner_name = cc::alloc_site::current()->name();
      BOOST_TEST(cc::alloc_site::current()->outer() == &outer);
      pool.deallocate(pool.allocate(1000, 0));  // from the cached 3072: none acquired
      pool.deallocate(pool.allocate(1000, 0));
    }
    BOOST_TEST(cc::alloc_site::current() == &outer);
  }
  BOOST_TEST(cc::alloc_site::current() == nullptr);

  BOOST_TEST(outer_name.rfind("outer at ", 0) == 0u);
  BOOST_TEST(outer_name.find("profiler_host_test.cu:") != std::string::npos);
  BOOST_TEST(inner_name.find("line_profile_hook_attributes_to_the_innermost_site") !=
             std::string::npos);

  const auto rows = lp.report();
  BOOST_TEST_REQUIRE(rows.size() == 3u);
  BOOST_TEST(rows[0].site == outer_name);
  BOOST_TEST(rows[0].n_malloc == 1u);
  BOOST_TEST(rows[0].used_bytes == 3072u);
  BOOST_TEST(rows[0].acquired_bytes == 3072u);
  BOOST_TEST(rows[1].site == inner_name);
  BOOST_TEST(rows[1].n_malloc == 2u);
  BOOST_TEST(rows[1].requested_bytes == 2000u);
  BOOST_TEST(rows[1].used_bytes == 2048u);
  BOOST_TEST(rows[1].n_alloc == 0u);
  BOOST_TEST(rows[2].site == "(no alloc_site)");
  BOOST_TEST(rows[2].used_bytes == 512u);

  std::ostringstream out;
  lp.print_report(out);
  const std::string expected =
      "      used bytes  mallocs   acquired bytes  site\n"
      "            3072        1             3072  " +
      outer_name + "\n" + "            2048        2                0  " + inner_name + "\n" +
      "             512        1              512  (no alloc_site)\n"
      "            5632        4             3584  total\n";
  BOOST_TEST(out.str() == expected);

  lp.clear();
  BOOST_TEST(lp.report().empty());
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(profiling)

BOOST_AUTO_TEST_CASE(benchmark_of_a_host_function_times_the_cpu_alone) {
  int calls = 0;
  const auto r = prof::benchmark(
      [&] { ++calls; },
      {.name = "count", .n_repeat = 50, .n_warmup = 7, .devices = std::vector<int>{}});
  BOOST_TEST(calls == 57);
  BOOST_TEST(r.name == "count");
  BOOST_TEST(r.cpu_times.size() == 50u);
  BOOST_TEST(r.devices.empty());
  BOOST_TEST(r.gpu_times.empty());
  for (double t : r.cpu_times) BOOST_TEST(t >= 0.0);
  BOOST_TEST(std::isnan(r.median_gpu()));
}

BOOST_AUTO_TEST_CASE(benchmark_without_devices_given_times_the_gpu_only_where_there_is_one) {
  int n = 0;
  const bool gpu = cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
  (void)cudaGetLastError();
  const auto r = prof::benchmark([] {}, {.n_repeat = 3, .n_warmup = 0});
  BOOST_TEST(r.name == "function");
  BOOST_TEST(r.cpu_times.size() == 3u);
  BOOST_TEST(r.gpu_times.size() == (gpu ? 1u : 0u));
  BOOST_TEST(r.devices.size() == r.gpu_times.size());
}

BOOST_AUTO_TEST_CASE(max_duration_stops_the_timed_calls) {
  int calls = 0;
  const auto r = prof::benchmark(
      [&] {
        ++calls;
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
      },
      {.n_repeat = 100000, .n_warmup = 0, .max_duration = 0.02, .devices = std::vector<int>{}});
  BOOST_TEST(r.cpu_times.size() >= 1u);
  BOOST_TEST(r.cpu_times.size() < 100u);
  BOOST_TEST(static_cast<int>(r.cpu_times.size()) == calls);
  BOOST_TEST(r.cpu_times[0] >= 0.002);
  // At least one call, even when the limit is already spent.
  BOOST_TEST(prof::benchmark([] {}, {.max_duration = 0.0, .devices = std::vector<int>{}})
                 .cpu_times.size() == 1u);
}

BOOST_AUTO_TEST_CASE(results_print_as_cupyx_does_in_microseconds) {
  prof::benchmark_result r;
  r.name = "xyw";
  r.cpu_times = {1e-6, 2e-6, 6e-6};
  r.devices = {0};
  r.gpu_times = {{10e-6, 10e-6, 40e-6}};
  BOOST_TEST(r.to_string() ==
             "xyw                 :    CPU:     3.000 us   +/-  2.160 (min:     1.000 / max:     "
             "6.000) us    GPU-0:    20.000 us   +/- 14.142 (min:    10.000 / max:    40.000) us");
  std::ostringstream os;
  os << r;
  BOOST_TEST(os.str() == r.to_string());
  BOOST_TEST(r.median_cpu() == 2e-6);
  BOOST_TEST(r.median_gpu(0) == 10e-6);
  BOOST_TEST(std::isnan(r.median_gpu(1)));

  prof::benchmark_result one;
  one.name = "a_name_longer_than_twenty";
  one.cpu_times = {5e-6};
  BOOST_TEST(one.to_string() == "a_name_longer_than_twenty:    CPU:     5.000 us");
  one.cpu_times.clear();
  BOOST_TEST(one.to_string() == "a_name_longer_than_twenty:    CPU: (no calls timed)");
}

BOOST_AUTO_TEST_CASE(median_of_even_and_odd_counts) {
  BOOST_TEST(prof::median({3.0, 1.0, 2.0}) == 2.0);
  BOOST_TEST(prof::median({4.0, 1.0, 3.0, 2.0}) == 2.5);
  BOOST_TEST(std::isnan(prof::median({})));
}

// Without a profiler attached NVTX calls return at once; they must still
// pair up and accept both name types and a colour.
BOOST_AUTO_TEST_CASE(nvtx_ranges_and_marks_run_without_a_tool) {
  {
    prof::range r("outer", 0xff00ff00u);
    prof::range_push(std::string("inner"));
    prof::mark("here");
    prof::mark(std::string("there"), 0xffff0000u);
    prof::range_pop();
  }
  BOOST_TEST(true);
}

BOOST_AUTO_TEST_SUITE_END()
