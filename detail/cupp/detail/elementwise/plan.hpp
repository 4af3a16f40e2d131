// The host-side layout planning of an element-wise evaluation: which axes
// can be merged, which order walks the output in memory order, how many
// dimensions the kernel sees and how many the host iterates over. Plain
// code with no templates, so every expression shares it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>

#include <cupp/config.hpp>
#include <cupp/errors.hpp>
#include <cupp/shape.hpp>

namespace cupp::detail {

// Dimensions a kernel iterates over itself; further (outer) dimensions,
// which only survive merging in unusual layouts, are walked by the host with
// one launch per outer position.
inline constexpr int kernel_dims = 6;

// Coordinates one expression may use: the output and its leaves.
inline constexpr int max_slots = 64;

// Broadcasting of shapes (numpy.broadcast_shapes): the result of combining
// `a` with `b`, or an error naming both shapes.
inline shape_t broadcast_shape_pair(const shape_t& a, const shape_t& b, bool& ok) CUPP_HOST_BODY({
  const int n = std::max(a.size(), b.size());
  shape_t r = shape_t::filled(n, 1);
  ok = true;
  for (int i = 0; i < n; ++i) {
    const int ia = i - (n - a.size()), ib = i - (n - b.size());
    const index_t ea = ia >= 0 ? a[ia] : 1, eb = ib >= 0 ? b[ib] : 1;
    if (ea == eb || eb == 1)
      r[i] = ea;
    else if (ea == 1)
      r[i] = eb;
    else
      ok = false;
  }
  return r;
});

// NumPy's text, trailing space included: "operands could not be broadcast
// together with shapes (3,4) (4,3) ".
inline std::string shapes_message(std::span<const shape_t> shapes) CUPP_HOST_BODY({
  std::string m = "operands could not be broadcast together with shapes ";
  for (const shape_t& s : shapes) m += np_shape(s) + " ";
  return m;
});

// The broadcast shape of all operands; throws value_error as NumPy does.
inline shape_t broadcast_shapes(std::span<const shape_t> shapes) CUPP_HOST_BODY({
  shape_t r;
  for (const shape_t& s : shapes) {
    bool ok;
    r = broadcast_shape_pair(r, s, ok);
    if (!ok) throw value_error(shapes_message(shapes));
  }
  return r;
});

// The same over shapes given by address (an expression node's operands,
// not copied). Not inlined: every node type calls this one copy.
[[gnu::noinline]] inline shape_t broadcast_shapes(std::span<const shape_t* const> shapes) {
  shape_t r;
  for (const shape_t* s : shapes) {
    bool ok;
    r = broadcast_shape_pair(r, *s, ok);
    if (!ok) {
      std::string m = "operands could not be broadcast together with shapes ";
      for (const shape_t* x : shapes) m += np_shape(*x) + " ";
      throw value_error(m);
    }
  }
  return r;
}

// Strides of an operand of shape `s` broadcast to `out` (which it must
// broadcast to): left-extended, and 0 along broadcast axes. Not inlined:
// each leaf of each expression calls it.
[[gnu::noinline]] inline strides_t broadcast_strides(const shape_t& s, const strides_t& st,
                                                     const shape_t& out) CUPP_HOST_BODY({
  strides_t r = strides_t::filled(out.size(), 0);
  const int off = out.size() - s.size();
  for (int i = 0; i < s.size(); ++i) r[off + i] = s[i] == 1 ? 0 : st[i];
  return r;
});

// True when `s` broadcasts to exactly `out` (an out= operand's shape).
inline bool broadcasts_to(const shape_t& s, const shape_t& out) CUPP_HOST_BODY({
  if (s.size() > out.size()) return false;
  const int off = out.size() - s.size();
  for (int i = 0; i < s.size(); ++i)
    if (s[i] != 1 && s[i] != out[off + i]) return false;
  return true;
});

// The layout an evaluation runs over. Slot 0 is the output; the others are
// the coordinates of the leaves (a byte offset for an array, a linear
// position for a generator). After planning, axis 0 is the fastest one.
struct elementwise_plan {
  int nd = 0;                    // merged dimensions (>= 1 unless size == 0)
  index_t size = 0;              // elements
  shape_t shape;                 // merged extents, fastest first
  std::span<strides_t> strides;  // per slot, same axis order as shape
};

// Drops unit axes, orders axes so that the output is walked in memory order
// (ties broken by the next slots), and merges neighbouring axes that are
// contiguous in every slot.
inline elementwise_plan plan_elementwise(const shape_t& out_shape, std::span<strides_t> strides) {
  elementwise_plan p;
  p.strides = strides;
  p.size = size_of(out_shape);
  if (p.size == 0) return p;
  const int nslots = static_cast<int>(strides.size());
  if (nslots > max_slots) throw value_error("an expression may have at most 63 leaves");
  int axes[max_ndim];
  int n = 0;
  for (int i = 0; i < out_shape.size(); ++i)
    if (out_shape[i] != 1) axes[n++] = i;
  auto mag = [](index_t v) { return v < 0 ? -v : v; };
  // Fastest axis first: smallest output stride, then the inputs' strides.
  // An insertion sort: a handful of axes, and std::stable_sort's buffer
  // was a heap allocation on every evaluation (a fifth of the host time of
  // a small x * y + w).
  auto before = [&](int a, int b) {
    for (int s = 0; s < nslots; ++s) {
      const index_t x = mag(strides[s][a]), y = mag(strides[s][b]);
      if (x != y) return x < y;
    }
    return a > b;
  };
  for (int i = 1; i < n; ++i) {
    const int a = axes[i];
    int j = i;
    for (; j > 0 && before(a, axes[j - 1]); --j) axes[j] = axes[j - 1];
    axes[j] = a;
  }
  // Rewrite each slot's strides in the new axis order, merging as we go.
  index_t tmp_shape[max_ndim];
  int m = 0;
  index_t original[max_slots][max_ndim];  // uninitialised: this runs on every evaluation
  for (int s = 0; s < nslots; ++s)
    for (int k = 0; k < n; ++k) original[s][axes[k]] = strides[s][axes[k]];
  for (int s = 0; s < nslots; ++s) strides[s] = strides_t::filled(std::max(n, 1), 0);
  for (int k = 0; k < n; ++k) {
    const int a = axes[k];
    if (m > 0) {
      bool mergeable = true;
      for (int s = 0; s < nslots && mergeable; ++s)
        mergeable = original[s][a] == strides[s][m - 1] * tmp_shape[m - 1];
      if (mergeable) {
        tmp_shape[m - 1] *= out_shape[a];
        continue;
      }
    }
    tmp_shape[m] = out_shape[a];
    for (int s = 0; s < nslots; ++s) strides[s][m] = original[s][a];
    ++m;
  }
  if (m == 0) {  // every axis has extent 1: one element
    tmp_shape[0] = 1;
    m = 1;
  }
  p.nd = m;
  p.shape = shape_t::filled(m, 1);
  for (int k = 0; k < m; ++k) p.shape[k] = tmp_shape[k];
  for (int s = 0; s < nslots; ++s) strides[s].resize(m);
  return p;
}

// Division by a run-time constant through a multiply and a shift
// (Granlund and Montgomery): 32-bit arithmetic for dividends and divisors
// below 2^31, 64-bit (a high multiply) for dividends below 2^63. The caller
// picks one for the whole launch, so that the kernel holds no 64-bit
// division loops.
struct fast_divmod {
  std::uint64_t divisor = 1, multiplier64 = 0;
  std::uint32_t multiplier = 0, shift = 0;

  fast_divmod() = default;
  explicit fast_divmod(std::uint64_t d) : divisor(d) {
    while ((std::uint64_t{1} << shift) < d) ++shift;
    if (d < (std::uint64_t{1} << 31))
      multiplier = static_cast<std::uint32_t>(
          ((std::uint64_t{1} << 32) * ((std::uint64_t{1} << shift) - d)) / d + 1);
    using u128 = unsigned __int128;
    multiplier64 = static_cast<std::uint64_t>(((u128{1} << 64) * ((u128{1} << shift) - d)) / d + 1);
  }
  CUPP_HD std::uint32_t div(std::uint32_t n) const {
#if defined(__CUDA_ARCH__)
    const std::uint32_t hi = __umulhi(n, multiplier);
#else
    const std::uint32_t hi =
        static_cast<std::uint32_t>((static_cast<std::uint64_t>(n) * multiplier) >> 32);
#endif
    return (hi + n) >> shift;
  }
  CUPP_HD std::uint64_t div64(std::uint64_t n) const {
#if defined(__CUDA_ARCH__)
    const std::uint64_t hi = __umul64hi(n, multiplier64);
#else
    const std::uint64_t hi =
        static_cast<std::uint64_t>((static_cast<unsigned __int128>(n) * multiplier64) >> 64);
#endif
    return (hi + n) >> shift;
  }
};

}  // namespace cupp::detail
