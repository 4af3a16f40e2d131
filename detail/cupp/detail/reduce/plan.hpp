// The host-side planning of a reduction, shared by every reduction: which
// axes are reduced (NumPy's axis= rules and errors), the result's shape, and
// the layout the kernel walks (unit axes dropped, the inputs' fastest axis
// first, neighbouring axes of the same kind merged where every operand
// allows). Plain code with no templates.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>

#include <cupp/detail/elementwise/plan.hpp>
#include <cupp/errors.hpp>
#include <cupp/axis.hpp>
#include <cupp/shape.hpp>

namespace cupp::detail {

using axis_mask = std::uint64_t;

inline index_t normalize_axis(int axis, int ndim) {
  if (axis < -ndim || axis >= ndim)
    throw axis_error("axis " + std::to_string(axis) + " is out of bounds for array of dimension " +
                     std::to_string(ndim));
  return axis < 0 ? axis + ndim : axis;
}

// The reduced axes as a bit mask; NumPy's AxisError and duplicate check.
inline axis_mask reduced_axes(const axis_arg& a, int ndim) {
  if (a.all()) return ndim == 64 ? ~axis_mask{0} : ((axis_mask{1} << ndim) - 1);
  axis_mask m = 0;
  for (int i = 0; i < a.size(); ++i) {
    const index_t ax = normalize_axis(a[i], ndim);
    if (m >> ax & 1) throw value_error("duplicate value in 'axis'");
    m |= axis_mask{1} << ax;
  }
  return m;
}

// The result's shape: reduced axes dropped, or kept with extent 1.
inline shape_t reduced_shape(const shape_t& s, axis_mask m, bool keepdims) {
  shape_t r = shape_t::filled(0, 0);
  for (int i = 0; i < s.size(); ++i) {
    if (!(m >> i & 1))
      r.push_back(s[i]);
    else if (keepdims)
      r.push_back(1);
  }
  return r;
}

// Strides over the full input shape of a result of either shape: 0 along
// the reduced axes.
inline strides_t result_strides_full(const shape_t& in, axis_mask m, const shape_t& out_shape,
                                     const strides_t& out_strides) {
  strides_t r = strides_t::filled(in.size(), 0);
  const bool keep = out_shape.size() == in.size();
  int j = 0;
  for (int i = 0; i < in.size(); ++i) {
    if (m >> i & 1) {
      if (keep) ++j;
      continue;
    }
    r[i] = out_shape[j] == 1 ? 0 : out_strides[j];
    ++j;
  }
  return r;
}

// Positions, in C order, of the elements within the reduced axes: what
// argmin and argmax return (the flat index for axis=None).
inline strides_t reduced_positions(const shape_t& in, axis_mask m) {
  strides_t r = strides_t::filled(in.size(), 0);
  index_t step = 1;
  for (int i = in.size() - 1; i >= 0; --i)
    if (m >> i & 1) {
      r[i] = step;
      step *= in[i];
    }
  return r;
}

inline index_t reduced_count(const shape_t& s, axis_mask m) {
  index_t n = 1;
  for (int i = 0; i < s.size(); ++i)
    if (m >> i & 1) n *= s[i];
  return n;
}

// The layout a reduction walks: merged dimensions, fastest first; bit k of
// `reduced` tells whether dimension k is reduced.
struct reduce_plan {
  int nd = 0;
  shape_t shape;
  axis_mask reduced = 0;
  index_t outputs = 1;     // kept positions
  index_t per_output = 1;  // reduced positions per output
  int kept_dims = 0;       // dimensions 1 .. kept_dims are kept, the rest reduced
  std::span<strides_t> strides;
};

// Slot 0 is the result (stride 0 along reduced axes), slots 1 .. the
// operands' coordinates. The axes are ordered by the operands' strides (what
// is read dominates), then the result's.
inline reduce_plan plan_reduction(const shape_t& shape, axis_mask m, std::span<strides_t> strides) {
  reduce_plan p;
  p.strides = strides;
  const int nslots = static_cast<int>(strides.size());
  int axes[max_ndim];
  int n = 0;
  for (int i = 0; i < shape.size(); ++i) {
    if (m >> i & 1)
      p.per_output *= shape[i];
    else
      p.outputs *= shape[i];
    if (shape[i] != 1) axes[n++] = i;
  }
  auto mag = [](index_t v) { return v < 0 ? -v : v; };
  std::stable_sort(axes, axes + n, [&](int a, int b) {
    for (int k = 1; k <= nslots; ++k) {
      const int s = k % nslots;
      const index_t x = mag(strides[s][a]), y = mag(strides[s][b]);
      if (x != y) return x < y;
    }
    return a > b;
  });
  index_t original[max_slots][max_ndim];
  for (int s = 0; s < nslots; ++s)
    for (int k = 0; k < n; ++k) original[s][axes[k]] = strides[s][axes[k]];
  for (int s = 0; s < nslots; ++s) strides[s] = strides_t::filled(std::max(n, 1), 0);
  index_t ext[max_ndim];
  int d = 0;
  for (int k = 0; k < n; ++k) {
    const int a = axes[k];
    const bool red = m >> a & 1;
    if (d > 0 && red == ((p.reduced >> (d - 1)) & 1)) {
      bool mergeable = true;
      for (int s = 0; s < nslots && mergeable; ++s)
        mergeable = original[s][a] == strides[s][d - 1] * ext[d - 1];
      if (mergeable) {
        ext[d - 1] *= shape[a];
        continue;
      }
    }
    ext[d] = shape[a];
    if (red) p.reduced |= axis_mask{1} << d;
    for (int s = 0; s < nslots; ++s) strides[s][d] = original[s][a];
    ++d;
  }
  if (d == 0) {
    ext[0] = 1;
    d = 1;
  }
  // Dimension 0 stays the fastest; the others are grouped, kept ones first,
  // so that the kernels decode each group from one linear index.
  int order[max_ndim];
  int j = 0;
  order[j++] = 0;
  for (int k = 1; k < d; ++k)
    if (!(p.reduced >> k & 1)) order[j++] = k;
  p.kept_dims = j - 1;
  for (int k = 1; k < d; ++k)
    if (p.reduced >> k & 1) order[j++] = k;
  p.nd = d;
  p.shape = shape_t::filled(d, 1);
  axis_mask reduced = p.reduced & 1;
  for (int k = 0; k < d; ++k) {
    p.shape[k] = ext[order[k]];
    if (p.reduced >> order[k] & 1) reduced |= axis_mask{1} << k;
  }
  p.reduced = reduced;
  for (int s = 0; s < nslots; ++s) {
    strides_t t = strides_t::filled(d, 0);
    for (int k = 0; k < d; ++k) t[k] = strides[s][order[k]];
    strides[s] = t;
  }
  return p;
}

// A plan with nothing reduced (one kept dimension) as one with a reduced
// dimension 0 of extent 1 in front of it.
inline void as_inner_unit(reduce_plan& p) {
  const index_t kept = p.shape[0];
  p.nd = 2;
  p.shape = shape_t{1, kept};
  p.reduced = 1;
  p.kept_dims = 1;
  for (auto& st : p.strides) st = strides_t{0, st[0]};
}

// The order that makes a materialised operand merge into two dimensions:
// kept axes (slowest) then reduced axes, each in their original order.
inline void kept_then_reduced(const shape_t& shape, axis_mask m, int* perm) {
  int j = 0;
  for (int i = 0; i < shape.size(); ++i)
    if (!(m >> i & 1)) perm[j++] = i;
  for (int i = 0; i < shape.size(); ++i)
    if (m >> i & 1) perm[j++] = i;
}

}  // namespace cupp::detail
