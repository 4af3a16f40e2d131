// The lazy product that cupp::matmul returns: the operands as BLAS reads
// them, alpha, and an optional addend with its beta, evaluated by one gemm
// (alpha * a @ b + beta * c) when it becomes an array. Scalars that keep
// the result's dtype fold into alpha (s * p, p * s, p / s, -p) and an
// array of the result's dtype into beta (p + c, c - p, p + t * c); any
// other use (sin(p), p * x, an addend of another dtype) evaluates the
// product once into pooled memory and goes on with that array.
#pragma once

#include <type_traits>
#include <utility>

#include <cupp/array_fwd.hpp>
#include <cupp/detail/expression/launch.hpp>
#include <cupp/detail/linalg/product_run.hpp>
#include <cupp/detail/linalg/product_operand.hpp>
#include <cupp/detail/ops/arithmetic.hpp>
#include <cupp/dtype.hpp>

namespace cupp::detail {

template <class R, class S, bool Addend = false>
class matmul_expr;

// x * y in R's arithmetic: wrapping for integers, float32 for float16 and
// bfloat16 (rounded back to R, as NumPy rounds a product of those).
template <class R>
R scalar_product(R x, R y) {
  if constexpr (std::is_integral_v<R>) {
    using U = wrapping_t<R>;
    return static_cast<R>(static_cast<U>(static_cast<U>(x) * static_cast<U>(y)));
  } else {
    return convert<R>(convert<math_t<R>>(x) * convert<math_t<R>>(y));
  }
}

template <class R>
bool scalar_is(R x, int v) {
  return convert<math_t<R>>(x) == convert<math_t<R>>(v);
}

// A C++ scalar (weak) or a strong scalar operand as a value of R, with
// NumPy's OverflowError for a Python int that R cannot hold.
template <class R, class L>
R scalar_in(const L& leaf) {
  if constexpr (requires { leaf.template as<R>(); }) {
    leaf.template check_fits<R>();
    return leaf.template as<R>();
  } else {
    return convert<R>(leaf.v);
  }
}

template <class L>
inline constexpr bool is_number_leaf_v = requires {
  typename L::storage;
}
|| std::is_same_v<L, scalar_leaf<typename L::value_type>>;

// Whether `Op(x, p)` (Scalar first) or `Op(p, x)` keeps the dtype R of the
// product p, so that x folds into alpha.
template <class Op, class X, class R, class S, bool ScalarFirst>
constexpr bool keeps_dtype() {
  using L = operand_t<X>;
  if constexpr (std::is_same_v<R, bool> || !is_number_leaf_v<L>)
    return false;
  else if constexpr (ScalarFirst)
    return std::is_same_v<typename ufunc_expr<Op, L, array_leaf<R, S>>::value_type, R>;
  else
    return std::is_same_v<typename ufunc_expr<Op, array_leaf<R, S>, L>::value_type, R>;
}

// An addend that folds into beta: an array of the result's dtype and
// space, or a scalar times one (t * c, c * t) of that dtype.
template <class X, class R, class S>
struct addend_of : std::false_type {};
template <class R, class S>
struct addend_of<ndarray<R, S>, R, S> : std::true_type {
  static ndarray<R, S> array(const ndarray<R, S>& c) { return c; }
  static R factor(const ndarray<R, S>&) { return convert<R>(1); }
};
template <class L, class R, class S>
requires(is_number_leaf_v<L>&& std::is_same_v<
         typename ufunc_expr<ops::multiply, L, array_leaf<R, S>>::value_type,
         R>) struct addend_of<ufunc_expr<ops::multiply, L, array_leaf<R, S>>, R, S>
    : std::true_type {
  using E = ufunc_expr<ops::multiply, L, array_leaf<R, S>>;
  static ndarray<R, S> array(const E& e) { return std::get<1>(e.args()).a; }
  static R factor(const E& e) { return scalar_in<R>(std::get<0>(e.args())); }
};
template <class L, class R, class S>
requires(is_number_leaf_v<L>&& std::is_same_v<
         typename ufunc_expr<ops::multiply, array_leaf<R, S>, L>::value_type,
         R>) struct addend_of<ufunc_expr<ops::multiply, array_leaf<R, S>, L>, R, S>
    : std::true_type {
  using E = ufunc_expr<ops::multiply, array_leaf<R, S>, L>;
  static ndarray<R, S> array(const E& e) { return std::get<0>(e.args()).a; }
  static R factor(const E& e) { return scalar_in<R>(std::get<1>(e.args())); }
};

// cupp::matmul's result: `ndarray<R, S> c = cupp::matmul(a, b);` runs it;
// shape(), ndim(), size(), dtype() and eval() answer without running it.
// It holds views of its operands (as any lazy expression does): writing
// into an operand before the product runs changes the product.
template <class R, class S, bool Addend>
class matmul_expr : public expression_base<matmul_expr<R, S, Addend>> {
 public:
  using value_type = R;
  using space = S;

  matmul_expr(product_input<R, S> a, product_input<R, S> b)
      : a_(std::move(a)),
        b_(std::move(b)),
        product_shape_(matmul_shape(a_.array.shape(), b_.array.shape())),
        shape_(product_shape_) {}

  const shape_t& shape() const { return shape_; }

  // The value: one gemm where everything folds, else the product and one
  // element-wise kernel.
  ndarray<R, S> evaluate() const {
    if (folds()) {
      ndarray<R, S> out(product_shape_);
      // An addend of the product's shape in one C-order range is read in
      // place (cuBLASLt takes it apart from the result); any other is
      // broadcast into the result first.
      const R* addend = nullptr;
      if constexpr (Addend) {
        if (c_.shape() == product_shape_ && c_.is_c_contiguous() &&
            c_.device_id() == out.device_id())
          addend = c_.data();
        else
          assign(out, array_leaf<R, S>{c_});
      }
      run_product(a_, b_, out, scale_, addend);
      return out;
    }
    const ndarray<R, S> p = fresh_product(a_, b_);
    const auto scaled = make_ufunc(ops::multiply{}, scalar_leaf<R>{scale_.alpha}, p);
    if constexpr (Addend)
      return evaluate_as<R, S>(make_ufunc(
          ops::add{}, scaled, make_ufunc(ops::multiply{}, scalar_leaf<R>{scale_.beta}, c_)));
    else if (scalar_is(scale_.alpha, 1))
      return p;
    else
      return evaluate_as<R, S>(scaled);
  }

  // What evaluate_as asks of a value with a kernel of its own.
  template <class T>
  ndarray<T, S> evaluate_self() const {
    static_assert(assignable<R, T>(),
                  "cupp: the product's dtype does not cast to the array's dtype with casting "
                  "'same_kind'; convert it explicitly with .astype<T>()");
    if constexpr (std::is_same_v<T, R>)
      return evaluate();
    else
      return astype_copy<T>(evaluate());
  }

  // --- folding ----------------------------------------------------------------

  template <class X>
  requires Scalar<X>
  friend auto operator*(const X& x, const matmul_expr& m) {
    if constexpr (keeps_dtype<ops::multiply, X, R, S, true>())
      return m.scaled(scalar_in<R>(as_operand(x)));
    else
      return make_ufunc(ops::multiply{}, x, m);
  }
  template <class X>
  requires Scalar<X>
  friend auto operator*(const matmul_expr& m, const X& x) {
    if constexpr (keeps_dtype<ops::multiply, X, R, S, false>())
      return m.scaled(scalar_in<R>(as_operand(x)));
    else
      return make_ufunc(ops::multiply{}, m, x);
  }
  // p / s as alpha / s (one rounding of alpha, then the gemm's).
  template <class X>
  requires Scalar<X>
  friend auto operator/(const matmul_expr& m, const X& x) {
    if constexpr (keeps_dtype<ops::true_divide, X, R, S, false>() && !std::is_integral_v<R>) {
      const math_t<R> d = convert<math_t<R>>(scalar_in<R>(as_operand(x)));
      return m.scaled(convert<R>(math_t<R>(1) / d));
    } else {
      return make_ufunc(ops::true_divide{}, m, x);
    }
  }
  friend auto operator-(const matmul_expr& m) {
    if constexpr (std::is_same_v<R, bool>)
      return make_ufunc(ops::negative{}, m);
    else
      return m.scaled(convert<R>(-1));
  }
  friend auto operator+(const matmul_expr& m) {
    if constexpr (std::is_same_v<R, bool>)
      return make_ufunc(ops::positive{}, m);
    else
      return m;
  }

  template <class X>
  requires(!Addend && addend_of<X, R, S>::value) friend matmul_expr<R, S, true> operator+(
      const matmul_expr& m, const X& c) {
    return m.plus(addend_of<X, R, S>::array(c), addend_of<X, R, S>::factor(c));
  }
  template <class X>
  requires(!Addend && addend_of<X, R, S>::value) friend matmul_expr<R, S, true> operator+(
      const X& c, const matmul_expr& m) {
    return m.plus(addend_of<X, R, S>::array(c), addend_of<X, R, S>::factor(c));
  }
  template <class X>
  requires(!Addend && addend_of<X, R, S>::value) friend matmul_expr<R, S, true> operator-(
      const matmul_expr& m, const X& c) {
    return m.plus(addend_of<X, R, S>::array(c),
                  scalar_product(addend_of<X, R, S>::factor(c), convert<R>(-1)));
  }
  template <class X>
  requires(!Addend && addend_of<X, R, S>::value) friend matmul_expr<R, S, true> operator-(
      const X& c, const matmul_expr& m) {
    return m.scaled(convert<R>(-1))
        .plus(addend_of<X, R, S>::array(c), addend_of<X, R, S>::factor(c));
  }

 private:
  template <class, class, bool>
  friend class matmul_expr;

  matmul_expr scaled(R f) const {
    matmul_expr r = *this;
    r.scale_.alpha = scalar_product(r.scale_.alpha, f);
    if constexpr (Addend) r.scale_.beta = scalar_product(r.scale_.beta, f);
    return r;
  }

  // The broadcast of the product and c: NumPy's message when they do not.
  matmul_expr<R, S, true> plus(const ndarray<R, S>& c, R beta) const {
    matmul_expr<R, S, true> r(a_, b_);
    r.scale_ = {scale_.alpha, beta};
    r.c_ = c;
    const shape_t shapes[] = {shape_, c.shape()};
    r.shape_ = broadcast_shapes(shapes);
    return r;
  }

  // One gemm: the addend broadcasts to the product's shape (not the other
  // way), and BLAS would not skip what NumPy reads: alpha 0 (BLAS leaves
  // the operands unread, NumPy's 0 * inf is nan), beta 0 (the same for c),
  // k 0 (the addend is then all there is).
  bool folds() const {
    if (size_of(product_shape_) == 0) return !Addend || shape_ == product_shape_;
    if constexpr (!std::is_integral_v<R>)
      if (scalar_is(scale_.alpha, 0)) return false;
    if constexpr (Addend) {
      const shape_t& as = a_.array.shape();
      if (!(shape_ == product_shape_) || as[as.size() - 1] == 0) return false;
      if constexpr (!std::is_integral_v<R>)
        if (scalar_is(scale_.beta, 0)) return false;
    }
    return true;
  }

  product_input<R, S> a_, b_;
  gemm_scale<R> scale_ = plain_product<R>();
  ndarray<R, S> c_;  // the addend (Addend only)
  shape_t product_shape_, shape_;
};

// Inside any other expression the product is an array, evaluated once.
template <class R, class S, bool A>
struct operand_of<matmul_expr<R, S, A>> {
  using type = array_leaf<R, S>;
  static type make(const matmul_expr<R, S, A>& m) { return {m.evaluate()}; }
};

// cupp::matmul(a, b) of any two operands as the engines of detail/linalg/
// call it: NumPy's promotion of their dtypes, their space, and the lazy
// product of the operands as BLAS reads them (the public form adds its
// checks of the arguments).
template <class A, class B>
auto matmul_of(const A& a, const B& b) {
  using R = result_type_t<typename operand_t<A>::value_type, typename operand_t<B>::value_type>;
  using S = eval_space_t<
      typename join_space<typename operand_t<A>::space, typename operand_t<B>::space>::type>;
  return matmul_expr<R, S>(gemm_operand<R, S>(a), gemm_operand<R, S>(b));
}

}  // namespace cupp::detail
