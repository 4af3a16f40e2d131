// The shape arithmetic and NumPy's checks behind joining and splitting
// (concatenate, stack, split, insert, delete): plain functions over
// shape_t/strides_t, shared by host and device arrays, that throw NumPy's
// exceptions and messages before anything is allocated or written.
#pragma once

#include <algorithm>
#include <numeric>
#include <span>
#include <string>
#include <vector>

#include <cupp/config.hpp>
#include <cupp/detail/views/layout.hpp>

namespace cupp::detail {

// numpy.concatenate's checks: the joined shape, and the axis made
// non-negative.
inline int concat_shape(std::span<const shape_t> shapes, index_t axis, shape_t& out) {
  if (shapes.empty()) throw value_error("need at least one array to concatenate");
  const int nd = shapes[0].size();
  if (nd == 0) throw value_error("zero-dimensional arrays cannot be concatenated");
  const int ax = checked_axis(axis, nd);
  out = shapes[0];
  for (std::size_t i = 1; i < shapes.size(); ++i) {
    const shape_t& s = shapes[i];
    if (s.size() != nd)
      throw value_error(
          "all the input arrays must have same number of dimensions, but the array at index 0 "
          "has " +
          std::to_string(nd) + " dimension(s) and the array at index " + std::to_string(i) +
          " has " + std::to_string(s.size()) + " dimension(s)");
    for (int d = 0; d < nd; ++d) {
      if (d == ax) {
        out[d] += s[d];
      } else if (s[d] != out[d]) {
        throw value_error(
            "all the input array dimensions except for the concatenation axis must match "
            "exactly, but along dimension " +
            std::to_string(d) + ", the array at index 0 has size " + std::to_string(out[d]) +
            " and the array at index " + std::to_string(i) + " has size " + std::to_string(s[d]));
      }
    }
  }
  return ax;
}

// The strides NumPy gives a concatenation: its axes ordered as the inputs'
// strides order them (an axis moves outwards past another when the first
// input that has both axes non-unit says so and no other input disagrees),
// contiguous in that order. F-ordered inputs give an F-ordered result.
inline strides_t concat_strides(const shape_t& out, std::span<const shape_t> shapes,
                                std::span<const strides_t> strides, index_t itemsize) {
  const int nd = out.size();
  int perm[max_ndim];
  for (int i = 0; i < nd; ++i) perm[i] = i;
  auto mag = [](index_t s) { return s < 0 ? -s : s; };
  for (int i0 = 1; i0 < nd; ++i0) {
    const int ax0 = perm[i0];
    int ipos = i0;
    for (int i1 = i0 - 1; i1 >= 0; --i1) {
      const int ax1 = perm[i1];
      bool ambiguous = true, swap = false;
      for (std::size_t k = 0; k < shapes.size(); ++k) {
        if (shapes[k][ax0] == 1 || shapes[k][ax1] == 1) continue;
        if (mag(strides[k][ax0]) <= mag(strides[k][ax1]))
          swap = false;
        else if (ambiguous)
          swap = true;
        ambiguous = false;
      }
      if (ambiguous) continue;
      if (!swap) break;
      ipos = i1;
    }
    if (ipos != i0) {
      for (int i = i0; i > ipos; --i) perm[i] = perm[i - 1];
      perm[ipos] = ax0;
    }
  }
  strides_t st = strides_t::filled(nd, 0);
  index_t s = itemsize;
  for (int i = nd - 1; i >= 0; --i) {
    st[perm[i]] = s;
    s *= std::max<index_t>(out[perm[i]], 1);
  }
  return st;
}

// numpy.stack's checks; returns the axis of the result (ndim + 1 axes).
inline int stack_axis(std::span<const shape_t> shapes, index_t axis) CUPP_HOST_BODY({
  if (shapes.empty()) throw value_error("need at least one array to stack");
  for (const shape_t& s : shapes)
    if (s != shapes[0]) throw value_error("all input arrays must have the same shape");
  return checked_axis(axis, shapes[0].size() + 1);
});

// One part of a split: `start` along the split axis (meaningful when
// length > 0) and its length.
struct split_part {
  index_t start = 0, length = 0;
};

// Python's `ary.shape[axis]`, which numpy.split reads first.
inline int split_axis(index_t axis, int nd) CUPP_HOST_BODY({
  if (axis < -nd || axis >= nd) throw index_error("tuple index out of range");
  return static_cast<int>(axis < 0 ? axis + nd : axis);
});

// numpy.array_split into `sections` parts: the first n % sections parts
// one longer.
inline std::vector<split_part> array_split_parts(index_t n, index_t sections) CUPP_HOST_BODY({
  if (sections <= 0) throw value_error("number sections must be larger than 0.");
  const index_t each = n / sections, extras = n % sections;
  std::vector<split_part> parts;
  index_t at = 0;
  for (index_t i = 0; i < sections; ++i) {
    const index_t len = each + (i < extras ? 1 : 0);
    parts.push_back({at, len});
    at += len;
  }
  return parts;
});

// numpy.split into `sections` equal parts (Python's modulo and its
// ZeroDivisionError first, as NumPy computes it).
inline std::vector<split_part> split_parts(index_t n, index_t sections) CUPP_HOST_BODY({
  if (sections == 0) throw zero_division_error("integer modulo by zero");
  index_t r = n % sections;
  if (r != 0 && (r < 0) != (sections < 0)) r += sections;
  if (r != 0) throw value_error("array split does not result in an equal division");
  return array_split_parts(n, sections);
});

// Parts between the division points [0, indices..., n], each the Python
// slice ary[start:stop] (negative points count from the end, and points
// are clamped).
inline std::vector<split_part> split_parts_at(index_t n, std::span<const index_t> indices) {
  std::vector<split_part> parts;
  for (std::size_t i = 0; i <= indices.size(); ++i) {
    const index_t a = i == 0 ? 0 : indices[i - 1];
    const index_t b = i == indices.size() ? n : indices[i];
    const slice_range r = resolve_slice(slice(a, b), n);
    parts.push_back({r.start, r.length});
  }
  return parts;
}

// A part of the split axis as a view of (shape, strides).
inline view_layout split_view(const shape_t& shape, const strides_t& strides, int axis,
                              const split_part& p) {
  view_layout v{0, shape, strides};
  v.shape[axis] = p.length;
  if (p.length > 0) v.offset = p.start * strides[axis];
  return v;
}

// The layout NumPy's insert and delete give their result: F when the
// input is F- and not C-contiguous.
inline order fnc_order(bool c_contiguous, bool f_contiguous) {
  return f_contiguous && !c_contiguous ? order::F : order::C;
}

// Python's repr of a list of integers: [1, 2].
inline std::string list_repr(std::span<const index_t> v) CUPP_HOST_BODY({
  std::string r = "[";
  for (std::size_t i = 0; i < v.size(); ++i) r += (i ? ", " : "") + std::to_string(v[i]);
  return r + "]";
});

// `from` broadcast to `to` as NumPy's setitem does it (leading unit axes
// beyond `to`'s rank dropped); throws `message` when it does not fit.
inline view_layout setitem_broadcast(const shape_t& from, const strides_t& st, const shape_t& to,
                                     const std::string& message) {
  int drop = 0;
  while (from.size() - drop > to.size() && from[drop] == 1) ++drop;
  shape_t f;
  strides_t s;
  for (int i = drop; i < from.size(); ++i) {
    f.push_back(from[i]);
    s.push_back(st[i]);
  }
  bool ok = f.size() <= to.size();
  for (int i = 0; ok && i < f.size(); ++i) {
    const index_t e = to[to.size() - f.size() + i];
    ok = f[i] == 1 || f[i] == e;
  }
  if (!ok) throw value_error(message);
  return broadcast_to_layout(f, s, to);
}

// Where numpy.insert puts the inserted values along the axis (n elements
// before): the positions of the result, in the order of the given indices,
// after NumPy's stable sort and shift; negative positions wrap as fancy
// indexing wraps them, and a position outside the result raises its error.
inline std::vector<index_t> insert_positions(std::span<const index_t> indices, index_t n) {
  const index_t m = n + static_cast<index_t>(indices.size());
  std::vector<index_t> pos(indices.begin(), indices.end());
  for (index_t& p : pos)
    if (p < 0) p += n;
  std::vector<std::size_t> order(pos.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return pos[a] < pos[b]; });
  for (std::size_t k = 0; k < order.size(); ++k) pos[order[k]] += static_cast<index_t>(k);
  for (index_t& p : pos) {
    if (p < -m || p >= m)
      throw index_error("index " + std::to_string(p) + " is out of bounds for axis 0 with size " +
                        std::to_string(m));
    if (p < 0) p += m;
  }
  return pos;
}

// The positions numpy.delete keeps along an axis of n, for a list of
// indices (fancy-indexing bounds and wrapping).
inline std::vector<char> delete_keep(std::span<const index_t> indices, index_t n) CUPP_HOST_BODY({
  std::vector<char> keep(static_cast<std::size_t>(n), 1);
  for (index_t i : indices) {
    if (i < -n || i >= n)
      throw index_error("index " + std::to_string(i) + " is out of bounds for axis 0 with size " +
                        std::to_string(n));
    keep[static_cast<std::size_t>(i < 0 ? i + n : i)] = 0;
  }
  return keep;
});

// A run of equal length along an axis: `length` positions from `src` of the
// source to `dst` of the result.
struct axis_run {
  index_t src = 0, dst = 0, length = 0;
};

// The runs that move the kept positions (keep[i] != 0) of the source to the
// result's positions where slot[j] is false (taken in order).
inline std::vector<axis_run> fill_runs(std::span<const char> keep_src,
                                       std::span<const char> free_dst) {
  std::vector<axis_run> runs;
  std::size_t i = 0;
  for (std::size_t j = 0; j < free_dst.size(); ++j) {
    if (!free_dst[j]) continue;
    while (i < keep_src.size() && !keep_src[i]) ++i;
    if (i == keep_src.size()) break;
    const index_t s = static_cast<index_t>(i), d = static_cast<index_t>(j);
    if (!runs.empty() && runs.back().src + runs.back().length == s &&
        runs.back().dst + runs.back().length == d)
      ++runs.back().length;
    else
      runs.push_back({s, d, 1});
    ++i;
  }
  return runs;
}

}  // namespace cupp::detail
