// Device paths of numpy.linalg's solvers and the products beyond matmul:
// one call of each family on a small float64 matrix (values from NumPy),
// the small-matrix kernel on a float32 stack, and complex64 where a family
// has a complex path. Compiled by CI without a GPU (device code that does
// not compile fails it); run on the GPU machine as a smoke test.
#include <cupp/creation.hpp>
#include <cupp/generators.hpp>
#include <cupp/linalg.hpp>
#include <cupp/reductions.hpp>
#include <cupp/ufunc/arithmetic.hpp>
#include <cupp/ufunc/misc.hpp>

#include "checks.hpp"

using device_paths::expect_values;

void device_paths_linalg_solvers() {
  namespace la = cupp::linalg;
  const cupp::ndarray<double> a =
      cupp::asarray(cupp::host::array<double>({{4, 1, 2}, {1, 5, 3}, {2, 3, 6}}));
  const cupp::ndarray<double> b = cupp::asarray(cupp::host::array<double>({1, 2, 3}));
  const double tiny = 1e-12;
  expect_values(la::solve(a, b), {0, 0.14285714285714285, 0.4285714285714286}, "solve", 1e-9, tiny);
  expect_values(la::inv(a),
                {0.3, 0.0, -0.1, 0.0, 0.2857142857142857, -0.14285714285714282, -0.1,
                 -0.14285714285714285, 0.2714285714285714},
                "inv", 1e-9, tiny);
  expect_values(la::det(a), {70}, "det", 1e-9);
  expect_values(la::slogdet(a).logabsdet, {4.2484952420493585}, "slogdet", 1e-9);
  expect_values(
      la::cholesky(a),
      {2.0, 0.0, 0.0, 0.5, 2.179449471770337, 0.0, 1.0, 1.1470786693528088, 1.9194297398747862},
      "cholesky", 1e-9, tiny);
  auto [q, r] = la::qr(a);
  expect_values(cupp::matmul(q, r), {4, 1, 2, 1, 5, 3, 2, 3, 6}, "qr reconstructs", 1e-9, tiny);
  expect_values(la::eigvalsh(a), {2.1943971674224088, 3.3867701566075477, 9.418832675970037},
                "eigvalsh", 1e-9);
  expect_values(la::eigh(a).eigenvalues,
                {2.1943971674224088, 3.3867701566075477, 9.418832675970037}, "eigh", 1e-9);
  expect_values(cupp::sum(cupp::real(la::eigvals(a))), {15}, "eigvals (trace)", 1e-9);
  expect_values(la::svd(a).S, {9.418832675970041, 3.386770156607549, 2.1943971674224088}, "svd",
                1e-9);
  expect_values(la::svdvals(a.astype<cupp::complex64>()),
                {9.418832675970041, 3.386770156607549, 2.1943971674224088}, "svdvals complex64",
                1e-5);
  expect_values(la::norm(a), {10.246950765959598}, "norm fro", 1e-9);
  expect_values(la::norm(a, 2), {9.418832675970041}, "norm 2", 1e-9);
  expect_values(la::norm(a, 1), {11}, "norm 1", 1e-9);
  expect_values(la::cond(a), {4.292218754107137}, "cond", 1e-9);
  expect_values(la::matrix_rank(a), {3}, "matrix_rank");
  expect_values(la::pinv(a),
                {0.3, 0.0, -0.1, 0.0, 0.2857142857142857, -0.14285714285714282, -0.1,
                 -0.14285714285714285, 0.2714285714285714},
                "pinv", 1e-9, tiny);
  expect_values(la::lstsq(a, b).x, {0, 0.14285714285714285, 0.4285714285714286}, "lstsq", 1e-9,
                tiny);
  expect_values(la::tensorsolve(a, b), {0, 0.14285714285714285, 0.4285714285714286}, "tensorsolve",
                1e-9, tiny);
  // The products beyond matmul.
  expect_values(la::matrix_power(a, 2), {21, 15, 23, 15, 35, 35, 23, 35, 49}, "matrix_power");
  expect_values(la::multi_dot(a, a, b), {120, 190, 240}, "multi_dot");
  expect_values(cupp::tensordot(a, a, 1), {21, 15, 23, 15, 35, 35, 23, 35, 49}, "tensordot");
  expect_values(cupp::inner(a, b), {12, 20, 26}, "inner");
  expect_values(la::vecdot(a, a), {21, 35, 49}, "vecdot");
  expect_values(la::cross(b, b + 3.0), {-3, 6, -3}, "cross");
  expect_values(
      cupp::kron(b(cupp::slice(0, 2)), cupp::asarray(cupp::host::array<double>({1, 10, 100}))),
      {1, 10, 100, 2, 20, 200}, "kron");
  expect_values(cupp::trace(a), {15}, "trace");
  expect_values(cupp::einsum("ii->i", a), {4, 5, 6}, "einsum diagonal");
  expect_values(cupp::einsum("ij,ji->", a, a), {105}, "einsum contraction");
  // A float32 stack through the small-matrix kernel.
  const cupp::ndarray<float> s =
      cupp::arange<float>(32).reshape({2, 4, 4}) + cupp::eye<float>(4) * 10.0f;
  expect_values(
      la::inv(s)(1),
      {0.08916666358709335, -0.014375000260770321, -0.017916666343808174, -0.021458333358168602,
       -0.017500000074505806, 0.08062499761581421, -0.021250000223517418, -0.023125000298023224,
       -0.024166665971279144, -0.02437499910593033, 0.0754166692495346, -0.024791667237877846,
       -0.030833333730697632, -0.029374999925494194, -0.027916666120290756, 0.07354166358709335},
      "inv of a float32 4x4 stack", 1e-4);
}
