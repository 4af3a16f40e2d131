// numpy.einsum on host arrays (OpenBLAS, cupp's exact loops, reductions)
// and, with CUPP_TEST_DEVICE=1, on device arrays (cuBLAS): NumPy's results
// from tests/fixtures/linalg/einsum/ (tests/generate_linalg_einsum_fixtures.py)
// for every pattern, dtype and operand layout (C, transposed, strided,
// broadcast), exactly (the values are small integers); NumPy's result
// dtypes and messages; views where NumPy returns views.
#include <cupp/creation.hpp>
#include <cupp/linalg/einsum.hpp>
#include <cupp/manipulation.hpp>
#include <cupp/npy.hpp>

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

struct einsum_case {
  std::string name, subscripts;
  std::vector<std::string> dtypes;
  std::vector<std::string> views;  // per operand: a shape to broadcast to, or "-"
};

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  std::stringstream in(s);
  for (std::string p; std::getline(in, p, sep);) parts.push_back(p);
  if (!s.empty() && s.back() == sep) parts.emplace_back();
  return parts;
}

// "(2,3)", "(3,)", "()"
shape_t parse_shape(const std::string& s) {
  shape_t r = shape_t::filled(0, 0);
  for (const auto& p : split(s.substr(1, s.size() - 2), ','))
    if (!p.empty()) r.push_back(std::stoll(p));
  return r;
}

std::vector<einsum_case> load_cases() {
  std::vector<einsum_case> cases;
  for (const auto& line : cupp_test::fixture_lines("linalg/einsum/cases.txt")) {
    const auto f = split(line, '|');
    BOOST_TEST_REQUIRE(f.size() == 4u, line);
    einsum_case c{f[0], f[1], split(f[2], ','), {}};
    if (f[3] != "-") c.views = split(f[3], ';');
    cases.push_back(c);
  }
  return cases;
}

std::string npy(const std::string& file) {
  return cupp_test::fixture("linalg/einsum/" + file + ".npy");
}

// Operand k of case c in layout `layout`: 0 C order, 1 the transpose of a
// C-order array (F strides), 2 every other element of a larger array (no
// unit stride); a broadcast case's stride-0 view on top.
template <class T>
array<T> operand(const einsum_case& c, std::size_t k, int layout) {
  const auto h = cupp::host::load<T>(npy(c.name + "_" + std::to_string(k)));
  array<T> x = on_space(h);
  if (layout == 1) {
    x = on_space(cupp::host::ndarray<T>(h.T().copy())).T();
  } else if (layout == 2) {
    shape_t big = h.shape();
    for (auto& e : big) e *= 2;
    const array<T> g = on_space(cupp::host::ndarray<T>(cupp::host::zeros<T>(big)));
    cupp::detail::view_layout v{0, h.shape(), g.strides()};
    for (auto& s : v.strides) s *= 2;
    const array<T> view = g.view_as(v);
    cupp::copyto(view, x);
    x = view;
  }
  if (!c.views.empty() && c.views[k] != "-") x = cupp::broadcast_to(x, parse_shape(c.views[k]));
  return x;
}

template <class R>
void expect_fixture(const array<R>& got, const std::string& file) {
  const auto want = cupp::host::load<R>(npy(file));
  BOOST_TEST_REQUIRE(got.shape() == want.shape(), cupp::detail::np_shape(got.shape())
                                                      << " != "
                                                      << cupp::detail::np_shape(want.shape()));
  const auto g = to_host(got.copy()).to_vector(), w = want.to_vector();
  for (std::size_t i = 0; i < g.size(); ++i) BOOST_TEST((g[i] == w[i]), "element " << i);
}

template <class... T, std::size_t... I>
void run(const einsum_case& c, int layout, std::index_sequence<I...>) {
  // The fixture loads only as the dtype NumPy gave: a wrong promotion fails.
  const auto got = cupp::einsum(c.subscripts, operand<T>(c, I, layout)...);
  expect_fixture(got, c.name + "_out");
}

template <class... T>
void run(const einsum_case& c, int layout) {
  run<T...>(c, layout, std::index_sequence_for<T...>{});
}

template <class F>
void with_test_dtype(const std::string& name, F&& f) {
  if (name == "float32") return f(float{});
  if (name == "float64") return f(double{});
  if (name == "complex64") return f(cupp::complex64{});
  if (name == "complex128") return f(cupp::complex128{});
  if (name == "int32") return f(std::int32_t{});
  if (name == "bool") return f(bool{});
  BOOST_FAIL("no dtype " << name);
}

void run_case(const einsum_case& c, int layout) {
  const auto& d = c.dtypes;
  if (d.size() == 2 && d[0] != d[1]) {
    const std::string pair = d[0] + "," + d[1];
    if (pair == "float32,int32") return run<float, std::int32_t>(c, layout);
    if (pair == "bool,int32") return run<bool, std::int32_t>(c, layout);
    if (pair == "complex64,float64") return run<cupp::complex64, double>(c, layout);
    if (pair == "float32,complex64") return run<float, cupp::complex64>(c, layout);
    BOOST_FAIL("no mixed case " << pair);
  }
  with_test_dtype(d[0], [&](auto t) {
    using T = decltype(t);
    if (d.size() == 1) run<T>(c, layout);
    if (d.size() == 2) run<T, T>(c, layout);
    if (d.size() == 3) run<T, T, T>(c, layout);
  });
}

template <class T>
array<T> ramp(const shape_t& s) {
  auto h = cupp::host::empty<T>(s);
  for (index_t i = 0; i < h.size(); ++i) h.data()[i] = static_cast<T>(i % 7);
  return on_space(h);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(linalg_einsum)

BOOST_AUTO_TEST_CASE(numpy_results_in_every_layout) {
  const auto cases = load_cases();
  BOOST_TEST(cases.size() > 300u);
  for (const auto& c : cases)
    for (int layout : {0, 1, 2})
      BOOST_TEST_CONTEXT(c.name << " '" << c.subscripts << "' layout " << layout) {
        run_case(c, layout);
      }
}

BOOST_AUTO_TEST_CASE(numpy_messages) {
  int n = 0;
  for (const auto& line : cupp_test::fixture_lines("linalg/einsum/errors.txt")) {
    const auto f = split(line, '|');
    BOOST_TEST_REQUIRE(f.size() == 3u, line);
    std::vector<array<double>> ops;
    for (const auto& s : split(f[1], ';'))
      ops.push_back(
          on_space(cupp::host::ndarray<double>(cupp::host::zeros<double>(parse_shape(s)))));
    const std::string got = cupp_test::message_of([&] {
      if (ops.size() == 1) (void)cupp::einsum(f[0], ops[0]);
      if (ops.size() == 2) (void)cupp::einsum(f[0], ops[0], ops[1]);
      if (ops.size() == 3) (void)cupp::einsum(f[0], ops[0], ops[1], ops[2]);
    });
    BOOST_TEST(got == f[2], "'" << f[0] << "'");
    ++n;
  }
  BOOST_TEST(n > 30);
  // NumPy builds a (3,) view of an empty operand here; cupp refuses.
  BOOST_TEST(cupp_test::message_of([] {
               (void)cupp::einsum(
                   "ii->i",
                   on_space(cupp::host::ndarray<double>(cupp::host::zeros<double>({0, 3}))));
             }) == "dimensions in single operand for collapsing index 'i' don't match (0 != 3)");
}

// One operand with nothing summed is a view (NumPy's too): the diagonal's
// stride is the sum of both axes' strides.
BOOST_AUTO_TEST_CASE(single_operand_views) {
  const auto a = ramp<double>({3, 3});
  const auto d = cupp::einsum("ii->i", a);
  BOOST_TEST(d.data() == a.data());
  BOOST_TEST(d.strides()[0] == index_t{4 * sizeof(double)});
  const auto t = cupp::einsum("ij->ji", a);
  BOOST_TEST(t.data() == a.data());
  BOOST_TEST(t.strides()[0] == index_t{sizeof(double)});
  const auto e = cupp::einsum("...ij->...ji", ramp<float>({2, 3, 4}));
  BOOST_TEST((e.shape() == shape_t{2, 4, 3}));
  // A trace sums: a new 0-d array.
  const auto tr = cupp::einsum("ii", a);
  BOOST_TEST(tr.ndim() == 0);
  BOOST_TEST(to_host(tr).item() == 0.0 + 4 + 1);  // 0, 4, 8 % 7
}

// Lazy expressions are evaluated once and take part in the promotion.
BOOST_AUTO_TEST_CASE(expression_operands) {
  einsum_case c{"matmul_float64", "ij,jk->ik", {"float64", "float64"}, {}};
  const auto a = operand<double>(c, 0, 0), b = operand<double>(c, 1, 0);
  const array<double> twice = cupp::einsum("ij,jk->ik", a + a, b);
  const array<double> once = cupp::einsum("ij,jk->ik", a, b);
  const auto g = to_host(twice).to_vector(), w = to_host(once).to_vector();
  for (std::size_t i = 0; i < g.size(); ++i) BOOST_TEST(g[i] == 2 * w[i]);
  const auto f = cupp::einsum("i,i", ramp<float>({3}) * 2.0f, ramp<std::int32_t>({3}));
  static_assert(std::is_same_v<decltype(f), const array<double>>);
  BOOST_TEST(to_host(f).item() == 10.0);  // 2 * (0 + 1 + 4)
}

#if CUPP_TEST_DEVICE
// Two C-order (or transposed) operands reach cuBLAS as views: the pool
// hands out the result's bytes and nothing more.
BOOST_AUTO_TEST_CASE(contractions_allocate_only_the_result) {
  const auto a = ramp<float>({512, 512}), b = ramp<float>({512, 512});
  const auto sa = ramp<float>({4, 128, 64}), sb = ramp<float>({4, 64, 32});
  auto& pool = cupp::cuda::get_default_memory_pool();
  (void)cupp::einsum("ij,jk->ik", a, b);  // the handle's workspace, once per thread
  cupp::cuda::runtime::deviceSynchronize();
  for (const char* s : {"ij,jk->ik", "ij,kj->ik", "ji,jk->ik"}) {
    const std::size_t before = pool.used_bytes();
    const auto c = cupp::einsum(s, a, b);
    BOOST_TEST(pool.used_bytes() - before == std::size_t{512 * 512 * 4}, s);
  }
  const std::size_t before = pool.used_bytes();
  const auto c = cupp::einsum("bij,bjk->bik", sa, sb);
  BOOST_TEST(pool.used_bytes() - before == std::size_t{4 * 128 * 32 * 4});
}
#endif

BOOST_AUTO_TEST_SUITE_END()
