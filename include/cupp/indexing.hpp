// The indexing area's umbrella: everything NumPy's "Indexing routines" and
// `x[...]` cover, in one include.
//
//   basic indexing     the index types (slice, newaxis, ellipsis, `_`,
//                      index_item) of <cupp/index_types.hpp>, which
//                      ndarray::operator() applies: x(slice(1, 5), newaxis)
//   integer arrays     x(idx), take, put, choose, scatter_add ...
//                      (<cupp/advanced_indexing.hpp>)
//   boolean masks      x(mask), nonzero, where, compress, place, putmask,
//                      select ... (<cupp/boolean_indexing.hpp>)
//
// Like every public header it compiles in a .cpp file under the host
// compiler (computing on device arrays there is CUPP_NEEDS_NVCC's error).
// A header that needs only the index types includes <cupp/index_types.hpp>.
#pragma once

#include <cupp/advanced_indexing.hpp>
#include <cupp/boolean_indexing.hpp>
#include <cupp/index_types.hpp>
