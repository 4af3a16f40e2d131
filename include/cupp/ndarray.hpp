// cupp::ndarray<T>: an N-dimensional array on a CUDA device, and its host
// counterpart cupp::host::ndarray<T> (what asnumpy returns).
//
// An ndarray is a handle: a pointer to its first element, a shape, strides
// in bytes and shared ownership of the memory. Copying a handle makes a view
// of the same memory (NumPy's `b = a.view()`); copy() allocates.
//
// A .cpp file (host compiler) may include this header: it holds arrays,
// copies them between host and device (the kernels of layout-changing
// device copies come from the program's .cu files) and computes on host
// arrays; computing on device arrays there is a compile error
// (CUPP_NEEDS_NVCC).
#pragma once

#include <concepts>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <cupp/array_fwd.hpp>
#include <cupp/cuda/device.hpp>
#include <cupp/cuda/memory.hpp>
#include <cupp/cuda/stream.hpp>
#include <cupp/detail/views/array_views.hpp>
#include <cupp/detail/memory/allocation.hpp>
#include <cupp/detail/memory/strided_copy.hpp>
#include <cupp/detail/memory/transfer.hpp>
#include <cupp/dtype.hpp>
#include <cupp/errors.hpp>
#include <cupp/reduction_options.hpp>
#include <cupp/shape.hpp>
#include <cupp/transfer_options.hpp>

namespace cupp {

// numpy.ndarray.flags.
struct array_flags {
  bool c_contiguous = true;
  bool f_contiguous = true;
  bool owndata = false;
  bool writeable = true;
  bool aligned = true;
};

namespace detail {

// A new array of dtype T holding the value of expression `e`.
template <class T, class S, class E>
ndarray<T, S> evaluate_as(const E& e);
template <class U, class T, class S>
ndarray<U, S> astype_copy(const ndarray<T, S>& a);

}  // namespace detail

template <class T, class Space>
class ndarray : public detail::array_views<ndarray<T, Space>> {
  static_assert(is_dtype_v<T>,
                "cupp::ndarray<T>: T must be a cupp dtype: bool, std::int8_t ... std::uint64_t, "
                "__half, __nv_bfloat16, float, double, ::cuda::std::complex<float|double>");
  static_assert(std::is_same_v<Space, device_space> || std::is_same_v<Space, host_space>,
                "cupp::ndarray<T, Space>: Space is device_space or host_space");

 public:
  using value_type = T;
  using space_type = Space;
  static constexpr bool is_device = std::is_same_v<Space, device_space>;
  using host_type = ndarray<T, host_space>;
  using device_type = ndarray<T, device_space>;

  // An empty 1-d array, shape (0,), with no memory.
  ndarray() : shape_{0}, strides_{static_cast<index_t>(sizeof(T))}, device_(is_device ? 0 : -1) {
    update_flags();
  }

  // An uninitialised array of `shape`, on the current device for device
  // arrays (cupy.ndarray(shape, dtype, order=)), in host memory otherwise.
  explicit ndarray(const shape_t& shape, order o = order::C) : shape_(shape) {
    const index_t n = detail::checked_size(shape_, itemsize());
    strides_ = detail::contiguous_strides(shape_, itemsize(), o == order::F ? order::F : order::C);
    if constexpr (is_device) {
      device_ = cuda::runtime::getDevice();
      mem_ = cuda::alloc(static_cast<std::size_t>(n) * sizeof(T));
    } else {
      mem_ = detail::host_alloc(static_cast<std::size_t>(n) * sizeof(T));
    }
    data_ = static_cast<T*>(mem_.get());
    owndata_ = true;
    update_flags();
  }

  // An array over existing memory: `data` points at element [0, ..., 0],
  // strides are in bytes (C-contiguous when empty) and `owner` keeps the
  // memory alive (nothing does when it is empty: cupy's UnownedMemory). For
  // device memory, `device` is the device it lives on (-1: the one CUDA
  // reports for the pointer, else the current device).
  static ndarray from_pointer(T* data, const shape_t& shape, const strides_t& strides = {},
                              cuda::memory_ptr owner = {}, int device = -1) {
    detail::checked_size(shape, itemsize());
    strides_t s = strides.empty() ? detail::contiguous_strides(shape, itemsize()) : strides;
    if (s.size() != shape.size())
      throw value_error("strides, if given, must be the same length as shape");
    if constexpr (is_device) {
      if (device < 0) device = detail::device_of(data);
    } else {
      device = -1;
    }
    return ndarray(data, shape, s, std::move(owner), device, false);
  }

  // The low-level constructor behind views: no checks.
  ndarray(T* data, const shape_t& shape, const strides_t& strides, cuda::memory_ptr owner,
          int device, bool owndata)
      : data_(data),
        shape_(shape),
        strides_(strides),
        mem_(std::move(owner)),
        device_(device),
        owndata_(owndata) {
    update_flags();
  }

  // The value of a lazy expression, in new memory laid out in NumPy's K
  // order: `ndarray<float> z = x * y + w;` runs one kernel.
  template <class E>
  requires detail::expression_node<E> ndarray(const E& e)
      : ndarray(detail::evaluate_as<T, Space>(e)) {}

  // Rebinds this handle to the value of an expression (NumPy's `z = x * y`);
  // use copyto() or an out= form to write into existing memory.
  template <class E>
  requires detail::expression_node<E> ndarray& operator=(const E& e) & {
    return *this = detail::evaluate_as<T, Space>(e);
  }

  // Reductions and scans as methods (x.sum(axis, ...)), defined in
  // <cupp/reductions.hpp>.
  CUPP_REDUCTION_METHODS

  // A copy cast to dtype U (ndarray.astype; see numpy-differences.md for
  // the float-to-integer rule).
  template <class U>
  ndarray<U, Space> astype() const {
    return detail::astype_copy<U>(*this);
  }

  // Copies of a handle are views: same memory, owndata false.
  ndarray(const ndarray& other)
      : data_(other.data_),
        shape_(other.shape_),
        strides_(other.strides_),
        mem_(other.mem_),
        device_(other.device_),
        owndata_(false),
        flags_(other.flags_) {
    flags_.owndata = false;
  }
  ndarray& operator=(const ndarray& other) & {
    if (this != &other) {
      ndarray tmp(other);
      *this = std::move(tmp);
    }
    return *this;
  }
  ndarray(ndarray&&) noexcept = default;
  ndarray& operator=(ndarray&&) & noexcept = default;

  // --- NumPy's attributes ----------------------------------------------------

  T* data() const noexcept { return data_; }
  const shape_t& shape() const noexcept { return shape_; }
  const strides_t& strides() const noexcept { return strides_; }
  int ndim() const noexcept { return shape_.size(); }
  index_t size() const noexcept { return detail::size_of(shape_); }
  index_t nbytes() const noexcept { return size() * itemsize(); }
  static constexpr index_t itemsize() noexcept { return static_cast<index_t>(sizeof(T)); }
  static constexpr cupp::dtype dtype() noexcept { return dtype_of<T>(); }
  const array_flags& flags() const noexcept { return flags_; }
  bool is_c_contiguous() const noexcept { return flags_.c_contiguous; }
  bool is_f_contiguous() const noexcept { return flags_.f_contiguous; }
  // The owner of the memory (empty for unowned memory and empty arrays).
  const cuda::memory_ptr& memory() const noexcept { return mem_; }

  // The device holding the data (device arrays), or "cpu" (host arrays).
  auto device() const {
    if constexpr (is_device)
      return cuda::Device(device_, cuda::Device::unchecked_t{});
    else
      return std::string_view("cpu");
  }
  int device_id() const noexcept { return device_; }

  // A cuda::std::mdspan<T, dextents<index_t, Rank>, layout_stride> over
  // this array, for a user's kernel; the same as cupp::mdspan<Rank>(x).
  template <std::size_t Rank, class Self = ndarray>
  auto mdspan() const {
    static_assert(detail::mdspan_header_included<Self>,
                  "x.mdspan<Rank>() needs #include <cupp/mdspan.hpp>");
    return cupp::mdspan<Rank>(static_cast<const Self&>(*this));
  }

  // A new handle to the same memory (numpy.ndarray.view()).
  ndarray view() const { return *this; }

  // A copy in new memory, laid out in order `o` (C by default; A and K keep
  // an F-contiguous layout). Device copies run on this array's device.
  ndarray copy(order o = order::C) const {
    const order layout = resolve_order(o);
    if constexpr (is_device) {
      cuda::device_scope scope(device_);
      ndarray out(shape_, layout);
      copy_into(out);
      return out;
    } else {
      ndarray out(shape_, layout);
      copy_into(out);
      return out;
    }
  }

  // --- element access -------------------------------------------------------

  // The element at a full index (negative indices count from the end).
  // Host arrays only: for device arrays, item() copies one element out.
  template <std::integral... I>
  T& at(I... idx) const {
    static_assert(!is_device,
                  "ndarray::at() reads host memory: use item() on a device array, or "
                  "cupp::asnumpy() it first");
    const index_t ii[] = {static_cast<index_t>(idx)..., 0};
    return *element_ptr(ii, static_cast<int>(sizeof...(I)));
  }

  // numpy.ndarray.item(): no index for a one-element array, one index for a
  // flat (C-order) position, or a full index. Device arrays synchronize.
  template <std::integral... I>
  T item(I... idx) const {
    const T* p;
    if constexpr (sizeof...(I) == 0) {
      if (size() != 1) throw value_error("can only convert an array of size 1 to a Python scalar");
      p = data_;
    } else if constexpr (sizeof...(I) == 1) {
      const index_t flat[] = {static_cast<index_t>(idx)...};
      p = flat_element_ptr(flat[0]);
    } else {
      const index_t ii[] = {static_cast<index_t>(idx)...};
      if (static_cast<int>(sizeof...(I)) != ndim())
        throw value_error("incorrect number of indices for array");
      p = element_ptr(ii, static_cast<int>(sizeof...(I)));
    }
    if constexpr (is_device) {
      T value;
      cuda::device_scope scope(device_);
      const cudaStream_t s = cuda::detail::current_stream_impl(device_)->handle;
      cuda::check(cudaMemcpyAsync(&value, p, sizeof(T), cudaMemcpyDeviceToHost, s),
                  "cudaMemcpyAsync");
      cuda::check(cudaStreamSynchronize(s), "cudaStreamSynchronize");
      return value;
    } else {
      return *p;
    }
  }

  // The elements in C order (ndarray.ravel().tolist(), as a std::vector).
  std::vector<T> to_vector() const {
    if constexpr (is_device) {
      return get().to_vector();
    } else {
      if (size() == 0) return {};
      if (flags_.c_contiguous) return std::vector<T>(data_, data_ + size());
      const host_type dense = copy(order::C);
      return std::vector<T>(dense.data_, dense.data_ + size());
    }
  }

  // --- views (basic indexing and the view functions of manipulation.hpp) -----

  // Writes into the elements of a view that is a temporary, as NumPy's
  // `x[2:7] = src`: src is an expression (one fused kernel), an array or a
  // scalar, broadcast to the view's shape; an operand overlapping the view
  // is read through a temporary first. A named view `v = src` rebinds v
  // instead: write `v(ellipsis) = src` (NumPy's v[...] = src).
  template <class E>
  const ndarray& operator=(const E& src) && {
    if (!flags_.writeable) throw value_error("assignment destination is read-only");
    if constexpr (requires { src.shape(); }) detail::check_setitem_shape(src.shape(), shape_);
    copyto(*this, src);  // found by argument-dependent lookup (expression.hpp)
    return *this;
  }

  // A view of the same memory with another geometry: `v.offset` bytes from
  // data(), unchecked (what every view function builds on). The view keeps
  // this array's read-only flag.
  ndarray view_as(const detail::view_layout& v) const {
    ndarray r(reinterpret_cast<T*>(reinterpret_cast<char*>(data_) + v.offset), v.shape, v.strides,
              mem_, device_, false);
    r.flags_.writeable = flags_.writeable;
    return r;
  }

  // ndarray.setflags(write=...): a read-only array refuses to be written
  // through cupp's functions (copyto, in-place operators, view assignment).
  // The flag belongs to this handle and the views made from it.
  void setflags(bool write) noexcept { flags_.writeable = write; }

  // ndarray.sort(axis, kind): sorts in place (a stable sort whatever the
  // kind). Defined in <cupp/sort.hpp>, which a unit calling it includes.
  void sort(int axis = -1, std::string_view kind = {}) const;

  // --- transfers (device arrays) --------------------------------------------

  // A host copy (cupy.ndarray.get). Non-blocking copies land in pinned
  // memory; synchronize the stream before reading them.
  host_type get(const transfer_options& opt = {}) const requires is_device {
    const order layout = resolve_order(opt.ord);
    host_type out;
    if (opt.blocking) {
      out = host_type(shape_, layout);
    } else {
      cuda::device_scope scope(device_);
      out = detail::pinned_host_array<T>(shape_, layout);
    }
    get_into(out, opt);
    return out;
  }

  // Copies into an existing host array of the same shape (get(out=...)).
  void get_into(const host_type& out, const transfer_options& opt = {}) const requires is_device {
    if (out.shape() != shape_)
      throw value_error("Shape mismatch. Old shape: " + to_string(out.shape()) +
                        ", new shape: " + to_string(shape_));
    if (size() == 0) return;
    cuda::device_scope scope(device_);
    const cudaStream_t s = stream_of(opt);
    const bool same_layout = (out.is_c_contiguous() && flags_.c_contiguous) ||
                             (out.is_f_contiguous() && flags_.f_contiguous);
    if (same_layout) {
      detail::copy_device_to_host(out.data(), data_, static_cast<std::size_t>(nbytes()), device_, s,
                                  opt.blocking, out.memory());
      return;
    }
    // Make a device copy in the destination's layout (or C), then transfer.
    const order layout = out.is_f_contiguous() && !out.is_c_contiguous() ? order::F : order::C;
    ndarray dense(shape_, layout);
    copy_into(dense, s);
    if (out.is_c_contiguous() || out.is_f_contiguous()) {
      detail::copy_device_to_host(out.data(), dense.data(), static_cast<std::size_t>(nbytes()),
                                  device_, s, opt.blocking, out.memory());
      sync_if_nonblocking_temp(opt, s);
      return;
    }
    // A strided host destination: stage contiguously on the host.
    host_type stage(shape_, layout);
    detail::copy_device_to_host(stage.data(), dense.data(), static_cast<std::size_t>(nbytes()),
                                device_, s, true);
    detail::host_strided_copy(
        reinterpret_cast<char*>(out.data()), reinterpret_cast<const char*>(stage.data()),
        detail::plan_copy(shape_, out.strides(), stage.strides()), itemsize());
  }

  // Copies host data into this array (cupy.ndarray.set). The shapes must
  // match; any layout works on either side.
  void set(const host_type& src, const transfer_options& opt = {}) const requires is_device {
    if (src.shape() != shape_)
      throw value_error("Shape mismatch. Old shape: " + to_string(shape_) +
                        ", new shape: " + to_string(src.shape()));
    if (size() == 0) return;
    cuda::device_scope scope(device_);
    const cudaStream_t s = stream_of(opt);
    const bool same_layout = (src.is_c_contiguous() && flags_.c_contiguous) ||
                             (src.is_f_contiguous() && flags_.f_contiguous);
    if (same_layout) {
      detail::copy_host_to_device(data_, src.data(), static_cast<std::size_t>(nbytes()), device_, s,
                                  opt.blocking);
      return;
    }
    // Upload a dense image of the source, then scatter it on the device.
    host_type dense_host =
        (src.is_c_contiguous() || src.is_f_contiguous()) ? src : src.copy(order::C);
    ndarray dense(shape_, dense_host.is_c_contiguous() ? order::C : order::F);
    detail::copy_host_to_device(dense.data(), dense_host.data(), static_cast<std::size_t>(nbytes()),
                                device_, s, opt.blocking);
    dense.copy_into(*this, s);
    sync_if_nonblocking_temp(opt, s);
  }

  // Copies `values` (size() elements in C order) into this array.
  void set(std::span<const T> values, const transfer_options& opt = {}) const requires is_device {
    if (static_cast<index_t>(values.size()) != size())
      throw value_error("cannot copy " + std::to_string(values.size()) +
                        " elements into an array of shape " + to_string(shape_) + " (size " +
                        std::to_string(size()) + ")");
    set(host_type::from_pointer(const_cast<T*>(values.data()), shape_), opt);
  }

  // Element-wise copy into `dst` (same shape, any layout, same space),
  // ordered on the current stream of the destination's device.
  void copy_into(const ndarray& dst) const {
    if constexpr (is_device)
      copy_into(dst, cuda::detail::current_stream_impl(dst.device_)->handle);
    else
      copy_into(dst, nullptr);
  }

 private:
  template <class, class>
  friend class ndarray;

  void copy_into(const ndarray& dst, cudaStream_t s) const {
    if (dst.shape_ != shape_)
      throw value_error("could not broadcast input array from shape " + detail::np_shape(shape_) +
                        " into shape " + detail::np_shape(dst.shape_));
    if (size() == 0) return;
    const bool same_dense = (flags_.c_contiguous && dst.flags_.c_contiguous) ||
                            (flags_.f_contiguous && dst.flags_.f_contiguous);
    if constexpr (is_device) {
      // The null stream means the current device's: make it dst's.
      cuda::device_scope dst_scope(dst.device_);
      if (same_dense) {
        detail::copy_device_to_device(dst.data_, dst.device_, data_, device_,
                                      static_cast<std::size_t>(nbytes()), s);
        return;
      }
      if (dst.device_ != device_) {
        ndarray local =
            copy(dst.flags_.f_contiguous && !dst.flags_.c_contiguous ? order::F : order::C);
        local.copy_into(dst, s);
        return;
      }
      cuda::device_scope scope(device_);
#if defined(__CUDACC__)
      // Sets the pointer below before main for every unit of the program,
      // the .cpp files included, and compiles the copy kernels in this unit
      // (named here, in a function, for nvcc's device pass to see them).
      // The argument depends on T so that only a unit that instantiates this
      // copy does so: a non-dependent name would be instantiated with the
      // class template's definition, in every unit that includes this header
      // (the kernels' host side, the launch code and the error messages it
      // reaches; 0.5 s of host compile in a unit that only includes cupp).
      (void)detail::strided_copy_registration<sizeof(T) * 0>::done;
      (void)&detail::device_strided_copy<sizeof(T) * 0>;
#endif
      detail::device_strided_copy_indirect(
          reinterpret_cast<char*>(dst.data_), reinterpret_cast<const char*>(data_),
          detail::plan_copy(shape_, dst.strides_, strides_), itemsize(), s);
    } else {
      (void)s;
      if (same_dense) {
        std::memmove(dst.data_, data_, static_cast<std::size_t>(nbytes()));
        return;
      }
      detail::host_strided_copy(reinterpret_cast<char*>(dst.data_),
                                reinterpret_cast<const char*>(data_),
                                detail::plan_copy(shape_, dst.strides_, strides_), itemsize());
    }
  }

  order resolve_order(order o) const noexcept {
    if (o == order::F) return order::F;
    if ((o == order::A || o == order::K) && flags_.f_contiguous && !flags_.c_contiguous)
      return order::F;
    return order::C;
  }

  cudaStream_t stream_of(const transfer_options& opt) const {
    return opt.stream ? opt.stream->handle() : cuda::detail::current_stream_impl(device_)->handle;
  }

  // A non-blocking copy through a device temporary must not let the
  // temporary be reused before the copy reads it: its memory returns to the
  // pool of the current stream, so only a copy on another stream needs a wait.
  void sync_if_nonblocking_temp(const transfer_options& opt, cudaStream_t s) const {
    if (!opt.blocking && s != cuda::detail::current_stream_impl(device_)->handle)
      cuda::check(cudaStreamSynchronize(s), "cudaStreamSynchronize");
  }

  T* element_ptr(const index_t* idx, int n) const {
    if (n > ndim()) throw index_error(detail::index_count_message(n, ndim()));
    if (n < ndim())
      throw index_error("an element needs one index per axis: array is " + std::to_string(ndim()) +
                        "-dimensional, but " + std::to_string(n) + " were indexed");
    index_t off = 0;
    for (int a = 0; a < n; ++a) {
      index_t i = idx[a];
      const index_t e = shape_[a];
      if (i < -e || i >= e)
        throw index_error("index " + std::to_string(i) + " is out of bounds for axis " +
                          std::to_string(a) + " with size " + std::to_string(e));
      if (i < 0) i += e;
      off += i * strides_[a];
    }
    return reinterpret_cast<T*>(reinterpret_cast<char*>(data_) + off);
  }

  T* flat_element_ptr(index_t flat) const {
    const index_t n = size();
    if (flat < -n || flat >= n)
      throw index_error("index " + std::to_string(flat) + " is out of bounds for size " +
                        std::to_string(n));
    if (flat < 0) flat += n;
    index_t off = 0;
    for (int a = ndim() - 1; a >= 0; --a) {
      off += (flat % shape_[a]) * strides_[a];
      flat /= shape_[a];
    }
    return reinterpret_cast<T*>(reinterpret_cast<char*>(data_) + off);
  }

  void update_flags() noexcept {
    flags_.c_contiguous = detail::is_c_contiguous(shape_, strides_, itemsize());
    flags_.f_contiguous = detail::is_f_contiguous(shape_, strides_, itemsize());
    flags_.owndata = owndata_;
    flags_.aligned = reinterpret_cast<std::uintptr_t>(data_) % alignof(T) == 0;
    for (index_t s : strides_)
      if (s % static_cast<index_t>(alignof(T)) != 0) flags_.aligned = false;
  }

  T* data_ = nullptr;
  shape_t shape_;
  strides_t strides_;
  cuda::memory_ptr mem_;
  int device_ = -1;
  bool owndata_ = false;
  array_flags flags_;
};

}  // namespace cupp

#include <cupp/expression.hpp>
