// NumPy's products on host arrays (OpenBLAS, exact loops) and, with
// CUPP_TEST_DEVICE=1, on device arrays (cuBLAS, cupp's kernels): inner,
// tensordot, kron, trace, cross and numpy.linalg's vecdot, cross, trace,
// diagonal, multi_dot and matrix_power against NumPy's fixtures
// (generate_linalg_products_fixtures.py) for every dtype, with operands in
// C order, F order, transposed and strided views and broadcast views;
// empty, 0-d and 1-d cases; result dtypes; NumPy's errors and messages.
#include <cupp/creation.hpp>
#include <cupp/linalg.hpp>
#include <cupp/manipulation.hpp>
#include <cupp/npy.hpp>
#include <cupp/ufunc.hpp>

#include <array>
#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "cupp_test.hpp"
#include "test_space.hpp"

using cupp::index_t;
using cupp::shape_t;
using cupp_test::array;
using cupp_test::on_space;
using cupp_test::to_host;

namespace {

struct fixture_case {
  std::string func, name, dtype, params;
  shape_t out;
  std::vector<shape_t> shapes;
};

shape_t parse_shape(const std::string& s) {
  shape_t r = shape_t::filled(0, 0);
  if (s == "0d") return r;
  std::stringstream in(s);
  for (std::string e; std::getline(in, e, 'x');) r.push_back(std::stol(e));
  return r;
}

std::vector<index_t> parse_ints(const std::string& s, char sep) {
  std::vector<index_t> r;
  std::stringstream in(s);
  for (std::string e; std::getline(in, e, sep);) r.push_back(std::stol(e));
  return r;
}

std::vector<fixture_case> cases() {
  std::vector<fixture_case> r;
  for (const auto& line : cupp_test::fixture_lines("linalg/products/cases.txt")) {
    std::stringstream in(line);
    fixture_case c;
    std::string out, s;
    in >> c.func >> c.name >> c.dtype >> c.params >> out;
    c.out = parse_shape(out);
    while (in >> s) c.shapes.push_back(parse_shape(s));
    r.push_back(c);
  }
  return r;
}

// The host values h in layout `layout`: 0 C order, 1 F order, 2 a view
// with the last two axes swapped (of a C-order array holding the swap),
// 3 every other element of a larger array, 4 a broadcast view of h's first
// entry along axis 0 (the fixture's values repeat along it).
template <class T>
array<T> in_layout(const cupp::host::ndarray<T>& h, int layout) {
  if (layout == 1) {
    auto f = cupp::host::empty<T>(h.shape(), cupp::order::F);
    cupp::copyto(f, h);
    return on_space(f);
  }
  if (layout == 2 && h.ndim() >= 2) return on_space(h.swapaxes(-1, -2).copy()).swapaxes(-1, -2);
  if (layout == 3) {
    shape_t big = h.shape();
    for (int i = 0; i < big.size(); ++i) big[i] *= 2;
    const array<T> g = on_space(cupp::host::zeros<T>(big).eval());
    cupp::strides_t st = g.strides();
    for (int i = 0; i < st.size(); ++i) st[i] *= 2;
    const array<T> view(g.data(), h.shape(), st, g.memory(), g.device_id(), true);
    cupp::copyto(view, on_space(h));
    return view;
  }
  if (layout == 4 && h.ndim() >= 1 && h.shape()[0] > 0)
    return cupp::broadcast_to(on_space(h(cupp::slice(0, 1)).copy()), h.shape());
  return on_space(h);
}

template <class T>
double magnitude(const T& v) {
  if constexpr (cupp::detail::is_complex_type_v<T>)
    return cuda::std::abs(cupp::complex128(v));
  else
    return std::abs(cupp::detail::convert<double>(v));
}

template <class T>
double difference(const T& a, const T& b) {
  if constexpr (cupp::detail::is_complex_type_v<T>)
    return cuda::std::abs(cupp::complex128(a) - cupp::complex128(b));
  else
    return std::abs(cupp::detail::convert<double>(a) - cupp::detail::convert<double>(b));
}

// got against NumPy's values: exact for integers and bool, within a few
// epsilon of the largest value for floats (their sums of small integers
// are exact; negative matrix powers are not).
template <class G, class W>
void expect_close(const array<G>& got, const cupp::host::ndarray<W>& want, double rel) {
  BOOST_TEST_REQUIRE(got.shape() == want.shape(), cupp::detail::np_shape(got.shape())
                                                      << " != "
                                                      << cupp::detail::np_shape(want.shape()));
  const auto g = to_host(got).to_vector();
  const auto w = want.to_vector();
  double scale = 1;
  for (const auto& v : w) scale = std::max(scale, magnitude(v));
  for (std::size_t i = 0; i < g.size(); ++i) {
    if constexpr (std::is_same_v<G, W> && !cupp::is_inexact_v<G>)
      BOOST_TEST((g[i] == w[i]), "element " << i);
    else
      BOOST_TEST(difference(cupp::detail::convert<W>(g[i]), w[i]) <= rel * scale,
                 "element " << i << ": " << magnitude(g[i]) << " vs " << magnitude(w[i]));
  }
}

template <class T>
double tolerance() {
  if constexpr (std::is_same_v<T, cupp::bfloat16>) return 1.0 / 64;
  if constexpr (std::is_same_v<T, cupp::float16>) return 2e-3;
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, cupp::complex64>) return 2e-6;
  return 1e-13;
}

// The message of any std::exception `call` throws.
template <class E, class F>
std::string thrown(F&& call) {
  try {
    call();
  } catch (const E& e) {
    return e.what();
  }
  return "(nothing thrown)";
}

template <class T, class F>
void check_case(const fixture_case& c, F&& call) {
  // bfloat16 (no NumPy dtype) runs float32's cases on bfloat16 operands.
  using File = std::conditional_t<std::is_same_v<T, cupp::bfloat16>, float, T>;
  const std::string base =
      cupp_test::fixture("linalg/products/" + c.name + "-" + c.dtype + (".npy"));
  const auto flat = cupp::host::load<File>(base);
  std::vector<cupp::host::ndarray<T>> ops;
  index_t at = 0;
  for (const auto& s : c.shapes) {
    const index_t n = cupp::detail::size_of(s);
    const auto part = flat(cupp::slice(at, at + n)).reshape(s);
    ops.push_back(part.template astype<T>());
    at += n;
  }
  const bool broadcastable = c.name.size() > 3 && c.name.substr(c.name.size() - 3) == "_bc";
  for (int layout = 0; layout < (broadcastable ? 5 : 4); ++layout) {
    BOOST_TEST_CONTEXT(c.func << " " << c.name << " " << cupp::dtype_of<T>().name << " layout "
                              << layout) {
      std::vector<array<T>> x;
      for (const auto& h : ops) x.push_back(in_layout(h, layout));
      const auto r = call(x);
      using Out = typename std::remove_cvref_t<decltype(r)>::value_type;
      using OutFile = std::conditional_t<std::is_same_v<Out, cupp::bfloat16>, float, Out>;
      const auto want = cupp::host::load<OutFile>(
          cupp_test::fixture("linalg/products/" + c.name + "-" + c.dtype + "-out.npy"));
      expect_close(r, want, tolerance<Out>());
    }
  }
}

template <class T>
void run_case(const fixture_case& c) {
  const std::string& f = c.func;
  std::vector<index_t> p;
  if (c.params != "-" && f != "tensordot") p = parse_ints(c.params, '.');
  using V = std::vector<array<T>>;
  if (f == "inner") {
    check_case<T>(c, [](const V& x) { return cupp::inner(x[0], x[1]); });
  } else if (f == "tensordot") {
    const auto slash = c.params.find('/');
    if (slash == std::string::npos) {
      const index_t n = std::stol(c.params);
      check_case<T>(c, [n](const V& x) { return cupp::tensordot(x[0], x[1], n); });
    } else {
      const auto a = parse_ints(c.params.substr(0, slash), '.');
      const auto b = parse_ints(c.params.substr(slash + 1), '.');
      check_case<T>(c, [&](const V& x) { return cupp::tensordot(x[0], x[1], {a, b}); });
    }
  } else if (f == "kron") {
    check_case<T>(c, [](const V& x) { return cupp::kron(x[0], x[1]); });
  } else if (f == "trace") {
    check_case<T>(c, [&](const V& x) { return cupp::trace(x[0], p[0], p[1], p[2]); });
  } else if (f == "linalg.trace") {
    check_case<T>(c, [&](const V& x) { return cupp::linalg::trace(x[0], p[0]); });
  } else if (f == "linalg.vecdot") {
    check_case<T>(c, [&](const V& x) { return cupp::linalg::vecdot(x[0], x[1], p[0]); });
  } else if (f == "linalg.cross" || f == "cross") {
    if constexpr (!std::is_same_v<T, bool>) {
      if (f == "cross")
        check_case<T>(c, [&](const V& x) { return cupp::cross(x[0], x[1], p[0], p[1], p[2]); });
      else
        check_case<T>(c, [&](const V& x) { return cupp::linalg::cross(x[0], x[1], p[0]); });
    }
  } else if (f == "linalg.multi_dot") {
    check_case<T>(c, [](const V& x) { return cupp::linalg::multi_dot(x); });
  } else if (f == "linalg.matrix_power") {
    if constexpr (std::is_same_v<T, cupp::bfloat16>) {
      // bfloat16 runs float32's cases; linalg (inv) refuses it, as NumPy
      // refuses float16.
      if (p[0] < 0) {
        BOOST_TEST(thrown<cupp::type_error>([&] {
                     cupp::linalg::matrix_power(on_space(cupp::host::eye<T>(3).eval()), p[0]);
                   }) == "array type bfloat16 is unsupported in linalg");
        return;
      }
    }
    check_case<T>(c, [&](const V& x) { return cupp::linalg::matrix_power(x[0], p[0]); });
  } else {
    BOOST_FAIL("unknown function " << f);
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(linalg_products)

BOOST_AUTO_TEST_CASE(numpy_fixtures) {
  int count = 0;
  for (const auto& c : cases()) {
    cupp_test::with_dtype(c.dtype, [&](auto t) { run_case<typename decltype(t)::type>(c); });
    // bfloat16 runs float32's cases (NumPy has no bfloat16).
    if (c.dtype == "float32") run_case<cupp::bfloat16>(c);
    ++count;
  }
  BOOST_TEST(count > 400);
}

BOOST_AUTO_TEST_CASE(result_dtypes_and_mixed_operands) {
  const auto i32 = on_space(cupp::host::arange<std::int32_t>(6).reshape({2, 3}).eval());
  const auto f32 = on_space(cupp::host::arange<float>(6).reshape({2, 3}).eval());
  const auto u8 = on_space(cupp::host::ones<std::uint8_t>({3, 3}).eval());
  const auto b = on_space(cupp::host::ones<bool>({3, 3}).eval());
  static_assert(std::is_same_v<decltype(cupp::inner(i32, f32))::value_type, double>);
  static_assert(std::is_same_v<decltype(cupp::trace(i32))::value_type, std::int64_t>);
  static_assert(std::is_same_v<decltype(cupp::trace(u8))::value_type, std::uint64_t>);
  static_assert(std::is_same_v<decltype(cupp::trace(b))::value_type, std::int64_t>);
  static_assert(std::is_same_v<decltype(cupp::kron(b, b))::value_type, bool>);
  static_assert(std::is_same_v<decltype(cupp::linalg::vecdot(b, b))::value_type, bool>);
  static_assert(
      std::is_same_v<decltype(cupp::linalg::multi_dot(i32, f32.T(), u8))::value_type, double>);
  // inner(arange(6).reshape(2, 3), arange(6.).reshape(2, 3)) == [[5, 14], [14, 50]]
  const auto r = to_host(cupp::inner(i32, f32));
  BOOST_TEST(r.to_vector() == (std::vector<double>{5, 14, 14, 50}),
             boost::test_tools::per_element());
  // Expressions as operands are evaluated once: tensordot(2 * a, a.T, 1).
  const auto t = to_host(cupp::tensordot(f32 * 2.0f, f32.T(), 1));
  BOOST_TEST(t.to_vector() == (std::vector<float>{10, 28, 28, 100}),
             boost::test_tools::per_element());
  BOOST_TEST(to_host(cupp::trace(u8)).item() == 3u);
}

BOOST_AUTO_TEST_CASE(tensordot_axes_forms) {
  const auto a = on_space(cupp::host::arange<double>(24).reshape({2, 3, 4}).eval());
  const auto b = on_space(cupp::host::arange<double>(12).reshape({4, 3}).eval());
  const auto want = to_host(cupp::tensordot(a, b, {{1, 2}, {1, 0}})).to_vector();
  BOOST_TEST(want.size() == 2u);
  const std::vector<int> va{1, 2}, vb{1, 0};
  const std::array<long, 2> aa{2, 1}, ab{0, 1};
  BOOST_TEST(to_host(cupp::tensordot(a, b, {va, vb})).to_vector() == want,
             boost::test_tools::per_element());
  BOOST_TEST(to_host(cupp::tensordot(a, b, std::pair{va, vb})).to_vector() == want,
             boost::test_tools::per_element());
  BOOST_TEST(to_host(cupp::tensordot(a, b, {aa, ab})).to_vector() == want,
             boost::test_tools::per_element());
  // tensordot(a, b, (2, 0)): single axes; 0 axes: the outer product.
  BOOST_TEST(to_host(cupp::tensordot(a, b, {2, 0})).shape() == (shape_t{2, 3, 3}));
  BOOST_TEST(to_host(cupp::tensordot(a, b, 0)).shape() == (shape_t{2, 3, 4, 4, 3}));
  BOOST_TEST(to_host(cupp::tensordot(a, b, -1)).shape() == (shape_t{2, 3, 4, 4, 3}));
}

BOOST_AUTO_TEST_CASE(views_and_no_writes) {
  auto h = cupp::host::arange<double>(18).reshape({2, 3, 3}).eval();
  const auto x = on_space(h);
  // linalg.diagonal is a read-only view of the last two axes.
  const auto d = cupp::linalg::diagonal(x, 1);
  BOOST_TEST(d.shape() == (shape_t{2, 2}));
  BOOST_TEST(d.data() == x.data() + 1);
  BOOST_TEST(!d.flags().writeable);
  BOOST_TEST(to_host(d).to_vector() == (std::vector<double>{1, 5, 10, 14}),
             boost::test_tools::per_element());
  // matrix_power(x, 1) is x itself (NumPy returns the same array); other
  // powers leave x unchanged.
  BOOST_TEST(cupp::linalg::matrix_power(x, 1).data() == x.data());
  (void)cupp::linalg::matrix_power(x, 5);
  (void)cupp::kron(x, x);
  (void)cupp::linalg::vecdot(x, x);
  BOOST_TEST(to_host(x).to_vector() == h.to_vector(), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(multi_dot_forms) {
  const auto a = on_space(cupp::host::arange<double>(6).reshape({2, 3}).eval());
  const auto b = on_space(cupp::host::arange<double>(12).reshape({3, 4}).eval());
  const auto c = on_space(cupp::host::arange<double>(8).reshape({4, 2}).eval());
  const array<double> ab = cupp::matmul(a, b), abc = cupp::matmul(ab, c);
  const auto want = to_host(abc).to_vector();
  BOOST_TEST(to_host(cupp::linalg::multi_dot(a, b, c)).to_vector() == want,
             boost::test_tools::per_element());
  BOOST_TEST(to_host(cupp::linalg::multi_dot({a, b, c})).to_vector() == want,
             boost::test_tools::per_element());
  BOOST_TEST(
      to_host(cupp::linalg::multi_dot(std::vector<array<double>>{a, b, c})).to_vector() == want,
      boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(numpy_errors) {
  using cupp_test::message_of;
  auto ones = [](const shape_t& s) { return on_space(cupp::host::ones<double>(s).eval()); };
  const auto a23 = ones({2, 3}), a24 = ones({2, 4}), v3 = ones({3}), v4 = ones({4});
  const auto s = ones({});
  // inner
  BOOST_TEST(message_of([&] { cupp::inner(a23, a24); }) ==
             "shapes (2,3) and (4,2) not aligned: 3 (dim 1) != 4 (dim 0)");
  BOOST_TEST(message_of([&] { cupp::inner(v3, v4); }) ==
             "shapes (3,) and (4,) not aligned: 3 (dim 0) != 4 (dim 0)");
  BOOST_TEST(message_of([&] {
               cupp::inner(a23, ones({5, 6, 4}));
             }) == "shapes (2,3) and (5,4,6) not aligned: 3 (dim 1) != 4 (dim 1)");
  // tensordot
  BOOST_TEST(message_of([&] {
               cupp::tensordot(a23, a24, {{1}, {1}});
             }) == "shape-mismatch for sum");
  BOOST_TEST(message_of([&] {
               cupp::tensordot(a23, a24, {{1, 0}, {1}});
             }) == "shape-mismatch for sum");
  BOOST_TEST(message_of([&] {
               cupp::tensordot(a23, a23, {{1, 1}, {1, 1}});
             }) == "duplicate axes are not allowed in tensordot");
  BOOST_TEST(thrown<cupp::index_error>([&] {
               cupp::tensordot(a23, a24, {{5}, {1}});
             }) == "tuple index out of range");
  BOOST_TEST(thrown<cupp::index_error>([&] { cupp::tensordot(a23, a24, 3); }) ==
             "tuple index out of range");
  // trace, diagonal
  BOOST_TEST(message_of([&] { cupp::trace(v3); }) ==
             "diag requires an array of at least two dimensions");
  BOOST_TEST(message_of([&] { cupp::trace(a23, 0, 1, 1); }) ==
             "axis1 and axis2 cannot be the same");
  BOOST_TEST(thrown<cupp::axis_error>([&] { cupp::trace(a23, 0, 1, 5); }) ==
             "axis2: axis 5 is out of bounds for array of dimension 2");
  BOOST_TEST(message_of([&] { cupp::linalg::trace(v3); }) ==
             "diag requires an array of at least two dimensions");
  BOOST_TEST(message_of([&] { cupp::linalg::diagonal(v3); }) ==
             "diag requires an array of at least two dimensions");
  // vecdot
  BOOST_TEST(message_of([&] { cupp::linalg::vecdot(v3, v4); }) ==
             "vecdot: Input operand 1 has a mismatch in its core dimension 0, with gufunc "
             "signature (n),(n)->() (size 4 is different from 3)");
  BOOST_TEST(message_of([&] { cupp::linalg::vecdot(s, v4); }) ==
             "vecdot: Input operand 0 does not have enough dimensions (has 0, gufunc core with "
             "signature (n),(n)->() requires 1)");
  BOOST_TEST(message_of([&] {
               cupp::linalg::vecdot(ones({2, 3, 5}), ones({4, 3, 5}), 1);
             }) ==
             "operands could not be broadcast together with remapped shapes "
             "[original->remapped]: (2,3,5)->(2,5) (4,3,5)->(4,5)  and requested shape ()");
  BOOST_TEST(thrown<cupp::axis_error>([&] { cupp::linalg::vecdot(a23, a23, 2); }) ==
             "axis 2 is out of bounds for array of dimension 2");
  // cross
  BOOST_TEST(message_of([&] {
               cupp::linalg::cross(ones({2, 2}), ones({2, 3}));
             }) ==
             "Both input arrays must be (arrays of) 3-dimensional vectors, but they are 2 and 3 "
             "dimensional instead.");
  BOOST_TEST(thrown<cupp::index_error>([&] {
               cupp::linalg::cross(s, ones({2, 3}));
             }) == "tuple index out of range");
  BOOST_TEST(message_of([&] {
               cupp::linalg::cross(ones({2, 3}), ones({4, 5, 3}));
             }) ==
             "shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is "
             "between arg 0 with shape (2,) and arg 1 with shape (4, 5).");
  BOOST_TEST(message_of([&] {
               cupp::cross(ones({3, 4}), ones({3, 3}));
             }) == "incompatible dimensions for cross product\n(dimension must be 2 or 3)");
  BOOST_TEST(message_of([&] {
               cupp::cross(s, ones({3, 3}));
             }) == "At least one array has zero dimension");
  BOOST_TEST(thrown<cupp::axis_error>([&] { cupp::cross(a23, v3, -1, -1, 5); }) ==
             "axisc: axis 5 is out of bounds for array of dimension 2");
  BOOST_TEST(thrown<cupp::axis_error>([&] { cupp::cross(a23, v3, 5); }) ==
             "axisa: axis 5 is out of bounds for array of dimension 2");
  // multi_dot
  BOOST_TEST(message_of([&] { cupp::linalg::multi_dot(std::vector<array<double>>{a23}); }) ==
             "Expecting at least two arrays.");
  BOOST_TEST(message_of([&] { cupp::linalg::multi_dot(a23, a23, a23); }) ==
             "shapes (2,3) and (2,3) not aligned: 3 (dim 1) != 2 (dim 0)");
  BOOST_TEST(message_of([&] {
               cupp::linalg::multi_dot(a23, ones({4, 5}), ones({5, 6}), ones({6, 2}));
             }) == "shapes (2,3) and (4,2) not aligned: 3 (dim 1) != 4 (dim 0)");
  BOOST_TEST(thrown<cupp::linalg_error>([&] {
               cupp::linalg::multi_dot(ones({2, 2, 2}), a23, a23);
             }) == "3-dimensional array given. Array must be two-dimensional");
  BOOST_TEST(thrown<cupp::linalg_error>([&] { cupp::linalg::multi_dot(s, a23, a23); }) ==
             "0-dimensional array given. Array must be two-dimensional");
  // matrix_power
  BOOST_TEST(thrown<cupp::linalg_error>([&] { cupp::linalg::matrix_power(a23, 2); }) ==
             "Last 2 dimensions of the array must be square");
  BOOST_TEST(thrown<cupp::linalg_error>([&] { cupp::linalg::matrix_power(v3, 2); }) ==
             "1-dimensional array given. Array must be at least two-dimensional");
  const auto h16 = on_space(cupp::host::ones<cupp::float16>({2, 2}).eval());
  BOOST_TEST(thrown<cupp::type_error>([&] { cupp::linalg::matrix_power(h16, -1); }) ==
             "array type float16 is unsupported in linalg");
  const auto i2 = on_space(cupp::host::ones<std::int32_t>({2, 2}).eval());
  BOOST_CHECK_THROW(cupp::linalg::matrix_power(i2, -1), cupp::type_error);
  // Positive powers of float16 work (through matmul).
  BOOST_TEST(to_host(cupp::linalg::matrix_power(h16, 3)).shape() == (shape_t{2, 2}));
  // A singular matrix to a negative power: inv's LinAlgError.
  BOOST_TEST(thrown<cupp::linalg_error>([&] {
               cupp::linalg::matrix_power(ones({2, 2}), -1);
             }) == "Singular matrix");
}

BOOST_AUTO_TEST_SUITE_END()
