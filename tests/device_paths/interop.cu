// Device paths of interop (<cupp/dlpack.hpp>, <cupp/iterator.hpp>,
// <cupp/mdspan.hpp>) on device arrays: DLPack 1.x and pre-1.0 tensors out
// and back without a copy (float32 and complex64, a strided view, a
// consumer's stream, no_sync and Python's stream numbers, release);
// cupp::begin/end/cbegin/cend over arrays, views and expressions driving
// Thrust (reduce, sequence through a reversed strided view, transform of an
// expression into a transposed view, sort of a column) and CUB (a sum of an
// expression); mdspan views (cupp::mdspan and the member) of C-ordered and
// transposed float32 and float64 arrays in a kernel of this unit.
//
// CI compiles this unit without a GPU so that a compile error in device code
// fails it; the GPU machine runs it as a smoke test (device_paths_gpu_test).
#include <cupp/creation.hpp>
#include <cupp/cuda/runtime.hpp>
#include <cupp/cuda/stream.hpp>
#include <cupp/dlpack.hpp>
#include <cupp/generators.hpp>
#include <cupp/iterator.hpp>
#include <cupp/mdspan.hpp>
#include <cupp/ufunc/arithmetic.hpp>
#include <cupp/ufunc/misc.hpp>

#include <cub/device/device_reduce.cuh>
#include <thrust/execution_policy.h>
#include <thrust/reduce.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform.h>

#include <complex>
#include <cstdint>

#include "checks.hpp"

using cupp::_;
using cupp::slice;
using device_paths::expect;
using device_paths::expect_values;

namespace {

void dlpack() {
  namespace dl = cupp::dlpack;
  // x = [[0, 1, 2], [3, 4, 5]]
  const cupp::ndarray<float> x = cupp::arange<float>(6).eval().reshape({2, 3});
  dl::DLManagedTensorVersioned* t = cupp::to_dlpack(x);
  expect(t->dl_tensor.ndim == 2 && t->dl_tensor.shape[1] == 3, "to_dlpack");
  const cupp::ndarray<float> back = cupp::from_dlpack<float>(t);
  expect(back.data() == x.data(), "from_dlpack shares the memory");
  expect_values(back, {0, 1, 2, 3, 4, 5}, "from_dlpack");
  // A column (a strided view) through a pre-1.0 tensor.
  const cupp::ndarray<float> col = cupp::from_dlpack<float>(cupp::to_dlpack_unversioned(x(_, 1)));
  expect(col.data() == x.data() + 1, "a view keeps its strides");
  expect_values(col, {1, 4}, "to_dlpack_unversioned of a strided view");
  const cupp::ndarray<cupp::complex64> z = x.astype<cupp::complex64>() * std::complex<float>(0, 1);
  const cupp::cuda::Stream s(true);
  expect_values(cupp::imag(cupp::from_dlpack<cupp::complex64>(cupp::to_dlpack(z, s))),
                {0, 1, 2, 3, 4, 5}, "complex64 for a consumer's stream");
  dl::DLManagedTensorVersioned* none = cupp::to_dlpack(x, dl::consumer_stream::no_sync());
  dl::DLManagedTensorVersioned* py = cupp::to_dlpack(x, dl::consumer_stream::from_python(2));
  dl::release(none);
  dl::release(py);
  dl::release(cupp::to_dlpack_unversioned(x));
}

struct plus_one {
  __host__ __device__ double operator()(float f) const { return static_cast<double>(f) + 1; }
};

void iterators() {
  // Thrust reads a strided view and an expression, writes through a
  // reversed strided view and a transposed one, and sorts a column.
  const cupp::ndarray<float> x = cupp::arange<float>(12).eval().reshape({3, 4});
  const auto every_other = x(_, slice(_, _, 2));  // 0 2 4 6 8 10
  expect(cupp::end(every_other) - cupp::begin(every_other) == 6 &&
             cupp::cend(x) - cupp::cbegin(x) == 12,
         "end - begin");
  expect(thrust::reduce(cupp::begin(every_other), cupp::end(every_other), 0.0f) == 30.0f,
         "thrust::reduce of a strided view");
  const auto e = x * 2.0f;
  expect(thrust::reduce(thrust::device, cupp::begin(e), cupp::end(e), 0.0) == 132.0,
         "thrust::reduce of an expression");

  const cupp::ndarray<std::int32_t> a = cupp::zeros<std::int32_t>({4, 3});
  const auto v = a(slice(_, _, -2), slice(1, _));  // rows 3 and 1, columns 1 and 2
  thrust::sequence(thrust::device, cupp::begin(v), cupp::end(v), 1);
  expect_values(a, {0, 0, 0, 0, 3, 4, 0, 0, 0, 0, 1, 2}, "thrust::sequence through a view");

  const cupp::ndarray<double> y = cupp::zeros<double>({4, 3});
  const auto yt = y.T();  // (3, 4), F-ordered
  thrust::transform(cupp::begin(e), cupp::end(e), cupp::begin(yt), plus_one{});
  expect_values(y, {1, 9, 17, 3, 11, 19, 5, 13, 21, 7, 15, 23}, "thrust::transform into y.T()");

  const cupp::ndarray<std::int64_t> m =
      (cupp::arange<std::int64_t>(12) * 5 % 7).eval().reshape({4, 3});
  const auto column = m(_, 1);  // 5 6 0 1
  thrust::sort(cupp::begin(column), cupp::end(column));
  expect_values(column, {0, 1, 5, 6}, "thrust::sort of a column");

  // CUB sums an expression through its iterator.
  const cupp::ndarray<float> sum = cupp::zeros<float>({1});
  std::size_t bytes = 0;
  cupp::cuda::check(cub::DeviceReduce::Sum(nullptr, bytes, cupp::begin(e), sum.data(), 12), "Sum");
  const cupp::ndarray<std::uint8_t> tmp =
      cupp::empty<std::uint8_t>({static_cast<cupp::index_t>(bytes + 1)});
  cupp::cuda::check(cub::DeviceReduce::Sum(tmp.data(), bytes, cupp::begin(e), sum.data(), 12),
                    "Sum");
  expect_values(sum, {132}, "cub::DeviceReduce::Sum of an expression");
}

// a(i, j) = 10 i + j through the view's own strides.
template <class T>
__global__ void coordinates(cupp::mdspan_t<T, 2> a) {
  const auto i = static_cast<cupp::index_t>(blockIdx.x),
             j = static_cast<cupp::index_t>(threadIdx.x);
  if (i < a.extent(0) && j < a.extent(1)) a(i, j) = static_cast<T>(10 * i + j);
}

void mdspans() {
  // The kernels run on the legacy default stream: synchronised around.
  const cupp::ndarray<float> c = cupp::zeros<float>({2, 3});
  cupp::cuda::runtime::deviceSynchronize();
  coordinates<<<2, 32>>>(c.mdspan<2>());
  cupp::cuda::runtime::deviceSynchronize();
  expect_values(c, {0, 1, 2, 10, 11, 12}, "mdspan of a C-ordered array");
  const cupp::ndarray<double> t = cupp::zeros<double>({3, 2});
  cupp::cuda::runtime::deviceSynchronize();
  coordinates<<<2, 32>>>(cupp::mdspan<2>(t.T()));  // (2, 3): element (i, j) is t[j, i]
  cupp::cuda::runtime::deviceSynchronize();
  expect_values(t, {0, 10, 1, 11, 2, 12}, "mdspan of a transposed view");
  expect(cupp::mdspan<2>(t).stride(0) == 2, "mdspan strides in elements");
}

}  // namespace

void device_paths_interop() {
  dlpack();
  iterators();
  mdspans();
}
