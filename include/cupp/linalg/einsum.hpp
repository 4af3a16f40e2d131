// numpy.einsum: Einstein summation over device arrays (cuBLAS) and host
// arrays (OpenBLAS). Part of <cupp/linalg.hpp>.
//
//   cupp::einsum("ij,jk->ik", a, b)       matmul
//   cupp::einsum("bij,bjk->bik", a, b)    one batched matmul
//   cupp::einsum("ii", a)                 trace (a 0-d array)
//   cupp::einsum("ii->i", a)              the diagonal, a view of a
//   cupp::einsum("...ij->...ji", a)       a view of a
//
// Repeated labels within an operand read its diagonal through a strided
// view (no copy); labels no other operand or the output needs are summed
// by cupp::sum (cupp::any for bool); two operands contract through one
// matmul of (batch, free, contracted) against (batch, contracted, free),
// views where the strides allow; more operands contract pairwise, left to
// right (NumPy's optimize=False order). See docs/linalg.md.
#pragma once

#include <string_view>
#include <type_traits>
#include <vector>

#include <cupp/space_check.hpp>
#include <cupp/detail/linalg/einsum_pairs.hpp>
#include <cupp/detail/linalg/einsum_plan.hpp>
#include <cupp/detail/linalg/einsum_run.hpp>
#include <cupp/linalg/matmul.hpp>
#include <cupp/manipulation.hpp>
#include <cupp/reductions.hpp>
#include <cupp/ufunc/arithmetic.hpp>

namespace cupp {

// numpy.einsum(subscripts, *operands) (optimize=False): subscripts as
// NumPy's ("ij,jk->ik", "ii", "...ij,...jk->...ik", spaces ignored), an
// implicit output being the labels that appear once, in alphabetical order
// (uppercase first), after the broadcast axes. Operands are arrays or lazy
// expressions (each evaluated once), all on the host or all on the device.
// The result dtype is NumPy's promotion of the operands' dtypes; integers
// and bool are exact (wrapping, logical). A sum over every label is a 0-d
// array (NumPy: a scalar). One operand with nothing summed gives a view of
// it, as NumPy. NumPy's errors are value_error with its messages.
template <Expression A, Expression... Rest>
auto einsum(std::string_view subscripts, const A& a, const Rest&... rest) {
  CUPP_SAME_SPACE(A, Rest...);
  static_assert(is_dtype_v<typename operand_t<A>::value_type> &&
                    (is_dtype_v<typename operand_t<Rest>::value_type> && ...),
                "cupp::einsum: the operands are arrays or array expressions, not scalars");
  using R =
      result_type_t<typename operand_t<A>::value_type, typename operand_t<Rest>::value_type...>;
  using S =
      detail::eval_space_t<typename detail::space_of_all<typename operand_t<A>::space,
                                                         typename operand_t<Rest>::space...>::type>;
  std::vector<ndarray<R, S>> xs;
  xs.reserve(1 + sizeof...(Rest));
  xs.push_back(detail::product_operand<R, S>(a));
  (xs.push_back(detail::product_operand<R, S>(rest)), ...);
  std::vector<shape_t> shapes;
  for (const auto& x : xs) shapes.push_back(x.shape());
  const detail::einsum_plan plan = detail::plan_einsum(subscripts, shapes);
  if constexpr (std::is_same_v<S, device_space>)
    for (const auto& x : xs) detail::check_current_device(x.device_id());
  return detail::einsum_arrays<R, S>(plan, std::move(xs));
}

}  // namespace cupp
