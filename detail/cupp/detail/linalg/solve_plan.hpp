// numpy.linalg.solve's shapes (the gufuncs solve1 (m,m),(m)->(m) and solve
// (m,m),(m,n)->(m,n), with NumPy's messages) and the walk over a stack of
// matrices that the small-matrix kernels and the host loops share: the
// batch axes merged where every operand steps evenly, with each operand's
// element strides (0 where it broadcasts). Plain code, no templates.
#pragma once

#include <string>

#include <cupp/config.hpp>
#include <cupp/detail/elementwise/plan.hpp>
#include <cupp/errors.hpp>
#include <cupp/shape.hpp>

namespace cupp::detail {

// Up to three operands (a, b, the result) walked over one batch shape.
struct stack_walk {
  int nb = 0;
  index_t ext[max_ndim] = {};
  index_t st[3][max_ndim] = {};
  index_t count = 1;
};

// The batch position `i` (0 .. count) as element offsets of the operands.
CUPP_HD inline void stack_offsets(const stack_walk& w, index_t i, index_t* off) {
  if (w.nb == 1) {  // the common case, without a 64-bit division
    for (int s = 0; s < 3; ++s) off[s] = i * w.st[s][0];
    return;
  }
  off[0] = off[1] = off[2] = 0;
  for (int d = w.nb - 1; d >= 0; --d) {
    const index_t c = i % w.ext[d];
    i /= w.ext[d];
    for (int s = 0; s < 3; ++s) off[s] += c * w.st[s][d];
  }
}

// `batch` is the walked shape; st[s][d] the element stride of operand s
// along batch axis d (0 where it broadcasts or is absent).
inline stack_walk make_stack_walk(const shape_t& batch, const index_t (*st)[max_ndim]) {
  stack_walk w;
  w.count = size_of(batch);
  for (int d = 0; d < batch.size(); ++d) {
    if (batch[d] == 1) continue;
    if (w.nb > 0) {
      const int l = w.nb - 1;
      bool even = true;
      for (int s = 0; s < 3; ++s) even = even && w.st[s][l] == st[s][d] * batch[d];
      if (even) {
        w.ext[l] *= batch[d];
        for (int s = 0; s < 3; ++s) w.st[s][l] = st[s][d];
        continue;
      }
    }
    w.ext[w.nb] = batch[d];
    for (int s = 0; s < 3; ++s) w.st[s][w.nb] = st[s][d];
    ++w.nb;
  }
  return w;
}

// The batch strides of an operand of shape `s` (core axes `core` at the
// end, element strides `e`) aligned to the right of a batch of `nbatch`
// axes; axes it lacks or broadcasts step 0.
inline void batch_strides_of(const shape_t& s, const strides_t& e, int core, int nbatch,
                             index_t* out) {
  const int own = s.size() - core;
  for (int d = 0; d < nbatch; ++d) {
    const int i = d - (nbatch - own);
    out[d] = i >= 0 && s[i] != 1 ? e[i] : 0;
  }
}

// The C-order element strides of the batch axes of a fresh result whose
// matrices hold `core_size` elements each.
inline void c_batch_strides(const shape_t& batch, index_t core_size, index_t* out) {
  index_t step = core_size;
  for (int d = batch.size() - 1; d >= 0; --d) {
    out[d] = step;
    step *= batch[d];
  }
}

inline shape_t leading_axes(const shape_t& s, int core) {
  shape_t r = shape_t::filled(0, 0);
  for (int i = 0; i + core < s.size(); ++i) r.push_back(s[i]);
  return r;
}

// What solve(a, b) computes: a (..., n, n), b (..., n) when b is 1-d
// (`vector`) else (..., n, k), the result of shape out_shape.
struct solve_shapes {
  bool vector = false;
  index_t n = 0, k = 1;
  shape_t batch;      // the broadcast batch shape
  shape_t out_shape;  // batch + (n,) or batch + (n, k)
};

// NumPy's checks of solve's operands after a's _assert_stacked_square,
// with the gufunc's messages (ValueError).
inline solve_shapes plan_solve(const shape_t& a, const shape_t& b) {
  solve_shapes p;
  p.vector = b.size() == 1;
  const std::string name = p.vector ? "solve1" : "solve";
  const std::string signature = p.vector ? "(m,m),(m)->(m)" : "(m,m),(m,n)->(m,n)";
  if (!p.vector && b.size() < 2)
    throw value_error(name + ": Input operand 1 does not have enough dimensions (has " +
                      std::to_string(b.size()) + ", gufunc core with signature " + signature +
                      " requires 2)");
  p.n = a[a.size() - 1];
  const index_t bm = p.vector ? b[0] : b[b.size() - 2];
  if (bm != p.n)
    throw value_error(name + ": Input operand 1 has a mismatch in its core dimension 0, with " +
                      "gufunc signature " + signature + " (size " + std::to_string(bm) +
                      " is different from " + std::to_string(p.n) + ")");
  p.k = p.vector ? 1 : b[b.size() - 1];
  const int bcore = p.vector ? 1 : 2;
  bool ok = true;
  p.batch = broadcast_shape_pair(leading_axes(a, 2), leading_axes(b, bcore), ok);
  if (!ok) {
    auto remapped = [](const shape_t& s, int core) {
      std::string r = np_shape(s) + "->(";
      for (int i = 0; i + core < s.size(); ++i) r += std::to_string(s[i]) + ",";
      for (int i = 0; i < core; ++i) r += i + 1 < core ? "newaxis," : "newaxis";
      return r + ")";
    };
    throw value_error(
        "operands could not be broadcast together with remapped shapes "
        "[original->remapped]: " +
        remapped(a, 2) + " " + remapped(b, bcore) + "  and requested shape (" +
        std::to_string(p.n) + (p.vector ? "" : "," + std::to_string(p.k)) + ")");
  }
  p.out_shape = p.batch;
  p.out_shape.push_back(p.n);
  if (!p.vector) p.out_shape.push_back(p.k);
  return p;
}

}  // namespace cupp::detail
