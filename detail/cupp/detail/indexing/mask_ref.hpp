// x(mask): the proxy detail::masked_ref that ndarray's operator() returns
// for a mask (see include/cupp/boolean_indexing.hpp), and its state and
// writes, detail::masked_target: NumPy's rules for which values a
// masked assignment accepts, and the two ways it runs. A value that is the
// same for every selected row needs no selection at all: it is one fused
// where(mask, value, x) kernel over x. Any other value must be matched
// against the count, so the rows are selected first and the values
// scattered into them.
#pragma once

#include <string>
#include <type_traits>
#include <utility>

#include <cupp/detail/indexing/mask_operand.hpp>
#include <cupp/detail/indexing/mask_select.hpp>
#include <cupp/detail/ops/arithmetic.hpp>
#include <cupp/detail/ops/arithmetic_division.hpp>
#include <cupp/detail/ops/bitwise.hpp>
#include <cupp/detail/ops/selection.hpp>
#include <cupp/errors.hpp>
// Expression machinery (Expression, as_operand, make_ufunc, assign, astype,
// assignable) and ndarray: to be repointed at detail/ once they move.
#include <cupp/detail/expression/launch.hpp>
#include <cupp/array_fwd.hpp>

namespace cupp::detail {

// Declared in detail/views/array_views.hpp, defined below.
template <class A, class M>
class masked_ref;

template <class T>
inline constexpr bool is_masked_ref_v = false;
template <class A, class M>
inline constexpr bool is_masked_ref_v<masked_ref<A, M>> = true;

// What x(mask) holds: the array and the mask as an operand (Mop), and the
// assignments through it.
template <class A, class Mop>
struct masked_target {
  using T = typename A::value_type;
  using S = typename A::space_type;

  A x;
  Mop m;

  int md() const { return m.shape().size(); }

  // True when the value is the same for every selected row.
  bool one_per_row(const shape_t& vs) const {
    if (md() == x.ndim()) {
      if (vs.size() >= 2)
        throw type_error(
            "NumPy boolean array indexing assignment requires a 0 or 1-dimensional input, input "
            "has " +
            std::to_string(vs.size()) + " dimensions");
      return vs.size() == 0 || vs[0] == 1;
    }
    return broadcasts_to(vs, with_lead(1, shape_suffix(x.shape(), md())));
  }

  void check_writeable() const {
    if (!x.flags().writeable) throw value_error("assignment destination is read-only");
  }

  // where(mask, value, x) into x: one kernel, nothing selected or counted.
  template <class E>
  void fused(const E& value) const {
    assign(x, make_ufunc(ops::where{}, lead_axes<Mop>(m, x.ndim() - md()), value, x));
  }

  void check_count(const shape_t& vs, index_t count) const {
    const shape_t want = with_lead(count, shape_suffix(x.shape(), md()));
    if (md() == x.ndim()) {
      if (vs[0] != count)
        throw value_error("NumPy boolean array indexing assignment cannot assign " +
                          std::to_string(vs[0]) + " input values to the " + std::to_string(count) +
                          " output values where the mask is true");
    } else if (!broadcasts_to(vs, want)) {
      throw value_error("shape mismatch: value array of shape " + np_shape(vs) +
                        " could not be broadcast to indexing result of shape " + np_shape(want));
    }
  }

  // x[mask] = v.
  template <class V>
  void set(const V& v) const {
    if constexpr (is_masked_ref_v<V>) {
      set(v.eval());
    } else {
      const auto e = as_operand(v);
      using VT = typename std::remove_cvref_t<decltype(e)>::value_type;
      static_assert(assignable<VT, T>(),
                    "cupp: x(mask) = value: Cannot cast the value's dtype to the array's with "
                    "casting rule 'same_kind'; convert it with .astype<T>()");
      check_writeable();
      if constexpr (is_weak_v<VT>) {
        e.template check_fits<T>();
        fused(scalar_leaf<T>{e.template as<T>()});
      } else {
        const shape_t vs = e.shape();
        if (vs.size() > x.ndim() && one_per_row(vs)) {
          // (1,) + x.shape under a 0-d mask: the leading unit axis goes.
          set(dense_values<T, S>(v)(0));
          return;
        }
        if (one_per_row(vs)) {
          fused(astype<T>(e));
          return;
        }
        selected_rows<T, S> s = select_rows(x, m);
        check_count(vs, s.count);
        ndarray<T, S> dense(with_lead(s.count, s.rest));
        assign(dense, astype<T>(e));
        scatter_rows(x, s, dense);
      }
    }
  }

  // x[mask] op= v: `op(x, v)` is the ufunc, `in_place(g, v)` the same
  // operator applied in place to the gathered rows g.
  template <class V, class Op, class InPlace>
  void update(const V& v, Op op, InPlace in_place) const {
    if constexpr (is_masked_ref_v<V>) {
      update(v.eval(), op, in_place);
    } else {
      using R = typename decltype(op(x, v))::value_type;
      static_assert(can_cast_same_kind_v<R, T>,
                    "cupp: in-place operator on x(mask): Cannot cast the result to the array's "
                    "dtype with casting rule 'same_kind'");
      check_writeable();
      const shape_t vs = as_operand(v).shape();
      bool single;
      if (md() == x.ndim())
        single = vs.size() == 0 || (vs.size() == 1 && vs[0] == 1);
      else
        single = broadcasts_to(vs, with_lead(1, shape_suffix(x.shape(), md())));
      if constexpr (Expression<V>) {
        if (single && vs.size() > x.ndim()) {
          using VT = typename operand_t<V>::value_type;
          update(dense_values<VT, S>(v)(0), op, in_place);
          return;
        }
      }
      if (single) {
        fused(astype<T>(op(x, v)));
        return;
      }
      // NumPy's x[mask] = x[mask] + v: gather, update, write back.
      selected_rows<T, S> s = select_rows(x, m);
      ndarray<T, S> g = gather_rows(s);
      in_place(g, v);
      scatter_rows(x, s, g);
    }
  }
};

// The proxy x(mask) returns (declared in detail/views/array_views.hpp):
// converts to the selected copy, and writes through assignment. Its state
// and the writes themselves are detail::masked_target, above.
template <class A, class M>
class masked_ref : public lazy_members_t<A> {
  using T = typename A::value_type;
  using S = typename A::space_type;
  using Mop = mask_operand_t<M>;
  static_assert(std::is_same_v<typename Mop::space, any_space> ||
                    std::is_same_v<typename Mop::space, S>,
                "cupp: a mask must live where the array does; move it with cupp::asarray or "
                "cupp::asnumpy");

 public:
  masked_ref(const A& x, const M& mask) : t_{x, mask_operand(mask)} {
    check_mask_shape(t_.m.shape(), t_.x.shape());
  }
  masked_ref(const masked_ref&) = default;

  // NumPy's x[mask]: a new array of shape (count,) + x.shape[mask.ndim:],
  // elements in the C order of the mask.
  A eval() const { return masked_read(t_.x, t_.m); }
  A copy() const { return eval(); }
  operator A() const { return eval(); }

  // x[mask] = value. A value that is one element per selected row (a
  // scalar, or a shape that broadcasts to (1,) + rest) is written by one
  // fused kernel over x; otherwise the value broadcasts to (count,) + rest
  // and goes to the selected rows in order.
  template <class V>
  const masked_ref& operator=(const V& v) const {
    t_.set(v);
    return *this;
  }
  const masked_ref& operator=(const masked_ref& o) const {
    t_.set(o.eval());
    return *this;
  }

  // x[mask] op= value: one fused kernel when the value is the same for
  // every selected row, else NumPy's x[mask] = x[mask] op value. NAME is
  // the ufunc's operation (ops::NAME, what cupp::NAME applies).
#define CUPP_MASKED_INPLACE(SYMBOL, NAME)                                                      \
  template <class V>                                                                           \
  const masked_ref& operator SYMBOL(const V& v) const {                                        \
    t_.update(                                                                                 \
        v, [](const auto& a, const auto& b) { return ::cupp::make_ufunc(ops::NAME{}, a, b); }, \
        [](const auto& a, const auto& b) { a SYMBOL b; });                                     \
    return *this;                                                                              \
  }
  CUPP_MASKED_INPLACE(+=, add)
  CUPP_MASKED_INPLACE(-=, subtract)
  CUPP_MASKED_INPLACE(*=, multiply)
  CUPP_MASKED_INPLACE(/=, true_divide)
  CUPP_MASKED_INPLACE(%=, remainder)
  CUPP_MASKED_INPLACE(&=, bitwise_and)
  CUPP_MASKED_INPLACE(|=, bitwise_or)
  CUPP_MASKED_INPLACE(^=, bitwise_xor)
  CUPP_MASKED_INPLACE(<<=, left_shift)
  CUPP_MASKED_INPLACE(>>=, right_shift)
#undef CUPP_MASKED_INPLACE

 private:
  masked_target<A, Mop> t_;
};

}  // namespace cupp::detail
