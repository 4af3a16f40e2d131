// The machinery of take_along_axis, put_along_axis, put and choose. Each is
// a gather or a scatter through one int64 index array. NumPy defines the
// along-axis pair by the aranges it would index the other axes with; those
// are never made: the gather_plan is built here by hand (choose's too,
// over the choices stacked along a new axis). Also put's repetition of
// short values, and NumPy's broadcast error for choose's operands.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include <cupp/config.hpp>
#include <cupp/detail/elementwise/plan.hpp>
#include <cupp/detail/indexing/gather_ref.hpp>
#include <cupp/detail/indexing/gather_scatter.hpp>
#include <cupp/detail/indexing/index_arrays.hpp>
#include <cupp/errors.hpp>
#include <cupp/shape.hpp>
// Expression machinery (Scalar, copyto) and ndarray: to be repointed at
// detail/ once they move.
#include <cupp/detail/expression/launch.hpp>
#include <cupp/array_fwd.hpp>

namespace cupp::detail {

// `a` as a 1-d array over its elements in C order, for put and
// put_along_axis(axis=None): a view when a is C-contiguous, else a copy
// that `finish` writes back.
template <class T, class S>
struct flat_target {
  ndarray<T, S> a, flat;
  bool copied;
  explicit flat_target(const ndarray<T, S>& x)
      : a(x),
        flat(x.is_c_contiguous() ? x.reshape(-1) : x.flatten()),
        copied(!x.is_c_contiguous()) {}
  void finish() const {
    if (copied) flat.reshape(a.shape()).copy_into(a);
  }
};

// The geometry of take_along_axis/put_along_axis: NumPy indexes arr with
// aranges along every other axis and `indices` along `axis`.
inline gather_plan along_axis_plan(const shape_t& shape, const strides_t& strides, int axis,
                                   const shape_t& ishape, const strides_t& istrides) {
  const int nd = shape.size();
  shape_t shapes[max_ndim];
  for (int d = 0; d < nd; ++d) {
    if (d == axis) {
      shapes[d] = ishape;
    } else {
      shapes[d] = shape_t::filled(nd, 1);
      shapes[d][d] = shape[d];
    }
  }
  const shape_t r = broadcast_index_shapes({shapes, static_cast<std::size_t>(nd)});
  gather_plan p;
  p.k = 1;
  p.shape = r;
  p.src = strides_t::filled(nd, 0);
  for (int d = 0; d < nd; ++d)
    if (d != axis && shape[d] != 1) p.src[d] = strides[d];
  p.idx[0] = broadcast_strides(ishape, istrides, r);
  p.ext[0] = shape[axis];
  p.ast[0] = strides[axis];
  p.axis[0] = axis;
  p.n_index = size_of(r);
  return p;
}

// put's a.flat[idx] = v for a non-empty 1-d C-contiguous idx and a
// non-empty a: v (a scalar or an operand of any shape) is flattened and
// repeated as often as idx needs; an empty v writes nothing.
template <class T, class S, class V>
void put_flat(const ndarray<T, S>& a, const ndarray<std::int64_t, S>& idx, const V& v,
              index_mode m) {
  const index_t n = idx.size();
  const flat_target<T, S> f(a);
  auto write = [&](const auto& values) {
    const plan_item item[] = {{{}, 0}};
    make_gather<1>(f.flat, item, {idx}, m) = values;
    f.finish();
  };
  if constexpr (Scalar<V>) {
    write(v);
  } else {
    const auto vals = [&] {
      if constexpr (is_ndarray_v<V>)
        return v;
      else
        return v.eval();
    }();
    using U = typename std::remove_cvref_t<decltype(vals)>::value_type;
    const ndarray<U, S> flat = vals.ravel();
    const index_t mv = flat.size();
    if (mv == 0) return;
    if (mv == n) {
      write(flat);
    } else {
      std::vector<std::int64_t> cyc(static_cast<std::size_t>(n));
      for (index_t j = 0; j < n; ++j) cyc[j] = j % mv;
      const plan_item item[] = {{{}, 0}};
      const ndarray<U, S> rep =
          make_gather<1>(flat, item, {to_index_array<S>(cyc)}, index_mode::trusted).eval();
      write(rep);
    }
  }
}

// NumPy's broadcast error for several operands (np.broadcast), naming the
// first mismatching pair.
inline shape_t broadcast_args(std::span<const shape_t> shapes) CUPP_HOST_BODY({
  int nd = 0;
  for (const shape_t& s : shapes) nd = std::max(nd, s.size());
  shape_t r = shape_t::filled(nd, 1);
  for (int i = 0; i < nd; ++i) {
    int src = -1;
    for (int j = 0; j < static_cast<int>(shapes.size()); ++j) {
      const int k = i + shapes[j].size() - nd;
      if (k < 0) continue;
      const index_t e = shapes[j][k];
      if (e == 1) continue;
      if (r[i] == 1) {
        r[i] = e;
        src = j;
      } else if (r[i] != e) {
        throw value_error(
            "shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is "
            "between arg " +
            std::to_string(src) + " with shape " + to_string(shapes[src]) + " and arg " +
            std::to_string(j) + " with shape " + to_string(shapes[j]) + ".");
      }
    }
  }
  return r;
});

// choose for a non-empty list of choices: the choices, broadcast with idx,
// stacked along a new leading axis that idx then indexes. `mode` raise
// checks every index before anything is read.
template <class T, class S>
ndarray<T, S> choose_from(const ndarray<std::int64_t, S>& idx,
                          const std::vector<ndarray<T, S>>& choices, index_mode mode) {
  const index_t n = static_cast<index_t>(choices.size());
  std::vector<shape_t> shapes;
  for (const auto& c : choices) shapes.push_back(c.shape());
  shapes.push_back(idx.shape());
  const shape_t r = broadcast_args(shapes);
  if (mode == index_mode::raise && size_of(r) > 0 && first_bad_index(idx, n, false))
    throw value_error("invalid entry in choice array");
  shape_t sshape{n};
  for (index_t e : r) sshape.push_back(e);
  const ndarray<T, S> stack(sshape);
  for (index_t i = 0; i < n; ++i) copyto(stack(i, ellipsis), choices[i]);
  gather_plan p;
  p.k = 1;
  p.shape = r;
  for (int d = 0; d < r.size(); ++d) p.src.push_back(stack.strides()[d + 1]);
  p.idx[0] = broadcast_strides(idx.shape(), idx.strides(), r);
  p.ext[0] = n;
  p.ast[0] = stack.strides()[0];
  const index_mode m = mode == index_mode::raise ? index_mode::trusted : mode;
  return gather_ref<T, S, 1>(stack, {idx}, std::move(p), m).eval();
}

}  // namespace cupp::detail
