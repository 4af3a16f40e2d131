// The engine of numpy.cumsum, cumprod, nancumsum and nancumprod: the
// result dtype and the scan order of the axes, the operand's dimensions
// merged for the scan kernel (detail/reduce/scan_kernel.hpp), a dense array
// handed to cub::DeviceScan through a plain pointer, and the result laid out
// in C order.
#pragma once

#include <array>
#include <cstdint>
#include <type_traits>

#include <cupp/array_fwd.hpp>
#include <cupp/axis.hpp>
#include <cupp/detail/convert.hpp>
#include <cupp/detail/expression/launch.hpp>
#include <cupp/detail/reduce/plan.hpp>
#include <cupp/detail/reduce/reducers.hpp>
#include <cupp/detail/reduce/scan_kernel.hpp>
#include <cupp/errors.hpp>
#include <cupp/shape.hpp>

namespace cupp {

namespace detail {

// Writes the scan of `e` in scan order (the scanned axis fastest, the
// others in C order) into the contiguous `dst`: n elements in lines of
// `length`. `perm` lists e's axes in scan order, slowest first.
template <class Acc, bool Product, bool SkipNan, class Res, class S, class E>
void scan_into(const E& e, const int* perm, const ndarray<Res, S>& dst, index_t n, index_t length) {
  const shape_t& shape = e.shape();
  const int nd = shape.size();
  std::array<strides_t, E::slots + 1> st;
  strides_t* p = st.data() + 1;
  e.collect(p, shape);
  // Dimensions in scan order, fastest first, merged where every operand is
  // contiguous across them.
  index_t ext[max_ndim];
  std::array<strides_t, E::slots + 1> merged;
  for (auto& s : merged) s = strides_t::filled(0, 0);
  int m = 0;
  for (int k = nd - 1; k >= 0; --k) {
    const int a = perm[k];
    if (shape[a] == 1) continue;
    bool mergeable = m > 0;
    for (int s = 1; s <= E::slots && mergeable; ++s)
      mergeable = st[s][a] == merged[s][m - 1] * ext[m - 1];
    if (mergeable) {
      ext[m - 1] *= shape[a];
      continue;
    }
    ext[m] = shape[a];
    for (int s = 1; s <= E::slots; ++s) merged[s].push_back(st[s][a]);
    ++m;
  }
  if (m == 0) {
    ext[0] = 1;
    for (int s = 1; s <= E::slots; ++s) merged[s].push_back(0);
    m = 1;
  }
  if (m > kernel_dims) {
    // Too many dimensions for the kernel's coordinates: lay the operand out
    // in scan order first.
    shape_t ps = shape;
    for (int i = 0; i < nd; ++i) ps[i] = shape[perm[i]];
    using V = typename E::value_type;
    ndarray<V, S> tmp(ps);
    strides_t vs = shape;
    for (int i = 0; i < nd; ++i) vs[perm[i]] = tmp.strides()[i];
    assign(ndarray<V, S>(tmp.data(), shape, vs, tmp.memory(), tmp.device_id(), false), e);
    int ident[max_ndim];
    for (int i = 0; i < nd; ++i) ident[i] = i;
    scan_into<Acc, Product, SkipNan>(array_leaf<V, S>{tmp}, ident, dst, n, length);
    return;
  }
  if constexpr (std::is_same_v<S, device_space> && !SkipNan && requires { e.a.data(); }) {
    // A dense array: CUB reads it through a plain pointer (vector loads).
    using V = typename E::value_type;
    if (m == 1 && merged[1][0] == static_cast<index_t>(sizeof(V))) {
      check_current_device(dst.device_id());
      check_current_device(e.a.device_id());
#if defined(__CUDACC__)
      device_scan(static_cast<const V*>(e.a.data()), dst.data(), scan_op<Acc, Product>{}, n, length,
                  cuda::detail::current_stream_impl(dst.device_id())->handle);
#else
      CUPP_NEEDS_NVCC(E);
#endif
      return;
    }
  }
  merged[0] = strides_t::filled(m, 0);
  lower_ctx L{merged, m, m, nullptr, 1};
  using Ev = decltype(e.template lower<typename E::value_type, 1>(L));
  scan_input<Ev, Acc, SkipNan> in{
      e.template lower<typename E::value_type, 1>(L), {}, convert<Acc>(Product ? 1 : 0)};
  in.d.nd = m;
  for (int k = 0; k < m; ++k) {
    in.d.ext[k] = ext[k];
    in.d.div[k] = fast_divmod(static_cast<std::uint64_t>(ext[k]));
  }
  if constexpr (std::is_same_v<S, device_space>) {
    check_current_device(dst.device_id());
    e.for_each_array([&](const array_info& a) { check_current_device(a.device); });
#if defined(__CUDACC__)
    device_scan(in, dst.data(), scan_op<Acc, Product>{}, n, length,
                cuda::detail::current_stream_impl(dst.device_id())->handle);
#else
    CUPP_NEEDS_NVCC(E);
#endif
  } else {
    host_scan(in, dst.data(), scan_op<Acc, Product>{}, n, length);
  }
}

template <class Dt, bool Product, bool SkipNan, class E>
auto cumulative(const E& e, const axis_arg& axis) {
  using T = typename E::value_type;
  static_assert(is_dtype_v<T>, "cupp: scan an array or an expression, not a scalar");
  using Res = std::conditional_t<std::is_void_v<Dt>, red::sum_result_t<T>, Dt>;
  using Acc = red::compute_t<Res>;
  using S = eval_space_t<typename E::space>;
  const shape_t& shape = e.shape();
  const int nd = shape.size();
  const index_t n = size_of(shape);
  int perm[max_ndim];
  for (int i = 0; i < nd; ++i) perm[i] = i;
  if (axis.all()) {
    ndarray<Res, S> out(shape_t{n});
    if (n > 0) scan_into<Acc, Product, SkipNan>(e, perm, out, n, n);
    return out;
  }
  if (axis.size() != 1) throw type_error("'tuple' object cannot be interpreted as an integer");
  const int ax = static_cast<int>(normalize_axis(axis[0], nd));
  ndarray<Res, S> out(shape);
  if (n == 0) return out;
  if (ax == nd - 1) {
    scan_into<Acc, Product, SkipNan>(e, perm, out, n, shape[ax]);
    return out;
  }
  // Scan into scan order, then lay the result out in C order.
  int j = 0;
  for (int i = 0; i < nd; ++i)
    if (i != ax) perm[j++] = i;
  perm[nd - 1] = ax;
  shape_t ps = shape;
  for (int i = 0; i < nd; ++i) ps[i] = shape[perm[i]];
  ndarray<Res, S> tmp(ps);
  scan_into<Acc, Product, SkipNan>(e, perm, tmp, n, shape[ax]);
  strides_t vs = shape;
  for (int i = 0; i < nd; ++i) vs[perm[i]] = tmp.strides()[i];
  assign(out, array_leaf<Res, S>{
                  ndarray<Res, S>(tmp.data(), shape, vs, tmp.memory(), tmp.device_id(), false)});
  return out;
}

}  // namespace detail

}  // namespace cupp
