// The generator functions, written once for two namespaces: <cupp/generators.hpp>
// includes this file inside namespace cupp with CUPP_GENERATOR_SPACE
// any_space (the generators adopt their operands' space and evaluate alone
// on the device) and inside cupp::host with host_space (they evaluate to
// host arrays). No include guard: it is meant to be included twice.
//
// T is the dtype (NumPy's dtype=); left out, it comes from the arguments
// as NumPy derives it.

// numpy.full(shape, fill_value, dtype, order): fill_value's dtype (int64,
// float64, complex128 or bool for C++ numbers) unless T is given.
template <class T = ::cupp::detail::dtype_from_args, ::cupp::detail::gen_number V>
auto full(const shape_t& shape, const V& value, order o = order::C) {
  return ::cupp::detail::make_full<T, CUPP_GENERATOR_SPACE>(shape, value, o);
}

// numpy.zeros / numpy.ones: float64 unless T is given.
template <Dtype T = double>
auto zeros(const shape_t& shape, order o = order::C) {
  return ::cupp::detail::make_full<T, CUPP_GENERATOR_SPACE>(shape, 0, o);
}
template <Dtype T = double>
auto ones(const shape_t& shape, order o = order::C) {
  return ::cupp::detail::make_full<T, CUPP_GENERATOR_SPACE>(shape, 1, o);
}

// numpy.full_like / zeros_like / ones_like of an array or an expression:
// its shape, its dtype unless T is given, and the layout it would evaluate
// to (order='K').
template <class T = ::cupp::detail::dtype_from_args, Expression E, ::cupp::detail::gen_number V>
auto full_like(const E& x, const V& value) {
  return ::cupp::detail::make_full_like<T, CUPP_GENERATOR_SPACE>(x, value);
}
template <class T = ::cupp::detail::dtype_from_args, Expression E>
auto zeros_like(const E& x) {
  return ::cupp::detail::make_full_like<T, CUPP_GENERATOR_SPACE>(x, 0);
}
template <class T = ::cupp::detail::dtype_from_args, Expression E>
auto ones_like(const E& x) {
  return ::cupp::detail::make_full_like<T, CUPP_GENERATOR_SPACE>(x, 1);
}

// numpy.arange(stop), arange(start, stop), arange(start, stop, step):
// int64 for integer arguments, float64 once one is floating-point,
// complex128 for complex ones, unless T is given.
template <class T = ::cupp::detail::dtype_from_args, ::cupp::detail::gen_number A>
auto arange(const A& stop) {
  return ::cupp::detail::make_arange<T, CUPP_GENERATOR_SPACE>(0, stop, 1);
}
template <class T = ::cupp::detail::dtype_from_args, ::cupp::detail::gen_number A,
          ::cupp::detail::gen_number B>
auto arange(const A& start, const B& stop) {
  return ::cupp::detail::make_arange<T, CUPP_GENERATOR_SPACE>(start, stop, 1);
}
template <class T = ::cupp::detail::dtype_from_args, ::cupp::detail::gen_number A,
          ::cupp::detail::gen_number B, ::cupp::detail::gen_number C>
auto arange(const A& start, const B& stop, const C& step) {
  return ::cupp::detail::make_arange<T, CUPP_GENERATOR_SPACE>(start, stop, step);
}

// numpy.linspace(start, stop, num, endpoint): computed in float64 (or the
// dtype strong arguments promote to), floored for an integer T.
template <class T = ::cupp::detail::dtype_from_args, ::cupp::detail::gen_number A,
          ::cupp::detail::gen_number B>
auto linspace(const A& start, const B& stop, index_t num = 50, bool endpoint = true) {
  return ::cupp::detail::make_linspace<T, CUPP_GENERATOR_SPACE>(start, stop, num, endpoint);
}

// numpy.linspace(..., retstep=True): the samples and the step, in the dtype
// the samples are computed in (NaN when num - endpoint <= 0).
//   auto [x, step] = cupp::linspace_retstep(0.0, 1.0, 5);
template <class T = ::cupp::detail::dtype_from_args, ::cupp::detail::gen_number A,
          ::cupp::detail::gen_number B>
auto linspace_retstep(const A& start, const B& stop, index_t num = 50, bool endpoint = true) {
  ::cupp::detail::linspace_dtype_t<A, B> step;
  auto samples =
      ::cupp::detail::make_linspace<T, CUPP_GENERATOR_SPACE>(start, stop, num, endpoint, &step);
  return std::pair{samples, step};
}

// numpy.logspace(start, stop, num, endpoint, base): base ** linspace(...).
template <class T = ::cupp::detail::dtype_from_args, ::cupp::detail::gen_number A,
          ::cupp::detail::gen_number B, ::cupp::detail::gen_number Base = double>
auto logspace(const A& start, const B& stop, index_t num = 50, bool endpoint = true,
              const Base& base = 10.0) {
  return ::cupp::detail::make_logspace<T, CUPP_GENERATOR_SPACE>(start, stop, num, endpoint, base);
}

// numpy.geomspace(start, stop, num, endpoint): float64 or complex128
// unless T is given; start and stop are exact.
template <class T = ::cupp::detail::dtype_from_args, ::cupp::detail::gen_number A,
          ::cupp::detail::gen_number B>
auto geomspace(const A& start, const B& stop, index_t num = 50, bool endpoint = true) {
  return ::cupp::detail::make_geomspace<T, CUPP_GENERATOR_SPACE>(start, stop, num, endpoint);
}

// numpy.eye(N, M=N, k=0, dtype=float64, order): ones where column - row == k.
template <Dtype T = double>
auto eye(index_t n, std::optional<index_t> m = std::nullopt, index_t k = 0, order o = order::C) {
  return ::cupp::detail::make_diagonal<T, false, CUPP_GENERATOR_SPACE>(n, m.value_or(n), k, o);
}

// numpy.identity(n, dtype=float64).
template <Dtype T = double>
auto identity(index_t n) {
  return ::cupp::detail::make_diagonal<T, false, CUPP_GENERATOR_SPACE>(n, n, 0, order::C);
}

// numpy.tri(N, M=N, k=0, dtype=float64): ones where column - row <= k
// (negative N or M give empty axes, as NumPy's arange-based code does).
template <Dtype T = double>
auto tri(index_t n, std::optional<index_t> m = std::nullopt, index_t k = 0) {
  const index_t cols = m.value_or(n);
  return ::cupp::detail::make_diagonal<T, true, CUPP_GENERATOR_SPACE>(
      n < 0 ? 0 : n, cols < 0 ? 0 : cols, k, order::C);
}

// numpy.indices(dimensions, dtype=int64): shape (len(dimensions), *dimensions),
// element (a, i0, i1, ...) equal to i_a.
template <Dtype T = std::int64_t>
auto indices(const shape_t& dimensions) {
  return ::cupp::detail::make_indices<T, CUPP_GENERATOR_SPACE>(dimensions);
}

// numpy.indices(dimensions, sparse=True): one generator per axis, of extent
// dimensions[i] along axis i and 1 elsewhere.
template <Dtype T = std::int64_t>
auto sparse_indices(const shape_t& dimensions) {
  return ::cupp::detail::make_sparse_indices<T, CUPP_GENERATOR_SPACE>(dimensions);
}
