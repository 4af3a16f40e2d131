// Linear algebra: NumPy's products (matmul, dot, vdot, inner, outer,
// tensordot, kron, trace, einsum) and numpy.linalg, on cuBLAS and cuSOLVER
// for device arrays and on OpenBLAS and LAPACKE for host arrays.
//
// Not part of <cupp/cupp.hpp>: a program that uses linear algebra includes
// this header and links cupp::linalg (cuBLAS, cuBLASLt, cuSOLVER, OpenBLAS and
// LAPACKE); one that uses arrays alone links none of them and compiles none
// of their headers. See docs/linalg.md.
#pragma once

#include <cupp/linalg/matmul.hpp>
#include <cupp/linalg/products.hpp>
#include <cupp/linalg/einsum.hpp>
#include <cupp/linalg/solve.hpp>
#include <cupp/linalg/qr.hpp>
#include <cupp/linalg/svd.hpp>
#include <cupp/linalg/eigen.hpp>
#include <cupp/linalg/norms.hpp>
#include <cupp/linalg/lstsq.hpp>
