// DLPack exchange of device arrays: the exported fields (kDLCUDA and the
// device, kDLCUDAManaged for managed memory), round trips of every dtype
// that share the memory and keep it alive after the original handle goes
// (the pool would otherwise hand the block out again), writes through the
// import seen by the original, the stream handshake (a slow producer on one
// stream, a consumer on another that must see the finished values), and
// the refusals a device array adds (host memory, a device that does not
// exist).
#include <cupp/cupp.hpp>
#include <cupp/dlpack.hpp>

#include <boost/test/unit_test.hpp>

#include "cupp_test.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace dl = cupp::dlpack;
namespace cc = cupp::cuda;
using cupp::host_space;
using cupp::index_t;
using cupp::shape_t;
using cupp_test::same_bits;
using cupp_test::sample;

namespace {

// Waits `ns` nanoseconds of the GPU's global timer, then writes 2 * i: a
// producer whose result arrives late, so that a consumer not ordered after
// it reads the zeros that were there before.
__global__ void slow_fill(float* out, index_t n, unsigned long long ns) {
  unsigned long long start = 0, now = 0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do {
    __nanosleep(100000);
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (now - start < ns);
  for (index_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    out[i] = 2.0f * static_cast<float>(i);
}

template <class T>
cupp::ndarray<T> device_samples(const shape_t& shape) {
  cupp::host::ndarray<T> h(shape);
  for (index_t i = 0; i < h.size(); ++i) h.data()[i] = sample<T>(i);
  cupp::ndarray<T> d(shape);
  d.set(h);
  return d;
}

using cupp_test::contains;
using cupp_test::refusal;

int deleted = 0;

}  // namespace

BOOST_AUTO_TEST_SUITE(dlpack_device)

BOOST_AUTO_TEST_CASE_TEMPLATE(every_dtype_round_trips_without_a_copy, T, cupp_test::dtype_list) {
  auto x = device_samples<T>({3, 5});
  const T* data = x.data();
  dl::DLManagedTensorVersioned* t = cupp::to_dlpack(x);
  BOOST_TEST(t->dl_tensor.device.device_type == dl::kDLCUDA);
  BOOST_TEST(t->dl_tensor.device.device_id == cc::runtime::getDevice());
  BOOST_TEST(t->dl_tensor.data == static_cast<const void*>(data));
  BOOST_TEST(t->dl_tensor.byte_offset == 0u);
  BOOST_TEST(t->dl_tensor.strides[0] == 5);
  BOOST_TEST(t->dl_tensor.strides[1] == 1);
  x = cupp::ndarray<T>();
  // Were the memory freed, the pool would hand the same block out here.
  auto other = device_samples<T>({3, 5});
  BOOST_TEST(other.data() != data);
  auto y = cupp::from_dlpack<T>(t);
  BOOST_TEST(y.data() == data);
  BOOST_TEST(y.device_id() == cc::runtime::getDevice());
  const auto h = y.get();
  for (index_t i = 0; i < 15; ++i) BOOST_TEST(same_bits(h.data()[i], sample<T>(i)));
}

BOOST_AUTO_TEST_CASE(writes_through_the_import_reach_the_original) {
  auto x = device_samples<float>({4, 6});
  const std::vector<float> before = x.to_vector();
  auto col = x.transpose();  // an F-ordered view
  auto y = cupp::from_dlpack<float>(cupp::to_dlpack_unversioned(col));
  BOOST_TEST(y.strides() == col.strides());
  cupp::copyto(y, y * 2.0f + 1.0f);
  const std::vector<float> after = x.to_vector();
  for (std::size_t i = 0; i < after.size(); ++i) BOOST_TEST(after[i] == before[i] * 2.0f + 1.0f);
}

BOOST_AUTO_TEST_CASE(the_import_frees_once_when_its_last_view_goes) {
  int released = 0;
  {
    void* p = nullptr;
    cc::check(cudaMalloc(&p, 64 * sizeof(float)), "cudaMalloc");
    cc::memory_ptr owner(p, [&released](void* q) {
      (void)cudaFree(q);
      ++released;
    });
    auto x = cupp::ndarray<float>::from_pointer(static_cast<float*>(p), {64}, {}, owner);
    owner.reset();
    dl::DLManagedTensorVersioned* t = cupp::to_dlpack(x);
    x = cupp::ndarray<float>();
    BOOST_TEST(released == 0);
    auto y = cupp::from_dlpack<float>(t);
    auto v = y;
    y = cupp::ndarray<float>();
    BOOST_TEST(released == 0);
    cupp::copyto(v, 3.0f);
    BOOST_TEST(v.item(63) == 3.0f);
  }
  BOOST_TEST(released == 1);
}

BOOST_AUTO_TEST_CASE(managed_memory_is_exported_as_managed_and_read_on_both_sides) {
  float* p = nullptr;
  cc::check(cudaMallocManaged(&p, 8 * sizeof(float)), "cudaMallocManaged");
  for (int i = 0; i < 8; ++i) p[i] = static_cast<float>(i);
  cc::memory_ptr owner(p, [](void* q) { (void)cudaFree(q); });
  auto x = cupp::ndarray<float>::from_pointer(p, {8}, {}, owner);
  dl::DLManagedTensorVersioned* t = cupp::to_dlpack(x);
  BOOST_TEST(t->dl_tensor.device.device_type == dl::kDLCUDAManaged);
  auto y = cupp::from_dlpack<float>(t);
  BOOST_TEST(y.item(5) == 5.0f);
  cc::check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  auto h = cupp::from_dlpack<float, host_space>(cupp::to_dlpack(x));
  BOOST_TEST(h.at(7) == 7.0f);
}

// Tensors as another library makes them: device memory with a
// byte_offset and null strides, and pinned host memory read by a kernel.
BOOST_AUTO_TEST_CASE(foreign_device_and_pinned_tensors) {
  std::vector<float> values(32);
  for (int i = 0; i < 32; ++i) values[i] = static_cast<float>(i) + 0.5f;
  std::int64_t shape[2] = {3, 4};
  auto tensor = [&](void* data, dl::DLDeviceType type) {
    dl::DLManagedTensorVersioned t{};
    t.version = {1, 0};
    t.deleter = [](dl::DLManagedTensorVersioned*) { ++deleted; };
    t.dl_tensor.data = data;
    t.dl_tensor.device = {type, 0};
    t.dl_tensor.ndim = 2;
    t.dl_tensor.dtype = {dl::kDLFloat, 32, 1};
    t.dl_tensor.shape = shape;
    t.dl_tensor.strides = nullptr;  // C order
    t.dl_tensor.byte_offset = 16;   // four floats in
    return t;
  };
  deleted = 0;
  void* dev = nullptr;
  cc::check(cudaMalloc(&dev, 32 * sizeof(float)), "cudaMalloc");
  cc::check(cudaMemcpy(dev, values.data(), 32 * sizeof(float), cudaMemcpyHostToDevice),
            "cudaMemcpy");
  float* pinned = nullptr;
  cc::check(cudaMallocHost(&pinned, 32 * sizeof(float)), "cudaMallocHost");
  std::copy(values.begin(), values.end(), pinned);
  {
    auto td = tensor(dev, dl::kDLCUDA);
    auto y = cupp::from_dlpack<float>(&td);
    BOOST_TEST(y.data() == static_cast<float*>(dev) + 4);
    BOOST_TEST(y.is_c_contiguous());
    cupp::ndarray<float> doubled = y * 2.0f;
    const auto h = doubled.get();
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 4; ++j) BOOST_TEST(h.at(i, j) == 2.0f * values[4 + i * 4 + j]);

    auto tp = tensor(pinned, dl::kDLCUDAHost);
    auto p = cupp::from_dlpack<float>(&tp);
    BOOST_TEST(p.device_id() == cc::runtime::getDevice());
    cupp::ndarray<float> sum = p + y;  // a kernel reads the pinned memory
    const auto hs = sum.get();
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 4; ++j) BOOST_TEST(hs.at(i, j) == 2.0f * values[4 + i * 4 + j]);
    BOOST_TEST(deleted == 0);
  }
  BOOST_TEST(deleted == 2);
  cc::check(cudaFree(dev), "cudaFree");
  cc::check(cudaFreeHost(pinned), "cudaFreeHost");
}

// A producer on stream A that is still writing; a consumer on stream B
// that reads after to_dlpack(x, B). Without the handshake B copies zeros.
BOOST_AUTO_TEST_CASE(the_consumer_stream_waits_for_the_producer) {
  const index_t n = 1 << 16;
  cc::Stream a(true), b(true);
  for (const bool legacy_consumer : {false, true}) {
    BOOST_TEST_CONTEXT("legacy consumer " << legacy_consumer) {
      cupp::ndarray<float> x(shape_t{n});
      cc::check(cudaMemset(x.data(), 0, n * sizeof(float)), "cudaMemset");
      cc::check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
      dl::DLManagedTensorVersioned* t = nullptr;
      {
        const auto scope = a.scope();  // the producer's current stream
        slow_fill<<<64, 256, 0, a.handle()>>>(x.data(), n, 200'000'000ull);
        cc::check(cudaGetLastError(), "slow_fill");
        t = legacy_consumer ? cupp::to_dlpack(x) : cupp::to_dlpack(x, b);
      }
      BOOST_TEST(!a.done());  // the producer is still running: the test means something
      std::vector<float> got(n, -1.0f);
      const cudaStream_t consumer = legacy_consumer ? cudaStreamLegacy : b.handle();
      cc::check(cudaMemcpyAsync(got.data(), t->dl_tensor.data, n * sizeof(float),
                                cudaMemcpyDeviceToHost, consumer),
                "cudaMemcpyAsync");
      cc::check(cudaStreamSynchronize(consumer), "cudaStreamSynchronize");
      index_t wrong = 0;
      for (index_t i = 0; i < n; ++i) wrong += got[i] != 2.0f * static_cast<float>(i);
      BOOST_TEST(wrong == 0);
      dl::release(t);
      a.synchronize();
    }
  }
}

BOOST_AUTO_TEST_CASE(the_same_stream_and_no_sync_add_nothing) {
  cc::Stream a(true);
  const auto scope = a.scope();
  auto x = device_samples<float>({16});
  // Both are accepted; the data is as written once the stream is done.
  dl::DLManagedTensorVersioned* same = cupp::to_dlpack(x, a);
  dl::DLManagedTensorVersioned* none = cupp::to_dlpack(x, dl::consumer_stream::no_sync());
  dl::DLManagedTensorVersioned* py = cupp::to_dlpack(x, dl::consumer_stream::from_python(2));
  a.synchronize();
  auto y = cupp::from_dlpack<float>(same);
  BOOST_TEST(y.item(3) == sample<float>(3));
  dl::release(none);
  dl::release(py);
}

BOOST_AUTO_TEST_CASE(refusals_of_a_device_array) {
  std::vector<float> host(8, 1.0f);
  std::int64_t shape[1] = {8};
  dl::DLManagedTensorVersioned t{};
  t.version = {1, 1};
  t.deleter = [](dl::DLManagedTensorVersioned*) { ++deleted; };
  t.dl_tensor.data = host.data();
  t.dl_tensor.device = {dl::kDLCPU, 0};
  t.dl_tensor.ndim = 1;
  t.dl_tensor.dtype = {dl::kDLFloat, 32, 1};
  t.dl_tensor.shape = shape;
  deleted = 0;
  BOOST_TEST(contains(refusal<cupp::value_error>([&] { (void)cupp::from_dlpack<float>(&t); }),
                      "kDLCPU memory cannot become a device array (use from_dlpack<T, "
                      "host_space>)"));
  int n = 0;
  cc::check(cudaGetDeviceCount(&n), "cudaGetDeviceCount");
  t.dl_tensor.device = {dl::kDLCUDA, n};
  BOOST_TEST(contains(refusal<cc::cuda_error>([&] { (void)cupp::from_dlpack<float>(&t); }),
                      "device " + std::to_string(n) + " requested"));
  t.dl_tensor.device = {dl::kDLCUDA, 0};
  BOOST_TEST(contains(refusal<cupp::type_error>([&] { (void)cupp::from_dlpack<double>(&t); }),
                      "holds float32 elements, not float64"));
  BOOST_TEST(deleted == 0);
  dl::release(&t);
  BOOST_TEST(deleted == 1);
  // A device array with a stream on the host side of the protocol.
  BOOST_TEST(contains(refusal<cupp::value_error>([] { (void)dl::consumer_stream::from_python(0); }),
                      "stream=0"));
}

BOOST_AUTO_TEST_CASE(a_tensor_on_another_device_keeps_its_device) {
  int n = 0;
  cc::check(cudaGetDeviceCount(&n), "cudaGetDeviceCount");
  if (n < 2) {
    BOOST_TEST_MESSAGE("one device: nothing to check");
    return;
  }
  cupp::ndarray<float> x;
  {
    const cc::device_scope on1(1);
    x = device_samples<float>({10});
  }
  BOOST_TEST(cc::runtime::getDevice() == 0);
  dl::DLManagedTensorVersioned* t = cupp::to_dlpack(x);
  BOOST_TEST(t->dl_tensor.device.device_id == 1);
  auto y = cupp::from_dlpack<float>(t);
  BOOST_TEST(y.device_id() == 1);
  BOOST_TEST(y.item(4) == sample<float>(4));  // read on device 1, from device 0
  BOOST_TEST(cc::runtime::getDevice() == 0);
}

BOOST_AUTO_TEST_SUITE_END()
