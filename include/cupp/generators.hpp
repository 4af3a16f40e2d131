// Arrays computed from their indices, lazily: numpy.arange, linspace,
// logspace, geomspace, full, zeros, ones (and their _like forms), eye,
// identity, tri, indices, plus meshgrid.
//
// Each function returns a cupp::generator: nothing is allocated and nothing
// runs until it is assigned to an array, evaluated with eval(), or used in
// an expression, where it fuses into that expression's single kernel:
//
//   cupp::ndarray<double> y = cupp::arange(n).reshape({1000, -1}).T() * 2;  // one kernel
//   auto x = cupp::linspace(0.0, 1.0, 101).eval();                         // device array
//   auto h = cupp::host::eye<float>(3).eval();                              // host array
//
// Generators in cupp:: take the space of the arrays they meet (evaluated
// alone they go to the current device); those in cupp::host:: are host
// expressions. Elements equal NumPy's bit for bit, except where libm
// functions are involved (logspace, geomspace: pow and log10 may differ in
// the last place between NumPy's libm, the host and the device).
#pragma once

#include <cstdint>
#include <optional>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <cupp/detail/generators/make.hpp>
#include <cupp/detail/generators/meshgrid.hpp>
#include <cupp/detail/generators/view.hpp>
#include <cupp/expression.hpp>
#include <cupp/lazy_fwd.hpp>
#include <cupp/meshgrid_options.hpp>

namespace cupp {

// ---------------------------------------------------------------------------
// The generator functions. T is the dtype (NumPy's dtype=); left out, it
// comes from the arguments as NumPy derives it. Those in cupp:: adopt their
// operands' space and evaluate alone on the device; those in cupp::host
// (below) evaluate to host arrays.

// numpy.full(shape, fill_value, dtype, order): fill_value's dtype (int64,
// float64, complex128 or bool for C++ numbers) unless T is given.
template <class T = ::cupp::detail::dtype_from_args, ::cupp::detail::gen_number V>
auto full(const shape_t& shape, const V& value, order o = order::C) {
  return ::cupp::detail::make_full<T, any_space>(shape, value, o);
}

// numpy.zeros / numpy.ones: float64 unless T is given.
template <Dtype T = double>
auto zeros(const shape_t& shape, order o = order::C) {
  return ::cupp::detail::make_full<T, any_space>(shape, 0, o);
}
template <Dtype T = double>
auto ones(const shape_t& shape, order o = order::C) {
  return ::cupp::detail::make_full<T, any_space>(shape, 1, o);
}

// numpy.full_like / zeros_like / ones_like of an array or an expression:
// its shape, its dtype unless T is given, and the layout it would evaluate
// to (order='K').
template <class T = ::cupp::detail::dtype_from_args, Expression E, ::cupp::detail::gen_number V>
auto full_like(const E& x, const V& value) {
  return ::cupp::detail::make_full_like<T, any_space>(x, value);
}
template <class T = ::cupp::detail::dtype_from_args, Expression E>
auto zeros_like(const E& x) {
  return ::cupp::detail::make_full_like<T, any_space>(x, 0);
}
template <class T = ::cupp::detail::dtype_from_args, Expression E>
auto ones_like(const E& x) {
  return ::cupp::detail::make_full_like<T, any_space>(x, 1);
}

// numpy.arange(stop), arange(start, stop), arange(start, stop, step):
// int64 for integer arguments, float64 once one is floating-point,
// complex128 for complex ones, unless T is given.
template <class T = ::cupp::detail::dtype_from_args, ::cupp::detail::gen_number A>
auto arange(const A& stop) {
  return ::cupp::detail::make_arange<T, any_space>(0, stop, 1);
}
template <class T = ::cupp::detail::dtype_from_args, ::cupp::detail::gen_number A,
          ::cupp::detail::gen_number B>
auto arange(const A& start, const B& stop) {
  return ::cupp::detail::make_arange<T, any_space>(start, stop, 1);
}
template <class T = ::cupp::detail::dtype_from_args, ::cupp::detail::gen_number A,
          ::cupp::detail::gen_number B, ::cupp::detail::gen_number C>
auto arange(const A& start, const B& stop, const C& step) {
  return ::cupp::detail::make_arange<T, any_space>(start, stop, step);
}

// numpy.linspace(start, stop, num, endpoint): computed in float64 (or the
// dtype strong arguments promote to), floored for an integer T.
template <class T = ::cupp::detail::dtype_from_args, ::cupp::detail::gen_number A,
          ::cupp::detail::gen_number B>
auto linspace(const A& start, const B& stop, index_t num = 50, bool endpoint = true) {
  return ::cupp::detail::make_linspace<T, any_space>(start, stop, num, endpoint);
}

// numpy.linspace(..., retstep=True): the samples and the step, in the dtype
// the samples are computed in (NaN when num - endpoint <= 0).
//   auto [x, step] = cupp::linspace_retstep(0.0, 1.0, 5);
template <class T = ::cupp::detail::dtype_from_args, ::cupp::detail::gen_number A,
          ::cupp::detail::gen_number B>
auto linspace_retstep(const A& start, const B& stop, index_t num = 50, bool endpoint = true) {
  ::cupp::detail::linspace_dtype_t<A, B> step;
  auto samples = ::cupp::detail::make_linspace<T, any_space>(start, stop, num, endpoint, &step);
  return std::pair{samples, step};
}

// numpy.logspace(start, stop, num, endpoint, base): base ** linspace(...).
template <class T = ::cupp::detail::dtype_from_args, ::cupp::detail::gen_number A,
          ::cupp::detail::gen_number B, ::cupp::detail::gen_number Base = double>
auto logspace(const A& start, const B& stop, index_t num = 50, bool endpoint = true,
              const Base& base = 10.0) {
  return ::cupp::detail::make_logspace<T, any_space>(start, stop, num, endpoint, base);
}

// numpy.geomspace(start, stop, num, endpoint): float64 or complex128
// unless T is given; start and stop are exact.
template <class T = ::cupp::detail::dtype_from_args, ::cupp::detail::gen_number A,
          ::cupp::detail::gen_number B>
auto geomspace(const A& start, const B& stop, index_t num = 50, bool endpoint = true) {
  return ::cupp::detail::make_geomspace<T, any_space>(start, stop, num, endpoint);
}

// numpy.eye(N, M=N, k=0, dtype=float64, order): ones where column - row == k.
template <Dtype T = double>
auto eye(index_t n, std::optional<index_t> m = std::nullopt, index_t k = 0, order o = order::C) {
  return ::cupp::detail::make_diagonal<T, false, any_space>(n, m.value_or(n), k, o);
}

// numpy.identity(n, dtype=float64).
template <Dtype T = double>
auto identity(index_t n) {
  return ::cupp::detail::make_diagonal<T, false, any_space>(n, n, 0, order::C);
}

// numpy.tri(N, M=N, k=0, dtype=float64): ones where column - row <= k
// (negative N or M give empty axes, as NumPy's arange-based code does).
template <Dtype T = double>
auto tri(index_t n, std::optional<index_t> m = std::nullopt, index_t k = 0) {
  const index_t cols = m.value_or(n);
  return ::cupp::detail::make_diagonal<T, true, any_space>(n < 0 ? 0 : n, cols < 0 ? 0 : cols, k,
                                                           order::C);
}

// numpy.indices(dimensions, dtype=int64): shape (len(dimensions), *dimensions),
// element (a, i0, i1, ...) equal to i_a.
template <Dtype T = std::int64_t>
auto indices(const shape_t& dimensions) {
  return ::cupp::detail::make_indices<T, any_space>(dimensions);
}

// numpy.indices(dimensions, sparse=True): one generator per axis, of extent
// dimensions[i] along axis i and 1 elsewhere.
template <Dtype T = std::int64_t>
auto sparse_indices(const shape_t& dimensions) {
  return ::cupp::detail::make_sparse_indices<T, any_space>(dimensions);
}

// ---------------------------------------------------------------------------
// The same functions in cupp::host: host generators, which evaluate to host
// arrays (cupp::host::eye<float>(3).eval()).

namespace host {

template <class T = ::cupp::detail::dtype_from_args, ::cupp::detail::gen_number V>
auto full(const shape_t& shape, const V& value, order o = order::C) {
  return ::cupp::detail::make_full<T, host_space>(shape, value, o);
}

template <Dtype T = double>
auto zeros(const shape_t& shape, order o = order::C) {
  return ::cupp::detail::make_full<T, host_space>(shape, 0, o);
}
template <Dtype T = double>
auto ones(const shape_t& shape, order o = order::C) {
  return ::cupp::detail::make_full<T, host_space>(shape, 1, o);
}

template <class T = ::cupp::detail::dtype_from_args, Expression E, ::cupp::detail::gen_number V>
auto full_like(const E& x, const V& value) {
  return ::cupp::detail::make_full_like<T, host_space>(x, value);
}
template <class T = ::cupp::detail::dtype_from_args, Expression E>
auto zeros_like(const E& x) {
  return ::cupp::detail::make_full_like<T, host_space>(x, 0);
}
template <class T = ::cupp::detail::dtype_from_args, Expression E>
auto ones_like(const E& x) {
  return ::cupp::detail::make_full_like<T, host_space>(x, 1);
}

template <class T = ::cupp::detail::dtype_from_args, ::cupp::detail::gen_number A>
auto arange(const A& stop) {
  return ::cupp::detail::make_arange<T, host_space>(0, stop, 1);
}
template <class T = ::cupp::detail::dtype_from_args, ::cupp::detail::gen_number A,
          ::cupp::detail::gen_number B>
auto arange(const A& start, const B& stop) {
  return ::cupp::detail::make_arange<T, host_space>(start, stop, 1);
}
template <class T = ::cupp::detail::dtype_from_args, ::cupp::detail::gen_number A,
          ::cupp::detail::gen_number B, ::cupp::detail::gen_number C>
auto arange(const A& start, const B& stop, const C& step) {
  return ::cupp::detail::make_arange<T, host_space>(start, stop, step);
}

template <class T = ::cupp::detail::dtype_from_args, ::cupp::detail::gen_number A,
          ::cupp::detail::gen_number B>
auto linspace(const A& start, const B& stop, index_t num = 50, bool endpoint = true) {
  return ::cupp::detail::make_linspace<T, host_space>(start, stop, num, endpoint);
}

template <class T = ::cupp::detail::dtype_from_args, ::cupp::detail::gen_number A,
          ::cupp::detail::gen_number B>
auto linspace_retstep(const A& start, const B& stop, index_t num = 50, bool endpoint = true) {
  ::cupp::detail::linspace_dtype_t<A, B> step;
  auto samples = ::cupp::detail::make_linspace<T, host_space>(start, stop, num, endpoint, &step);
  return std::pair{samples, step};
}

template <class T = ::cupp::detail::dtype_from_args, ::cupp::detail::gen_number A,
          ::cupp::detail::gen_number B, ::cupp::detail::gen_number Base = double>
auto logspace(const A& start, const B& stop, index_t num = 50, bool endpoint = true,
              const Base& base = 10.0) {
  return ::cupp::detail::make_logspace<T, host_space>(start, stop, num, endpoint, base);
}

template <class T = ::cupp::detail::dtype_from_args, ::cupp::detail::gen_number A,
          ::cupp::detail::gen_number B>
auto geomspace(const A& start, const B& stop, index_t num = 50, bool endpoint = true) {
  return ::cupp::detail::make_geomspace<T, host_space>(start, stop, num, endpoint);
}

template <Dtype T = double>
auto eye(index_t n, std::optional<index_t> m = std::nullopt, index_t k = 0, order o = order::C) {
  return ::cupp::detail::make_diagonal<T, false, host_space>(n, m.value_or(n), k, o);
}

template <Dtype T = double>
auto identity(index_t n) {
  return ::cupp::detail::make_diagonal<T, false, host_space>(n, n, 0, order::C);
}

template <Dtype T = double>
auto tri(index_t n, std::optional<index_t> m = std::nullopt, index_t k = 0) {
  const index_t cols = m.value_or(n);
  return ::cupp::detail::make_diagonal<T, true, host_space>(n < 0 ? 0 : n, cols < 0 ? 0 : cols, k,
                                                            order::C);
}

template <Dtype T = std::int64_t>
auto indices(const shape_t& dimensions) {
  return ::cupp::detail::make_indices<T, host_space>(dimensions);
}

template <Dtype T = std::int64_t>
auto sparse_indices(const shape_t& dimensions) {
  return ::cupp::detail::make_sparse_indices<T, host_space>(dimensions);
}

}  // namespace host

// ---------------------------------------------------------------------------
// meshgrid

// cupp::indexing and cupp::meshgrid_options are in <cupp/meshgrid_options.hpp>.

// numpy.meshgrid(x1, x2, ..., indexing='xy', sparse=False, copy=False):
// a std::tuple with one output per input, each input spread over the grid
// without copying (stride 0 along the other axes). Array inputs give array
// views of their memory, generator inputs give generators; both fuse into
// expressions. Call .copy() / .eval() for independent arrays (NumPy's
// default copy=True).
//   auto [X, Y] = cupp::meshgrid(x, y);                       // 'xy'
//   auto [I, J] = cupp::meshgrid(x, y, cupp::indexing::ij);
//   auto [A, B] = cupp::meshgrid(x, y, cupp::meshgrid_options{.sparse = true});
template <class... X>
auto meshgrid(const X&... args) {
  constexpr std::size_t n = sizeof...(X);
  const auto in = std::forward_as_tuple(args...);
  if constexpr (n > 0) {
    using Last = std::remove_cvref_t<std::tuple_element_t<n - 1, std::tuple<X...>>>;
    if constexpr (detail::is_meshgrid_option_v<Last>) {
      return detail::meshgrid_impl(detail::to_meshgrid_options(std::get<n - 1>(in)), in,
                                   std::make_index_sequence<n - 1>{});
    } else {
      return detail::meshgrid_impl(meshgrid_options{}, in, std::make_index_sequence<n>{});
    }
  } else {
    return std::tuple<>{};
  }
}

namespace host {
using cupp::meshgrid;
}  // namespace host

}  // namespace cupp
