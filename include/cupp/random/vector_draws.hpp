// The Generator's draws of whole vectors that need no linear algebra:
// dirichlet, multinomial and multivariate_hypergeometric (numpy.random.
// Generator's), each an array of shape size + (k,) computed at once by a
// kernel of its own (one thread per row) or, for host generators, by a host
// loop: row r is a pure function of the generator's key, the draw's first
// counter block and r, so both give the same bits. The generator
// (basic_generator) forwards its members to the functions of
// cupp::random::detail in detail/random/vector_draw_run.hpp; this header
// brings the arrays they instantiate with. multivariate_normal lives in
// <cupp/random/multivariate.hpp>, which needs cupp::linalg.
#pragma once

#include <cupp/detail/random/vector_draw_run.hpp>
#include <cupp/ndarray.hpp>
#include <cupp/random/bit_generator.hpp>
