// One call of a kernel made from CuPy's string syntax: the arguments as
// the generated kernel takes them (arrays by pointer, shape and strides,
// scalars converted to their parameter's dtype), the outputs it allocates,
// and the generated kernels of an object, one per signature.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <cupp/array_fwd.hpp>
#include <cupp/cuda/memory.hpp>
#include <cupp/cuda/stream.hpp>
#include <cupp/detail/kernels/params.hpp>
#include <cupp/dtype.hpp>
#include <cupp/errors.hpp>
#include <cupp/shape.hpp>

namespace cupp::detail::kernels {

// An argument of any dtype: an array (data, shape, byte strides, owner) or a
// scalar, held widened (integers as 64 bits, floats as double, complex as
// complex<double>) until its parameter's dtype is known.
struct any_arg {
  bool is_array = false;
  dtype_id type{};
  void* data = nullptr;
  shape_t shape;
  strides_t strides;
  cuda::memory_ptr owner;
  int device = -1;
  bool c_contiguous = true;
  enum class wide_kind { int64, uint64, real, cplx } wide{};
  std::int64_t i = 0;
  std::uint64_t u = 0;
  double re = 0, im = 0;
};

template <class A>
any_arg capture_arg(const A& a) {
  any_arg r;
  if constexpr (expression_node<A>) {  // a lazy expression: its value
    return capture_arg(a.eval());
  } else if constexpr (is_ndarray_v<A>) {
    static_assert(std::is_same_v<typename A::space_type, device_space>,
                  "a run-time kernel takes device arrays: use cupp::asarray on a host array");
    r.is_array = true;
    r.type = A::dtype().id;
    r.data = const_cast<typename A::value_type*>(a.data());
    r.shape = a.shape();
    r.strides = a.strides();
    r.owner = a.memory();
    r.device = a.device_id();
    r.c_contiguous = a.is_c_contiguous();
  } else {
    static_assert(is_dtype_v<A> || std::is_arithmetic_v<A>,
                  "a run-time kernel argument is a device array or a scalar of a cupp dtype");
    if constexpr (is_dtype_v<A>)
      r.type = dtype_of<A>().id;
    else  // long, char and the like: the dtype of their size and sign
      r.type = std::is_same_v<A, bool>       ? dtype_id::bool_
               : std::is_floating_point_v<A> ? dtype_id::float64
               : std::is_signed_v<A>         ? (sizeof(A) == 8 ? dtype_id::int64 : dtype_id::int32)
                                     : (sizeof(A) == 8 ? dtype_id::uint64 : dtype_id::uint32);
    if constexpr (is_complex_v<A>) {
      r.wide = any_arg::wide_kind::cplx;
      r.re = static_cast<double>(a.real());
      r.im = static_cast<double>(a.imag());
    } else if constexpr (std::is_same_v<A, __half> || std::is_same_v<A, __nv_bfloat16>) {
      r.wide = any_arg::wide_kind::real;
      r.re = static_cast<double>(static_cast<float>(a));
    } else if constexpr (std::is_floating_point_v<A>) {
      r.wide = any_arg::wide_kind::real;
      r.re = static_cast<double>(a);
    } else if constexpr (std::is_signed_v<A>) {
      r.wide = any_arg::wide_kind::int64;
      r.i = static_cast<std::int64_t>(a);
    } else {
      r.wide = any_arg::wide_kind::uint64;
      r.u = static_cast<std::uint64_t>(a);
    }
  }
  return r;
}

// A widened scalar as dtype `t`, with C++'s conversions, into `out`.
inline void convert_scalar(const any_arg& a, dtype_id t, unsigned char* out) {
  const auto put = [&](auto v) { std::memcpy(out, &v, sizeof(v)); };
  const auto as = [&](auto zero) {
    using U = decltype(zero);
    switch (a.wide) {
      case any_arg::wide_kind::int64:
        return static_cast<U>(a.i);
      case any_arg::wide_kind::uint64:
        return static_cast<U>(a.u);
      case any_arg::wide_kind::real:
        return static_cast<U>(a.re);
      case any_arg::wide_kind::cplx:
        return static_cast<U>(a.re);
    }
    return zero;
  };
  switch (t) {
    case dtype_id::bool_:
      put(a.wide == any_arg::wide_kind::int64    ? a.i != 0
          : a.wide == any_arg::wide_kind::uint64 ? a.u != 0
                                                 : (a.re != 0 || a.im != 0));
      break;
    case dtype_id::int8:
      put(as(std::int8_t{}));
      break;
    case dtype_id::int16:
      put(as(std::int16_t{}));
      break;
    case dtype_id::int32:
      put(as(std::int32_t{}));
      break;
    case dtype_id::int64:
      put(as(std::int64_t{}));
      break;
    case dtype_id::uint8:
      put(as(std::uint8_t{}));
      break;
    case dtype_id::uint16:
      put(as(std::uint16_t{}));
      break;
    case dtype_id::uint32:
      put(as(std::uint32_t{}));
      break;
    case dtype_id::uint64:
      put(as(std::uint64_t{}));
      break;
    case dtype_id::float16:
      put(__float2half_rn(static_cast<float>(as(0.0))));
      break;
    case dtype_id::bfloat16:
      put(__float2bfloat16_rn(static_cast<float>(as(0.0))));
      break;
    case dtype_id::float32:
      put(as(0.0f));
      break;
    case dtype_id::float64:
      put(as(0.0));
      break;
    case dtype_id::complex64: {
      const float v[2] = {static_cast<float>(as(0.0)), static_cast<float>(a.im)};
      std::memcpy(out, v, sizeof(v));
      break;
    }
    case dtype_id::complex128: {
      const double v[2] = {as(0.0), a.im};
      std::memcpy(out, v, sizeof(v));
      break;
    }
  }
}

// The generated kernel's arguments, each at its alignment in one buffer,
// and the pointers cudaLaunchKernel takes.
class argument_pack {
 public:
  template <class V>
  void add(const V& v) {
    unsigned char* p = reserve(sizeof(V), alignof(V));
    std::memcpy(p, &v, sizeof(V));
  }
  unsigned char* reserve(std::size_t size, std::size_t align) {
    used_ = (used_ + align - 1) / align * align;
    if (used_ + size > sizeof(buffer_) || count_ == max_args)
      throw value_error("run-time kernel: too many or too large arguments");
    unsigned char* p = buffer_ + used_;
    used_ += size;
    pointers_[count_++] = p;
    return p;
  }
  void** pointers() { return pointers_; }

 private:
  static constexpr int max_args = 256;
  alignas(16) unsigned char buffer_[8192];
  std::size_t used_ = 0;
  void* pointers_[max_args];
  int count_ = 0;
};

// The result of a kernel call: its outputs, each of the dtype its
// parameter was bound to. One output converts to an ndarray of that dtype;
// get<U>(k) and as<U...>() take them out by type, checked at run time.
class kernel_outputs {
 public:
  struct output {
    void* data;
    shape_t shape;
    strides_t strides;
    cuda::memory_ptr owner;
    int device;
    dtype_id type;
    bool owndata;
  };

  std::size_t size() const noexcept { return outs_.size(); }
  cupp::dtype dtype(std::size_t k = 0) const { return descriptor(at(k).type); }

  template <class U>
  ndarray<U> get(std::size_t k = 0) const {
    const output& o = at(k);
    if (o.type != dtype_of<U>().id)
      throw type_error("kernel output " + std::to_string(k) + " is " +
                       std::string(descriptor(o.type).name) + ", not " +
                       std::string(dtype_of<U>().name));
    return ndarray<U>(static_cast<U*>(o.data), o.shape, o.strides, o.owner, o.device, o.owndata);
  }
  template <class... U>
  std::tuple<ndarray<U>...> as() const {
    if (sizeof...(U) != outs_.size())
      throw value_error("the kernel has " + std::to_string(outs_.size()) + " outputs, " +
                        std::to_string(sizeof...(U)) + " types given");
    return take<U...>(std::index_sequence_for<U...>{});
  }
  template <class U>
  operator ndarray<U>() const {  // NOLINT: a single output reads as its array
    if (outs_.size() != 1)
      throw value_error("the kernel has " + std::to_string(outs_.size()) +
                        " outputs: take them with as<...>() or get<U>(k)");
    return get<U>(0);
  }

  std::vector<output>& list() { return outs_; }

 private:
  template <class... U, std::size_t... I>
  std::tuple<ndarray<U>...> take(std::index_sequence<I...>) const {
    return std::tuple<ndarray<U>...>{get<U>(I)...};
  }
  const output& at(std::size_t k) const {
    if (k >= outs_.size())
      throw value_error("kernel output " + std::to_string(k) + " out of range (" +
                        std::to_string(outs_.size()) + " outputs)");
    return outs_[k];
  }
  std::vector<output> outs_;
};

// New C-contiguous memory of `shape` and dtype `t` on the current device.
inline kernel_outputs::output allocate_output(const shape_t& shape, dtype_id t, int device) {
  kernel_outputs::output o;
  const index_t item = descriptor(t).itemsize;
  o.shape = shape;
  o.strides = contiguous_strides(shape, item);
  o.owner = cuda::alloc(static_cast<std::size_t>(size_of(shape) * item));
  o.data = o.owner.get();
  o.device = device;
  o.type = t;
  o.owndata = true;
  return o;
}

// The kernels an object has generated, one per signature (a few bytes that
// name the dtypes, kinds and ranks of a call, and the device).
class signature_table {
 public:
  cudaKernel_t find(const std::string& key) const {
    const std::lock_guard lock(mutex_);
    for (const auto& e : entries_)
      if (e.first == key) return e.second;
    return nullptr;
  }
  void insert(std::string key, cudaKernel_t k) const {
    const std::lock_guard lock(mutex_);
    entries_.emplace_back(std::move(key), k);
  }

 private:
  mutable std::mutex mutex_;
  mutable std::vector<std::pair<std::string, cudaKernel_t>> entries_;
};

// Merges neighbouring axes that are contiguous in every operand, keeping C
// order (the flat index i is the C-order position, as in CuPy), and drops
// axes of extent 1. Returns the merged rank (at least 1).
inline int merge_axes_c_order(shape_t& shape, std::vector<strides_t*>& strides) {
  index_t ext[max_ndim];
  int m = 0;
  for (int a = 0; a < shape.size(); ++a) {
    if (shape[a] == 1) continue;
    if (m > 0) {
      bool mergeable = true;
      for (strides_t* s : strides) mergeable &= (*s)[m - 1] == (*s)[a] * shape[a];
      if (mergeable) {
        ext[m - 1] *= shape[a];
        for (strides_t* s : strides) (*s)[m - 1] = (*s)[a];
        continue;
      }
    }
    ext[m] = shape[a];
    for (strides_t* s : strides) (*s)[m] = (*s)[a];
    ++m;
  }
  if (m == 0) {
    ext[0] = 1;
    for (strides_t* s : strides) (*s)[0] = 0;
    m = 1;
  }
  shape = shape_t::filled(m, 1);
  for (int d = 0; d < m; ++d) shape[d] = ext[d];
  for (strides_t* s : strides) s->resize(m);
  return m;
}

}  // namespace cupp::detail::kernels
