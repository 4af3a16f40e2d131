// Running a product: out = alpha * (a @ b) + beta * out through one BLAS
// call (cuBLAS's strided batched gemm, OpenBLAS's cblas_?gemm) or cupp's
// exact loops, for operands read in place wherever their strides allow;
// matmul's out= (NumPy's checks, straight into out when it is a
// C-contiguous array of the result's dtype that no operand overlaps).
#pragma once

#include <cstring>
#include <type_traits>

#include <cupp/array_fwd.hpp>
#include <cupp/cuda/runtime.hpp>
#include <cupp/detail/expression/launch.hpp>
#include <cupp/detail/linalg/gemm.hpp>
#include <cupp/detail/linalg/matmul_plan.hpp>
#include <cupp/detail/linalg/product_operand.hpp>

namespace cupp::detail {

// The element strides of x, after a C-order copy when its byte strides are
// not whole elements.
template <class R, class S>
strides_t product_strides(ndarray<R, S>& x) {
  if (auto e = element_strides(x.strides(), sizeof(R))) return *e;
  x = x.copy();
  return *element_strides(x.strides(), sizeof(R));
}

// out = alpha * (a @ b) + beta * addend, out a C-contiguous array of the
// product's shape and the addend either out itself (addend null) or
// another C-contiguous array of that shape on out's device (beta 0:
// neither is read). Callers fold no addend into a product with k == 0
// (its zero is written without a BLAS call).
template <class R, class S>
void run_product(product_input<R, S> a, product_input<R, S> b, const ndarray<R, S>& out,
                 const gemm_scale<R>& scale, const R* addend = nullptr) {
  constexpr bool on_device = std::is_same_v<S, device_space>;
  // Where the addend cannot be read apart from the result (the host BLAS
  // and the exact loops), it is copied into the result first.
  const auto addend_into_out = [&] {
    if (!addend || addend == out.data() || is_zero_scalar(scale.beta)) return;
    const std::size_t bytes = static_cast<std::size_t>(out.size()) * sizeof(R);
    if constexpr (on_device) {
#if defined(__CUDACC__)
      cuda::check(cudaMemcpyAsync(out.data(), addend, bytes, cudaMemcpyDeviceToDevice,
                                  cuda::detail::current_stream_impl(out.device_id())->handle),
                  "cudaMemcpyAsync");
#endif
    } else {
      std::memcpy(out.data(), addend, bytes);
    }
  };
  if constexpr (on_device) {
    check_current_device(a.array.device_id());
    check_current_device(b.array.device_id());
    check_current_device(out.device_id());
  }
  matmul_plan p;
  index_t ars, acs, brs, bcs;
  const auto plan = [&] {
    const strides_t ea = product_strides(a.array), eb = product_strides(b.array);
    p = plan_matmul(a.array.shape(), ea, b.array.shape(), eb);
    core_strides(a.array.shape(), ea, true, ars, acs);
    core_strides(b.array.shape(), eb, false, brs, bcs);
  };
  plan();
  if (out.size() == 0) return;
  if constexpr (blas_float_v<R> || (on_device && blas_low_float_v<R>)) {
    const auto side = [&](const product_input<R, S>& x, index_t r, index_t c, index_t rs,
                          index_t cs) {
      return x.conj ? conj_gemm_side_of(r, c, rs, cs) : gemm_side_of(r, c, rs, cs);
    };
    auto sa = side(a, p.m, p.k, ars, acs);
    auto sb = side(b, p.k, p.n, brs, bcs);
    if (!sa || !sb) {
      // A matrix BLAS cannot read in place is written out (its conjugate,
      // for a conjugated operand) and the product replanned.
      const auto write_out = [](product_input<R, S>& x) {
        x.array = x.conj ? conjugated_copy(x.array) : x.array.copy();
        x.conj = false;
      };
      if (!sa) write_out(a);
      if (!sb) write_out(b);
      plan();
      sa = side(a, p.m, p.k, ars, acs);
      sb = side(b, p.k, p.n, brs, bcs);
    }
    if constexpr (on_device) {
#if defined(__CUDACC__)
      device_gemm(p, *sa, *sb, a.array.data(), b.array.data(), out.data(), out.device_id(), scale,
                  addend);
#else
      CUPP_NEEDS_NVCC(R);
#endif
    } else {
      addend_into_out();
      host_gemm(p, *sa, *sb, a.array.data(), b.array.data(), out.data(), scale);
    }
  } else {
    // Only complex operands are ever conjugated, and they take BLAS.
    const exact_strides s{ars, acs, brs, bcs};
    addend_into_out();
    if constexpr (on_device) {
#if defined(__CUDACC__)
      device_exact_matmul(p, s, a.array.data(), b.array.data(), out.data(),
                          cuda::detail::current_stream_impl(out.device_id())->handle, scale);
#else
      CUPP_NEEDS_NVCC(R);
#endif
    } else {
      host_exact_matmul(p, s, a.array.data(), b.array.data(), out.data(), scale);
    }
  }
}

// a @ b into a fresh C-contiguous array.
template <class R, class S>
ndarray<R, S> fresh_product(const product_input<R, S>& a, const product_input<R, S>& b) {
  ndarray<R, S> out(matmul_shape(a.array.shape(), b.array.shape()));
  run_product(a, b, out, plain_product<R>());
  return out;
}

template <class R, class S>
ndarray<R, S> matmul_arrays(ndarray<R, S> a, ndarray<R, S> b) {
  return fresh_product(product_input<R, S>{std::move(a)}, product_input<R, S>{std::move(b)});
}

// Whether two arrays' byte ranges meet (a conservative test of sharing
// memory, as numpy.may_share_memory).
template <class T, class U, class S>
bool may_share_memory(const ndarray<T, S>& x, const ndarray<U, S>& y) {
  const array_info ix{reinterpret_cast<const char*>(x.data()), &x.shape(), &x.strides(),
                      x.itemsize(), x.device_id()};
  const array_info iy{reinterpret_cast<const char*>(y.data()), &y.shape(), &y.strides(),
                      y.itemsize(), y.device_id()};
  const char *xlo, *xhi, *ylo, *yhi;
  byte_range(ix, xlo, xhi);
  byte_range(iy, ylo, yhi);
  return xlo < xhi && ylo < yhi && xlo < yhi && ylo < xhi;
}

// numpy.matmul(a, b, out=out): NumPy's checks before anything is written;
// then gemm straight into out when it is a C-contiguous array of the
// result's shape and dtype that shares no memory with an operand, else
// into a temporary that is cast and broadcast into out.
template <class R, class S, class T>
void matmul_into(const ndarray<T, S>& out, const product_input<R, S>& a,
                 const product_input<R, S>& b) {
  static_assert(can_cast_same_kind_v<R, T>,
                "cupp::matmul: Cannot cast ufunc 'matmul' output to the out= array's dtype with "
                "casting rule 'same_kind'");
  const shape_t r = matmul_shape(a.array.shape(), b.array.shape());
  if (!out.flags().writeable) throw value_error("output array is read-only");
  check_matmul_out(a.array.shape(), b.array.shape(), r, out.shape());
  if (out.size() == 0) return;
  if constexpr (std::is_same_v<T, R>) {
    if (out.shape() == r && out.is_c_contiguous() && !may_share_memory(out, a.array) &&
        !may_share_memory(out, b.array)) {
      run_product(a, b, out, plain_product<R>());
      return;
    }
  }
  assign(out, array_leaf<R, S>{fresh_product(a, b)});
}

}  // namespace cupp::detail
