// The writers the element-wise kernel stores a chunk's values through: an
// array of type T that values are cast into, or two arrays written by one
// kernel (the two-output ufuncs: divmod, frexp, modf).
#pragma once

#include <cstdint>

#include <cupp/config.hpp>
#include <cupp/detail/convert.hpp>
#include <cupp/detail/elementwise/evaluators.hpp>
#include <cupp/detail/elementwise/plan.hpp>
#include <cupp/detail/numerics/pair_value.hpp>
#include <cupp/shape.hpp>

namespace cupp::detail {

// The output: an array of type T that values are cast into.
template <class T, int N>
struct array_out {
  using value_type = T;
  char* data;
  index_t st[kernel_dims];

  template <class V>
  CUPP_HD static T cast(const V& v) {
    return convert<T>(v);
  }
  bool dense() const {
    return st[0] == static_cast<index_t>(sizeof(T)) &&
           reinterpret_cast<std::uintptr_t>(data) % (sizeof(T) * N) == 0;
  }
  // The N elements from element i on, known to be dense and aligned.
  CUPP_HD void store_dense(const T* v, index_t i) const {
    vec_of<T, N> b;
    CUPP_UNROLL
    for (int j = 0; j < N; ++j) b.v[j] = v[j];
    *reinterpret_cast<vec_of<T, N>*>(data + i * static_cast<index_t>(sizeof(T))) = b;
  }
  CUPP_HD void store(const T* v, const index_t* c, int nd, int count) const {
    char* p = data + chunk_offset(st, c, nd);
    if (N > 1 && dense_chunk<T, N>(p, st[0], count)) {
      vec_of<T, N> b;
      CUPP_UNROLL
      for (int j = 0; j < N; ++j) b.v[j] = v[j];
      *reinterpret_cast<vec_of<T, N>*>(p) = b;
    } else {
      CUPP_UNROLL
      for (int j = 0; j < N; ++j)
        if (j < count) *reinterpret_cast<T*>(p + j * st[0]) = v[j];
    }
  }
};

// Two outputs written by one kernel.
template <class A, class B, int N>
struct pair_out {
  using value_type = pair_value<A, B>;
  array_out<A, N> first;
  array_out<B, N> second;

  template <class V>
  CUPP_HD static value_type cast(const V& v) {
    return {convert<A>(v.first), convert<B>(v.second)};
  }
  CUPP_HD void store(const value_type* v, const index_t* c, int nd, int count) const {
    A a[N];
    B b[N];
    split(v, a, b);
    first.store(a, c, nd, count);
    second.store(b, c, nd, count);
  }
  bool dense() const { return first.dense() && second.dense(); }
  CUPP_HD void store_dense(const value_type* v, index_t i) const {
    A a[N];
    B b[N];
    split(v, a, b);
    first.store_dense(a, i);
    second.store_dense(b, i);
  }

 private:
  CUPP_HD static void split(const value_type* v, A* a, B* b) {
    CUPP_UNROLL
    for (int j = 0; j < N; ++j) {
      a[j] = v[j].first;
      b[j] = v[j].second;
    }
  }
};

}  // namespace cupp::detail
