// The names of cupp's lazy arrays before their definitions: cupp::generator
// (what arange, linspace, eye, full ... return; defined in
// detail/generators/view.hpp), cupp::gather_expr (what tile, repeat, roll,
// pad, resize and diagflat return; defined in detail/indexing/gather.hpp)
// and cupp::gather_ref (x(idx); defined in <cupp/advanced_indexing.hpp>).
// A vocabulary header, as array_fwd.hpp is for ndarray: the public headers
// that return these types, and internal headers of other areas, name them
// through it.
// cupp-layer: vocabulary
#pragma once

namespace cupp {

// A lazy array computed from the positions of its elements: G computes an
// element, S is where it evaluates (any_space: where its operands live).
template <class G, class S>
class generator;

// The lazy result of a gather: elements of dtype T read from an array of
// space S.
template <class T, class S>
class gather_expr;

// x(indices) with K integer index arrays among the indices (defined in
// <cupp/advanced_indexing.hpp>).
template <class T, class S, int K>
class gather_ref;

}  // namespace cupp
