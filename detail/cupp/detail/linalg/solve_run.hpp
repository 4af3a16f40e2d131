// The engines of numpy.linalg.solve, inv, det, slogdet and cholesky: the
// small-matrix kernels (small_matrix_kernels.hpp) for stacks of matrices up
// to 8 x 8 on the device, cuBLAS's batched and cuSOLVER's 64-bit LU and
// Cholesky routines (lu_device.hpp) for larger ones, LAPACKE (lu_host.hpp)
// for host arrays, and NumPy's results for empty stacks. <cupp/linalg/solve.hpp>
// keeps the public functions, which make the operands arrays of the dtype
// the solvers compute in and call these.
#pragma once

#include <algorithm>
#include <type_traits>
#include <vector>

#include <cupp/array_fwd.hpp>
#include <cupp/config.hpp>
#include <cupp/detail/expression/launch.hpp>
#include <cupp/detail/linalg/lapack_common.hpp>
#include <cupp/detail/linalg/linalg_views.hpp>
#include <cupp/detail/linalg/lu_device.hpp>
#include <cupp/detail/linalg/lu_host.hpp>
#include <cupp/detail/linalg/small_matrix_kernels.hpp>
#include <cupp/detail/linalg/solve_plan.hpp>
#include <cupp/errors.hpp>
#include <cupp/shape.hpp>

namespace cupp::detail {

// x with element strides (copied in C order when its byte strides are not
// whole elements).
template <class R, class S>
ndarray<R, S> with_element_strides(ndarray<R, S> x, strides_t& e) {
  if (auto s = element_strides(x.strides(), sizeof(R))) {
    e = *s;
    return x;
  }
  x = x.copy();
  e = *element_strides(x.strides(), sizeof(R));
  return x;
}

inline shape_t with_core(shape_t s, index_t a, index_t b = -1) {
  s.push_back(a);
  if (b >= 0) s.push_back(b);
  return s;
}

template <class R, class S>
ndarray<R, S> inv_array(ndarray<R, S> a);

template <class R, class S>
ndarray<R, S> solve_arrays(ndarray<R, S> a, ndarray<R, S> b) {
  constexpr bool on_device = std::is_same_v<S, device_space>;
  check_stacked_square(a.shape());
  const solve_shapes p = plan_solve(a.shape(), b.shape());
  const index_t n = p.n, k = p.k, count = size_of(p.batch);
  if (size_of(p.out_shape) == 0) {
    // NumPy factors a even for no right-hand side (k == 0), and raises for
    // a singular one.
    if (k == 0 && n > 0 && count > 0 && linalg::checks_errors()) (void)inv_array(a);
    return ndarray<R, S>(p.out_shape);
  }
  if constexpr (on_device) {
#if defined(__CUDACC__)
    check_current_device(a.device_id());
    check_current_device(b.device_id());
    // A thread solves its right-hand sides one after another: many of them
    // on few matrices go to getrs, which spreads them over the GPU.
    if (n <= small_matrix_max && (k <= 256 || count >= 4096)) {
      strides_t ea, eb;
      a = with_element_strides(a, ea);
      b = with_element_strides(b, eb);
      ndarray<R, S> out(p.out_shape);
      index_t st[3][max_ndim];
      const int nbatch = p.batch.size(), na = a.ndim(), nb = b.ndim();
      batch_strides_of(a.shape(), ea, 2, nbatch, st[0]);
      batch_strides_of(b.shape(), eb, p.vector ? 1 : 2, nbatch, st[1]);
      c_batch_strides(p.batch, n * k, st[2]);
      small_core c;
      c.ars = ea[na - 2];
      c.acs = ea[na - 1];
      c.brs = p.vector ? eb[nb - 1] : eb[nb - 2];
      c.bcs = p.vector ? 0 : eb[nb - 1];
      c.xrs = k;
      c.xcs = 1;
      run_small_matrix<small_op::solve>(a.data(), b.data(), out.data(), nullptr, n, k, c,
                                        make_stack_walk(p.batch, st), out.device_id());
      return out;
    }
#else
    CUPP_NEEDS_NVCC(R);
#endif
  }
  // One factorisation when a is one matrix for every right-hand side,
  // else one per result matrix (a broadcast to the result's stack).
  const index_t a_count = stack_count(a.shape()) == 1 ? 1 : count;
  ndarray<R, S> lu = a_count == 1 ? a.copy() : broadcast_view(a, with_core(p.batch, n, n)).copy();
  const ndarray<R, S> rhs =
      broadcast_view(b, p.vector ? with_core(p.batch, n) : with_core(p.batch, n, k));
  // Column-major right-hand sides, which getrs overwrites with x.
  ndarray<R, S> x = p.vector ? rhs.copy() : column_major_stack<R>(rhs);
  if constexpr (on_device) {
#if defined(__CUDACC__)
    const int dev = lu.device_id();
    const device_lu_factors f = device_getrf(lu.data(), n, a_count, dev);
    device_getrs(lu.data(), f, a_count, x.data(), n, k, count, dev);
    check_device_info(static_cast<const int*>(f.info.get()), a_count, dev, "Singular matrix",
                      "getrf");
#endif
  } else {
#if CUPP_HAVE_HOST_BLAS
    std::vector<lapack_int> piv;
    std::vector<int> info;
    host_getrf(lu.data(), n, a_count, piv, info);
    check_host_info(info.data(), a_count, "Singular matrix", "?getrf");
    host_getrs(lu.data(), piv, a_count, x.data(), n, k, count);
#else
    static_assert(dependent_false<R>, CUPP_DETAIL_NO_HOST_BLAS("cupp::linalg::solve"));
#endif
  }
  return p.vector ? x : x.swapaxes(-1, -2).copy();
}

template <class R, class S>
ndarray<R, S> inv_array(ndarray<R, S> a) {
  constexpr bool on_device = std::is_same_v<S, device_space>;
  check_stacked_square(a.shape());
  const index_t n = a.shape()[a.ndim() - 1], count = stack_count(a.shape());
  if (a.size() == 0) return ndarray<R, S>(a.shape());
  if constexpr (on_device) {
#if defined(__CUDACC__)
    check_current_device(a.device_id());
    ndarray<R, S> out(a.shape());
    const int dev = out.device_id();
    if (n <= small_matrix_max) {
      strides_t ea;
      a = with_element_strides(a, ea);
      const shape_t batch = leading_axes(a.shape(), 2);
      index_t st[3][max_ndim];
      batch_strides_of(a.shape(), ea, 2, batch.size(), st[0]);
      std::fill(st[1], st[1] + max_ndim, index_t{0});
      c_batch_strides(batch, n * n, st[2]);
      small_core c;
      c.ars = ea[a.ndim() - 2];
      c.acs = ea[a.ndim() - 1];
      c.xrs = n;
      c.xcs = 1;
      run_small_matrix<small_op::inv>(a.data(), static_cast<const R*>(nullptr), out.data(), nullptr,
                                      n, n, c, make_stack_walk(batch, st), dev);
      return out;
    }
    ndarray<R, S> lu = a.copy();
    const device_lu_factors f = device_getrf(lu.data(), n, count, dev);
    device_getri(lu.data(), f, out.data(), n, count, dev);
    check_device_info(static_cast<const int*>(f.info.get()), count, dev, "Singular matrix",
                      "getrf");
    return out;
#else
    CUPP_NEEDS_NVCC(R);
#endif
  } else {
#if CUPP_HAVE_HOST_BLAS
    ndarray<R, S> lu = a.copy();
    std::vector<lapack_int> piv;
    std::vector<int> info;
    host_getrf(lu.data(), n, count, piv, info);
    check_host_info(info.data(), count, "Singular matrix", "?getrf");
    host_getri(lu.data(), piv, info, n, count);
    return lu;
#else
    static_assert(dependent_false<R>, CUPP_DETAIL_NO_HOST_BLAS("cupp::linalg::inv"));
#endif
  }
}

// slogdet into sign and logabs, or det into sign (logabs null).
template <class R, class S>
void slogdet_arrays(ndarray<R, S> a, ndarray<R, S>& sign, ndarray<lapack_real_t<R>, S>* logabs) {
  using Re = lapack_real_t<R>;
  constexpr bool on_device = std::is_same_v<S, device_space>;
  check_stacked_square(a.shape());
  const shape_t batch = leading_axes(a.shape(), 2);
  const index_t n = a.shape()[a.ndim() - 1], count = size_of(batch);
  sign = ndarray<R, S>(batch);
  if (logabs) *logabs = ndarray<Re, S>(batch);
  if (count == 0) return;
  Re* la = logabs ? logabs->data() : nullptr;
  if constexpr (on_device) {
#if defined(__CUDACC__)
    check_current_device(a.device_id());
    const int dev = sign.device_id();
    cudaStream_t stream = cuda::detail::current_stream_impl(dev)->handle;
    if (n == 0) {
      // The determinant of a 0 x 0 matrix is 1 (NumPy).
      device_fill(sign.data(), count, R(1), stream);
      if (la) device_fill(la, count, Re(0), stream);
      return;
    }
    if (n <= small_matrix_max) {
      strides_t ea;
      a = with_element_strides(a, ea);
      index_t st[3][max_ndim];
      batch_strides_of(a.shape(), ea, 2, batch.size(), st[0]);
      std::fill(st[1], st[1] + max_ndim, index_t{0});
      c_batch_strides(batch, 1, st[2]);
      small_core c;
      c.ars = ea[a.ndim() - 2];
      c.acs = ea[a.ndim() - 1];
      const stack_walk w = make_stack_walk(batch, st);
      if (logabs)
        run_small_matrix<small_op::slogdet>(a.data(), static_cast<const R*>(nullptr), sign.data(),
                                            la, n, 1, c, w, dev);
      else
        run_small_matrix<small_op::det>(a.data(), static_cast<const R*>(nullptr), sign.data(), la,
                                        n, 1, c, w, dev);
      return;
    }
    ndarray<R, S> lu = a.copy();
    const device_lu_factors f = device_getrf(lu.data(), n, count, dev);
    device_lu_slogdet(lu.data(), f, n, count, sign.data(), la, dev);
#else
    CUPP_NEEDS_NVCC(R);
#endif
  } else {
#if CUPP_HAVE_HOST_BLAS
    if (n == 0) {
      std::fill(sign.data(), sign.data() + count, R(1));
      if (la) std::fill(la, la + count, Re(0));
      return;
    }
    ndarray<R, S> lu = a.copy();
    std::vector<lapack_int> piv;
    std::vector<int> info;
    host_getrf(lu.data(), n, count, piv, info);
    host_lu_slogdet(lu.data(), piv.data(), n, count, sign.data(), la);
#else
    static_assert(dependent_false<R>, CUPP_DETAIL_NO_HOST_BLAS("cupp::linalg::det and slogdet"));
#endif
  }
}

template <class R, class S>
ndarray<R, S> cholesky_array(const ndarray<R, S>& a, bool upper) {
  constexpr bool on_device = std::is_same_v<S, device_space>;
  check_stacked_square(a.shape());
  const index_t n = a.shape()[a.ndim() - 1], count = stack_count(a.shape());
  if constexpr (on_device) {
#if defined(__CUDACC__)
    if (a.size() == 0) return ndarray<R, S>(a.shape());
    check_current_device(a.device_id());
    // One pass copies a into storage that potrf reads with its lower
    // triangle (the fast one) and zeroes the other: each matrix in column
    // major for L (returned as the transposed view of it, no second copy),
    // in C order for U (= the transpose of conj(A)'s L, which column major
    // reads there).
    strides_t ea;
    const ndarray<R, S> src = with_element_strides(a, ea);
    const shape_t batch = leading_axes(src.shape(), 2);
    index_t st[3][max_ndim] = {};
    batch_strides_of(src.shape(), ea, 2, batch.size(), st[0]);
    const index_t ars = ea[src.ndim() - 2], acs = ea[src.ndim() - 1];
    ndarray<R, S> c(a.shape());
    const int dev = c.device_id();
    device_triangle_copy(src.data(), c.data(), n, count, make_stack_walk(batch, st),
                         upper ? ars : acs, upper ? acs : ars,
                         cuda::detail::current_stream_impl(dev)->handle);
    const cuda::memory_ptr info = device_potrf(c.data(), n, count, dev);
    check_device_info(static_cast<const int*>(info.get()), count, dev,
                      "Matrix is not positive definite", "potrf");
    return upper ? c : c.swapaxes(-1, -2);
#else
    CUPP_NEEDS_NVCC(R);
#endif
  } else {
#if CUPP_HAVE_HOST_BLAS
    ndarray<R, S> c = a.copy();
    if (c.size() == 0) return c;
    const std::vector<int> info = host_potrf(c.data(), n, count, upper);
    check_host_info(info.data(), count, "Matrix is not positive definite", "?potrf");
    return c;
#else
    static_assert(dependent_false<R>, CUPP_DETAIL_NO_HOST_BLAS("cupp::linalg::cholesky"));
#endif
  }
}

}  // namespace cupp::detail
