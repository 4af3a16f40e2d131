// numpy.insert and numpy.delete: a new array with positions along one axis
// added or removed. `obj` (an integer, a slice or a list) is resolved with
// NumPy's rules and messages, every check runs before the result is
// allocated, and the kept runs of the input move with the batched copies
// of a join. The arrays are named through <cupp/array_fwd.hpp>;
// <cupp/joining.hpp> completes them before anything here is instantiated.
#pragma once

#include <cstddef>
#include <string>
#include <type_traits>
#include <vector>

#include <cupp/array_fwd.hpp>
#include <cupp/axis.hpp>
#include <cupp/errors.hpp>
#include <cupp/index_types.hpp>
#include <cupp/shape.hpp>
#include <cupp/join_arguments.hpp>
#include <cupp/detail/join/axis_views.hpp>
#include <cupp/detail/join/layout.hpp>
#include <cupp/detail/join/writer.hpp>
#include <cupp/detail/views/layout.hpp>

namespace cupp::detail {

// Copies the runs of `src` along `axis` into `dst`.
template <class T, class S>
void add_runs(join_writer<T, S>& w, const ndarray<T, S>& dst, const ndarray<T, S>& src, int axis,
              const std::vector<axis_run>& runs) {
  for (const axis_run& r : runs)
    w.put(axis_slice(dst, axis, r.dst, r.length), axis_slice(src, axis, r.src, r.length));
}

// numpy.insert's `obj` as indices along an axis of n; `scalar` tells an
// integer from a list of one, which NumPy treats apart.
inline std::vector<index_t> insert_indices(const positions& obj, index_t n, bool& scalar) {
  std::vector<index_t> idx;
  scalar = false;
  if (const index_t* i = obj.integer()) {
    idx = {*i};
    scalar = true;
  } else if (const slice* s = obj.range()) {
    const slice_range r = resolve_slice(*s, n);
    for (index_t k = 0; k < r.length; ++k) idx.push_back(r.start + k * r.step);
  } else {
    idx = *obj.list();
  }
  return idx;
}

// The values in arr's dtype (NumPy's unsafe cast) broadcast to `slot`:
// made only once every check has passed, so that an error allocates
// nothing.
template <class T, class U, class S>
ndarray<T, S> insert_values(const ndarray<U, S>& v, const shape_t& slot,
                            const std::string& message) {
  const ndarray<T, S> c = [&] {
    if constexpr (std::is_same_v<T, U>)
      return v;
    else
      return v.template astype<T>();
  }();
  return c.view_as(setitem_broadcast(c.shape(), c.strides(), slot, message));
}

// numpy.insert before one position `index` along axis `ax` of `arr`
// (already flattened for axis=None); idx and scalar as insert_indices
// gives them, for the messages.
template <class T, class U, class S>
ndarray<T, S> insert_at(const ndarray<T, S>& arr, int ax, order o, index_t index,
                        const std::vector<index_t>& idx, bool scalar, const ndarray<U, S>& values) {
  const index_t n = arr.shape()[ax];
  shape_t newshape = arr.shape();
  if (index < -n || index > n)
    throw index_error("index " + (scalar ? std::to_string(index) : list_repr(idx)) +
                      " is out of bounds for axis " + std::to_string(ax) + " with size " +
                      std::to_string(n));
  if (index < 0) index += n;
  // array(values, ndmin=arr.ndim), its first axis moved to `axis` for a
  // scalar obj (so that values fill arr[:, i:i+1, :] rather than arr[:, i, :]).
  ndarray<U, S> v = values;
  if (v.ndim() < arr.ndim()) {
    const shape_t pad = shape_t::filled(arr.ndim() - v.ndim(), 1);
    shape_t sh = pad;
    strides_t st = strides_t::filled(pad.size(), 0);
    for (int i = 0; i < v.ndim(); ++i) {
      sh.push_back(v.shape()[i]);
      st.push_back(v.strides()[i]);
    }
    v = v.view_as({0, sh, st});
  }
  if (scalar) {  // numpy.moveaxis(v, 0, ax)
    int perm[max_ndim];
    moveaxis_perm(v.ndim(), 0, ax, perm);
    v = v.view_as(permuted(v.shape(), v.strides(), perm));
  }
  const index_t numnew = v.shape()[ax];
  newshape[ax] += numnew;
  shape_t slot = newshape;
  slot[ax] = numnew;
  const std::string message = "could not broadcast input array from shape " +
                              compact_shape(v.shape()) + " into shape " + compact_shape(slot);
  setitem_broadcast(v.shape(), v.strides(), slot, message);
  const ndarray<T, S> vals = insert_values<T>(v, slot, message);
  ndarray<T, S> out(newshape, o);
  join_writer<T, S> w(out);
  w.put(axis_slice(out, ax, 0, index), axis_slice(arr, ax, 0, index));
  w.put(axis_slice(out, ax, index, numnew), vals);
  w.put(axis_slice(out, ax, index + numnew, n - index), axis_slice(arr, ax, index, n - index));
  w.run();
  return out;
}

// numpy.insert before each of several positions (fancy assignment of the
// values into the grown array, the input filling the other positions).
template <class T, class U, class S>
ndarray<T, S> insert_list(const ndarray<T, S>& arr, int ax, order o,
                          const std::vector<index_t>& idx, const ndarray<U, S>& values) {
  const index_t n = arr.shape()[ax];
  shape_t newshape = arr.shape();
  const std::vector<index_t> pos = insert_positions(idx, n);
  const index_t numnew = static_cast<index_t>(idx.size());
  newshape[ax] += numnew;
  shape_t slot = newshape;
  slot[ax] = numnew;
  const std::string message =
      "shape mismatch: value array of shape " + compact_shape(values.shape()) +
      " could not be broadcast to indexing result of shape " + compact_shape(slot);
  setitem_broadcast(values.shape(), values.strides(), slot, message);
  // Positions named twice take the last value, as NumPy's fancy assignment.
  std::vector<index_t> from(static_cast<std::size_t>(newshape[ax]), -1);
  for (std::size_t k = 0; k < pos.size(); ++k) from[pos[k]] = static_cast<index_t>(k);
  std::vector<char> free_dst(from.size());
  index_t n_free = 0;
  for (std::size_t j = 0; j < from.size(); ++j) n_free += free_dst[j] = from[j] < 0;
  if (n_free != n && n != 1) {
    shape_t got = newshape;
    got[ax] = n_free;
    throw value_error("shape mismatch: value array of shape " + compact_shape(arr.shape()) +
                      " could not be broadcast to indexing result of shape " + compact_shape(got));
  }
  const ndarray<T, S> vals = insert_values<T>(values, slot, message);
  ndarray<T, S> out(newshape, o);
  join_writer<T, S> w(out);
  for (std::size_t j = 0; j < from.size(); ++j) {
    const index_t jj = static_cast<index_t>(j);
    if (from[j] >= 0)
      w.put(axis_slice(out, ax, jj, 1), axis_slice(vals, ax, from[j], 1));
    else if (n == 1 && n_free != 1)  // arr's one slice broadcast to every free position
      w.put(axis_slice(out, ax, jj, 1), arr);
  }
  if (n_free == n)
    add_runs(w, out, arr, ax,
             fill_runs(std::vector<char>(static_cast<std::size_t>(n), 1), free_dst));
  w.run();
  return out;
}

template <class T, class U, class S>
ndarray<T, S> insert_impl(const ndarray<T, S>& arr_in, const positions& obj,
                          const ndarray<U, S>& values, join_axis axis) {
  int ax;
  const ndarray<T, S> arr = axis_input(arr_in, axis, ax);
  const order o = fnc_order(arr_in.is_c_contiguous(), arr_in.is_f_contiguous());
  bool scalar;
  const std::vector<index_t> idx = insert_indices(obj, arr.shape()[ax], scalar);
  if (idx.size() == 1) return insert_at(arr, ax, o, idx[0], idx, scalar, values);
  return insert_list(arr, ax, o, idx, values);
}

template <class T, class S>
ndarray<T, S> delete_impl(const ndarray<T, S>& arr_in, const positions& obj, join_axis axis) {
  int ax;
  const ndarray<T, S> arr = axis_input(arr_in, axis, ax);
  const order o = fnc_order(arr_in.is_c_contiguous(), arr_in.is_f_contiguous());
  const index_t n = arr.shape()[ax];
  std::vector<char> keep;
  if (const index_t* i = obj.integer()) {
    index_t k = *i;
    if (k < -n || k >= n)
      throw index_error("index " + std::to_string(k) + " is out of bounds for axis " +
                        std::to_string(ax) + " with size " + std::to_string(n));
    keep.assign(static_cast<std::size_t>(n), 1);
    keep[static_cast<std::size_t>(k < 0 ? k + n : k)] = 0;
  } else if (const slice* s = obj.range()) {
    const slice_range r = resolve_slice(*s, n);
    keep.assign(static_cast<std::size_t>(n), 1);
    for (index_t k = 0; k < r.length; ++k) keep[static_cast<std::size_t>(r.start + k * r.step)] = 0;
  } else if (obj.list()->size() == 1) {
    // NumPy takes a one-element list as the integer (with its message).
    return delete_impl(arr_in, (*obj.list())[0], axis);
  } else {
    keep = delete_keep(*obj.list(), n);
  }
  index_t kept = 0;
  for (char k : keep) kept += k;
  shape_t newshape = arr.shape();
  newshape[ax] = kept;
  ndarray<T, S> out(newshape, o);
  join_writer<T, S> w(out);
  add_runs(w, out, arr, ax, fill_runs(keep, std::vector<char>(static_cast<std::size_t>(kept), 1)));
  w.run();
  return out;
}

}  // namespace cupp::detail
