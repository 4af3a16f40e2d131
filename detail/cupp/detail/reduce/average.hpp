// The engine of numpy.average: without weights the mean (and, for
// returned=, the count as an array of the mean's shape); with weights of the
// operand's shape, or 1-d along the one axis given (broadcast to the
// operand's shape with stride 0), the sum of x * w over the sum of w, each
// one pass of the reduction engine. Weights that sum to zero raise
// zero_division_error, which reads the sums back (a synchronisation).
#pragma once

#include <type_traits>
#include <utility>

#include <cupp/array_fwd.hpp>
#include <cupp/detail/convert.hpp>
#include <cupp/detail/expression/launch.hpp>
#include <cupp/detail/ops/arithmetic.hpp>
#include <cupp/detail/ops/comparison.hpp>
#include <cupp/detail/reduce/arguments.hpp>
#include <cupp/detail/reduce/logical.hpp>
#include <cupp/detail/reduce/moments.hpp>
#include <cupp/detail/reduce/plan.hpp>
#include <cupp/detail/reduce/sums.hpp>
#include <cupp/dtype.hpp>
#include <cupp/errors.hpp>
#include <cupp/reduction_options.hpp>
#include <cupp/shape.hpp>

namespace cupp {

namespace detail::impl {

template <class E, class Args>
auto average(const E& e, const Args& a) {
  using T = typename E::value_type;
  if constexpr (!Args::has_weights) {
    auto avg = detail::impl::mean<void>(e, a);
    if constexpr (Args::returned) {
      using R = typename decltype(avg)::value_type;
      const axis_mask m = reduced_axes(a.axis, static_cast<int>(e.shape().size()));
      const R count = convert<R>(static_cast<double>(reduced_count(e.shape(), m)));
      decltype(avg) scl(avg.shape());
      assign(scl, scalar_leaf<R>{count});
      return std::pair(avg, scl);
    } else {
      return avg;
    }
  } else {
    const auto w = as_operand(a.weights());
    using W = typename std::remove_cvref_t<decltype(w)>::value_type;
    using P = promote_t<T, W>;
    using R = std::conditional_t<is_inexact_v<P>, P, double>;
    using S = eval_space_t<typename E::space>;
    auto run = [&](const auto& wb) {
      const reduce_args<kw::keepdims_arg> plain(a.axis, kw::keepdims = a.keepdims);
      auto num = detail::impl::sum<R>(make_ufunc(ops::multiply{}, make_ufunc(ops::cast<R>{}, e),
                                                 make_ufunc(ops::cast<R>{}, wb)),
                                      plain);
      // The weights' sum over the same axes, broadcast to a's shape.
      auto den = detail::impl::sum<R>(make_ufunc(ops::cast<R>{}, wb), plain);
      if (detail::impl::any<void>(make_ufunc(ops::equal{}, den, 0), reduce_args<>(axis_arg{}))
              .item())
        throw zero_division_error("Weights sum to zero, can't be normalized");
      ndarray<R, S> avg = make_ufunc(ops::true_divide{}, num, den);
      if constexpr (Args::returned)
        return std::pair(avg, den);
      else
        return avg;
    };
    if (w.shape() == e.shape()) return run(w);
    if (a.axis.all())
      throw type_error("Axis must be specified when shapes of a and weights differ.");
    if (w.shape().size() != 1)
      throw type_error("1D weights expected when shapes of a and weights differ.");
    if (a.axis.size() != 1) throw type_error("'tuple' object cannot be interpreted as an integer");
    const int ax = static_cast<int>(normalize_axis(a.axis[0], static_cast<int>(e.shape().size())));
    if (w.shape()[0] != e.shape()[ax])
      throw value_error(
          "Shape of weights must be consistent with shape of a along specified axis.");
    // The weights broadcast to a's shape along the axis.
    const auto wa = ndarray<W, S>(a.weights());
    strides_t wst = strides_t::filled(static_cast<int>(e.shape().size()), 0);
    wst[ax] = wa.strides()[0];
    return run(ndarray<W, S>(wa.data(), e.shape(), wst, wa.memory(), wa.device_id(), false));
  }
}

}  // namespace detail::impl

}  // namespace cupp
