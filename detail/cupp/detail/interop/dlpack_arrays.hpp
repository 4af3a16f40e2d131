// The typed half of DLPack exchange, the engines of <cupp/dlpack.hpp>:
// an array lent as a tensor (to_dlpack_as: the export context, the stream
// handshake) and a tensor taken as an array (from_dlpack_as: the checks,
// then an array that owns the tensor). The untyped work is in
// dlpack_owner.hpp.
#pragma once

#include <memory>
#include <type_traits>
#include <utility>

#include <cupp/array_fwd.hpp>
#include <cupp/cuda/memory.hpp>
#include <cupp/detail/interop/dlpack_owner.hpp>
#include <cupp/dlpack_abi.hpp>
#include <cupp/dlpack_stream.hpp>
#include <cupp/dtype.hpp>
#include <cupp/errors.hpp>

namespace cupp {

namespace detail::interop {

template <class Managed, class T, class Space>
Managed* to_dlpack_as(const ndarray<T, Space>& x, const dlpack::consumer_stream& stream) {
  constexpr bool on_device = std::is_same_v<Space, device_space>;
  if (!on_device && !stream.is_default() && !stream.is_no_sync())
    throw value_error("to_dlpack: a host array takes no stream (the protocol allows only None)");
  auto ctx = make_export<Managed>(x.data(), dl_device_of(x.data(), x.device_id(), on_device),
                                  dtype_of<T>().id, x.shape(), x.strides(), x.itemsize(),
                                  x.memory(), !x.flags().writeable);
  if constexpr (on_device) {
    if (!stream.is_no_sync()) order_for_consumer(x.device_id(), stream.handle());
  }
  return &ctx.release()->managed;
}

template <class T, class Space, class Managed>
ndarray<T, Space> from_dlpack_as(Managed* m) {
  static_assert(is_dtype_v<T>, "from_dlpack<T>: T must be a cupp dtype");
  constexpr bool on_device = std::is_same_v<Space, device_space>;
  dl_view v =
      check_import(m, dtype_of<T>().id, static_cast<index_t>(sizeof(T)), alignof(T), on_device);
  // Allocated before the tensor is adopted: if this throws, the tensor is
  // still the caller's, as for every other refusal.
  auto holder = std::make_shared<dl_import<Managed>>();
  holder->tensor = m;
  cuda::memory_ptr owner(std::move(holder), v.data);  // shares the holder, points at the data
  ndarray<T, Space> r(static_cast<T*>(v.data), v.shape, v.strides, std::move(owner),
                      on_device ? v.device : -1, false);
  if (v.read_only) r.setflags(false);
  return r;
}

}  // namespace detail::interop

}  // namespace cupp
