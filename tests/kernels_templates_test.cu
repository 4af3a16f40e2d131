// ElementwiseKernel and ReductionKernel on the GPU, against the same
// computation done on the host in the kernel's own types (or in float64):
// every dtype, placeholders and fixed types, broadcasting, strided and
// transposed operands, raw parameters and the index i, scalars, given and
// multiple outputs, the loop size of a kernel without arrays, empty and 0-d
// arrays; reductions over every axis, chosen axes, keepdims, long and short
// reductions, no identity, _in_ind/_out_ind; and the errors, with nothing
// written.
#include <cupp/cupp.hpp>
#include <cupp/kernels.hpp>

#include <boost/test/unit_test.hpp>

#include <cuda/std/complex>

#include "cupp_test.hpp"

#include <cmath>
#include <complex>
#include <memory>
#include <span>
#include <cstdint>
#include <string>
#include <vector>

namespace {

template <class T>
std::complex<double> widen(const T& v) {
  if constexpr (cupp::is_complex_v<T>)
    return {static_cast<double>(v.real()), static_cast<double>(v.imag())};
  else if constexpr (std::is_same_v<T, __half> || std::is_same_v<T, __nv_bfloat16>)
    return {static_cast<double>(static_cast<float>(v)), 0.0};
  else
    return {static_cast<double>(v), 0.0};
}

// Equal for integers and bool, within `rel` for the others.
template <class T>
bool close(const T& a, const T& b) {
  const std::complex<double> x = widen(a), y = widen(b);
  if constexpr (std::is_integral_v<T>) {
    return x == y;
  } else {
    const double rel = std::is_same_v<T, __half> || std::is_same_v<T, __nv_bfloat16> ? 1e-2
                       : std::is_same_v<T, float> || std::is_same_v<T, cuda::std::complex<float>>
                           ? 1e-6
                           : 1e-12;
    return std::abs(x - y) <= rel * std::max(1.0, std::abs(y));
  }
}

template <class T>
cupp::ndarray<T> samples(const cupp::shape_t& shape, long offset = 0) {
  const long n = static_cast<long>(cupp::detail::size_of(shape));
  const auto v = std::make_unique<T[]>(static_cast<std::size_t>(n));  // vector<bool> has no data()
  for (long i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = cupp_test::sample<T>(i + offset);
  return cupp::asarray(cupp::host::asarray(std::span<const T>(v.get(), n), shape));
}

// The elements of a cupp result (an array or a lazy reduction), in C order.
template <class T, class E>
std::vector<T> ref(const E& e) {
  const cupp::ndarray<T> a = e;
  return a.to_vector();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(kernels_templates)

// z = x * y + x for every dtype, against the host in the same type.
BOOST_AUTO_TEST_CASE_TEMPLATE(elementwise_every_dtype, T, cupp_test::dtype_list) {
  const cupp::ElementwiseKernel k("T x, T y", "T z", "z = x * y + x", "mul_add");
  const auto x = samples<T>({37, 29});
  const auto y = samples<T>({37, 29}, 11);
  const cupp::ndarray<T> z = k(x, y);
  BOOST_TEST(z.dtype() == cupp::dtype_of<T>());
  BOOST_TEST((z.shape() == cupp::shape_t{37, 29}));
  const auto xs = x.to_vector(), ys = y.to_vector(), zs = z.to_vector();
  int bad = 0;
  for (std::size_t i = 0; i < zs.size(); ++i) {
    const T want = static_cast<T>(xs[i] * ys[i] + xs[i]);
    bad += !close(zs[i], want);
  }
  BOOST_TEST(bad == 0);
  // A transposed, strided view of x: the same values through its strides.
  const auto xt = samples<T>({58, 37}).transpose()(cupp::slice(), cupp::slice(0, 58, 2));
  const cupp::ndarray<T> zt = k(xt, y);
  const auto xts = xt.copy().to_vector(), zts = zt.to_vector();
  bad = 0;
  for (std::size_t i = 0; i < zts.size(); ++i)
    bad += !close(zts[i], static_cast<T>(xts[i] * ys[i] + xts[i]));
  BOOST_TEST(bad == 0);
}

// Broadcasting, a fixed-type scalar, a raw operand read at a mirrored index,
// and the index i.
BOOST_AUTO_TEST_CASE(broadcast_raw_scalar_and_index) {
  const cupp::ElementwiseKernel k("T x, T w, raw T r, float64 s", "T z, int64 at",
                                  "z = x * s + w + r[_ind.size() - 1 - i]; at = i", "mix");
  const auto x = samples<float>({5, 1});
  const auto w = samples<float>({7}, 3);
  const auto r = samples<float>({35}, 9);
  auto [z, at] = k(x, w, r, 0.5).as<float, std::int64_t>();
  BOOST_TEST((z.shape() == cupp::shape_t{5, 7}));
  const auto xs = x.to_vector(), ws = w.to_vector(), rs = r.to_vector(), zs = z.to_vector();
  const auto ats = at.to_vector();
  int bad = 0;
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 7; ++j) {
      const int f = i * 7 + j;
      const float want = static_cast<float>(xs[i] * 0.5 + ws[j] + rs[34 - f]);
      bad += !close(zs[f], want) || ats[f] != f;
    }
  BOOST_TEST(bad == 0);
  // Raw operands are read with their own strides: a reversed view.
  const auto rv = r(cupp::slice(cupp::_, cupp::_, -1));
  const cupp::ndarray<float> z2 = k(x, w, rv, 0.5).get<float>(0);
  bad = 0;
  for (int f = 0; f < 35; ++f)
    bad += !close(z2.to_vector()[f], static_cast<float>(xs[f / 7] * 0.5 + ws[f % 7] + rs[f]));
  BOOST_TEST(bad == 0);
}

// Outputs given: a strided view is written through its strides and nothing
// else; the result is the given array.
BOOST_AUTO_TEST_CASE(outputs_given_and_size) {
  const cupp::ElementwiseKernel twice("T x", "T y", "y = x + x", "twice");
  cupp::ndarray<double> base = cupp::zeros<double>({20});
  auto view = base(cupp::slice(0, 20, 2));
  const auto x = samples<double>({10});
  const cupp::ndarray<double> r = twice(x, view);
  BOOST_TEST(r.data() == view.data());
  const auto b = base.to_vector(), xs = x.to_vector();
  for (int i = 0; i < 20; ++i) BOOST_TEST(b[i] == (i % 2 ? 0.0 : 2 * xs[i / 2]));

  // No non-raw array: the loop size comes from kernel_call{.size}.
  const cupp::ElementwiseKernel fill("raw T x", "raw T y", "y[i] = x[i] * 3", "fill3");
  const auto src = samples<std::int32_t>({12});
  cupp::ndarray<std::int32_t> dst = cupp::zeros<std::int32_t>({12});
  fill(src, dst, cupp::kernel_call{.size = 12, .block_size = 64});
  const auto ss = src.to_vector(), ds = dst.to_vector();
  for (int i = 0; i < 12; ++i) BOOST_TEST(ds[i] == 3 * ss[i]);
  BOOST_CHECK_THROW(fill(src, dst), cupp::value_error);  // size undecided
  BOOST_CHECK_THROW(twice(x, cupp::kernel_call{.size = 10}), cupp::value_error);
  // A stream of the caller's.
  cupp::cuda::Stream s;
  const cupp::ndarray<double> y = twice(x, cupp::kernel_call{.stream = s});
  s.synchronize();
  BOOST_TEST(y.to_vector()[3] == 2 * xs[3]);
}

BOOST_AUTO_TEST_CASE(empty_and_zero_d) {
  const cupp::ElementwiseKernel k("T x", "T y", "y = x * 2", "dbl");
  const cupp::ndarray<float> e = k(cupp::zeros<float>({0, 3}));
  BOOST_TEST((e.shape() == cupp::shape_t{0, 3}));
  const cupp::ndarray<float> z = k(cupp::full<float>(cupp::shape_t{}, 1.5f));
  BOOST_TEST(z.ndim() == 0);
  BOOST_TEST(z.item() == 3.0f);
}

BOOST_AUTO_TEST_CASE(errors_write_nothing) {
  const cupp::ElementwiseKernel k("T x, T y", "T z", "z = x + y", "addk");
  const auto f = samples<float>({4});
  const auto d = samples<double>({4});
  cupp::ndarray<float> out = cupp::full<float>({4}, 7.0f);
  BOOST_CHECK_THROW(k(f), cupp::type_error);     // too few arguments
  BOOST_CHECK_THROW(k(f, d), cupp::type_error);  // T bound twice
  BOOST_CHECK_THROW(k(f, f, cupp::zeros<double>({4})), cupp::type_error);
  BOOST_CHECK_THROW(k(f, f, cupp::zeros<float>({5})), cupp::value_error);
  BOOST_CHECK_THROW(k(f, samples<float>({3})), cupp::value_error);  // broadcast
  const cupp::ElementwiseKernel bad("T x", "T z", "z = x +* 2", "badk");
  BOOST_CHECK_THROW(bad(f, out), cupp::compile_error);
  const cupp::ElementwiseKernel unbound("T x", "U z", "z = x", "unb");
  BOOST_CHECK_THROW(unbound(f), cupp::type_error);
  const cupp::ElementwiseKernel raw_out("T x", "raw T z", "z[i] = x", "rawout");
  BOOST_CHECK_THROW(raw_out(f), cupp::value_error);
  BOOST_TEST(out.to_vector() == std::vector<float>(4, 7.0f));
  const cupp::kernel_outputs two =
      cupp::ElementwiseKernel("T x", "T a, T b", "a = x; b = x", "two")(f);
  BOOST_CHECK_THROW((void)cupp::ndarray<float>(two), cupp::value_error);
  BOOST_CHECK_THROW((void)two.get<double>(1), cupp::type_error);
}

// Sums of squares over every layout the reduction kernel chooses between:
// a thread, a warp or a block per output, and chunks combined by a second
// kernel; against float64 sums on the host.
BOOST_AUTO_TEST_CASE(reduction_axes_and_groups) {
  const cupp::ReductionKernel l2("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm",
                                 {.reduce_type = "float64"});
  struct shape_case {
    cupp::shape_t shape;
    std::vector<int> axis;
  };
  const std::vector<shape_case> cases = {{{1000, 8}, {1}},    {{8, 1000}, {0}},   {{300, 700}, {1}},
                                         {{300, 700}, {0}},   {{4, 100000}, {1}}, {{1 << 20}, {0}},
                                         {{6, 5, 4}, {0, 2}}, {{6, 5, 4}, {-1}}};
  for (const auto& c : cases) {
    const auto x = samples<float>(c.shape);
    const cupp::ndarray<float> y = l2(x, cupp::reduction_call{.axis = c.axis});
    // Reference: the host sum in float64 along the axes.
    const auto xs = x.to_vector();
    const int nd = c.shape.size();
    std::vector<bool> red(nd, false);
    for (int a : c.axis) red[a < 0 ? a + nd : a] = true;
    cupp::shape_t out_shape;
    for (int dd = 0; dd < nd; ++dd)
      if (!red[dd]) out_shape.push_back(c.shape[dd]);
    std::vector<double> sums(static_cast<std::size_t>(cupp::detail::size_of(out_shape)), 0.0);
    std::vector<long> idx(nd, 0);
    for (std::size_t f = 0; f < xs.size(); ++f) {
      long rem = static_cast<long>(f), o = 0;
      for (int dd = nd - 1; dd >= 0; --dd) {
        idx[dd] = rem % c.shape[dd];
        rem /= c.shape[dd];
      }
      for (int dd = 0; dd < nd; ++dd)
        if (!red[dd]) o = o * c.shape[dd] + idx[dd];
      sums[static_cast<std::size_t>(o)] += static_cast<double>(xs[f]) * xs[f];
    }
    BOOST_TEST_CONTEXT(cupp::detail::np_shape(c.shape) << " axis " << c.axis[0]) {
      BOOST_TEST((y.shape() == out_shape));
      const auto ys = y.to_vector();
      int bad = 0;
      for (std::size_t o = 0; o < ys.size(); ++o)
        bad += std::abs(ys[o] - std::sqrt(sums[o])) > 1e-5 * std::sqrt(sums[o]) + 1e-6;
      BOOST_TEST(bad == 0);
    }
  }
  // Every axis, keepdims, and a transposed operand.
  const auto x = samples<float>({30, 40});
  const cupp::ndarray<float> all = l2(x);
  BOOST_TEST(all.ndim() == 0);
  double s = 0;
  for (const float v : x.to_vector()) s += static_cast<double>(v) * v;
  BOOST_TEST(std::abs(all.item() - std::sqrt(s)) <= 1e-5 * std::sqrt(s));
  const cupp::ndarray<float> kd = l2(x, cupp::reduction_call{.axis = {{0}}, .keepdims = true});
  BOOST_TEST((kd.shape() == cupp::shape_t{1, 40}));
  const cupp::ndarray<float> tr = l2(x.transpose(), cupp::reduction_call{.axis = {{1}}});
  BOOST_TEST(tr.to_vector() == l2(x, cupp::reduction_call{.axis = {{0}}}).get<float>().to_vector());
}

// No identity (max), integer and complex sums, a mean through _in_ind and
// _out_ind, float16 accumulated in float32, an output given, empty input.
BOOST_AUTO_TEST_CASE(reduction_kinds) {
  const cupp::ReductionKernel mx("T x", "T y", "x", "max(a, b)", "y = a", "", "maxk");
  const auto xi = samples<std::int32_t>({50, 3000}, 5);
  const cupp::ndarray<std::int32_t> m = mx(xi, cupp::reduction_call{.axis = {{1}}});
  BOOST_TEST(m.to_vector() == ref<std::int32_t>(cupp::amax(xi, 1)));
  BOOST_CHECK_THROW(mx(cupp::zeros<std::int32_t>({3, 0}), cupp::reduction_call{.axis = {{1}}}),
                    cupp::value_error);
  const cupp::ndarray<std::int32_t> mall = mx(xi);
  BOOST_TEST(mall.item() == ref<std::int32_t>(cupp::amax(xi))[0]);

  const cupp::ReductionKernel sum("T x", "T y", "x", "a + b", "y = a", "0", "sumk");
  const auto xl = samples<std::int64_t>({7, 1 << 16});
  BOOST_TEST(sum(xl, cupp::reduction_call{.axis = {{1}}}).get<std::int64_t>().to_vector() ==
             ref<std::int64_t>(cupp::sum(xl, 1)));
  const cupp::ndarray<std::int64_t> e =
      sum(cupp::zeros<std::int64_t>({3, 0}), cupp::reduction_call{.axis = {{1}}});
  BOOST_TEST(e.to_vector() == std::vector<std::int64_t>(3, 0));

  using C = cuda::std::complex<double>;
  const auto xc = samples<C>({20, 500});
  const cupp::ndarray<C> sc = sum(xc, cupp::reduction_call{.axis = {{1}}});
  const auto want_c = ref<C>(cupp::sum(xc, 1));
  const auto got_c = sc.to_vector();
  for (std::size_t i = 0; i < got_c.size(); ++i) BOOST_TEST(close(got_c[i], want_c[i]));

  const cupp::ReductionKernel mean("T x", "T y", "x", "a + b",
                                   "y = a / (_in_ind.size() / _out_ind.size())", "0", "meank",
                                   {.reduce_type = "float32"});
  const auto xh = samples<__half>({16, 4096});
  const cupp::ndarray<__half> mh = mean(xh, cupp::reduction_call{.axis = {{1}}});
  const auto want_h = ref<float>(cupp::mean(xh.astype<float>(), 1));
  const auto got_h = mh.to_vector();
  for (std::size_t i = 0; i < got_h.size(); ++i)
    BOOST_TEST(std::abs(static_cast<float>(got_h[i]) - want_h[i]) < 1e-2);

  cupp::ndarray<double> out = cupp::zeros<double>({3});
  const auto xd = samples<double>({3, 9});
  sum(xd, out, cupp::reduction_call{.axis = {{1}}});
  BOOST_TEST(out.to_vector() == ref<double>(cupp::sum(xd, 1)));
  BOOST_CHECK_THROW(sum(xd, cupp::zeros<double>({4}), cupp::reduction_call{.axis = {{1}}}),
                    cupp::value_error);
  BOOST_CHECK_THROW(sum(xd, cupp::reduction_call{.axis = {{2}}}), cupp::axis_error);
  BOOST_CHECK_THROW(sum(xd, cupp::reduction_call{.axis = {{1, -1}}}), cupp::value_error);
}

BOOST_AUTO_TEST_SUITE_END()
