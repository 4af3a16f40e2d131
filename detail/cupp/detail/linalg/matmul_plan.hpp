// numpy.matmul's shapes and memory layouts, planned on the host: the gufunc
// rules of (n?,k),(k,m?)->(n?,m?) (a 1-d operand gains a unit axis that
// the result then loses; the leading axes broadcast) with NumPy's
// messages, and how each operand of each product reaches a BLAS call
// without a copy where its strides allow. Plain code, no templates.
#pragma once

#include <optional>
#include <string>

#include <cupp/config.hpp>
#include <cupp/detail/elementwise/plan.hpp>
#include <cupp/errors.hpp>
#include <cupp/shape.hpp>

namespace cupp::detail {

// How a BLAS call reads one r x c operand stored with element strides
// (rs, cs): as a row-major matrix (trans false: rows `ld` apart) or as the
// row-major storage of its transpose (trans true: columns `ld` apart). The
// same flags serve cuBLAS, which is column-major, when it computes
// C^T = B^T A^T: a row-major matrix is its transpose in column-major.
// conj (with trans only) reads the elements conjugated: BLAS's
// conjugate-transpose op; BLAS has no conjugate without the transpose.
struct gemm_side {
  bool trans = false;
  index_t ld = 1;
  bool conj = false;
};

// The side for strides (rs, cs), or nothing when neither axis has unit
// stride (a copy is needed). An axis of extent 1 has no stride to speak of.
inline std::optional<gemm_side> gemm_side_of(index_t rows, index_t cols, index_t rs, index_t cs) {
  const index_t r = rows > 1 ? rows : 1, c = cols > 1 ? cols : 1;
  if (cs == 1 || cols <= 1) {
    const index_t ld = rows <= 1 ? c : rs;
    if (ld >= c) return gemm_side{false, ld};
  }
  if (rs == 1 || rows <= 1) {
    const index_t ld = cols <= 1 ? r : cs;
    if (ld >= r) return gemm_side{true, ld};
  }
  return std::nullopt;
}

// The side of a conjugated operand: only the transposed reading has a BLAS
// op (conjugate-transpose), so only unit stride along the rows folds.
inline std::optional<gemm_side> conj_gemm_side_of(index_t rows, index_t cols, index_t rs,
                                                  index_t cs) {
  const index_t r = rows > 1 ? rows : 1;
  if (rs == 1 || rows <= 1) {
    const index_t ld = cols <= 1 ? r : cs;
    if (ld >= r) return gemm_side{true, ld, true};
  }
  return std::nullopt;
}

inline constexpr const char* matmul_signature = "(n?,k),(k,m?)->(n?,m?)";

// Element strides of an array's byte strides, or nothing when one is not a
// multiple of the element size.
inline std::optional<strides_t> element_strides(const strides_t& bytes, index_t itemsize) {
  strides_t e = bytes;
  for (int i = 0; i < bytes.size(); ++i) {
    if (bytes[i] % itemsize != 0) return std::nullopt;
    e[i] = bytes[i] / itemsize;
  }
  return e;
}

// A matmul of stacked products: C[b] (m x n) = A[b] (m x k) . B[b] (k x n)
// for every batch position b; C is a fresh C-contiguous array.
struct matmul_plan {
  shape_t out_shape;  // NumPy's result shape (unit axes of 1-d operands dropped)
  index_t m = 1, n = 1, k = 1;
  // Batch axes after merging, slowest first, with the element strides of
  // A, B and C along each (0 where an operand broadcasts). The last is the
  // batched call's; a host loop walks the others.
  int nb = 0;
  index_t ext[max_ndim] = {};
  index_t st[3][max_ndim] = {};
  index_t batches = 1;  // the product of ext
};

// The offsets of batch position `b` along the plan's batch axes other than
// the last (the host loop's), for A, B and C.
CUPP_HD inline void outer_batch_offsets(const matmul_plan& p, index_t b, index_t* off) {
  off[0] = off[1] = off[2] = 0;
  for (int i = p.nb - 2; i >= 0; --i) {
    const index_t c = b % p.ext[i];
    b /= p.ext[i];
    for (int s = 0; s < 3; ++s) off[s] += c * p.st[s][i];
  }
}

// The offsets of product `batch` (0 .. p.batches) for A, B and C: the
// outer axes' part and the last axis's.
CUPP_HD inline void batch_offsets(const matmul_plan& p, index_t batch, index_t* off) {
  const index_t last = p.nb > 0 ? p.ext[p.nb - 1] : 1;
  outer_batch_offsets(p, batch / last, off);
  if (p.nb > 0)
    for (int s = 0; s < 3; ++s) off[s] += (batch % last) * p.st[s][p.nb - 1];
}

// The shapes of NumPy's checks; throws value_error with NumPy's message.
// `a` and `b` are the operands' shapes; ea and eb their element strides.
inline matmul_plan plan_matmul(const shape_t& a, const strides_t& ea, const shape_t& b,
                               const strides_t& eb) {
  const int na = a.size(), nbd = b.size();
  if (na == 0 || nbd == 0)
    throw value_error("matmul: Input operand " + std::string(na == 0 ? "0" : "1") +
                      " does not have enough dimensions (has 0, gufunc core with signature " +
                      matmul_signature + " requires 1)");
  matmul_plan p;
  // The core axes as 2-d, a 1-d operand's unit axis added.
  const index_t ak = a[na - 1], am = na >= 2 ? a[na - 2] : 1;
  const index_t bk = nbd >= 2 ? b[nbd - 2] : b[0], bn = nbd >= 2 ? b[nbd - 1] : 1;
  if (ak != bk)
    throw value_error(
        "matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc "
        "signature " +
        std::string(matmul_signature) + " (size " + std::to_string(bk) + " is different from " +
        std::to_string(ak) + ")");
  p.m = am;
  p.k = ak;
  p.n = bn;
  // The batch axes, broadcast.
  const int ba = na >= 2 ? na - 2 : 0, bb = nbd >= 2 ? nbd - 2 : 0;
  shape_t batch_a = shape_t::filled(ba, 0), batch_b = shape_t::filled(bb, 0);
  for (int i = 0; i < ba; ++i) batch_a[i] = a[i];
  for (int i = 0; i < bb; ++i) batch_b[i] = b[i];
  bool ok = true;
  const shape_t batch = broadcast_shape_pair(batch_a, batch_b, ok);
  if (!ok) {
    auto remapped = [](const shape_t& s, int batch_dims) {
      std::string r = np_shape(s) + "->(";
      for (int i = 0; i < batch_dims; ++i) r += std::to_string(s[i]) + ",";
      const int core = s.size() - batch_dims;
      for (int i = 0; i < core; ++i) r += i + 1 < core ? "newaxis," : "newaxis";
      return r + ")";
    };
    // Only operands of three or more axes have batch axes to mismatch.
    const std::string requested = "(" + std::to_string(am) + "," + std::to_string(bn) + ")";
    throw value_error(
        "operands could not be broadcast together with remapped shapes "
        "[original->remapped]: " +
        remapped(a, ba) + " " + remapped(b, bb) + "  and requested shape " + requested);
  }
  const int nbatch = batch.size();
  p.out_shape = shape_t::filled(0, 0);
  for (int i = 0; i < nbatch; ++i) p.out_shape.push_back(batch[i]);
  if (na >= 2) p.out_shape.push_back(am);
  if (nbd >= 2) p.out_shape.push_back(bn);
  // Strides of A, B and C along the batch axes; C is C-contiguous.
  index_t sa[max_ndim], sb[max_ndim], sc[max_ndim];
  index_t step = p.m * p.n;
  for (int i = nbatch - 1; i >= 0; --i) {
    const int ia = i - (nbatch - ba), ib = i - (nbatch - bb);
    sa[i] = ia >= 0 && a[ia] != 1 ? ea[ia] : 0;
    sb[i] = ib >= 0 && b[ib] != 1 ? eb[ib] : 0;
    sc[i] = step;
    step *= batch[i];
  }
  // Merge neighbouring batch axes that every operand steps through evenly;
  // unit axes drop out.
  for (int i = 0; i < nbatch; ++i) {
    if (batch[i] == 1) continue;
    p.batches *= batch[i];
    if (p.nb > 0) {
      const int l = p.nb - 1;
      if (p.st[0][l] == sa[i] * batch[i] && p.st[1][l] == sb[i] * batch[i] &&
          p.st[2][l] == sc[i] * batch[i]) {
        p.ext[l] *= batch[i];
        p.st[0][l] = sa[i];
        p.st[1][l] = sb[i];
        p.st[2][l] = sc[i];
        continue;
      }
    }
    p.ext[p.nb] = batch[i];
    p.st[0][p.nb] = sa[i];
    p.st[1][p.nb] = sb[i];
    p.st[2][p.nb] = sc[i];
    ++p.nb;
  }
  if (size_of(p.out_shape) == 0) p.batches = 0;
  return p;
}

// The result shape of a @ b (NumPy's checks and messages).
inline shape_t matmul_shape(const shape_t& a, const shape_t& b) {
  return plan_matmul(a, strides_t::filled(a.size(), 0), b, strides_t::filled(b.size(), 0))
      .out_shape;
}

// numpy.matmul's checks of out= against the result shape `r` of a @ b (the
// inputs already checked): out's trailing axes are the result's core axes,
// its leading axes a shape the operands' batch axes broadcast to. NumPy's
// messages.
inline void check_matmul_out(const shape_t& a, const shape_t& b, const shape_t& r,
                             const shape_t& out) {
  const int na = a.size(), nb = b.size(), no = out.size(), nr = r.size();
  const int core = (na >= 2) + (nb >= 2);
  const int present = no < core ? no : core;
  for (int i = 0; i < present; ++i) {
    const index_t got = out[no - present + i], want = r[nr - present + i];
    if (got != want)
      throw value_error("matmul: Output operand 0 has a mismatch in its core dimension " +
                        std::to_string(i) + ", with gufunc signature " + matmul_signature +
                        " (size " + std::to_string(got) + " is different from " +
                        std::to_string(want) + ")");
  }
  if (no < core)
    throw value_error(
        "output operand requires a reduction along dimension -1, but the reduction is not "
        "enabled. The dimension size of 1 does not match the expected output shape.");
  shape_t batch = shape_t::filled(nr - core, 0), out_batch = shape_t::filled(no - core, 0);
  for (int i = 0; i < nr - core; ++i) batch[i] = r[i];
  for (int i = 0; i < no - core; ++i) out_batch[i] = out[i];
  std::string requested = "(";
  for (int i = 0; i < core; ++i) requested += (i ? "," : "") + std::to_string(r[nr - core + i]);
  requested += ")";
  bool ok = true;
  const shape_t full = broadcast_shape_pair(batch, out_batch, ok);
  if (!ok) {
    const auto remapped = [&](const shape_t& s, int own_core) {
      const int batch_dims = s.size() - own_core;
      if (batch_dims <= 0) return np_shape(s) + "->()";
      std::string m = np_shape(s) + "->(";
      for (int i = 0; i < batch_dims; ++i) m += (i ? "," : "") + std::to_string(s[i]);
      for (int i = 0; i < core; ++i) m += ",newaxis";
      return m + ")";
    };
    throw value_error(
        "operands could not be broadcast together with remapped shapes [original->remapped]: " +
        remapped(a, na >= 2 ? 2 : 1) + " " + remapped(b, nb >= 2 ? 2 : 1) + " " + np_shape(out) +
        "->" + np_shape(out) + "  and requested shape " + requested);
  }
  if (!(full == out_batch)) {
    shape_t reversed = out, whole = full;
    for (int i = 0; i < no; ++i) reversed[i] = out[no - 1 - i];
    for (int i = 0; i < core; ++i) whole.push_back(r[nr - core + i]);
    throw value_error("non-broadcastable output operand with shape " + np_shape(out) +
                      " [remapped to " + np_shape(reversed) +
                      "] doesn't match the broadcast shape " + np_shape(whole));
  }
}

// The element strides of the core axes of an operand (rows, then columns),
// a 1-d operand's unit axis added where matmul adds it: in front for the
// first operand, behind for the second.
inline void core_strides(const shape_t& s, const strides_t& e, bool first, index_t& rs,
                         index_t& cs) {
  const int n = s.size();
  if (n >= 2) {
    rs = e[n - 2];
    cs = e[n - 1];
  } else if (first) {
    rs = 0;
    cs = e[0];
  } else {
    rs = e[0];
    cs = 0;
  }
}

}  // namespace cupp::detail
