// Device paths of linear algebra: matmul (and linalg.matmul), dot, vdot,
// outer and linalg.matrix_transpose; matmul through
// cuBLAS's strided batched gemm for float32, float64 and complex64, through
// GemmEx for float16, and through cupp's exact kernel for int32 and bool;
// a transposed operand, a broadcast stack, 1-d operands and an expression;
// alpha, beta and a conjugate-transpose operand folded into the gemm, out=.
//
// CI compiles this unit without a GPU so that a compile error in device code
// fails it; the GPU machine runs it as a smoke test (device_paths_gpu_test).
#include <cupp/creation.hpp>
#include <cupp/generators.hpp>
#include <cupp/linalg.hpp>
#include <cupp/ufunc/arithmetic.hpp>
#include <cupp/ufunc/comparison.hpp>
#include <cupp/ufunc/misc.hpp>

#include <complex>

#include "checks.hpp"

using device_paths::expect_values;

void device_paths_linalg() {
  // a = arange(6).reshape(2, 3), b = arange(12).reshape(3, 4); values from
  // NumPy.
  const cupp::ndarray<float> a = cupp::arange<float>(6).reshape({2, 3});
  const cupp::ndarray<float> b = cupp::arange<float>(12).reshape({3, 4});
  expect_values(cupp::matmul(a, b), {20, 23, 26, 29, 56, 68, 80, 92}, "matmul float32");
  expect_values(cupp::linalg::matmul(b.T(), a.T()), {20, 56, 23, 68, 26, 80, 29, 92},
                "linalg.matmul of transposes");
  expect_values(cupp::matmul(a.astype<double>(), b), {20, 23, 26, 29, 56, 68, 80, 92},
                "matmul float64 @ float32");
  // Real parts (the imaginary ones are zero).
  expect_values(
      cupp::matmul(a.astype<cupp::complex64>(), b.astype<cupp::complex64>()).astype<float>(),
      {20, 23, 26, 29, 56, 68, 80, 92}, "matmul complex64");
  expect_values(cupp::matmul(a.astype<cupp::float16>(), b.astype<cupp::float16>()),
                {20, 23, 26, 29, 56, 68, 80, 92}, "matmul float16");
  expect_values(cupp::matmul(a.astype<int>(), b.astype<int>()), {20, 23, 26, 29, 56, 68, 80, 92},
                "matmul int32");
  const cupp::ndarray<bool> m = a > 3.0f;
  expect_values(cupp::matmul(m, b > 5.0f), {0, 0, 0, 0, 1, 1, 1, 1}, "matmul bool");
  // A stack of two times a (2, 2, 3) @ b, 1-d operands, an expression.
  const cupp::ndarray<float> s = cupp::arange<float>(12).reshape({2, 2, 3});
  expect_values(cupp::matmul(s, b).eval()(1), {92, 113, 134, 155, 128, 158, 188, 218}, "stacked");
  expect_values(cupp::matmul(a(0), b), {20, 23, 26, 29}, "1-d @ 2-d");
  expect_values(cupp::matmul(a, b(cupp::_, 0)), {20, 56}, "2-d @ 1-d");
  expect_values(cupp::matmul(a * 2.0f, b), {40, 46, 52, 58, 112, 136, 160, 184}, "expression");
  // Folded into one gemm: alpha and an addend (beta); a conjugate-transpose
  // operand (ai^H ai == a^T a for ai = 1j * a; without the conjugate it
  // would be -a^T a); out= for matmul and dot.
  const cupp::ndarray<float> ones = cupp::ones<float>({2, 4});
  expect_values(2 * cupp::matmul(a, b) + ones, {41, 47, 53, 59, 113, 137, 161, 185},
                "2 * matmul + c");
  expect_values(ones - cupp::matmul(a, b) / 2, {-9, -10.5, -12, -13.5, -27, -33, -39, -45},
                "c - matmul / 2");
  expect_values(3 * cupp::matmul(a.astype<int>(), b.astype<int>()) - ones.astype<int>(),
                {59, 68, 77, 86, 167, 203, 239, 275}, "int32 3 * matmul - c");
  const cupp::ndarray<cupp::complex64> ai = a.astype<cupp::complex64>() * std::complex<float>(0, 1);
  expect_values(cupp::matmul(cupp::conj(ai.T()), ai).astype<float>(),
                {9, 12, 15, 12, 17, 22, 15, 22, 29}, "matmul(conj(a.T()), a)");
  const cupp::ndarray<float> o = cupp::zeros<float>({2, 4});
  cupp::matmul(a, b, o);
  expect_values(o, {20, 23, 26, 29, 56, 68, 80, 92}, "matmul out=");
  cupp::dot(a, b, cupp::out(o));
  expect_values(o, {20, 23, 26, 29, 56, 68, 80, 92}, "dot out=");
  // dot over three axes (values from NumPy), vdot, outer.
  expect_values(cupp::dot(s, b)(1, 0), {92, 113, 134, 155}, "dot 3-d @ 2-d");
  expect_values(cupp::vdot(a, a), {55}, "vdot");
  expect_values(cupp::outer(a(0), a(1)), {0, 0, 0, 3, 4, 5, 6, 8, 10}, "outer");
  expect_values(cupp::linalg::matrix_transpose(a).copy(), {0, 3, 1, 4, 2, 5}, "matrix_transpose");
}
