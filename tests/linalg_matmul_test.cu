// numpy.matmul on host arrays (OpenBLAS, exact loops) and, with
// CUPP_TEST_DEVICE=1, on device arrays (cuBLAS, cupp's small-product and
// exact kernels):
// every dtype against an independent loop in float64 (or in wrapping
// unsigned arithmetic for integers), C, F, transposed, strided and
// broadcast layouts, 1-d operands, empty and 1x1 matrices, expressions as
// operands, NumPy's result dtypes and NumPy's messages.
#include <cupp/creation.hpp>
#include <cupp/linalg/matmul.hpp>
#include <cupp/manipulation.hpp>
#include <cupp/ufunc.hpp>

#include <cmath>
#include <cstdint>
#include <vector>

#include "cupp_test.hpp"
#include "test_space.hpp"

using cupp::index_t;
using cupp::shape_t;
using cupp_test::array;
using cupp_test::on_space;
using cupp_test::to_host;

namespace {

// Small values: float sums stay exact in float32 (and in float16 for the
// sizes used); integers big enough that int8 and uint8 products wrap.
template <class T>
cupp::host::ndarray<T> filled(const shape_t& s, int seed) {
  auto h = cupp::host::empty<T>(s);
  for (index_t i = 0; i < h.size(); ++i) {
    const int v = static_cast<int>((i * 7 + seed * 13) % 11) - 5;
    if constexpr (std::is_same_v<T, bool>)
      h.data()[i] = v > 0;
    else if constexpr (std::is_integral_v<T>)
      h.data()[i] = static_cast<T>(v * 23);
    else if constexpr (cupp::detail::is_complex_type_v<T>)
      h.data()[i] = T(static_cast<float>(v), static_cast<float>((v * 3) % 4));
    else
      h.data()[i] = cupp::detail::convert<T>(static_cast<float>(v));
  }
  return h;
}

// numpy.matmul by its definition, written out here: C-order values of both
// operands, the result's shape given by the caller.
template <class T>
std::vector<T> reference(const std::vector<T>& a, shape_t as, const std::vector<T>& b, shape_t bs,
                         const shape_t& out) {
  const bool a1 = as.size() == 1, b1 = bs.size() == 1;
  if (a1) as = shape_t{1, as[0]};
  if (b1) bs = shape_t{bs[0], 1};
  const index_t m = as[as.size() - 2], k = as[as.size() - 1], n = bs[bs.size() - 1];
  const int nb = std::max(as.size(), bs.size()) - 2;
  shape_t batch = shape_t::filled(nb, 1);
  for (int i = 0; i < nb; ++i) {
    const int ia = i - (nb - (as.size() - 2)), ib = i - (nb - (bs.size() - 2));
    const index_t x = ia >= 0 ? as[ia] : 1, y = ib >= 0 ? bs[ib] : 1;
    batch[i] = x == 1 ? y : x;  // 0 broadcasts with 1 to 0
  }
  std::vector<T> r;
  const index_t batches = cupp::detail::size_of(batch);
  for (index_t bi = 0; bi < batches; ++bi) {
    // The operands' batch offsets, broadcast axes read at 0.
    index_t rest = bi, oa = 0, ob = 0, sa = m * k, sb = k * n;
    for (int i = nb - 1; i >= 0; --i) {
      const index_t c = rest % batch[i];
      rest /= batch[i];
      const int ia = i - (nb - (as.size() - 2)), ib = i - (nb - (bs.size() - 2));
      if (ia >= 0) {
        oa += (as[ia] == 1 ? 0 : c) * sa;
        sa *= as[ia];
      }
      if (ib >= 0) {
        ob += (bs[ib] == 1 ? 0 : c) * sb;
        sb *= bs[ib];
      }
    }
    for (index_t i = 0; i < m; ++i)
      for (index_t j = 0; j < n; ++j) {
        if constexpr (std::is_same_v<T, bool>) {
          bool acc = false;
          for (index_t l = 0; l < k; ++l) acc = acc || (a[oa + i * k + l] && b[ob + l * n + j]);
          r.push_back(acc);
        } else if constexpr (std::is_integral_v<T>) {
          std::uint64_t acc = 0;
          for (index_t l = 0; l < k; ++l)
            acc += static_cast<std::uint64_t>(static_cast<std::int64_t>(a[oa + i * k + l])) *
                   static_cast<std::uint64_t>(static_cast<std::int64_t>(b[ob + l * n + j]));
          r.push_back(static_cast<T>(acc));
        } else if constexpr (cupp::detail::is_complex_type_v<T>) {
          cupp::complex128 acc = 0;
          for (index_t l = 0; l < k; ++l)
            acc += cupp::complex128(a[oa + i * k + l]) * cupp::complex128(b[ob + l * n + j]);
          r.push_back(T(acc));
        } else {
          double acc = 0;
          for (index_t l = 0; l < k; ++l)
            acc += cupp::detail::convert<double>(a[oa + i * k + l]) *
                   cupp::detail::convert<double>(b[ob + l * n + j]);
          r.push_back(cupp::detail::convert<T>(acc));
        }
      }
  }
  (void)out;
  return r;
}

// `result` is an array or matmul's lazy product (converted here).
template <class T, class A>
void expect_values(const A& result, const shape_t& shape, const std::vector<T>& want) {
  const array<T> got = result;
  BOOST_TEST_REQUIRE(got.shape() == shape, cupp::detail::np_shape(got.shape()));
  const auto g = to_host(got).to_vector();
  BOOST_TEST_REQUIRE(g.size() == want.size());
  for (std::size_t i = 0; i < g.size(); ++i) {
    if constexpr (std::is_same_v<T, cupp::bfloat16>) {
      // bfloat16 keeps 8 bits: the result is the float32 sum rounded once.
      const double w = cupp::detail::convert<double>(want[i]);
      BOOST_TEST(std::abs(cupp::detail::convert<double>(g[i]) - w) <= std::abs(w) / 128,
                 "element " << i);
    } else {
      BOOST_TEST((g[i] == want[i]), "element " << i);
    }
  }
}

// a @ b for host values of shapes as and bs, given in layout `layout`:
// 0 C order, 1 F order, 2 the transposes of F-order arrays of the swapped
// shape (unit stride along rows), 3 every other row and column of a larger
// array (no unit stride: copied).
template <class T>
void check(const shape_t& as, const shape_t& bs, const shape_t& out, int layout) {
  BOOST_TEST_CONTEXT(cupp::detail::np_shape(as)
                     << " @ " << cupp::detail::np_shape(bs) << ", layout " << layout) {
    const auto ha = filled<T>(as, 1), hb = filled<T>(bs, 2);
    const auto want = reference(ha.to_vector(), as, hb.to_vector(), bs, out);
    auto in_layout = [&](const cupp::host::ndarray<T>& h) -> array<T> {
      if (layout == 1) {
        auto f = cupp::host::empty<T>(h.shape(), cupp::order::F);
        cupp::copyto(f, h);
        return on_space(f);
      }
      if (layout == 3) {
        shape_t big = h.shape();
        for (int i = 0; i < big.size(); ++i) big[i] *= 2;
        const cupp::host::ndarray<T> g = cupp::host::zeros<T>(big);
        const auto view = cupp::host::ndarray<T>(
            g.data(), h.shape(),
            [&] {
              cupp::strides_t st = g.strides();
              for (int i = 0; i < st.size(); ++i) st[i] *= 2;
              return st;
            }(),
            g.memory(), -1, true);
        cupp::copyto(view, h);
        const auto dev = on_space(g);
        cupp::strides_t st = dev.strides();
        for (int i = 0; i < st.size(); ++i) st[i] *= 2;
        return array<T>(dev.data(), h.shape(), st, dev.memory(), dev.device_id(), false);
      }
      return on_space(h);
    };
    expect_values(cupp::matmul(in_layout(ha), in_layout(hb)), out, want);
    if (layout == 2 && as.size() == 2 && bs.size() == 2) {
      // b.T @ a.T == (a @ b).T, read through the transpose flags.
      const auto at = on_space(ha), bt = on_space(hb);
      const array<T> r = cupp::matmul(bt.T(), at.T());
      expect_values(cupp::ascontiguousarray(r.T()).copy(), out, want);
    }
  }
}

template <class T>
void check_dtype() {
  for (int layout : {0, 1, 2, 3}) {
    check<T>({2, 3}, {3, 4}, {2, 4}, layout);
    check<T>({1, 1}, {1, 1}, {1, 1}, layout);
    check<T>({5, 7}, {7, 1}, {5, 1}, layout);
    check<T>({3}, {3, 4}, {4}, layout);
    check<T>({2, 3}, {3}, {2}, layout);
    check<T>({6}, {6}, {}, layout);
    check<T>({2, 1, 3, 4}, {5, 4, 2}, {2, 5, 3, 2}, layout);
    check<T>({4, 2, 3}, {3, 5}, {4, 2, 5}, layout);
    check<T>({17, 33}, {33, 9}, {17, 9}, layout);
    check<T>({2, 0}, {0, 3}, {2, 3}, layout);
    check<T>({0, 3}, {3, 2}, {0, 2}, layout);
    check<T>({3, 0, 2, 2}, {2, 2}, {3, 0, 2, 2}, layout);
  }
}

// A stack in one of the layouts of stacks of small products: 0 C order,
// 1 each matrix the transpose of a C-order stack (unit stride along rows),
// 2 rows padded (a slice of a wider stack: rows further apart than their
// length), 3 F order of the whole stack (no unit stride: copied), 4 C order
// one element into its memory (rows too far from 16-byte alignment for the
// small-product kernel's vector loads).
template <class T>
array<T> stack_in_layout(const cupp::host::ndarray<T>& h, int layout) {
  if (layout == 1) {
    const cupp::host::ndarray<T> t(cupp::ascontiguousarray(cupp::linalg::matrix_transpose(h)));
    return cupp::linalg::matrix_transpose(on_space(t));
  }
  if (layout == 2 && h.ndim() >= 2) {
    shape_t wide = h.shape();
    wide[wide.size() - 1] += 3;
    const cupp::host::ndarray<T> g = cupp::host::zeros<T>(wide);
    const cupp::host::ndarray<T> inner(g.data(), h.shape(), g.strides(), g.memory(), -1, true);
    cupp::copyto(inner, h);
    const auto dev = on_space(g);
    return array<T>(dev.data(), h.shape(), dev.strides(), dev.memory(), dev.device_id(), false);
  }
  if (layout == 4) {
    const cupp::host::ndarray<T> g = cupp::host::zeros<T>({h.size() + 1});
    const cupp::host::ndarray<T> inner(g.data() + 1, h.shape(), h.strides(), g.memory(), -1, true);
    cupp::copyto(inner, h);
    const auto dev = on_space(g);
    return array<T>(dev.data() + 1, h.shape(), h.strides(), dev.memory(), dev.device_id(), false);
  }
  if (layout == 3) {
    auto f = cupp::host::empty<T>(h.shape(), cupp::order::F);
    cupp::copyto(f, h);
    return on_space(f);
  }
  return on_space(h);
}

template <class T>
void check_stack(const shape_t& as, const shape_t& bs, int layout_a, int layout_b) {
  BOOST_TEST_CONTEXT(cupp::detail::np_shape(as) << " @ " << cupp::detail::np_shape(bs)
                                                << ", layouts " << layout_a << ", " << layout_b) {
    const auto ha = filled<T>(as, 1), hb = filled<T>(bs, 2);
    const shape_t out = cupp::detail::matmul_shape(as, bs);
    const auto want = reference(ha.to_vector(), as, hb.to_vector(), bs, out);
    expect_values(cupp::matmul(stack_in_layout(ha, layout_a), stack_in_layout(hb, layout_b)), out,
                  want);
  }
}

// Stacks of products with m, n, k <= 16, which the device computes with
// cupp's small-product kernel: every square size, non-square shapes, every
// pair of layouts, broadcast operands (batch stride 0) and batch axes that
// do not merge, rows that the kernel loads 16 bytes at a time and rows it
// cannot (misaligned); stacks of thousands of rows, so that the grid has
// many blocks and a partial last one.
template <class T>
void check_small_stacks() {
  for (index_t s = 1; s <= 16; ++s) check_stack<T>({37, s, s}, {37, s, s}, s % 4, (s / 4) % 4);
  for (int la = 0; la < 4; ++la)
    for (int lb = 0; lb < 4; ++lb) {
      check_stack<T>({40, 3, 5}, {40, 5, 7}, la, lb);
      check_stack<T>({3, 5}, {40, 5, 7}, la, lb);
      check_stack<T>({40, 3, 5}, {5, 7}, la, lb);
      check_stack<T>({6, 1, 4, 3}, {5, 3, 2}, la, lb);
      check_stack<T>({3, 4, 16, 1}, {4, 1, 16}, la, lb);
      check_stack<T>({2, 1, 16}, {2, 16, 1}, la, lb);
    }
  check_stack<T>({2999, 3, 5}, {5, 7}, 0, 0);
  check_stack<T>({2999, 3, 5}, {2999, 5, 7}, 1, 2);
  check_stack<T>({1501, 8, 8}, {1501, 8, 8}, 0, 0);
  check_stack<T>({1501, 8, 8}, {1, 8, 8}, 3, 1);
  check_stack<T>({3, 700, 2, 2}, {700, 2, 2}, 2, 0);
  check_stack<T>({600, 16, 16}, {600, 16, 16}, 1, 1);
  check_stack<T>({600, 16}, {600, 16, 4}, 0, 2);
  check_stack<T>({300, 8, 8}, {300, 8, 8}, 4, 0);
  check_stack<T>({300, 8, 8}, {300, 8, 8}, 0, 4);
  check_stack<T>({300, 4, 4}, {300, 4, 4}, 4, 4);
  check_stack<T>({300, 16, 16}, {16, 16}, 4, 4);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(linalg_matmul)

BOOST_AUTO_TEST_CASE(floating_dtypes) {
  check_dtype<float>();
  check_dtype<double>();
  check_dtype<cupp::complex64>();
  check_dtype<cupp::complex128>();
  check_dtype<cupp::float16>();
  check_dtype<cupp::bfloat16>();
}

BOOST_AUTO_TEST_CASE(small_product_stacks) {
  check_small_stacks<float>();
  check_small_stacks<double>();
  check_small_stacks<cupp::complex64>();
  check_small_stacks<cupp::complex128>();
  check_small_stacks<cupp::float16>();
  check_small_stacks<cupp::bfloat16>();
}

BOOST_AUTO_TEST_CASE(exact_dtypes) {
  check_dtype<std::int8_t>();
  check_dtype<std::uint8_t>();
  check_dtype<std::int32_t>();
  check_dtype<std::int64_t>();
  check_dtype<bool>();
}

BOOST_AUTO_TEST_CASE(values_numpy_gives) {
  // numpy.arange(6.).reshape(2, 3) @ numpy.arange(12.).reshape(3, 4)
  const auto a = on_space(cupp::host::arange<float>(6).reshape({2, 3}).eval());
  const auto b = on_space(cupp::host::arange<float>(12).reshape({3, 4}).eval());
  expect_values(cupp::matmul(a, b), {2, 4}, std::vector<float>{20, 23, 26, 29, 56, 68, 80, 92});
  expect_values(cupp::linalg::matmul(a, b), {2, 4},
                std::vector<float>{20, 23, 26, 29, 56, 68, 80, 92});
  // An expression operand is evaluated once: (2 * a) @ b.
  expect_values(cupp::matmul(a * 2.0f, b), {2, 4},
                std::vector<float>{40, 46, 52, 58, 112, 136, 160, 184});
}

BOOST_AUTO_TEST_CASE(result_dtypes) {
  const auto f = on_space(cupp::host::ones<float>({2, 2}).eval());
  const auto d = on_space(cupp::host::ones<double>({2, 2}).eval());
  const auto i = on_space(cupp::host::ones<std::int32_t>({2, 2}).eval());
  const auto u = on_space(cupp::host::ones<std::uint8_t>({2, 2}).eval());
  static_assert(std::is_same_v<decltype(cupp::matmul(f, d))::value_type, double>);
  static_assert(std::is_same_v<decltype(cupp::matmul(i, f))::value_type, double>);
  static_assert(std::is_same_v<decltype(cupp::matmul(u, i))::value_type, std::int32_t>);
  expect_values(cupp::matmul(f, d), {2, 2}, std::vector<double>{2, 2, 2, 2});
  expect_values(cupp::matmul(i, f), {2, 2}, std::vector<double>{2, 2, 2, 2});
  expect_values(cupp::matmul(u, i), {2, 2}, std::vector<std::int32_t>{2, 2, 2, 2});
}

BOOST_AUTO_TEST_CASE(numpy_errors) {
  using cupp_test::message_of;
  const auto a = on_space(cupp::host::ones<float>({2, 3}).eval());
  const auto b = on_space(cupp::host::ones<float>({4, 5}).eval());
  const auto s = on_space(cupp::host::ones<float>({}).eval());
  const std::string sig = "(n?,k),(k,m?)->(n?,m?)";
  BOOST_TEST(message_of([&] { cupp::matmul(a, b); }) ==
             "matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc "
             "signature " +
                 sig + " (size 4 is different from 3)");
  BOOST_TEST(message_of([&] { cupp::matmul(s, a); }) ==
             "matmul: Input operand 0 does not have enough dimensions (has 0, gufunc core with "
             "signature " +
                 sig + " requires 1)");
  BOOST_TEST(message_of([&] { cupp::matmul(a, s); }) ==
             "matmul: Input operand 1 does not have enough dimensions (has 0, gufunc core with "
             "signature " +
                 sig + " requires 1)");
  const auto x = on_space(cupp::host::ones<float>({2, 3, 4}).eval());
  const auto y = on_space(cupp::host::ones<float>({3, 4, 5}).eval());
  BOOST_TEST(message_of([&] { cupp::matmul(x, y); }) ==
             "operands could not be broadcast together with remapped shapes "
             "[original->remapped]: (2,3,4)->(2,newaxis,newaxis) (3,4,5)->(3,newaxis,newaxis)  "
             "and requested shape (3,5)");
  BOOST_CHECK_THROW(cupp::matmul(a, b), cupp::value_error);
}

// numpy.dot over more axes: dot(a, b)[i, j, p, q] = sum_l a[i, j, l] * b[p, l, q].
BOOST_AUTO_TEST_CASE(dot_vdot_outer) {
  const auto ha = filled<double>({2, 3, 4}, 1), hb = filled<double>({5, 4, 6}, 2);
  const auto d = to_host(cupp::dot(on_space(ha), on_space(hb)));
  BOOST_TEST_REQUIRE(d.shape() == (shape_t{2, 3, 5, 6}));
  for (index_t i = 0; i < 2; ++i)
    for (index_t j = 0; j < 3; ++j)
      for (index_t p = 0; p < 5; ++p)
        for (index_t q = 0; q < 6; ++q) {
          double w = 0;
          for (index_t l = 0; l < 4; ++l) w += ha.at(i, j, l) * hb.at(p, l, q);
          BOOST_TEST(d.at(i, j, p, q) == w);
        }
  // 1-d and 2-d: matmul's values; 0-d: the element-wise product.
  const auto a = on_space(cupp::host::arange<float>(6).reshape({2, 3}).eval());
  const auto b = on_space(cupp::host::arange<float>(12).reshape({3, 4}).eval());
  expect_values(cupp::dot(a, b), {2, 4}, std::vector<float>{20, 23, 26, 29, 56, 68, 80, 92});
  expect_values(cupp::dot(a, b(cupp::_, 1)), {2}, std::vector<float>{23, 68});
  const auto two = on_space(cupp::host::full<float>({}, 2.0f).eval());
  expect_values(cupp::dot(two, a), {2, 3}, std::vector<float>{0, 2, 4, 6, 8, 10});
  // numpy.vdot([1+2j, 3j], [2+1j, 1]) == 4-6j
  auto h1 = cupp::host::empty<cupp::complex128>({2}), h2 = cupp::host::empty<cupp::complex128>({2});
  h1.data()[0] = {1, 2};
  h1.data()[1] = {0, 3};
  h2.data()[0] = {2, 1};
  h2.data()[1] = {1, 0};
  const auto c1 = on_space(h1), c2 = on_space(h2);
  expect_values(cupp::vdot(c1, c2), {}, std::vector<cupp::complex128>{{4, -6}});
  expect_values(cupp::vdot(a, a), {}, std::vector<float>{55});
  // numpy.outer(arange(2), arange(3) + 1)
  const auto o = cupp::outer(a(0)(cupp::slice(0, 2)), b(0)(cupp::slice(1, 4)));
  expect_values(o, {2, 3}, std::vector<float>{0, 0, 0, 1, 2, 3});
  expect_values(cupp::linalg::outer(a(0), a(1)), {3, 3},
                std::vector<float>{0, 0, 0, 3, 4, 5, 6, 8, 10});
  expect_values(cupp::linalg::matrix_transpose(a).copy(), {3, 2},
                std::vector<float>{0, 3, 1, 4, 2, 5});
  using cupp_test::message_of;
  BOOST_TEST(message_of([&] { cupp::dot(a, a); }) ==
             "shapes (2,3) and (2,3) not aligned: 3 (dim 1) != 2 (dim 0)");
  BOOST_TEST(message_of([&] { cupp::dot(a(0), b(0)); }) ==
             "shapes (3,) and (4,) not aligned: 3 (dim 0) != 4 (dim 0)");
  BOOST_TEST(message_of([&] { cupp::vdot(a(0), b(0)); }) ==
             "cannot reshape array of size 4 into shape (3,)");
  BOOST_TEST(message_of([&] { cupp::linalg::outer(a, a(0)); }) ==
             "Input arrays must be one-dimensional, but they are x1.ndim=2 and x2.ndim=1.");
  BOOST_TEST(message_of([&] { cupp::linalg::matrix_transpose(a(0)); }) ==
             "Input array must be at least 2-dimensional, but it is 1");
}

#if CUPP_TEST_DEVICE
// matmul(a.T(), b) reads a through cuBLAS's transpose flag: the pool hands
// out the result's bytes and nothing more (a copy of a would be another
// 4 MiB).
BOOST_AUTO_TEST_CASE(transposed_operands_are_not_copied) {
  const auto a = cupp::asarray(filled<float>({1024, 1024}, 1));
  const auto b = cupp::asarray(filled<float>({1024, 1024}, 2));
  auto& pool = cupp::cuda::get_default_memory_pool();
  (void)cupp::matmul(a.T(), b).eval();  // the handle's workspace, once per thread
  cupp::cuda::runtime::deviceSynchronize();
  const std::size_t before = pool.used_bytes();
  const cupp::ndarray<float> c = cupp::matmul(a.T(), b.T());
  BOOST_TEST(pool.used_bytes() - before == std::size_t{1024 * 1024 * 4});
  (void)c;
}
#endif

BOOST_AUTO_TEST_SUITE_END()
