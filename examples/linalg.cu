// Linear algebra with cupp: products that fold into one BLAS call, solving,
// factorisations and norms, on the GPU (cuBLAS, cuSOLVER) or, without one,
// on the host (OpenBLAS, LAPACKE). Build with the cupp::linalg target.
#include <cupp/cupp.hpp>
#include <cupp/linalg.hpp>

#include <iostream>
#include <type_traits>

namespace cp = cupp;
namespace la = cupp::linalg;

// The same code for both kinds of array: S is cupp::device_space or
// cupp::host_space.
template <class S>
cp::ndarray<double, S> on(const cp::host::ndarray<double>& h) {
  if constexpr (std::is_same_v<S, cp::device_space>)
    return cp::asarray(h);
  else
    return h;
}

template <class S>
void tour() {
  const auto a = on<S>(cp::host::array<double>({{4, 1, 2}, {1, 5, 3}, {2, 3, 6}}));
  const auto b = on<S>(cp::host::array<double>({1, 2, 3}));

  // 2 * a @ a + a runs as one gemm (alpha 2, beta 1); a.T() is read in place.
  cp::ndarray<double, S> c = 2 * cp::matmul(a.T(), a) + a;
  std::cout << "2 * a.T @ a + a =\n" << c << "\n";

  cp::ndarray<double, S> x = la::solve(a, b);  // LU with partial pivoting
  std::cout << "solve(a, b) = " << x << ", residual " << la::norm(cp::matmul(a, x) - b) << "\n";
  std::cout << "det(a) = " << la::det(a) << ", cond(a) = " << la::cond(a) << "\n";

  auto [w, v] = la::eigh(a);     // ascending eigenvalues, orthonormal vectors
  auto [U, s, Vh] = la::svd(a);  // a == U @ diag(s) @ Vh
  std::cout << "eigenvalues " << w << "\nsingular values " << s << "\n";
  std::cout << "cholesky factor\n" << la::cholesky(a) << "\n";
  std::cout << "einsum('ij,ji->', a, a) = " << cp::einsum("ij,ji->", a, a) << "\n";

  // Stacks: 10,000 small systems in one call (one kernel on the GPU).
  cp::ndarray<double, S> stack = cp::broadcast_to(a, cp::shape_t{10000, 3, 3}) + cp::eye<double>(3);
  cp::ndarray<double, S> inverses = la::inv(stack);
  std::cout << "10000 inverses, first:\n" << inverses(0) << "\n";
}

int main() {
  if (cp::cuda::is_available()) {
    std::cout << "On the GPU (cuBLAS and cuSOLVER):\n";
    tour<cp::device_space>();
    return 0;
  }
#if CUPP_HAVE_HOST_BLAS
  std::cout << "No CUDA device found: the same calls on host arrays (OpenBLAS and LAPACKE).\n";
  tour<cp::host_space>();
#else
  std::cout << "No CUDA device found, and no host BLAS to show the host side: run "
               "scripts/setup.sh to install OpenBLAS and LAPACKE.\n";
#endif
  return 0;
}
