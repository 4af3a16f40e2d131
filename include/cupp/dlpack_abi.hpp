// The DLPack C ABI (dmlc/dlpack, 1.x), written from the specification so
// that cupp needs no copy of dlpack.h. The layout is the contract: the
// static_asserts below pin sizes and offsets to those of the C header on
// LP64, so a capsule made here is read by CuPy, PyTorch or JAX unchanged.
// A vocabulary header: the structs are the public ABI that to_dlpack and
// from_dlpack (<cupp/dlpack.hpp>) exchange, and the machinery of
// detail/interop/ fills and reads them.
// cupp-layer: vocabulary
#pragma once

#include <cstddef>
#include <cstdint>

namespace cupp::dlpack {

// The version this code writes into DLManagedTensorVersioned; a consumer
// accepts any tensor of the same major version.
inline constexpr std::uint32_t abi_major = 1;
inline constexpr std::uint32_t abi_minor = 1;

enum DLDeviceType : std::int32_t {
  kDLCPU = 1,
  kDLCUDA = 2,
  kDLCUDAHost = 3,
  kDLOpenCL = 4,
  kDLVulkan = 7,
  kDLMetal = 8,
  kDLVPI = 9,
  kDLROCM = 10,
  kDLROCMHost = 11,
  kDLExtDev = 12,
  kDLCUDAManaged = 13,
  kDLOneAPI = 14,
  kDLWebGPU = 15,
  kDLHexagon = 16,
  kDLMAIA = 17,
};

struct DLDevice {
  DLDeviceType device_type;
  std::int32_t device_id;
};

enum DLDataTypeCode : std::uint8_t {
  kDLInt = 0,
  kDLUInt = 1,
  kDLFloat = 2,
  kDLOpaqueHandle = 3,
  kDLBfloat = 4,
  kDLComplex = 5,
  kDLBool = 6,
};

struct DLDataType {
  std::uint8_t code;  // a DLDataTypeCode; other values come from newer producers
  std::uint8_t bits;
  std::uint16_t lanes;
};

struct DLTensor {
  void* data;
  DLDevice device;
  std::int32_t ndim;
  DLDataType dtype;
  std::int64_t* shape;
  std::int64_t* strides;  // in elements; null means C-contiguous
  std::uint64_t byte_offset;
};

// DLPack 0.x: no version, no flags.
struct DLManagedTensor {
  DLTensor dl_tensor;
  void* manager_ctx;
  void (*deleter)(DLManagedTensor* self);
};

struct DLPackVersion {
  std::uint32_t major;
  std::uint32_t minor;
};

inline constexpr std::uint64_t DLPACK_FLAG_BITMASK_READ_ONLY = 1ull << 0;
inline constexpr std::uint64_t DLPACK_FLAG_BITMASK_IS_COPIED = 1ull << 1;
inline constexpr std::uint64_t DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED = 1ull << 2;

// DLPack 1.x: the version comes first so that a consumer can read it
// before trusting the rest of the layout.
struct DLManagedTensorVersioned {
  DLPackVersion version;
  void* manager_ctx;
  void (*deleter)(DLManagedTensorVersioned* self);
  std::uint64_t flags;
  DLTensor dl_tensor;
};

static_assert(sizeof(void*) == 8, "cupp's DLPack layout assumes a 64-bit target");
static_assert(sizeof(DLDevice) == 8 && sizeof(DLDataType) == 4);
static_assert(sizeof(DLTensor) == 48 && offsetof(DLTensor, shape) == 24);
static_assert(sizeof(DLManagedTensor) == 64);
static_assert(sizeof(DLManagedTensorVersioned) == 80 &&
              offsetof(DLManagedTensorVersioned, dl_tensor) == 32);

}  // namespace cupp::dlpack
