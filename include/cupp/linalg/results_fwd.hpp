// Declarations of the result types of numpy.linalg's decompositions
// (svd_result, qr_result, eigh_result, eig_result), which their public
// headers define: the machinery of detail/linalg/ names them in its
// templates as it names arrays through <cupp/array_fwd.hpp>, and gets the
// definitions at instantiation. A vocabulary header.
// cupp-layer: vocabulary
#pragma once

namespace cupp::linalg {

template <class R, class Space>
struct svd_result;  // <cupp/linalg/svd.hpp>

template <class T, class S>
struct qr_result;  // <cupp/linalg/qr.hpp>

template <class T, class S>
struct eigh_result;  // <cupp/linalg/eigen.hpp>

template <class C, class S>
struct eig_result;  // <cupp/linalg/eigen.hpp>

}  // namespace cupp::linalg
