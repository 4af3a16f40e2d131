// numpy.random.Generator.multivariate_normal for cupp's Generators, as
// NumPy forms it: z = standard_normal(size + (k,)) from the generator,
// then mean + z @ factor^T with factor from the covariance by
// cupp::linalg (svd: u sqrt(s); eigh: u sqrt(|s|); cholesky: L), the
// factorisation and the product in the generator's space (cuSOLVER and
// cuBLAS for device generators, LAPACK and OpenBLAS for host ones). The
// engine is detail/random/multivariate_normal_run.hpp; this header brings
// it with the linear algebra and the arrays it instantiates with.
//
// Not part of <cupp/random.hpp>: a program that draws multivariate normals
// includes this header and links cupp::linalg besides cupp::random. It
// brings in <cupp/random/vector_draws.hpp> (dirichlet, multinomial,
// multivariate_hypergeometric), which needs no linear algebra.
#pragma once

#include <cupp/creation.hpp>
#include <cupp/detail/random/multivariate_normal_run.hpp>
#include <cupp/expression.hpp>
#include <cupp/linalg.hpp>
#include <cupp/ndarray.hpp>
#include <cupp/random/bit_generator.hpp>
#include <cupp/random/generator.hpp>
#include <cupp/random/vector_draws.hpp>
