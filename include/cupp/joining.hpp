// NumPy's joining, splitting, inserting and deleting, for device and host
// arrays alike:
//
//   concatenate, stack, vstack, hstack, dstack, column_stack   new arrays
//   split, array_split, hsplit, vsplit, dsplit                 views
//   append, insert, delete_ (delete is a C++ keyword)          new arrays
//   trim_zeros                                                 a view
//
// Arrays to join are given as a std::vector, a std::span or braces
// ({a, b, c}) when they share a dtype, or as a std::tuple of arrays of any
// dtypes, joined in NumPy 2's result_type. Every check runs (and throws
// NumPy's exception and message) before anything is allocated or written.
// Joins move their data with one batched copy kernel on the current stream
// (detail/join/copy.hpp); nothing synchronizes, except trim_zeros, whose
// result's shape depends on the data.
#pragma once

#include <cctype>
#include <concepts>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <tuple>
#include <type_traits>
#include <variant>
#include <vector>

#include <cupp/detail/join/copy.hpp>
#include <cupp/detail/join/layout.hpp>
#include <cupp/manipulation.hpp>
#include <cupp/ndarray.hpp>
#include <cupp/reductions.hpp>

namespace cupp {

// The axis of concatenate, append, insert and delete_: an integer, or
// cupp::none (flatten first).
class join_axis {
 public:
  template <std::integral I>
  requires(!std::is_same_v<I, bool>) constexpr join_axis(I axis)
      : none_(false), axis_(static_cast<index_t>(axis)) {}
  constexpr join_axis(none_t) {}
  constexpr bool none() const { return none_; }
  constexpr index_t value() const { return axis_; }

 private:
  bool none_ = true;
  index_t axis_ = 0;
};

// numpy.insert's and numpy.delete's `obj`: an integer, a cupp::slice, or a
// list of integers ({1, 3} or a std::vector<index_t>).
class positions {
 public:
  template <std::integral I>
  requires(!std::is_same_v<I, bool>) positions(I i) : v_(static_cast<index_t>(i)) {}
  positions(const cupp::slice& s) : v_(s) {}
  positions(std::vector<index_t> list) : v_(std::move(list)) {}
  positions(std::initializer_list<index_t> list) : v_(std::vector<index_t>(list)) {}

  const index_t* integer() const { return std::get_if<index_t>(&v_); }
  const cupp::slice* range() const { return std::get_if<cupp::slice>(&v_); }
  const std::vector<index_t>* list() const { return std::get_if<std::vector<index_t>>(&v_); }

 private:
  std::variant<index_t, cupp::slice, std::vector<index_t>> v_;
};

namespace detail {

template <class T, class S>
void run_copy_jobs(const ndarray<T, S>& dst, std::span<const copy_job> jobs) {
  if (jobs.empty()) return;
  if constexpr (std::is_same_v<S, device_space>) {
    cuda::device_scope scope(dst.device_id());
#if defined(__CUDACC__)
    device_copy_jobs(jobs, dst.itemsize(),
                     cuda::detail::current_stream_impl(dst.device_id())->handle);
#else
    CUPP_NEEDS_NVCC(T);
#endif
  } else {
    host_copy_jobs(jobs, dst.itemsize());
  }
}

// Collects the copies of a join: same-dtype sources on the destination's
// device join the batched copy, the others are written at once through
// copyto (a cast) or copy_into (another device).
template <class R, class S>
class join_writer {
 public:
  explicit join_writer(const ndarray<R, S>& dst) : dst_(dst) {}

  template <class T>
  void put(const ndarray<R, S>& view, const ndarray<T, S>& src) {
    if (src.size() == 0) return;
    if constexpr (std::is_same_v<T, R>) {
      if (src.device_id() == view.device_id()) {
        jobs_.push_back({reinterpret_cast<char*>(view.data()),
                         reinterpret_cast<const char*>(src.data()), src.shape(), view.strides(),
                         src.strides()});
      } else {
        src.copy_into(view);
      }
    } else {
      copyto(view, src);
    }
  }

  void run() { run_copy_jobs(dst_, jobs_); }

 private:
  ndarray<R, S> dst_;
  std::vector<copy_job> jobs_;
};

// A new array of `shape` with the given byte strides (a dense permutation).
template <class R, class S>
ndarray<R, S> alloc_strided(const shape_t& shape, const strides_t& st) {
  const ndarray<R, S> flat(shape_t{size_of(shape)});
  return ndarray<R, S>(flat.data(), shape, st, flat.memory(), flat.device_id(), true);
}

inline void check_out(const shape_t& out, const shape_t& want, bool writeable) {
  if (out.size() != want.size()) throw value_error("Output array has wrong dimensionality");
  if (out != want) throw value_error("Output array is the wrong shape");
  if (!writeable) throw value_error("output array is read-only");
}

// numpy.concatenate over arrays of possibly different dtypes: `each(f)`
// calls f(i, array_i) for every input. R is the result's dtype.
template <class R, class S, class Each>
ndarray<R, S> concat_impl(std::span<const shape_t> shapes, std::span<const strides_t> strides,
                          join_axis axis, const ndarray<R, S>* out, Each each) {
  ndarray<R, S> r;
  std::vector<view_layout> at(shapes.size());
  if (axis.none()) {
    if (shapes.empty()) throw value_error("need at least one array to concatenate");
    index_t total = 0;
    for (const shape_t& s : shapes) total += size_of(s);
    if (out) {
      if (out->ndim() != 1) throw value_error("Output array must be 1D");
      if (out->size() != total) throw value_error("Output array is the wrong size");
      if (!out->flags().writeable) throw value_error("output array is read-only");
    }
    r = out ? *out : ndarray<R, S>(shape_t{total});
    index_t off = 0;
    for (std::size_t i = 0; i < shapes.size(); ++i) {
      // Element k of input i (C order) lands at off + k of the result.
      at[i] = {off * r.strides()[0], shapes[i], contiguous_strides(shapes[i], r.strides()[0])};
      off += size_of(shapes[i]);
    }
  } else {
    shape_t joined;
    const int ax = concat_shape(shapes, axis.value(), joined);
    if (out) {
      check_out(out->shape(), joined, out->flags().writeable);
      r = *out;
    } else {
      r = alloc_strided<R, S>(joined, concat_strides(joined, shapes, strides, r.itemsize()));
    }
    index_t off = 0;
    for (std::size_t i = 0; i < shapes.size(); ++i) {
      at[i] = {shapes[i][ax] > 0 ? off * r.strides()[ax] : 0, shapes[i], r.strides()};
      off += shapes[i][ax];
    }
  }
  join_writer<R, S> w(r);
  each([&](std::size_t i, const auto& a) { w.put(r.view_as(at[i]), a); });
  w.run();
  return r;
}

template <class T, class S>
ndarray<T, S> concat_same(std::span<const ndarray<T, S>> arrays, join_axis axis,
                          const ndarray<T, S>* out = nullptr) {
  std::vector<shape_t> shapes;
  std::vector<strides_t> strides;
  for (const auto& a : arrays) {
    shapes.push_back(a.shape());
    strides.push_back(a.strides());
  }
  return concat_impl<T, S>(shapes, strides, axis, out, [&](auto&& f) {
    for (std::size_t i = 0; i < arrays.size(); ++i) f(i, arrays[i]);
  });
}

template <class R, class S, class... A>
ndarray<R, S> concat_tuple(const std::tuple<A...>& arrays, join_axis axis,
                           const ndarray<R, S>* out = nullptr) {
  const std::vector<shape_t> shapes =
      std::apply([](const auto&... a) { return std::vector<shape_t>{a.shape()...}; }, arrays);
  const std::vector<strides_t> strides =
      std::apply([](const auto&... a) { return std::vector<strides_t>{a.strides()...}; }, arrays);
  return concat_impl<R, S>(shapes, strides, axis, out, [&](auto&& f) {
    std::size_t i = 0;
    std::apply([&](const auto&... a) { (f(i++, a), ...); }, arrays);
  });
}

template <class T, class S, class F>
std::vector<ndarray<T, S>> map_arrays(std::span<const ndarray<T, S>> arrays, F f) {
  std::vector<ndarray<T, S>> v;
  v.reserve(arrays.size());
  for (const auto& a : arrays) v.push_back(f(a));
  return v;
}

template <class T, class S>
std::vector<ndarray<T, S>> split_views(const ndarray<T, S>& a, int axis,
                                       const std::vector<split_part>& parts) {
  std::vector<ndarray<T, S>> v;
  v.reserve(parts.size());
  for (const split_part& p : parts)
    v.push_back(a.view_as(split_view(a.shape(), a.strides(), axis, p)));
  return v;
}

// numpy.insert's and numpy.delete's input: flattened when axis is None,
// and the axis made non-negative.
template <class T, class S>
ndarray<T, S> axis_input(const ndarray<T, S>& arr, join_axis axis, int& ax) {
  if (axis.none()) {
    ax = 0;
    return arr.ndim() == 1 ? arr : arr.ravel();
  }
  ax = checked_axis(axis.value(), arr.ndim());
  return arr;
}

template <class T, class S>
ndarray<T, S> axis_slice(const ndarray<T, S>& a, int axis, index_t start, index_t length) {
  return a.view_as(split_view(a.shape(), a.strides(), axis, {start, length}));
}

// Copies the runs of `src` along `axis` into `dst`.
template <class T, class S>
void add_runs(join_writer<T, S>& w, const ndarray<T, S>& dst, const ndarray<T, S>& src, int axis,
              const std::vector<axis_run>& runs) {
  for (const axis_run& r : runs)
    w.put(axis_slice(dst, axis, r.dst, r.length), axis_slice(src, axis, r.src, r.length));
}

}  // namespace detail

// ---------------------------------------------------------------------------
// concatenate and stacks

// numpy.concatenate(arrays, axis=0); axis = cupp::none joins the arrays
// flattened. The result is laid out as NumPy lays it out (F-ordered inputs
// give an F-ordered result).
template <class T, class S>
ndarray<T, S> concatenate(std::span<const ndarray<T, S>> arrays, join_axis axis = 0) {
  return detail::concat_same(arrays, axis);
}
template <class T, class S>
ndarray<T, S> concatenate(const std::vector<ndarray<T, S>>& arrays, join_axis axis = 0) {
  return detail::concat_same<T, S>(arrays, axis);
}
template <class T, class S>
ndarray<T, S> concatenate(std::initializer_list<ndarray<T, S>> arrays, join_axis axis = 0) {
  return detail::concat_same<T, S>({arrays.begin(), arrays.size()}, axis);
}
// Arrays of different dtypes, in a std::tuple (std::tuple{a, b}): the
// result has their result_type.
template <class A0, class... A>
requires(is_ndarray_v<A0> &&
         (is_ndarray_v<A> && ...)) auto concatenate(const std::tuple<A0, A...>& arrays,
                                                    join_axis axis = 0) {
  using S = typename A0::space_type;
  static_assert((std::is_same_v<typename A::space_type, S> && ...),
                "cupp::concatenate: the arrays must all be host arrays or all device arrays");
  using R = result_type_t<typename A0::value_type, typename A::value_type...>;
  return detail::concat_tuple<R, S>(arrays, axis);
}

// numpy.concatenate(arrays, axis, out=out): writes into `out` (its shape
// must be the result's; casting 'same_kind') and returns it.
template <class U, class T, class S>
const ndarray<U, S>& concatenate(std::span<const ndarray<T, S>> arrays, join_axis axis,
                                 const out_arg<U, S>& o) {
  static_assert(detail::assignable<T, U>(),
                "cupp::concatenate: Cannot cast the arrays' dtype to out's with casting rule "
                "'same_kind'");
  if constexpr (std::is_same_v<T, U>) {
    detail::concat_same<T, S>(arrays, axis, &o.array);
  } else {
    std::vector<shape_t> shapes;
    std::vector<strides_t> strides;
    for (const auto& a : arrays) {
      shapes.push_back(a.shape());
      strides.push_back(a.strides());
    }
    detail::concat_impl<U, S>(shapes, strides, axis, &o.array, [&](auto&& f) {
      for (std::size_t i = 0; i < arrays.size(); ++i) f(i, arrays[i]);
    });
  }
  return o.array;
}
template <class U, class T, class S>
const ndarray<U, S>& concatenate(const std::vector<ndarray<T, S>>& arrays, join_axis axis,
                                 const out_arg<U, S>& o) {
  return concatenate<U, T, S>(std::span<const ndarray<T, S>>(arrays), axis, o);
}
template <class U, class T, class S>
const ndarray<U, S>& concatenate(std::initializer_list<ndarray<T, S>> arrays, join_axis axis,
                                 const out_arg<U, S>& o) {
  return concatenate<U, T, S>(std::span<const ndarray<T, S>>(arrays.begin(), arrays.size()), axis,
                              o);
}

// numpy.stack(arrays, axis=0): the arrays (all of one shape) along a new
// axis.
template <class T, class S>
ndarray<T, S> stack(std::span<const ndarray<T, S>> arrays, index_t axis = 0) {
  std::vector<shape_t> shapes;
  for (const auto& a : arrays) shapes.push_back(a.shape());
  const int ax = detail::stack_axis(shapes, axis);
  const auto v = detail::map_arrays(arrays, [&](const auto& a) { return expand_dims(a, ax); });
  return detail::concat_same<T, S>(v, ax);
}

// numpy.vstack: at least 2-d, joined along axis 0.
template <class T, class S>
ndarray<T, S> vstack(std::span<const ndarray<T, S>> arrays) {
  const auto v = detail::map_arrays(arrays, [](const auto& a) { return atleast_2d(a); });
  return detail::concat_same<T, S>(v, 0);
}

// numpy.hstack: at least 1-d, joined along axis 1 (axis 0 for 1-d arrays).
template <class T, class S>
ndarray<T, S> hstack(std::span<const ndarray<T, S>> arrays) {
  const auto v = detail::map_arrays(arrays, [](const auto& a) { return atleast_1d(a); });
  return detail::concat_same<T, S>(v, !v.empty() && v[0].ndim() == 1 ? 0 : 1);
}

// numpy.dstack: at least 3-d, joined along axis 2.
template <class T, class S>
ndarray<T, S> dstack(std::span<const ndarray<T, S>> arrays) {
  const auto v = detail::map_arrays(arrays, [](const auto& a) { return atleast_3d(a); });
  return detail::concat_same<T, S>(v, 2);
}

// numpy.column_stack: 0-d and 1-d arrays become columns, then joined along
// axis 1.
template <class T, class S>
ndarray<T, S> column_stack(std::span<const ndarray<T, S>> arrays) {
  const auto v = detail::map_arrays(
      arrays, [](const auto& a) { return a.ndim() < 2 ? atleast_2d(a).T() : a; });
  return detail::concat_same<T, S>(v, 1);
}

// The same calls with a std::vector or braces.
#define CUPP_JOIN_FORMS(name)                                                         \
  template <class T, class S>                                                         \
  ndarray<T, S> name(const std::vector<ndarray<T, S>>& arrays) {                      \
    return name<T, S>(std::span<const ndarray<T, S>>(arrays));                        \
  }                                                                                   \
  template <class T, class S>                                                         \
  ndarray<T, S> name(std::initializer_list<ndarray<T, S>> arrays) {                   \
    return name<T, S>(std::span<const ndarray<T, S>>(arrays.begin(), arrays.size())); \
  }
CUPP_JOIN_FORMS(vstack)
CUPP_JOIN_FORMS(hstack)
CUPP_JOIN_FORMS(dstack)
CUPP_JOIN_FORMS(column_stack)
#undef CUPP_JOIN_FORMS

template <class T, class S>
ndarray<T, S> stack(const std::vector<ndarray<T, S>>& arrays, index_t axis = 0) {
  return stack<T, S>(std::span<const ndarray<T, S>>(arrays), axis);
}
template <class T, class S>
ndarray<T, S> stack(std::initializer_list<ndarray<T, S>> arrays, index_t axis = 0) {
  return stack<T, S>(std::span<const ndarray<T, S>>(arrays.begin(), arrays.size()), axis);
}

// ---------------------------------------------------------------------------
// splits: views of the array

// numpy.array_split(a, sections, axis=0): `sections` parts, the first
// (n % sections) one element longer.
// (The count is a template so that braces, split(a, {2}), always mean a
// list of indices, as NumPy's [2] does.)
template <class T, class S, std::integral I>
std::vector<ndarray<T, S>> array_split(const ndarray<T, S>& a, I sections, index_t axis = 0) {
  const int ax = detail::split_axis(axis, a.ndim());
  return detail::split_views(a, ax, detail::array_split_parts(a.shape()[ax], sections));
}
// numpy.array_split(a, indices, axis=0): the parts a[:i0], a[i0:i1], ...,
// a[ik:] (Python's slice rules: negative indices count from the end).
template <class T, class S>
std::vector<ndarray<T, S>> array_split(const ndarray<T, S>& a, const std::vector<index_t>& indices,
                                       index_t axis = 0) {
  const int ax = detail::split_axis(axis, a.ndim());
  return detail::split_views(a, ax, detail::split_parts_at(a.shape()[ax], indices));
}

// numpy.split: as array_split, but `sections` must divide the axis.
template <class T, class S, std::integral I>
std::vector<ndarray<T, S>> split(const ndarray<T, S>& a, I sections, index_t axis = 0) {
  const int ax = detail::split_axis(axis, a.ndim());
  return detail::split_views(a, ax, detail::split_parts(a.shape()[ax], sections));
}
template <class T, class S>
std::vector<ndarray<T, S>> split(const ndarray<T, S>& a, const std::vector<index_t>& indices,
                                 index_t axis = 0) {
  return array_split(a, indices, axis);
}

// numpy.hsplit (axis 1, or 0 for 1-d arrays), vsplit (axis 0, at least
// 2-d) and dsplit (axis 2, at least 3-d).
#define CUPP_SPLIT_FORMS(name, check, message, axis_expr)                                        \
  template <class T, class S, std::integral I>                                                   \
  std::vector<ndarray<T, S>> name(const ndarray<T, S>& a, I sections) {                          \
    if (check) throw value_error(message);                                                       \
    return split(a, sections, axis_expr);                                                        \
  }                                                                                              \
  template <class T, class S>                                                                    \
  std::vector<ndarray<T, S>> name(const ndarray<T, S>& a, const std::vector<index_t>& indices) { \
    if (check) throw value_error(message);                                                       \
    return split(a, indices, axis_expr);                                                         \
  }
CUPP_SPLIT_FORMS(hsplit, a.ndim() == 0, "hsplit only works on arrays of 1 or more dimensions",
                 a.ndim() > 1 ? 1 : 0)
CUPP_SPLIT_FORMS(vsplit, a.ndim() < 2, "vsplit only works on arrays of 2 or more dimensions", 0)
CUPP_SPLIT_FORMS(dsplit, a.ndim() < 3, "dsplit only works on arrays of 3 or more dimensions", 2)
#undef CUPP_SPLIT_FORMS

// ---------------------------------------------------------------------------
// append, insert, delete_

// numpy.append(arr, values, axis=None): both flattened when axis is none,
// else concatenated along axis; the result has their result_type.
template <class T, class U, class S>
ndarray<result_type_t<T, U>, S> append(const ndarray<T, S>& arr, const ndarray<U, S>& values,
                                       join_axis axis = none) {
  using R = result_type_t<T, U>;
  if (axis.none()) {
    const ndarray<T, S> a = arr.ndim() == 1 ? arr : arr.ravel();
    return detail::concat_tuple<R, S>(std::tuple<ndarray<T, S>, ndarray<U, S>>(a, values.ravel()),
                                      0);
  }
  return detail::concat_tuple<R, S>(std::tuple<ndarray<T, S>, ndarray<U, S>>(arr, values),
                                    axis.value());
}

// numpy.insert(arr, obj, values, axis=None): `values` (cast to arr's dtype,
// broadcast as NumPy does) inserted before the positions `obj` names (an
// integer, a slice or a list) along axis, or in the flattened array.
template <class T, class U, class S>
ndarray<T, S> insert(const ndarray<T, S>& arr_in, const positions& obj,
                     const ndarray<U, S>& values_in, join_axis axis = none) {
  int ax;
  const ndarray<T, S> arr = detail::axis_input(arr_in, axis, ax);
  const order o = detail::fnc_order(arr_in.is_c_contiguous(), arr_in.is_f_contiguous());
  const index_t n = arr.shape()[ax];
  std::vector<index_t> idx;
  bool scalar = false;
  if (const index_t* i = obj.integer()) {
    idx = {*i};
    scalar = true;
  } else if (const slice* s = obj.range()) {
    const detail::slice_range r = detail::resolve_slice(*s, n);
    for (index_t k = 0; k < r.length; ++k) idx.push_back(r.start + k * r.step);
  } else {
    idx = *obj.list();
  }
  // The values in arr's dtype (NumPy's unsafe cast) broadcast to `slot`:
  // made only once every check has passed, so that an error allocates
  // nothing.
  auto converted = [](const auto& v, const shape_t& slot, const std::string& message) {
    const ndarray<T, S> c = [&] {
      if constexpr (std::is_same_v<T, U>)
        return v;
      else
        return v.template astype<T>();
    }();
    return c.view_as(detail::setitem_broadcast(c.shape(), c.strides(), slot, message));
  };
  const ndarray<U, S>& values = values_in;
  shape_t newshape = arr.shape();
  if (idx.size() == 1) {
    index_t index = idx[0];
    if (index < -n || index > n)
      throw index_error("index " + (scalar ? std::to_string(index) : detail::list_repr(idx)) +
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
    if (scalar) v = moveaxis(v, 0, ax);
    const index_t numnew = v.shape()[ax];
    newshape[ax] += numnew;
    shape_t slot = newshape;
    slot[ax] = numnew;
    const std::string message = "could not broadcast input array from shape " +
                                detail::compact_shape(v.shape()) + " into shape " +
                                detail::compact_shape(slot);
    detail::setitem_broadcast(v.shape(), v.strides(), slot, message);
    const ndarray<T, S> vals = converted(v, slot, message);
    ndarray<T, S> out(newshape, o);
    detail::join_writer<T, S> w(out);
    w.put(detail::axis_slice(out, ax, 0, index), detail::axis_slice(arr, ax, 0, index));
    w.put(detail::axis_slice(out, ax, index, numnew), vals);
    w.put(detail::axis_slice(out, ax, index + numnew, n - index),
          detail::axis_slice(arr, ax, index, n - index));
    w.run();
    return out;
  }
  const std::vector<index_t> pos = detail::insert_positions(idx, n);
  const index_t numnew = static_cast<index_t>(idx.size());
  newshape[ax] += numnew;
  shape_t slot = newshape;
  slot[ax] = numnew;
  const std::string message =
      "shape mismatch: value array of shape " + detail::compact_shape(values.shape()) +
      " could not be broadcast to indexing result of shape " + detail::compact_shape(slot);
  detail::setitem_broadcast(values.shape(), values.strides(), slot, message);
  // Positions named twice take the last value, as NumPy's fancy assignment.
  std::vector<index_t> from(static_cast<std::size_t>(newshape[ax]), -1);
  for (std::size_t k = 0; k < pos.size(); ++k) from[pos[k]] = static_cast<index_t>(k);
  std::vector<char> free_dst(from.size());
  index_t n_free = 0;
  for (std::size_t j = 0; j < from.size(); ++j) n_free += free_dst[j] = from[j] < 0;
  if (n_free != n && n != 1) {
    shape_t got = newshape;
    got[ax] = n_free;
    throw value_error("shape mismatch: value array of shape " + detail::compact_shape(arr.shape()) +
                      " could not be broadcast to indexing result of shape " +
                      detail::compact_shape(got));
  }
  const ndarray<T, S> vals = converted(values, slot, message);
  ndarray<T, S> out(newshape, o);
  detail::join_writer<T, S> w(out);
  for (std::size_t j = 0; j < from.size(); ++j) {
    const index_t jj = static_cast<index_t>(j);
    if (from[j] >= 0)
      w.put(detail::axis_slice(out, ax, jj, 1), detail::axis_slice(vals, ax, from[j], 1));
    else if (n == 1 && n_free != 1)  // arr's one slice broadcast to every free position
      w.put(detail::axis_slice(out, ax, jj, 1), arr);
  }
  if (n_free == n)
    detail::add_runs(
        w, out, arr, ax,
        detail::fill_runs(std::vector<char>(static_cast<std::size_t>(n), 1), free_dst));
  w.run();
  return out;
}

// numpy.insert with one value (cast to arr's dtype).
template <class T, class S, class V>
requires(std::is_arithmetic_v<V> ||
         is_dtype_v<V>) ndarray<T, S> insert(const ndarray<T, S>& arr, const positions& obj,
                                             const V& value, join_axis axis = none) {
  ndarray<T, S> v{shape_t{}};
  copyto(v, value);
  return insert(arr, obj, v, axis);
}

// numpy.delete(arr, obj, axis=None), named delete_ because delete is a C++
// keyword: a copy without the positions obj names (an integer, a slice or
// a list) along axis, or in the flattened array.
template <class T, class S>
ndarray<T, S> delete_(const ndarray<T, S>& arr_in, const positions& obj, join_axis axis = none) {
  int ax;
  const ndarray<T, S> arr = detail::axis_input(arr_in, axis, ax);
  const order o = detail::fnc_order(arr_in.is_c_contiguous(), arr_in.is_f_contiguous());
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
    const detail::slice_range r = detail::resolve_slice(*s, n);
    keep.assign(static_cast<std::size_t>(n), 1);
    for (index_t k = 0; k < r.length; ++k) keep[static_cast<std::size_t>(r.start + k * r.step)] = 0;
  } else if (obj.list()->size() == 1) {
    // NumPy takes a one-element list as the integer (with its message).
    return delete_(arr_in, (*obj.list())[0], axis);
  } else {
    keep = detail::delete_keep(*obj.list(), n);
  }
  index_t kept = 0;
  for (char k : keep) kept += k;
  shape_t newshape = arr.shape();
  newshape[ax] = kept;
  ndarray<T, S> out(newshape, o);
  detail::join_writer<T, S> w(out);
  detail::add_runs(w, out, arr, ax,
                   detail::fill_runs(keep, std::vector<char>(static_cast<std::size_t>(kept), 1)));
  w.run();
  return out;
}

// ---------------------------------------------------------------------------
// trim_zeros

// numpy.trim_zeros(filt, trim="fb", axis=None): a view without the leading
// ("f") and/or trailing ("b") positions that hold only zeros, along the
// given axes (all by default): the bounding box of the non-zero elements.
// An array of zeros gives an empty view. Device arrays wait for the few
// small reductions that find the box.
template <class T, class S>
ndarray<T, S> trim_zeros(const ndarray<T, S>& filt, std::string trim = "fb",
                         const axis_arg& axis = {}) {
  for (char& c : trim) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (trim != "fb" && trim != "bf" && trim != "f" && trim != "b")
    throw value_error("unexpected character(s) in `trim`: '" + trim + "'");
  const int nd = filt.ndim();
  const std::uint64_t axes = axis.all()
                                 ? (nd == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << nd) - 1)
                                 : detail::axis_set(axis, nd, "repeated axis", "axis");
  if (axes == 0) return filt;
  // Per axis: the first and last positions with a non-zero element.
  std::vector<index_t> first(nd), last(nd);
  bool any_nonzero = filt.size() > 0;
  for (int k = 0; k < nd && any_nonzero; ++k) {
    ndarray<bool, S> v = moveaxis(filt, k, 0) != 0;
    while (v.ndim() > 1) v = cupp::any(v, -1);
    const index_t f = cupp::argmax(v).item();
    if (!v.item(f)) {
      any_nonzero = false;
      break;
    }
    first[k] = f;
    last[k] = v.shape()[0] - 1 - cupp::argmax(flip(v)).item();
  }
  std::vector<index_item> items;
  for (int k = 0; k < nd; ++k) {
    if (!(axes >> k & 1)) {
      items.push_back(_);
    } else if (!any_nonzero) {
      items.push_back(slice(0, 0));
    } else {
      const slice::bound lo = trim.find('f') != std::string::npos ? slice::bound(first[k]) : _;
      const slice::bound hi = trim.find('b') != std::string::npos ? slice::bound(last[k] + 1) : _;
      items.push_back(slice(lo, hi));
    }
  }
  return filt(items);
}

}  // namespace cupp
