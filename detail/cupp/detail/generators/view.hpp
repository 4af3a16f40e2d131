// cupp::generator: the lazy array a generator function returns, and its
// views. A generator's positions are affine functions of the element's
// coordinates, so transposing it permutes their strides and reshaping it
// recomputes them as NumPy's reshape recomputes the strides of a view. When
// the positions are not affine in the new shape (where NumPy's reshape
// would copy), each element instead decomposes its flat C-order index into
// coordinates of the old shape (integer divisions).
#pragma once

#include <algorithm>
#include <array>
#include <concepts>
#include <cstdlib>
#include <string>

#include <cupp/detail/views/layout.hpp>
#include <cupp/detail/expression/launch.hpp>
#include <cupp/lazy_fwd.hpp>

namespace cupp {

namespace detail {

// A generator read through a reshape that its positions cannot follow
// affinely: `pos[0]` is the element's C-order index, decomposed over the
// (merged) old extents to rebuild G's positions. nd == 0: G's positions
// pass through unchanged.
template <class G>
struct reshaped {
  using value_type = typename G::value_type;
  static constexpr int coords = G::coords;
  static constexpr int min_blocks = eval_min_blocks<G>();
  G g;
  int nd = 0;
  index_t ext[max_ndim];
  index_t st[coords][max_ndim];
  index_t base[coords];

  // G's tables bound for where it runs (see lower_ctx::device).
  reshaped bind(int device) const requires requires(const G& x) { x.bind(device); }
  {
    reshaped r = *this;
    r.g = g.bind(device);
    return r;
  }

  CUPP_HD value_type operator()(const index_t* pos) const {
    if (nd == 0) return g(pos);
    index_t q = pos[0];
    index_t p[coords];
    for (int k = 0; k < coords; ++k) p[k] = base[k];
    for (int a = nd - 1; a > 0; --a) {
      const index_t e = ext[a];
      const index_t next = q / e;
      const index_t c = q - next * e;
      q = next;
      for (int k = 0; k < coords; ++k) p[k] += c * st[k][a];
    }
    for (int k = 0; k < coords; ++k) p[k] += q * st[k][0];
    return g(p);
  }
};

template <class G, class S>
class generator_base;

}  // namespace detail

// A lazy array computed from the positions of its elements: what arange,
// linspace, eye, full ... return. It takes part in expressions like an
// array (one kernel for `cupp::arange(n) * x + 1`) and becomes an array
// when assigned to one or through eval(). Views of it (reshape, T,
// transpose) are generators too. (Declared in <cupp/lazy_fwd.hpp>; the
// default space is given here, with any_space.)
template <class G, class S = any_space>
class generator : public generator_leaf<G, S>, public expression_base<generator<G, S>> {
  using leaf = generator_leaf<G, S>;

 public:
  using is_cupp_expression = void;
  using functor_type = G;
  static constexpr int K = G::coords;

  generator(const G& g, const shape_t& shape, const std::array<strides_t, K>& st,
            const std::array<index_t, K>& base = {})
      : leaf{g, shape, st, base} {}

  using expression_base<generator>::ndim;
  using expression_base<generator>::size;
  using leaf::shape;

  // The functor computing the elements.
  const G& functor() const { return this->g; }

  // ndarray.reshape(shape, order): one extent may be -1 (any negative
  // value), filled from the size. Order C, F, or A (F when the positions
  // are laid out as an F-contiguous array's memory, C otherwise).
  generator<detail::reshaped<G>, S> reshape(const shape_t& newshape, order o = order::C) const {
    if (o == order::K) throw value_error("order 'K' is not permitted for reshaping");
    const index_t n = this->size();
    const shape_t to = detail::resolve_reshape(newshape, n);
    if (o == order::F || (o == order::A && fortran_only())) {
      shape_t rev = to;
      std::reverse(rev.begin(), rev.end());
      return T().reshape(rev).T();
    }
    detail::reshaped<G> r{this->g, 0, {}, {}, {}};
    std::array<strides_t, K> st;
    std::array<index_t, K> base = this->base;
    bool affine = true;
    if (n == 0) {
      for (auto& s : st) s = strides_t::filled(to.size(), 0);
    } else {
      for (int k = 0; k < K && affine; ++k)
        affine = detail::reshape_strides(this->shape_, this->st[k], to, st[k]);
    }
    if (!affine) {
      gather_old_layout(r);
      for (int k = 0; k < K; ++k) {
        st[k] = k == 0 ? detail::contiguous_strides(to, 1) : strides_t::filled(to.size(), 0);
        base[k] = 0;
      }
    }
    return {r, to, st, base};
  }
  template <std::integral... I>
  requires(sizeof...(I) >= 1) generator<detail::reshaped<G>, S> reshape(I... extents)
  const { return reshape(shape_t{static_cast<index_t>(extents)...}); }

  // ndarray.ravel(order): reshape(-1); order K reads the elements in the
  // order of their positions (the memory order of NumPy's array).
  generator<detail::reshaped<G>, S> ravel(order o = order::C) const {
    if (o != order::K) return reshape(shape_t{-1}, o);
    const int nd = this->shape_.size();
    shape_t axes = shape_t::filled(nd, 0);
    for (int i = 0; i < nd; ++i) axes[i] = i;
    const strides_t& st0 = this->st[0];
    std::stable_sort(axes.begin(), axes.end(), [&](index_t a, index_t b) {
      return std::abs(st0[static_cast<int>(a)]) > std::abs(st0[static_cast<int>(b)]);
    });
    return transpose(axes).reshape(shape_t{-1});
  }

  // ndarray.T and ndarray.transpose(): the axes reversed.
  generator T() const {
    generator r = *this;
    std::reverse(r.shape_.begin(), r.shape_.end());
    for (auto& s : r.st) std::reverse(s.begin(), s.end());
    return r;
  }
  generator transpose() const { return T(); }

  // ndarray.transpose(axes): axis i of the result is axis axes[i] of this
  // one (negative axes count from the end).
  generator transpose(const shape_t& axes) const {
    const int nd = this->shape_.size();
    if (axes.size() != nd) throw value_error("axes don't match array");
    bool seen[max_ndim] = {};
    generator r = *this;
    for (int i = 0; i < nd; ++i) {
      index_t a = axes[i];
      if (a < -nd || a >= nd)
        throw axis_error("axis " + std::to_string(a) + " is out of bounds for array of dimension " +
                         std::to_string(nd));
      if (a < 0) a += nd;
      if (seen[a]) throw value_error("repeated axis in transpose");
      seen[a] = true;
      r.shape_[i] = this->shape_[a];
      for (int k = 0; k < K; ++k) r.st[k][i] = this->st[k][a];
    }
    return r;
  }
  template <std::integral... I>
  requires(sizeof...(I) >= 1) generator transpose(I... axes)
  const { return transpose(shape_t{static_cast<index_t>(axes)...}); }

 private:
  // True when every position is laid out as an F-contiguous (and not
  // C-contiguous) array's memory: NumPy's order 'A' then means F.
  bool fortran_only() const {
    for (int k = 0; k < K; ++k)
      if (!detail::is_f_contiguous(this->shape_, this->st[k], 1) ||
          detail::is_c_contiguous(this->shape_, this->st[k], 1))
        return false;
    return true;
  }

  // Records this generator's layout for element-wise decomposition, with
  // unit axes dropped and neighbours that are contiguous in every position
  // merged (fewer divisions per element).
  void gather_old_layout(detail::reshaped<G>& r) const {
    int n = 0;
    for (int i = 0; i < this->shape_.size(); ++i) {
      if (this->shape_[i] == 1) continue;
      bool merge = n > 0;
      for (int k = 0; k < K && merge; ++k)
        merge = r.st[k][n - 1] == this->st[k][i] * this->shape_[i];
      if (merge) {
        r.ext[n - 1] *= this->shape_[i];
        for (int k = 0; k < K; ++k) r.st[k][n - 1] = this->st[k][i];
        continue;
      }
      r.ext[n] = this->shape_[i];
      for (int k = 0; k < K; ++k) r.st[k][n] = this->st[k][i];
      ++n;
    }
    if (n == 0) {  // a single element
      r.ext[0] = 1;
      for (int k = 0; k < K; ++k) r.st[k][0] = 0;
      n = 1;
    }
    r.nd = n;
    for (int k = 0; k < K; ++k) r.base[k] = this->base[k];
  }
};

}  // namespace cupp
