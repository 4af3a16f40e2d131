// The view methods of ndarray (basic indexing, reshape, ravel, flatten, T,
// transpose, swapaxes, squeeze), in a base class that ndarray derives from.
// They live here, and not in ndarray's body, because ndarray's element type
// parameter is called T, a name its own members cannot take: NumPy's x.T
// is written x.T() (as on generators). The geometry comes from the plain
// functions of detail/views/layout.hpp; the handle is built by A::view_as.
#pragma once

#include <concepts>
#include <span>
#include <type_traits>
#include <vector>

#include <cupp/detail/views/diagonal_layout.hpp>
#include <cupp/detail/views/layout.hpp>

namespace cupp::detail {

// --- integer-array indexing (advanced_indexing.hpp) ---
// An integer index array: a cupp array of an integer dtype (not bool: a
// boolean array is a mask), or a std::vector of integers.
template <class X>
concept integer_index_array =
    (requires {
      typename X::space_type;
      typename X::value_type;
    } && std::is_integral_v<typename X::value_type> &&
     !std::is_same_v<typename X::value_type, bool>) ||
    requires(const X& x) {
      requires std::is_same_v<X, std::vector<typename X::value_type>>;
      requires std::is_integral_v<typename X::value_type>;
      requires !std::is_same_v<typename X::value_type, bool>;
    };
// --- end integer-array indexing ---
// --- boolean masks (include/cupp/boolean_indexing.hpp) ---------------------
// x(mask) returns this proxy; its definition is in
// detail/indexing/mask_ref.hpp, which boolean_indexing.hpp (and so
// <cupp/cupp.hpp>) includes, with nonzero_of (mask_functions.hpp).
template <class A, class M>
class masked_ref;

// One boolean index: a bool array, a lazy expression of dtype bool, or a
// C++ bool (NumPy's x[True]). Integer index arrays are not this.
template <class M>
concept boolean_mask_index = std::is_same_v<M, bool> ||
    (requires { typename M::value_type; } && std::is_same_v<typename M::value_type, bool> &&
     (
         requires { typename M::is_cupp_expression; } || requires { typename M::space_type; }));
// --- end boolean masks ------------------------------------------------------

template <class A>
class array_views {
 public:
  // Basic indexing (indexing.hpp): x(1, slice(_, _, -1), newaxis, ellipsis)
  // is NumPy's x[1, ::-1, np.newaxis, ...]. Always a view of the same
  // memory; an integer on every axis gives a 0-d view (NumPy gives a
  // scalar). Assigning to the result writes into the array:
  // x(slice(2, 7)) = y * 2; is one kernel. An index is an integer,
  // cupp::slice, cupp::_, cupp::newaxis or cupp::ellipsis; integer arrays
  // and boolean masks take the overloads below (copies, as in NumPy).
  template <class... I>
  requires(basic_index<I>&&...) A operator()(const I&... idx) const {
    const index_item items[] = {to_index_item(idx)..., {}};
    return self().view_as(index_layout(self().shape(), self().strides(), {items, sizeof...(I)}));
  }

  // --- integer-array indexing (advanced_indexing.hpp) ---
  // x(idx), x(i0, slice(1, 3), i1): some indices are integer index arrays.
  // The result is a cupp::gather_ref: a lazy operand that converts to an
  // array (a copy, one gather kernel) and writes through assignment.
  template <class... I>
  requires((basic_index<I> || integer_index_array<I>)&&... &&
           (integer_index_array<I> || ...)) auto
  operator()(const I&... idx) const {
    return advanced_index(self(), idx...);  // found by ADL in cupp::detail
  }
  // --- end integer-array indexing ---

  // The same with indices chosen at run time (NumPy's x[tuple(items)]).
  A operator()(std::span<const cupp::index_item> items) const {
    std::vector<index_item> v;
    v.reserve(items.size());
    for (const cupp::index_item& it : items) v.push_back(it.get());
    return self().view_as(index_layout(self().shape(), self().strides(), v));
  }

  // --- boolean masks ---------------------------------------------------------
  // NumPy's x[mask]: a proxy that converts to the selected copy (shape
  // (count,) + x.shape[mask.ndim:]) and writes through assignment:
  // `ndarray<T> r = x(x % 3 == 1);`, `x(mask) = 0;`, `x(mask) += y;`.
  template <class M>
  requires boolean_mask_index<M> masked_ref<A, M>
  operator()(const M& mask) const { return masked_ref<A, M>(self(), mask); }
  // ndarray.nonzero(): numpy.nonzero(x).
  auto nonzero() const { return nonzero_of(self()); }
  // --- end boolean masks -----------------------------------------------------

  // ndarray.reshape: a view when the strides allow it (NumPy's rule, also
  // for non-contiguous arrays), otherwise a copy. One extent may be
  // negative (-1), filled from the size; order C, F, or A (F when the array
  // is F- and not C-contiguous). reshape({2, 3}) or reshape(2, 3).
  A reshape(const shape_t& newshape, order o = order::C) const {
    if (o == order::K) throw value_error("order 'K' is not permitted for reshaping");
    const A& a = self();
    const shape_t to = resolve_reshape(newshape, a.size());
    const order ord = c_or_f(o);
    strides_t st;
    if (reshape_layout(a.shape(), a.strides(), to, ord, a.itemsize(), st))
      return a.view_as({0, to, st});
    return dense_copy(ord, to);
  }
  template <std::integral... I>
  requires(sizeof...(I) >= 1) A reshape(I... extents)
  const { return reshape(shape_t{static_cast<index_t>(extents)...}); }

  // ndarray.ravel: a 1-d view when the array is contiguous in the order
  // asked for (for K: in its memory order, with positive strides), else a
  // copy, as NumPy decides.
  A ravel(order o = order::C) const {
    if (o == order::K) return by_memory_order().ravel(order::C);
    const order ord = c_or_f(o);
    const A& a = self();
    if (ord == order::F ? a.is_f_contiguous() : a.is_c_contiguous())
      return reshape(shape_t{-1}, ord);
    return dense_copy(ord, shape_t{a.size()});
  }

  // ndarray.flatten: a 1-d copy, always.
  A flatten(order o = order::C) const {
    if (o == order::K) return by_memory_order().flatten(order::C);
    return dense_copy(c_or_f(o), shape_t{self().size()});
  }

  // ndarray.T and ndarray.transpose(): the axes reversed (a view).
  A T() const {
    int perm[max_ndim];
    reversed_perm(self().ndim(), perm);
    return permute(perm);
  }
  A transpose() const { return T(); }
  // ndarray.transpose(axes): axis i of the view is axis axes[i] of the
  // array; transpose({1, 0, 2}) or transpose(1, 0, 2).
  A transpose(const shape_t& axes) const {
    int perm[max_ndim];
    transpose_perm(axes, self().ndim(), perm);
    return permute(perm);
  }
  template <std::integral... I>
  requires(sizeof...(I) >= 1) A transpose(I... axes)
  const { return transpose(shape_t{static_cast<index_t>(axes)...}); }

  // ndarray.swapaxes(axis1, axis2) (a view).
  A swapaxes(index_t axis1, index_t axis2) const {
    int perm[max_ndim];
    swapaxes_perm(self().ndim(), axis1, axis2, perm);
    return permute(perm);
  }

  // ndarray.squeeze(axis=None): unit axes removed (a view); axis is an int
  // or a list ({0, 2}) of axes that must have extent 1.
  A squeeze(axis_arg axis = {}) const {
    return self().view_as(squeeze_layout(self().shape(), self().strides(), axis));
  }

  // ndarray.diagonal(offset=0, axis1=0, axis2=1): a read-only view (as
  // NumPy's) with axis1 and axis2 replaced by the diagonal, last.
  A diagonal(index_t offset = 0, index_t axis1 = 0, index_t axis2 = 1) const {
    A r = self().view_as(diagonal_layout(self().shape(), self().strides(), offset, axis1, axis2));
    r.setflags(false);
    return r;
  }

 private:
  const A& self() const { return static_cast<const A&>(*this); }

  A permute(const int* perm) const {
    return self().view_as(permuted(self().shape(), self().strides(), perm));
  }

  // NumPy's order argument of reshape/ravel/flatten as C or F: A is F
  // when the array is F- and not C-contiguous.
  order c_or_f(order o) const {
    if (o == order::A)
      return self().is_f_contiguous() && !self().is_c_contiguous() ? order::F : order::C;
    return o == order::F ? order::F : order::C;
  }

  // A copy read in order `o` (C or F), with the shape `to` of the same size.
  A dense_copy(order o, const shape_t& to) const {
    const A d = self().copy(o);
    return A(d.data(), to, contiguous_strides(to, A::itemsize(), o), d.memory(), d.device_id(),
             true);
  }

  // The array with its axes ordered by decreasing stride: NumPy's K order.
  A by_memory_order() const {
    int perm[max_ndim];
    memory_order_perm(self().strides(), perm);
    return permute(perm);
  }
};

}  // namespace cupp::detail
