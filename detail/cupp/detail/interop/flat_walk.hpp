// What cupp::begin/end (<cupp/iterator.hpp>) build on: the walk from a
// linear C-order position to per-axis coordinates, the merging of axes that
// lets most layouts walk as one axis, and the two element accessors, one
// for an array (a reference into its memory) and one for a lowered lazy
// expression (its value, computed where it is read).
//
// Coordinates are ordered as the element-wise evaluators take them: axis 0
// is the fastest (the array's last), up to kernel_dims axes, so that an
// expression's evaluator is reused as is.
#pragma once

#include <array>
#include <cstdint>
#include <iterator>
#include <span>
#include <string>
#include <type_traits>

#include <thrust/iterator/iterator_categories.h>
#include <thrust/iterator/iterator_traits.h>

#include <cupp/array_fwd.hpp>
#include <cupp/cuda/runtime.hpp>
#include <cupp/detail/convert.hpp>
#include <cupp/detail/elementwise/evaluators.hpp>
#include <cupp/detail/elementwise/plan.hpp>
#include <cupp/detail/expression/operands.hpp>
#include <cupp/errors.hpp>
#include <cupp/shape.hpp>

namespace cupp::detail::interop {

// The iterator's category: Thrust's device tag for device arrays (it
// derives from the standard random-access tag, so CUB and the standard
// library still see random access), the standard tag for host arrays. The
// tag alone does not send Thrust to the GPU (it maps a bare device tag to
// its host system): <cupp/iterator.hpp> specialises thrust::iterator_system.
template <class S>
using flat_category_t =
    std::conditional_t<std::is_same_v<S, host_space>, std::random_access_iterator_tag,
                       thrust::random_access_device_iterator_tag>;

// Linear C-order position -> coordinates (fastest axis first). Divisions by
// the extents use precomputed multipliers: a plain 64-bit division costs
// dozens of instructions on the GPU, once per axis and per element.
struct c_order_walk {
  int nd = 1;
  fast_divmod div[kernel_dims];  // div[k] divides by axis k's extent, k < nd - 1

  CUPP_HD void coords(index_t i, index_t* c) const {
    // Unrolled with guards rather than a loop to nd, so that c stays in
    // registers on the device.
    CUPP_UNROLL
    for (int k = 0; k < kernel_dims; ++k) {
      if (k < nd - 1) {
        const index_t q = static_cast<index_t>(div[k].div64(static_cast<std::uint64_t>(i)));
        c[k] = i - q * static_cast<index_t>(div[k].divisor);
        i = q;
      } else if (k == nd - 1) {
        c[k] = i;
      } else {
        c[k] = 0;
      }
    }
  }
};

// Axes of `shape` in walking order (fastest first), merged wherever every
// operand's strides (`in`, one per operand, broadcast to `shape`) make two
// neighbours one run; extent-1 axes drop out. Writes the merged strides to
// `out` (one per operand) and the extents to `ext`, and returns the number
// of axes (1 for a 0-d or empty shape). Plain code, shared by every
// iterator type.
inline int merge_c_order(const shape_t& shape, std::span<const strides_t> in,
                         std::span<strides_t> out, index_t* ext) {
  const int nd = shape.size();
  for (strides_t& s : out) s = strides_t::filled(0, 0);
  int m = 0;
  if (size_of(shape) == 0) {
    ext[0] = 0;
    for (strides_t& s : out) s.push_back(0);
    return 1;
  }
  for (int a = nd - 1; a >= 0; --a) {
    if (shape[a] == 1) continue;
    bool mergeable = m > 0;
    for (std::size_t s = 0; s < in.size() && mergeable; ++s)
      mergeable = in[s][a] == out[s][m - 1] * ext[m - 1];
    if (mergeable) {
      ext[m - 1] *= shape[a];
      continue;
    }
    if (m == kernel_dims)
      throw value_error("cupp::begin: the layout has more than " + std::to_string(kernel_dims) +
                        " axes that cannot be merged into one run; iterate over a copy "
                        "(x.copy()), which is C-contiguous");
    ext[m] = shape[a];
    for (std::size_t s = 0; s < in.size(); ++s) out[s].push_back(in[s][a]);
    ++m;
  }
  if (m == 0) {
    ext[0] = 1;
    for (strides_t& s : out) s.push_back(0);
    m = 1;
  }
  return m;
}

inline c_order_walk make_walk(const index_t* ext, int m) {
  c_order_walk w;
  w.nd = m;
  for (int k = 0; k < m - 1; ++k) w.div[k] = fast_divmod(static_cast<std::uint64_t>(ext[k]));
  return w;
}

// An array's elements by reference (T const-qualified for cbegin).
template <class T>
struct array_access {
  using value_type = std::remove_const_t<T>;
  using reference = T&;
  using byte = std::conditional_t<std::is_const_v<T>, const char, char>;

  byte* data = nullptr;
  index_t st[kernel_dims] = {};  // bytes, fastest axis first
  c_order_walk w;

  CUPP_HD reference at(index_t i) const {
    // One run (contiguous, reversed or evenly strided): no coordinates.
    if (w.nd == 1) return *reinterpret_cast<T*>(data + i * st[0]);
    index_t c[kernel_dims];
    w.coords(i, c);
    return *reinterpret_cast<T*>(data + chunk_offset(st, c, w.nd));
  }
};

template <class T>
array_access<T> make_array_access(T* data, const shape_t& shape, const strides_t& strides) {
  strides_t merged;
  index_t ext[kernel_dims];
  const int m = merge_c_order(shape, std::span<const strides_t>(&strides, 1),
                              std::span<strides_t>(&merged, 1), ext);
  array_access<T> a;
  a.data = reinterpret_cast<typename array_access<T>::byte*>(data);
  for (int k = 0; k < m; ++k) a.st[k] = merged[k];
  a.w = make_walk(ext, m);
  return a;
}

// A lazy expression's values, computed at each read by its lowered
// evaluator (Ev, the one the element-wise kernel runs, loading one element
// instead of a chunk). A class-type value comes back const, so that
// `*it = v` does not compile for any dtype (built-in prvalues already
// refuse assignment; const on them would only draw a warning).
template <class Ev, class V>
struct expression_access {
  using value_type = V;
  using reference = std::conditional_t<std::is_class_v<V>, const V, V>;

  Ev e;
  c_order_walk w;

  CUPP_HD reference at(index_t i) const {
    index_t c[kernel_dims];
    w.coords(i, c);
    typename Ev::regs r{};  // one lane loaded (-Wmaybe-uninitialized)
    e.load(r, c, w.nd, 1);
    return convert<V>(e.value(r, 0));
  }
};

// Lowers `e` for single-element reads along its broadcast shape in C order.
template <class E>
auto make_expression_access(const E& e) {
  using V = typename E::value_type;
  constexpr bool on_device = !std::is_same_v<eval_space_t<typename E::space>, host_space>;
  const shape_t& shape = e.shape();
  // Slot 0 is the output's in the element-wise kernels; an iterator has
  // none, so it stays all zeros (and never blocks a merge).
  std::array<strides_t, E::slots + 1> st;
  st[0] = strides_t::filled(shape.size(), 0);
  strides_t* p = st.data() + 1;
  e.collect(p, shape);
  std::array<strides_t, E::slots + 1> merged;
  index_t ext[kernel_dims];
  const int m = merge_c_order(shape, st, merged, ext);
  lower_ctx L{merged, m, m, nullptr, 1};
  if constexpr (on_device) {
    int device = -1;
    e.for_each_array([&](const array_info& a) {
      if (device < 0) device = a.device;
    });
    L.device = device >= 0 ? device : cuda::runtime::getDevice();
  } else {
    L.device = -1;
  }
  using Ev = decltype(e.template lower<V, 1>(L));
  return expression_access<Ev, V>{e.template lower<V, 1>(L), make_walk(ext, m)};
}

}  // namespace cupp::detail::interop
