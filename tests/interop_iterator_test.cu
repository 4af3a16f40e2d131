// cupp::begin/end on the GPU: CUB reductions and scans reading arrays of
// every layout and lazy expressions through the iterators (against float64
// sums computed on the host and cupp's own reductions), CUB writing its
// output through a strided view, Thrust sorting, filling and transforming
// through strided, transposed and reversed views (dispatched by the
// iterators' category, with and without thrust::device) while the elements
// outside the view stay as they were, several dtypes, empty arrays, and
// the iterator's operators in device code.
#include <cupp/cupp.hpp>
#include <cupp/iterator.hpp>

#include <boost/test/unit_test.hpp>

#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <thrust/execution_policy.h>
#include <thrust/reduce.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform.h>

#include <cuda/std/complex>
#include <cuda/std/functional>

#include "cupp_test.hpp"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <type_traits>
#include <vector>

using cupp::_;
using cupp::index_t;
using cupp::slice;

namespace {

// Values that are exact in every dtype used here (small integers), in a
// scrambled order so that sorts have work to do: (i * 7) % 23.
template <class T>
std::vector<T> scrambled(std::size_t n) {
  std::vector<T> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<T>(static_cast<int>((i * 7) % 23));
  return v;
}

template <class T>
cupp::ndarray<T> device(const std::vector<T>& v, const cupp::shape_t& shape) {
  return cupp::asarray(cupp::host::asarray(v, shape));
}

// cub::DeviceReduce::Sum of n values from `in`, in the accumulator CUB
// picks for the iterator's value type, read back as double.
template <class Acc, class It>
double cub_sum(It in, index_t n) {
  cupp::ndarray<Acc> out(cupp::shape_t{1});
  std::size_t bytes = 0;
  cupp::cuda::check(cub::DeviceReduce::Sum(nullptr, bytes, in, out.data(), n), "Sum");
  cupp::ndarray<std::uint8_t> tmp(
      cupp::shape_t{static_cast<index_t>(std::max<std::size_t>(bytes, 1))});
  cupp::cuda::check(cub::DeviceReduce::Sum(tmp.data(), bytes, in, out.data(), n), "Sum");
  cupp::cuda::check(cudaDeviceSynchronize(), "sync");
  return cupp::detail::convert<double>(out.item());
}

template <class T>
double host_sum(const std::vector<T>& v) {
  double s = 0;
  for (const T& x : v) s += static_cast<double>(x);
  return s;
}

struct negate_op {
  template <class T>
  __host__ __device__ T operator()(const T& v) const {
    return -v;
  }
};

// The iterator's operators in device code: each thread reads through a
// different combination of them, so that a wrong one shows in its slot.
template <class It>
__global__ void probe(It b, It e, double* out) {
  const int t = threadIdx.x;
  double v = 0;
  switch (t) {
    case 0:
      v = static_cast<double>(e - b);
      break;
    case 1:
      v = static_cast<double>(*(b + 5));
      break;
    case 2:
      v = static_cast<double>(b[7]);
      break;
    case 3:
      v = static_cast<double>(*(e - 1));
      break;
    case 4: {
      It it = b;
      ++it;
      it += 3;
      --it;
      v = static_cast<double>(*it);
    } break;
    case 5:
      v = (b < e && !(e <= b) && b != e && (b + (e - b)) == e) ? 1.0 : 0.0;
      break;
    case 6:
      v = static_cast<double>(e[-3]);
      break;
    default:
      break;
  }
  out[t] = v;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(cub_reads)

BOOST_AUTO_TEST_CASE(reduce_arrays_of_every_layout) {
  const std::vector<float> hv = scrambled<float>(40 * 30);
  const auto a = device(hv, {40, 30});
  // Host references in float64 from the same values, walked by hand.
  auto at = [&](int i, int j) {
    return static_cast<double>(hv[static_cast<std::size_t>(i * 30 + j)]);
  };
  double col = 0, stride = 0, all = 0, rev = 0;
  for (int i = 0; i < 40; ++i) col += at(i, 1);
  for (int i = 0; i < 40; i += 3)
    for (int j = 29; j >= 0; j -= 2) stride += at(i, j);
  for (int i = 0; i < 40; ++i)
    for (int j = 0; j < 30; ++j) all += at(i, j);
  for (int j = 0; j < 30; ++j) rev += at(39, j);
  BOOST_TEST(cub_sum<float>(cupp::begin(a), a.size()) == all);
  BOOST_TEST(cub_sum<float>(cupp::begin(a.T()), a.size()) == all);
  const auto c = a(_, 1);
  BOOST_TEST(cub_sum<float>(cupp::begin(c), c.size()) == col);
  const auto s = a(slice(_, _, 3), slice(_, _, -2));
  BOOST_TEST(cub_sum<float>(cupp::cbegin(s), s.size()) == stride);
  const auto r = a(slice(_, _, -1), _)(0);
  BOOST_TEST(cub_sum<float>(cupp::begin(r), r.size()) == rev);
  // cupp's own reduction of the same view agrees.
  BOOST_TEST(cub_sum<float>(cupp::begin(s), s.size()) == static_cast<double>(cupp::sum(s).item()));
  // A broadcast (read-only) view: every row of `c` four times.
  const auto b = cupp::broadcast_to(c, {4, 40});
  BOOST_TEST(cub_sum<float>(cupp::cbegin(b), b.size()) == 4 * col);
}

BOOST_AUTO_TEST_CASE(reduce_expressions) {
  const std::vector<float> hx = scrambled<float>(50 * 8);
  const std::vector<double> hy = scrambled<double>(8);
  const auto x = device(hx, {50, 8});
  const auto y = device(hy, {8});
  const auto e = x * 2 + y(cupp::newaxis, _);  // float64, broadcast
  static_assert(std::is_same_v<std::iterator_traits<decltype(cupp::begin(e))>::value_type, double>);
  double ref = 0;
  for (int i = 0; i < 50; ++i)
    for (int j = 0; j < 8; ++j) ref += 2.0 * hx[static_cast<std::size_t>(i * 8 + j)] + hy[j];
  BOOST_TEST(cub_sum<double>(cupp::begin(e), 400) == ref);
  BOOST_TEST(cub_sum<double>(cupp::begin(e), 400) == cupp::sum(e).item());
  // Over a transposed operand and a ufunc, read in C order of the result.
  const auto u = cupp::abs(x.T() - 5);
  double uref = 0;
  for (float v : hx) uref += std::abs(static_cast<double>(v) - 5);
  BOOST_TEST(cub_sum<float>(cupp::begin(u), 400) == uref);
  // A generator alone is a device expression.
  const auto g = cupp::arange<std::int64_t>(1000);
  BOOST_TEST(cub_sum<std::int64_t>(cupp::begin(g), 1000) == 499500.0);
}

BOOST_AUTO_TEST_CASE(scan_an_expression_into_a_strided_view) {
  const std::vector<std::int32_t> hx = scrambled<std::int32_t>(64);
  const auto x = device(hx, {8, 8});
  // Inclusive scan of x.T() * 3, written into every other element of a
  // fresh 128-element array whose other elements hold -1.
  cupp::ndarray<std::int64_t> out = cupp::full<std::int64_t>({128}, -1);
  const auto dst = out(slice(_, _, 2));
  const auto src = x.T() * 3;
  std::size_t bytes = 0;
  cupp::cuda::check(
      cub::DeviceScan::InclusiveSum(nullptr, bytes, cupp::begin(src), cupp::begin(dst), 64),
      "InclusiveSum");
  cupp::ndarray<std::uint8_t> tmp(
      cupp::shape_t{static_cast<index_t>(std::max<std::size_t>(bytes, 1))});
  cupp::cuda::check(
      cub::DeviceScan::InclusiveSum(tmp.data(), bytes, cupp::begin(src), cupp::begin(dst), 64),
      "InclusiveSum");
  const std::vector<std::int64_t> got = out.to_vector();
  std::int64_t run = 0;
  for (int k = 0; k < 64; ++k) {
    const int i = k / 8, j = k % 8;  // src[i][j] = x[j][i] * 3
    run += 3 * hx[static_cast<std::size_t>(j * 8 + i)];
    BOOST_TEST(got[static_cast<std::size_t>(2 * k)] == run);
    BOOST_TEST(got[static_cast<std::size_t>(2 * k + 1)] == -1);
  }
  // cupp's cumsum of the same expression agrees.
  BOOST_TEST(cupp::cumsum(src).to_vector() == dst.to_vector(), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(dtypes_read) {
  // float16 and bfloat16: small integers, exact in both and in their sums.
  const auto h = device(scrambled<__half>(16), {4, 4});
  BOOST_TEST(cub_sum<__half>(cupp::begin(h.T()), 16) == host_sum(scrambled<float>(16)));
  const auto bf = device(scrambled<__nv_bfloat16>(12), {3, 4});
  BOOST_TEST(cub_sum<float>(cupp::begin(bf.astype<float>()), 12) == host_sum(scrambled<float>(12)));
  // int8 widened by the expression (NEP 50 keeps int8 for `+ 1`: it is
  // summed in int8's accumulator by CUB, so keep the total small).
  const auto i8 = device(std::vector<std::int8_t>{1, -2, 3, -4, 5, -6}, {2, 3});
  BOOST_TEST(cub_sum<std::int8_t>(cupp::begin(i8(_, slice(_, _, -1)) + 1), 6) == 3.0);
  // complex64 read through thrust::reduce.
  using c64 = cuda::std::complex<float>;
  const auto re = device(scrambled<float>(10), {10});
  const auto c = re * c64(0, 1) + re(slice(_, _, -1));
  static_assert(std::is_same_v<std::iterator_traits<decltype(cupp::begin(c))>::value_type, c64>);
  const c64 sum = thrust::reduce(thrust::device, cupp::begin(c), cupp::end(c), c64(0, 0));
  const double total = host_sum(scrambled<float>(10));
  BOOST_TEST(sum.real() == total);
  BOOST_TEST(sum.imag() == total);
}

BOOST_AUTO_TEST_CASE(empty_arrays) {
  const auto e = cupp::ndarray<float>(cupp::shape_t{0, 5});
  BOOST_TEST((cupp::begin(e) == cupp::end(e)));
  BOOST_TEST(cub_sum<float>(cupp::begin(e.T()), 0) == 0.0);
  BOOST_TEST(cub_sum<float>(cupp::begin(e * 2), 0) == 0.0);
  thrust::sort(cupp::begin(e), cupp::end(e));
  BOOST_TEST(thrust::reduce(cupp::begin(e * 2), cupp::end(e * 2), 1.0f) == 1.0f);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(thrust_writes)

BOOST_AUTO_TEST_CASE(sort_a_column_leaves_the_rest) {
  const std::vector<float> hv = scrambled<float>(100 * 3);
  const auto a = device(hv, {100, 3});
  const auto col = a(_, 1);
  thrust::sort(thrust::device, cupp::begin(col), cupp::end(col));
  std::vector<float> want_col;
  for (int i = 0; i < 100; ++i) want_col.push_back(hv[static_cast<std::size_t>(i * 3 + 1)]);
  std::sort(want_col.begin(), want_col.end());
  const std::vector<float> got = a.to_vector();
  for (int i = 0; i < 100; ++i) {
    BOOST_TEST(got[static_cast<std::size_t>(i * 3 + 1)] == want_col[static_cast<std::size_t>(i)]);
    BOOST_TEST(got[static_cast<std::size_t>(i * 3)] == hv[static_cast<std::size_t>(i * 3)]);
    BOOST_TEST(got[static_cast<std::size_t>(i * 3 + 2)] == hv[static_cast<std::size_t>(i * 3 + 2)]);
  }
}

BOOST_AUTO_TEST_CASE(sort_without_a_policy_runs_on_the_device) {
  // No execution policy: Thrust picks the device from the iterators'
  // category. A transposed int64 view and a reversed float16 one.
  const std::vector<std::int64_t> hv = scrambled<std::int64_t>(20 * 30);
  const auto a = device(hv, {20, 30});
  const auto t = a.T();
  thrust::sort(cupp::begin(t), cupp::end(t), cuda::std::greater<std::int64_t>{});
  std::vector<std::int64_t> want = hv;
  std::sort(want.begin(), want.end(), std::greater<>());
  BOOST_TEST(t.to_vector() == want, boost::test_tools::per_element());
  const auto h = device(scrambled<__half>(64), {64});
  const auto r = h(slice(_, _, -1));
  thrust::sort(cupp::begin(r), cupp::end(r));
  std::vector<float> hw = scrambled<float>(64);
  std::sort(hw.begin(), hw.end(), std::greater<>());  // ascending through the reversed view
  const std::vector<__half> hg = h.to_vector();
  for (std::size_t i = 0; i < 64; ++i) BOOST_TEST(static_cast<float>(hg[i]) == hw[i]);
}

BOOST_AUTO_TEST_CASE(host_iterators_stay_on_the_host) {
  // Host arrays' iterators carry the standard category, which Thrust maps
  // to its host system: no policy is needed, and nothing reaches the GPU
  // (a kernel reading host memory would fault).
  const std::vector<float> hv = scrambled<float>(6 * 7);
  const auto h = cupp::host::asarray(hv, {6, 7});
  const auto col = h(_, slice(_, _, -3));  // columns 6, 3, 0
  thrust::sort(cupp::begin(col), cupp::end(col));
  std::vector<float> want;
  for (int i = 0; i < 6; ++i)
    for (int j : {6, 3, 0}) want.push_back(hv[static_cast<std::size_t>(i * 7 + j)]);
  std::sort(want.begin(), want.end());
  BOOST_TEST(col.to_vector() == want, boost::test_tools::per_element());
  BOOST_TEST(h.item(2, 1) == hv[15]);
  const auto e = h.T() * 2;
  BOOST_TEST(thrust::reduce(cupp::begin(e), cupp::end(e), 0.0) == 2 * host_sum(hv));
}

BOOST_AUTO_TEST_CASE(sequence_through_a_reversed_strided_view) {
  cupp::ndarray<std::int32_t> a = cupp::zeros<std::int32_t>({6, 5});
  const auto v = a(slice(_, _, -2), slice(1, _));  // rows 5, 3, 1; columns 1..4
  thrust::sequence(thrust::device, cupp::begin(v), cupp::end(v), 1);
  const std::vector<std::int32_t> got = a.to_vector();
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 5; ++j) {
      const bool inside = i % 2 == 1 && j >= 1;
      const int want = inside ? ((5 - i) / 2) * 4 + (j - 1) + 1 : 0;
      BOOST_TEST(got[static_cast<std::size_t>(i * 5 + j)] == want);
    }
}

BOOST_AUTO_TEST_CASE(transform_an_expression_into_a_transposed_view) {
  const std::vector<double> hx = scrambled<double>(4 * 6);
  const auto x = device(hx, {4, 6});
  cupp::ndarray<double> y = cupp::zeros<double>({6, 4});
  const auto e = x * 2 + 1;
  const auto yt = y.T();  // (4, 6), F-ordered
  thrust::transform(cupp::begin(e), cupp::end(e), cupp::begin(yt), negate_op{});
  const std::vector<double> got = y.to_vector();
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 6; ++j)
      BOOST_TEST(got[static_cast<std::size_t>(j * 4 + i)] ==
                 -(2 * hx[static_cast<std::size_t>(i * 6 + j)] + 1));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(device_code)

BOOST_AUTO_TEST_CASE(operators_in_a_kernel) {
  const auto a = device(scrambled<float>(3 * 5), {3, 5});
  const auto t = a.T();  // t in C order: a[0][0], a[1][0], a[2][0], a[0][1], ...
  std::vector<float> walk;
  for (int j = 0; j < 5; ++j)
    for (int i = 0; i < 3; ++i)
      walk.push_back(scrambled<float>(15)[static_cast<std::size_t>(i * 5 + j)]);
  cupp::ndarray<double> out(cupp::shape_t{7});
  probe<<<1, 7>>>(cupp::begin(t), cupp::end(t), out.data());
  cupp::cuda::check(cudaDeviceSynchronize(), "probe");
  std::vector<double> got = out.to_vector();
  BOOST_TEST(got[0] == 15.0);
  BOOST_TEST(got[1] == walk[5]);
  BOOST_TEST(got[2] == walk[7]);
  BOOST_TEST(got[3] == walk[14]);
  BOOST_TEST(got[4] == walk[3]);
  BOOST_TEST(got[5] == 1.0);
  BOOST_TEST(got[6] == walk[12]);
  // The same through an expression's iterator.
  const auto e = t + 0.5;
  probe<<<1, 7>>>(cupp::begin(e), cupp::end(e), out.data());
  cupp::cuda::check(cudaDeviceSynchronize(), "probe");
  got = out.to_vector();
  BOOST_TEST(got[1] == walk[5] + 0.5);
  BOOST_TEST(got[4] == walk[3] + 0.5);
  BOOST_TEST(got[6] == walk[12] + 0.5);
}

BOOST_AUTO_TEST_SUITE_END()
