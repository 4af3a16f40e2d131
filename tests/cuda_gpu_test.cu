// Devices, streams and events on a real GPU.
#include <cupp/creation.hpp>
#include <cupp/cuda/device.hpp>
#include <cupp/cuda/stream.hpp>

#include <atomic>
#include <thread>

#include "cupp_test.hpp"

namespace {

// Keeps a stream busy for about `cycles` clock ticks, then writes `value`.
__global__ void spin_then_write(long long cycles, int* out, int value) {
  const long long start = clock64();
  while (clock64() - start < cycles) {
  }
  if (out) *out = value;
}

__global__ void copy_int(const int* in, int* out) {
  *out = *in;
}

constexpr long long busy = 200'000'000;  // ~0.1 s at H100 clocks

}  // namespace

BOOST_AUTO_TEST_SUITE(devices)

BOOST_AUTO_TEST_CASE(count_and_properties) {
  const int n = cupp::cuda::runtime::getDeviceCount();
  BOOST_TEST(n >= 1);
  BOOST_TEST(cupp::cuda::is_available());
  const auto& p = cupp::cuda::runtime::getDeviceProperties(0);
  BOOST_TEST(!p.name.empty());
  BOOST_TEST(p.major >= 3);
  BOOST_TEST(p.multiProcessorCount > 0);
  BOOST_TEST(p.totalGlobalMem > (std::size_t{1} << 30));
  BOOST_TEST(p.warpSize == 32);
  BOOST_TEST(p.maxThreadsPerBlock >= 1024);
  BOOST_TEST(p.deviceOverlap == (p.asyncEngineCount > 0 ? 1 : 0));
  BOOST_TEST(p.clockRate > 0);
  // Cached: the same object every time, so launches pay no query.
  BOOST_TEST(&cupp::cuda::runtime::getDeviceProperties(0) == &p);
  cudaDeviceProp direct{};
  BOOST_TEST_REQUIRE(cudaGetDeviceProperties(&direct, 0) == cudaSuccess);
  BOOST_TEST(p.name == std::string(direct.name));
  BOOST_TEST(p.multiProcessorCount == direct.multiProcessorCount);
  BOOST_TEST(p.l2CacheSize == direct.l2CacheSize);
  BOOST_TEST_MESSAGE("device 0: " << p.name << ", sm_" << p.major << p.minor << ", "
                                  << p.multiProcessorCount << " SMs");
}

BOOST_AUTO_TEST_CASE(device_objects) {
  cupp::cuda::Device current;
  BOOST_TEST(current.id() == cupp::cuda::runtime::getDevice());
  cupp::cuda::Device d0(0);
  const auto& p = d0.properties();
  BOOST_TEST(d0.compute_capability() == std::to_string(p.major) + std::to_string(p.minor));
  d0.use();
  BOOST_TEST(cupp::cuda::get_device().id() == 0);
  d0.synchronize();
  std::ostringstream os;
  os << d0;
  BOOST_TEST(os.str() == "<CUDA Device 0>");
}

BOOST_AUTO_TEST_CASE(a_device_that_does_not_exist) {
  const int n = cupp::cuda::runtime::getDeviceCount();
  for (int bad : {n, n + 7, -1}) {
    try {
      cupp::cuda::Device d(bad);
      BOOST_FAIL("Device(" << bad << ") accepted");
    } catch (const cupp::cuda::cuda_error& e) {
      BOOST_TEST(e.code() == cudaErrorInvalidDevice);
      BOOST_TEST(std::string(e.what()).starts_with("cudaErrorInvalidDevice: "));
      BOOST_TEST(std::string(e.what()).find("device " + std::to_string(bad) + " requested") !=
                 std::string::npos);
    }
  }
  BOOST_CHECK_THROW(cupp::cuda::runtime::getDeviceProperties(n), cupp::cuda::cuda_error);
  BOOST_TEST(cupp::cuda::runtime::getDevice() == 0);  // nothing changed
}

BOOST_AUTO_TEST_CASE(device_scopes_restore_the_current_device) {
  const int n = cupp::cuda::runtime::getDeviceCount();
  {
    auto scope = cupp::cuda::Device(0).scope();
    BOOST_TEST(cupp::cuda::runtime::getDevice() == 0);
  }
  BOOST_TEST(cupp::cuda::runtime::getDevice() == 0);
  if (n < 2) {
    BOOST_TEST_MESSAGE("one device: switching between devices not exercised");
    return;
  }
  {
    auto scope = cupp::cuda::Device(1).scope();
    BOOST_TEST(cupp::cuda::runtime::getDevice() == 1);
    auto a = cupp::zeros<float>({4}).eval();
    BOOST_TEST(a.device_id() == 1);
    {
      auto inner = cupp::cuda::Device(0).scope();
      BOOST_TEST(cupp::cuda::runtime::getDevice() == 0);
    }
    BOOST_TEST(cupp::cuda::runtime::getDevice() == 1);
  }
  BOOST_TEST(cupp::cuda::runtime::getDevice() == 0);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(streams)

BOOST_AUTO_TEST_CASE(default_is_the_null_stream) {
  auto s = cupp::cuda::get_current_stream();
  BOOST_TEST(s.is_null());
  BOOST_TEST(s == cupp::cuda::Stream::null());
  BOOST_TEST(s.handle() == nullptr);
}

BOOST_AUTO_TEST_CASE(created_streams_and_their_flags) {
  int least = 0, greatest = 0;
  BOOST_TEST_REQUIRE(cudaDeviceGetStreamPriorityRange(&least, &greatest) == cudaSuccess);
  cupp::cuda::Stream s(/*non_blocking=*/true, greatest);
  BOOST_TEST(s.non_blocking());
  BOOST_TEST(s.priority() == greatest);
  BOOST_TEST(s.device_id() == 0);
  BOOST_TEST(!s.is_null());
  unsigned flags = 0;
  BOOST_TEST_REQUIRE(cudaStreamGetFlags(s.handle(), &flags) == cudaSuccess);
  BOOST_TEST((flags & cudaStreamNonBlocking) != 0u);
  int prio = 0;
  BOOST_TEST_REQUIRE(cudaStreamGetPriority(s.handle(), &prio) == cudaSuccess);
  BOOST_TEST(prio == greatest);
  cupp::cuda::Stream plain;
  BOOST_TEST(!plain.non_blocking());
  BOOST_TEST(!(plain == s));
  auto copy = s;
  BOOST_TEST(copy == s);
  auto wrapped = cupp::cuda::Stream::from_handle(s.handle(), 0);
  BOOST_TEST(wrapped.handle() == s.handle());
  BOOST_TEST(wrapped.non_blocking());
}

BOOST_AUTO_TEST_CASE(scopes_make_a_stream_current_for_this_thread) {
  cupp::cuda::Stream s(true);
  {
    auto scope = s.scope();
    BOOST_TEST(cupp::cuda::get_current_stream() == s);
    std::thread other([] { BOOST_TEST(cupp::cuda::get_current_stream().is_null()); });
    other.join();
    {
      cupp::cuda::Stream inner;
      auto scope2 = inner.scope();
      BOOST_TEST(cupp::cuda::get_current_stream() == inner);
    }
    BOOST_TEST(cupp::cuda::get_current_stream() == s);
  }
  BOOST_TEST(cupp::cuda::get_current_stream().is_null());
  s.use();
  BOOST_TEST(cupp::cuda::get_current_stream() == s);
  cupp::cuda::Stream::null().use();
  BOOST_TEST(cupp::cuda::get_current_stream().is_null());
}

// On a fresh thread, where no stream was made current explicitly.
BOOST_AUTO_TEST_CASE(per_thread_default_stream_option) {
  cupp::cuda::set_default_stream_per_thread(true);
  std::thread fresh([] {
    auto s = cupp::cuda::get_current_stream();
    BOOST_TEST(s.handle() == cudaStreamPerThread);
    BOOST_TEST(s == cupp::cuda::Stream::per_thread());
    std::uint64_t other_id = 0;
    std::thread t([&] { other_id = cupp::cuda::get_current_stream().id(); });
    t.join();
    BOOST_TEST(other_id != s.id());  // each thread's default stream is its own
    auto a = cupp::zeros<int>({16}).eval();
    BOOST_TEST(a.get().to_vector() == std::vector<int>(16, 0));
    // A stream made current explicitly wins over the default.
    cupp::cuda::Stream::null().use();
    BOOST_TEST(cupp::cuda::get_current_stream().is_null());
  });
  fresh.join();
  cupp::cuda::set_default_stream_per_thread(false);
  std::thread legacy([] { BOOST_TEST(cupp::cuda::get_current_stream().is_null()); });
  legacy.join();
}

BOOST_AUTO_TEST_CASE(synchronize_done_and_host_functions) {
  cupp::cuda::Stream s(true);
  std::atomic<int> called{0};
  spin_then_write<<<1, 1, 0, s.handle()>>>(busy, nullptr, 0);
  s.launch_host_func([&called] { called = 1; });
  BOOST_TEST(!s.done());
  BOOST_TEST(!s.query());
  s.synchronize();
  BOOST_TEST(s.done());
  BOOST_TEST(s.query());
  BOOST_TEST(called.load() == 1);
}

BOOST_AUTO_TEST_CASE(events_order_work_across_streams) {
  cupp::cuda::Stream a(true), b(true);
  auto flag = cupp::zeros<int>({2}).eval();
  spin_then_write<<<1, 1, 0, a.handle()>>>(busy, flag.data(), 42);
  cupp::cuda::Event produced = a.record();
  b.wait_event(produced);
  copy_int<<<1, 1, 0, b.handle()>>>(flag.data(), flag.data() + 1);
  b.synchronize();
  BOOST_TEST(produced.done());
  BOOST_TEST(flag.get().to_vector() == (std::vector<int>{42, 42}));
}

BOOST_AUTO_TEST_CASE(event_timing) {
  cupp::cuda::Stream s;
  cupp::cuda::Event start, end(/*block=*/true);
  start.record(s);
  spin_then_write<<<1, 1, 0, s.handle()>>>(busy / 10, nullptr, 0);
  end.record(s);
  end.synchronize();
  BOOST_TEST(end.done());
  BOOST_TEST(end.query());
  const float ms = cupp::cuda::get_elapsed_time(start, end);
  BOOST_TEST(ms > 0.0f);
  BOOST_TEST(ms < 10000.0f);
  cupp::cuda::Event untimed(false, /*disable_timing=*/true);
  untimed.record(s);
  untimed.synchronize();
  BOOST_CHECK_THROW(cupp::cuda::get_elapsed_time(start, untimed), cupp::cuda::cuda_error);
}

BOOST_AUTO_TEST_CASE(interprocess_events_need_timing_disabled) {
  try {
    cupp::cuda::Event e(false, false, /*interprocess=*/true);
    BOOST_FAIL("interprocess event with timing accepted");
  } catch (const cupp::value_error& e) {
    BOOST_TEST(std::string(e.what()) == "Timing must be disabled for interprocess events");
  }
  cupp::cuda::Event ipc(false, true, true);
  ipc.record();
  ipc.synchronize();
  BOOST_CHECK_THROW(cupp::cuda::Event().ipc_handle(), cupp::value_error);
}

// cupp enqueues its work on the current stream: captured into a graph, the
// work of a stream scope shows up as graph nodes, and nothing touches the
// legacy stream (which would break the capture).
BOOST_AUTO_TEST_CASE(operations_go_to_the_current_stream) {
  cupp::cuda::Stream s(true);
  auto scope = s.scope();
  auto x = cupp::zeros<float>({1000}).eval();  // warms the pool for this stream
  x = cupp::ndarray<float>();
  auto src = cupp::zeros<float>({4, 8}).eval();
  s.synchronize();
  BOOST_TEST_REQUIRE(cudaStreamBeginCapture(s.handle(), cudaStreamCaptureModeRelaxed) ==
                     cudaSuccess);
  auto y = cupp::zeros<float>({1000}).eval();  // a fill kernel node
  auto t = src.copy(cupp::order::F);    // a copy kernel node
  cudaGraph_t graph = nullptr;
  BOOST_TEST_REQUIRE(cudaStreamEndCapture(s.handle(), &graph) == cudaSuccess);
  std::size_t nodes = 0;
  BOOST_TEST(cudaGraphGetNodes(graph, nullptr, &nodes) == cudaSuccess);
  BOOST_TEST(nodes == 2u);
  cudaGraphDestroy(graph);
}

BOOST_AUTO_TEST_SUITE_END()
