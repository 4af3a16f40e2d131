// How the typed collectives carry cupp's dtypes through NCCL's types and
// reductions (reduce_op is vocabulary: <cupp/cuda/nccl_types.hpp>). Part of
// <cupp/nccl.hpp>.
#pragma once

#include <nccl.h>

#include <cstddef>
#include <string>

#include <cupp/cuda/nccl_types.hpp>
#include <cupp/dtype.hpp>
#include <cupp/errors.hpp>

namespace cupp::cuda {

namespace detail {

// A reduction as NCCL runs it: its type, elements per cupp element
// (complex numbers are two floats) and operation.
struct nccl_reduction {
  ncclDataType_t type;
  std::size_t per_element;
  ncclRedOp_t op;
};

inline ncclRedOp_t nccl_op(reduce_op op) noexcept {
  constexpr ncclRedOp_t ops[] = {ncclSum, ncclProd, ncclMax, ncclMin, ncclAvg};
  return ops[static_cast<int>(op)];
}
inline const char* reduce_op_name(reduce_op op) noexcept {
  constexpr const char* names[] = {"sum", "prod", "max", "min", "avg"};
  return names[static_cast<int>(op)];
}

// NCCL's rules for cupp's dtypes: bool reduces as bytes holding 0 or 1
// (any is max, all is min), complex numbers part-wise where that is the
// complex result (sum, avg), int16 and uint16 not at all (NCCL has no
// 16-bit integers).
inline nccl_reduction nccl_reduction_for(const dtype& d, reduce_op op, const char* call) {
  const auto refuse = [&](const std::string& why) -> type_error {
    return type_error(std::string(call) + ": " + why);
  };
  const std::string dt = "dtype('" + std::string(d.name) + "')";
  switch (d.id) {
    case dtype_id::bool_:
      if (op == reduce_op::avg) throw refuse("op avg is not supported for " + dt);
      return {ncclUint8, 1, op == reduce_op::sum || op == reduce_op::max ? ncclMax : ncclMin};
    case dtype_id::int16:
    case dtype_id::uint16:
      throw refuse("NCCL cannot reduce " + dt + " (it has no 16-bit integer type); " + dt +
                   " travels only through broadcast, all_gather, send and recv");
    case dtype_id::complex64:
    case dtype_id::complex128:
      if (op != reduce_op::sum && op != reduce_op::avg)
        throw refuse(std::string("op ") + reduce_op_name(op) + " is not supported for " + dt +
                     " (complex numbers are reduced part-wise: sum and avg only)");
      return {d.id == dtype_id::complex64 ? ncclFloat32 : ncclFloat64, 2, nccl_op(op)};
    default: {
      // NCCL's type for each dtype id, in dtype_id's order.
      constexpr ncclDataType_t types[] = {
          ncclUint8,  ncclInt8,   ncclNumTypes, ncclInt32,    ncclInt64,   ncclUint8,  ncclNumTypes,
          ncclUint32, ncclUint64, ncclFloat16,  ncclBfloat16, ncclFloat32, ncclFloat64};
      return {types[static_cast<int>(d.id)], 1, nccl_op(op)};
    }
  }
}

// What the typed collectives need of an array, taken out of the template.
struct nccl_buffer {
  void* data;
  std::size_t size;
  std::size_t itemsize;
  int device;
  bool contiguous;
  bool writeable;
  dtype type;
};

}  // namespace detail
}  // namespace cupp::cuda
