// numpy.random.Generator's permutation, shuffle, permuted and choice, for
// device and host arrays. A permutation of n is a keyed pseudo-random
// bijection of [0, n) (detail/random/bijection.hpp): element i is
// bijection(i), computed independently by each thread in one pass, with no
// sort, the same bits on the host. Permuting an array is a gather by such
// a permutation, permuted gives each slice a bijection of its own, and
// choice without replacement is the first k elements of a permutation
// (O(k) whatever the population). The generator (basic_generator) forwards
// its members to the functions of cupp::random::detail, in
// detail/random/shuffle_run.hpp and choice_run.hpp; this header brings the
// arrays, the gathers and the lazy generators they instantiate with.
#pragma once

#include <cupp/advanced_indexing.hpp>
#include <cupp/detail/random/choice_run.hpp>
#include <cupp/detail/random/shuffle_run.hpp>
#include <cupp/generators.hpp>
#include <cupp/ndarray.hpp>
#include <cupp/random/bit_generator.hpp>
