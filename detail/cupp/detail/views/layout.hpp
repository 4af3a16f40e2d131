// The shape and stride arithmetic behind views: basic indexing, reshape,
// transposes, squeeze/expand_dims, flips, broadcast_to and windows. Plain
// functions over shape_t/strides_t (byte strides), shared by host and
// device arrays and free of templates, so that every view function costs
// its callers only a handle construction. Each returns a view_layout: the
// byte offset of the view's first element from the array's, and its shape
// and strides. Errors are NumPy's exceptions and messages.
#pragma once

#include <algorithm>
#include <span>
#include <string>

#include <cupp/config.hpp>
#include <cupp/errors.hpp>
#include <cupp/index_types.hpp>
#include <cupp/axis.hpp>
#include <cupp/shape.hpp>

namespace cupp::detail {

// NumPy's IndexError for more indices than axes.
inline std::string index_count_message(int got, int ndim) CUPP_HOST_BODY({
  return "too many indices for array: array is " + std::to_string(ndim) + "-dimensional, but " +
         std::to_string(got) + " were indexed";
});

struct view_layout {
  index_t offset = 0;  // bytes from the source's data pointer
  shape_t shape;
  strides_t strides;
};

// numpy.exceptions.AxisError's message, with NumPy's optional prefix
// ("source: ", "axis2: ").
inline int checked_axis(index_t axis, int ndim, const char* prefix = nullptr) CUPP_HOST_BODY({
  if (axis < -ndim || axis >= ndim)
    throw axis_error((prefix ? std::string(prefix) + ": " : std::string()) + "axis " +
                     std::to_string(axis) + " is out of bounds for array of dimension " +
                     std::to_string(ndim));
  return static_cast<int>(axis < 0 ? axis + ndim : axis);
});

// numpy.lib.array_utils.normalize_axis_tuple: the axes as a bit set; a
// repeated axis throws `repeated` (NumPy's messages differ by caller).
inline std::uint64_t axis_set(const axis_arg& axes, int ndim, const char* repeated,
                              const char* prefix = nullptr) CUPP_HOST_BODY({
  std::uint64_t m = 0;
  for (int i = 0; i < axes.size(); ++i) {
    const int a = checked_axis(axes[i], ndim, prefix);
    if (m >> a & 1) throw value_error(repeated);
    m |= std::uint64_t{1} << a;
  }
  return m;
});

// ---------------------------------------------------------------------------
// Basic indexing

// Python's slice.indices(n) and the slice's length: bounds clamped to the
// axis the way Python clamps them.
struct slice_range {
  index_t start = 0, step = 1, length = 0;
};
inline slice_range resolve_slice(const slice& s, index_t n) CUPP_HOST_BODY({
  slice_range r;
  if (s.step().given) {
    if (s.step().value == 0) throw value_error("slice step cannot be zero");
    // Python clamps a step of -2**63 to -(2**63 - 1) so that -step exists.
    r.step = std::max<index_t>(s.step().value, -INT64_MAX);
  }
  const bool back = r.step < 0;
  auto clamp = [&](const slice::bound& b, index_t if_omitted) {
    if (!b.given) return if_omitted;
    index_t v = b.value;
    if (v < 0) {
      v += n;
      if (v < 0) v = back ? -1 : 0;
    } else if (v >= n) {
      v = back ? n - 1 : n;
    }
    return v;
  };
  r.start = clamp(s.start(), back ? n - 1 : 0);
  const index_t stop = clamp(s.stop(), back ? -1 : n);
  if (back)
    r.length = stop < r.start ? (r.start - stop - 1) / -r.step + 1 : 0;
  else
    r.length = r.start < stop ? (stop - r.start - 1) / r.step + 1 : 0;
  return r;
});

inline std::string too_many_indices(index_t got, int ndim) CUPP_HOST_BODY({
  return "too many indices for array: array is " + std::to_string(ndim) + "-dimensional, but " +
         std::to_string(got) + " were indexed";
});

// The view `x[items]` selects, as NumPy's basic indexing does: an ellipsis
// stands for the axes the other indices leave, and the axes past the last
// index are kept whole.
inline view_layout index_layout(const shape_t& shape, const strides_t& strides,
                                std::span<const index_item> items) CUPP_HOST_BODY({
  using K = index_item::kind;
  int consumed = 0, ellipses = 0;
  for (const index_item& it : items) {
    if (it.k == K::rest) {
      if (++ellipses > 1) throw index_error("an index can only have a single ellipsis ('...')");
    } else if (it.k != K::new_axis) {
      ++consumed;
    }
  }
  const int nd = shape.size();
  if (consumed > nd) throw index_error(too_many_indices(consumed, nd));
  view_layout v;
  int axis = 0;  // next axis of the source
  auto keep_whole = [&](int n) {
    for (int k = 0; k < n; ++k, ++axis) {
      v.shape.push_back(shape[axis]);
      v.strides.push_back(strides[axis]);
    }
  };
  for (const index_item& it : items) {
    switch (it.k) {
      case K::rest:
        keep_whole(nd - consumed);
        break;
      case K::new_axis:
        v.shape.push_back(1);
        v.strides.push_back(0);
        break;
      case K::integer: {
        const index_t n = shape[axis];
        index_t i = it.i;
        if (i < -n || i >= n)
          throw index_error("index " + std::to_string(i) + " is out of bounds for axis " +
                            std::to_string(axis) + " with size " + std::to_string(n));
        if (i < 0) i += n;
        v.offset += i * strides[axis];
        ++axis;
        break;
      }
      case K::range: {
        const slice_range r = resolve_slice(it.s, shape[axis]);
        // An empty selection reads nothing: leave the pointer where it is
        // rather than one step outside the memory.
        if (r.length > 0) v.offset += r.start * strides[axis];
        v.shape.push_back(r.length);
        v.strides.push_back(r.step * strides[axis]);
        ++axis;
        break;
      }
    }
  }
  keep_whole(nd - axis);
  return v;
});

// ---------------------------------------------------------------------------
// Reshape

// NumPy's spelling of a requested shape in reshape errors: unknown
// extents print as "newaxis", except leading ones, which are left out.
inline std::string reshape_request_string(const shape_t& s) CUPP_HOST_BODY({
  int i = 0;
  while (i < s.size() && s[i] < 0) ++i;
  if (i == s.size()) return "()";
  std::string r = std::to_string(s[i++]);
  for (; i < s.size(); ++i) r += s[i] < 0 ? ",newaxis" : "," + std::to_string(s[i]);
  return s.size() == 1 ? "(" + r + ",)" : "(" + r + ")";
});

// The shape a reshape asks for, with its unknown (negative) extent filled.
inline shape_t resolve_reshape(const shape_t& request, index_t size) CUPP_HOST_BODY({
  int unknown = -1;
  index_t known = 1;
  bool overflow = false;
  for (int i = 0; i < request.size(); ++i) {
    if (request[i] < 0) {
      if (unknown >= 0) throw value_error("can only specify one unknown dimension");
      unknown = i;
    } else if (request[i] != 0 && known > INT64_MAX / request[i]) {
      overflow = true;
    } else {
      known *= request[i];
    }
  }
  const auto mismatch = [&] {
    return value_error("cannot reshape array of size " + std::to_string(size) + " into shape " +
                       reshape_request_string(request));
  };
  if (overflow) throw mismatch();
  shape_t out = request;
  if (unknown >= 0) {
    if (known == 0 || size % known != 0) throw mismatch();
    out[unknown] = size / known;
  } else if (known != size) {
    throw mismatch();
  }
  return out;
});

// New position strides for a C-order reshape from (shape, st) to `to`
// (same size, not empty) when every old axis group that forms new axes is
// contiguous in positions; false otherwise.
inline bool reshape_strides(const shape_t& shape, const strides_t& st, const shape_t& to,
                            strides_t& out) CUPP_HOST_BODY({
  index_t ext[max_ndim], str[max_ndim];
  int n = 0;
  for (int i = 0; i < shape.size(); ++i)
    if (shape[i] != 1) {
      ext[n] = shape[i];
      str[n++] = st[i];
    }
  out = strides_t::filled(to.size(), 0);
  int i = 0, j = 0;
  while (i < n) {
    while (to[j] == 1) ++j;
    // The smallest run of old axes [i, ie) and new axes [j, je) of equal size.
    int ie = i + 1, je = j + 1;
    index_t po = ext[i], pn = to[j];
    while (po != pn) {
      if (pn < po)
        pn *= to[je++];
      else
        po *= ext[ie++];
    }
    for (int a = i; a + 1 < ie; ++a)
      if (str[a] != str[a + 1] * ext[a + 1]) return false;
    index_t s = str[ie - 1];
    for (int b = je - 1; b >= j; --b) {
      out[b] = to[b] == 1 ? 0 : s;
      s *= to[b];
    }
    i = ie;
    j = je;
  }
  return true;
});

// The strides of `to` as a view of (shape, strides) read in order C or F,
// or false where NumPy's reshape has to copy (an axis group that the new
// shape splits or merges is not contiguous in memory). An empty array is
// always a view: its strides are those of a fresh array.
inline bool reshape_layout(const shape_t& shape, const strides_t& strides, const shape_t& to,
                           order o, index_t itemsize, strides_t& out) CUPP_HOST_BODY({
  if (size_of(shape) == 0) {
    out = contiguous_strides(to, itemsize, o == order::F ? order::F : order::C);
    return true;
  }
  if (o != order::F) return reshape_strides(shape, strides, to, out);
  // F order is C order on the reversed axes.
  shape_t rs = shape, rt = to;
  strides_t rst = strides;
  std::reverse(rs.begin(), rs.end());
  std::reverse(rst.begin(), rst.end());
  std::reverse(rt.begin(), rt.end());
  if (!reshape_strides(rs, rst, rt, out)) return false;
  std::reverse(out.begin(), out.end());
  return true;
});

// ---------------------------------------------------------------------------
// Axis permutations: transpose, swapaxes, moveaxis, rollaxis

// A view with axis i taken from source axis perm[i].
inline view_layout permuted(const shape_t& shape, const strides_t& strides, const int* perm) {
  view_layout v;
  v.shape = shape_t::filled(shape.size(), 0);
  v.strides = strides_t::filled(shape.size(), 0);
  for (int i = 0; i < shape.size(); ++i) {
    v.shape[i] = shape[perm[i]];
    v.strides[i] = strides[perm[i]];
  }
  return v;
}

// ndarray.transpose(axes): a permutation of every axis, negative ones
// counting from the end.
inline void transpose_perm(const dims& axes, int nd, int* perm) CUPP_HOST_BODY({
  if (axes.size() != nd) throw value_error("axes don't match array");
  std::uint64_t seen = 0;
  for (int i = 0; i < nd; ++i) {
    perm[i] = checked_axis(axes[i], nd);
    if (seen >> perm[i] & 1) throw value_error("repeated axis in transpose");
    seen |= std::uint64_t{1} << perm[i];
  }
});

inline void reversed_perm(int nd, int* perm) {
  for (int i = 0; i < nd; ++i) perm[i] = nd - 1 - i;
}

inline void swapaxes_perm(int nd, index_t a1, index_t a2, int* perm) CUPP_HOST_BODY({
  const int i = checked_axis(a1, nd, "axis1"), j = checked_axis(a2, nd, "axis2");
  for (int k = 0; k < nd; ++k) perm[k] = k;
  std::swap(perm[i], perm[j]);
});

// numpy.moveaxis: the source axes land at the destination positions, the
// others keep their order.
inline void moveaxis_perm(int nd, const axis_arg& source, const axis_arg& destination, int* perm) {
  const std::uint64_t src = axis_set(source, nd, "repeated axis in `source` argument", "source");
  axis_set(destination, nd, "repeated axis in `destination` argument", "destination");
  if (source.size() != destination.size())
    throw value_error("`source` and `destination` arguments must have the same number of elements");
  for (int i = 0; i < nd; ++i) perm[i] = -1;
  for (int k = 0; k < source.size(); ++k)
    perm[checked_axis(destination[k], nd)] = checked_axis(source[k], nd);
  int next = 0;
  for (int a = 0; a < nd; ++a) {
    if (src >> a & 1) continue;
    while (perm[next] >= 0) ++next;
    perm[next] = a;
  }
}

// numpy.rollaxis: axis moves to stand before position `start`.
inline void rollaxis_perm(int nd, index_t axis, index_t start, int* perm) CUPP_HOST_BODY({
  const int a = checked_axis(axis, nd);
  index_t s = start;
  if (s < 0) s += nd;
  if (s < 0 || s > nd)
    // NumPy's message shows start after adding ndim to a negative one.
    throw axis_error("'start' arg requires " + std::to_string(-nd) + " <= start < " +
                     std::to_string(nd + 1) + ", but " + std::to_string(s) + " was passed in");
  if (a < s) --s;  // removing the axis shifts the later positions left
  int k = 0;
  for (int i = 0; i < nd; ++i)
    if (i != a) perm[k++] = i;
  std::copy_backward(perm + s, perm + nd - 1, perm + nd);
  perm[s] = a;
});

// The axes ordered from the largest stride to the smallest (ties keep
// their order): NumPy's K order, which ravel(order='K') reads in.
inline void memory_order_perm(const strides_t& strides, int* perm) CUPP_HOST_BODY({
  const int nd = strides.size();
  for (int i = 0; i < nd; ++i) perm[i] = i;
  auto mag = [](index_t s) { return s < 0 ? -s : s; };
  std::stable_sort(perm, perm + nd,
                   [&](int a, int b) { return mag(strides[a]) > mag(strides[b]); });
});

// ---------------------------------------------------------------------------
// Adding and removing unit axes

// numpy.squeeze: every axis of extent 1, or the given ones (which must
// have extent 1).
inline view_layout squeeze_layout(const shape_t& shape, const strides_t& strides,
                                  const axis_arg& axes) CUPP_HOST_BODY({
  const int nd = shape.size();
  // NumPy accepts axis 0 (or -1) for a 0-d array, and removes nothing.
  if (nd == 0 && axes.size() == 1 && (axes[0] == 0 || axes[0] == -1)) return {0, shape, strides};
  std::uint64_t drop = 0;
  if (axes.all()) {
    for (int i = 0; i < nd; ++i)
      if (shape[i] == 1) drop |= std::uint64_t{1} << i;
  } else {
    drop = axis_set(axes, nd, "duplicate value in 'axis'");
    for (int i = 0; i < nd; ++i)
      if ((drop >> i & 1) && shape[i] != 1)
        throw value_error("cannot select an axis to squeeze out which has size not equal to one");
  }
  view_layout v;
  for (int i = 0; i < nd; ++i)
    if (!(drop >> i & 1)) {
      v.shape.push_back(shape[i]);
      v.strides.push_back(strides[i]);
    }
  return v;
});

// numpy.expand_dims: unit axes at the given positions of the result.
inline view_layout expand_dims_layout(const shape_t& shape, const strides_t& strides,
                                      const axis_arg& axes) CUPP_HOST_BODY({
  const int out_nd = shape.size() + axes.size();
  dims::check_rank(out_nd);
  const std::uint64_t added = axis_set(axes, out_nd, "repeated axis");
  view_layout v;
  for (int i = 0, j = 0; i < out_nd; ++i) {
    const bool unit = added >> i & 1;
    v.shape.push_back(unit ? 1 : shape[j]);
    v.strides.push_back(unit ? 0 : strides[j]);
    if (!unit) ++j;
  }
  return v;
});

// numpy.atleast_{1,2,3}d: a 0-d array becomes (1,)*n; a 1-d array (N,)
// becomes (1, N) and (1, N, 1); a 2-d array (M, N) becomes (M, N, 1).
inline view_layout atleast_layout(const shape_t& shape, const strides_t& strides, int n) {
  view_layout v{0, shape, strides};
  const int nd = shape.size();
  if (nd >= n) return v;
  if (nd == 0) {
    v.shape = shape_t::filled(n, 1);
    v.strides = strides_t::filled(n, 0);
  } else if (n == 2 || nd == 1) {
    v = expand_dims_layout(shape, strides, 0);
    if (n == 3) v = expand_dims_layout(v.shape, v.strides, -1);
  } else {
    v = expand_dims_layout(shape, strides, -1);
  }
  return v;
}

// ---------------------------------------------------------------------------
// Flips, broadcasts and windows

// numpy.flip: the given axes (all of them by default) read backwards.
inline view_layout flip_layout(const shape_t& shape, const strides_t& strides,
                               const axis_arg& axes) CUPP_HOST_BODY({
  const int nd = shape.size();
  const std::uint64_t m = axes.all() ? (nd == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << nd) - 1)
                                     : axis_set(axes, nd, "repeated axis");
  view_layout v{0, shape, strides};
  for (int i = 0; i < nd; ++i)
    if (m >> i & 1) {
      if (shape[i] > 0) v.offset += (shape[i] - 1) * strides[i];
      v.strides[i] = -strides[i];
    }
  return v;
});

// A shape as NumPy's C code prints it in broadcast errors: no spaces.
inline std::string compact_shape(const shape_t& s) {
  return np_shape(s);
}

// numpy.broadcast_to: stride 0 along the broadcast axes.
inline view_layout broadcast_to_layout(const shape_t& shape, const strides_t& strides,
                                       const shape_t& to) CUPP_HOST_BODY({
  for (index_t e : to)
    if (e < 0) throw value_error("all elements of broadcast shape must be non-negative");
  if (to.size() == 0 && shape.size() > 0)
    throw value_error("cannot broadcast a non-scalar to a scalar array");
  if (shape.size() > to.size())
    throw value_error("input operand has more dimensions than allowed by the axis remapping");
  const int off = to.size() - shape.size();
  view_layout v{0, to, strides_t::filled(to.size(), 0)};
  for (int i = 0; i < shape.size(); ++i) {
    if (shape[i] == to[off + i])
      v.strides[off + i] = strides[i];
    else if (shape[i] != 1)
      throw value_error(
          "operands could not be broadcast together with remapped shapes "
          "[original->remapped]: " +
          compact_shape(shape) + "  and requested shape " + compact_shape(to));
  }
  return v;
});

// NumPy's check of `x[...] = y`: y's shape must broadcast to the view's.
// (NumPy also drops leading unit axes of y beyond the view's rank; cupp
// does not.)
inline void check_setitem_shape(const shape_t& from, const shape_t& into) CUPP_HOST_BODY({
  bool ok = from.size() <= into.size();
  for (int i = 0; ok && i < from.size(); ++i) {
    const index_t e = into[into.size() - from.size() + i];
    ok = from[i] == 1 || from[i] == e;
  }
  if (!ok)
    throw value_error("could not broadcast input array from shape " + compact_shape(from) +
                      " into shape " + compact_shape(into));
});

// numpy.broadcast_arrays' common shape, with its message naming the first
// two arguments that disagree.
inline shape_t broadcast_all(std::span<const shape_t> shapes) CUPP_HOST_BODY({
  int nd = 0;
  for (const shape_t& s : shapes) nd = std::max(nd, s.size());
  shape_t r = shape_t::filled(nd, 1);
  int owner[max_ndim] = {};  // the argument that set each extent
  for (int k = 0; k < static_cast<int>(shapes.size()); ++k) {
    const shape_t& s = shapes[k];
    for (int i = 0; i < s.size(); ++i) {
      const int j = nd - s.size() + i;
      if (s[i] == 1 || s[i] == r[j]) continue;
      if (r[j] != 1)
        throw value_error(
            "shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is between "
            "arg " +
            std::to_string(owner[j]) + " with shape " + to_string(shapes[owner[j]]) + " and arg " +
            std::to_string(k) + " with shape " + to_string(s) + ".");
      r[j] = s[i];
      owner[j] = k;
    }
  }
  return r;
});

// numpy.lib.stride_tricks.sliding_window_view: the windowed axes shrink to
// the number of window positions and the window's axes are appended.
inline view_layout sliding_window_layout(const shape_t& shape, const strides_t& strides,
                                         const shape_t& window, const axis_arg& axes) {
  const int nd = shape.size();
  for (index_t w : window)
    if (w < 0) throw value_error("`window_shape` cannot contain negative values");
  int ax[max_ndim];
  int n = window.size();
  if (axes.all()) {
    if (n != nd)
      throw value_error(
          "Since axis is `None`, must provide window_shape for all dimensions of `x`; got " +
          std::to_string(n) + " window_shape elements and `x.ndim` is " + std::to_string(nd) + ".");
    for (int i = 0; i < n; ++i) ax[i] = i;
  } else {
    if (n != axes.size())
      throw value_error("Must provide matching length window_shape and axis; got " +
                        std::to_string(n) + " window_shape elements and " +
                        std::to_string(axes.size()) + " axes elements.");
    // NumPy allows an axis to be windowed more than once.
    for (int i = 0; i < n; ++i) ax[i] = checked_axis(axes[i], nd);
  }
  view_layout v{0, shape, strides};
  for (int i = 0; i < n; ++i) {
    if (v.shape[ax[i]] < window[i])
      throw value_error("window shape cannot be larger than input array shape");
    v.shape[ax[i]] -= window[i] - 1;
  }
  for (int i = 0; i < n; ++i) {
    v.shape.push_back(window[i]);
    v.strides.push_back(strides[ax[i]]);
  }
  return v;
}

}  // namespace cupp::detail
