// The C side of tests/interop_dlpack_cupy.py: a shared library that Python
// loads with ctypes (no Python headers), which takes DLPack tensors CuPy
// made and writes into them through cupp, and makes tensors from cupp
// arrays for CuPy to take. Every function reports failure by its return
// value and leaves the message in cupp_dlpack_error(), since an exception
// must not cross the C ABI.
#include <cupp/cupp.hpp>
#include <cupp/dlpack.hpp>

#include <cuda_runtime_api.h>

#include <atomic>
#include <cstdint>
#include <exception>
#include <string>

#define CUPP_EXPORT extern "C" __attribute__((visibility("default")))

// From the Python interpreter that loaded this library; weak so that the
// library also loads where no interpreter exports them.
extern "C" int PyCapsule_IsValid(void* capsule, const char* name) __attribute__((weak));
extern "C" void* PyCapsule_GetPointer(void* capsule, const char* name) __attribute__((weak));

namespace {

namespace dl = cupp::dlpack;

std::string last_error;
std::atomic<int> released{0};

template <class F>
int guarded(F&& f) {
  try {
    f();
    return 0;
  } catch (const std::exception& e) {
    last_error = e.what();
  } catch (...) {
    last_error = "unknown exception";
  }
  return -1;
}

// Waits `ns` nanoseconds on the GPU, then writes i: a producer still at
// work when the tensor is handed over, so that a consumer stream not
// ordered after it reads the zeros that were there before.
__global__ void slow_iota(double* out, cupp::index_t n, unsigned long long ns) {
  unsigned long long start = 0, now = 0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  while (ns > 0) {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    if (now - start >= ns) break;
    __nanosleep(100000);
  }
  for (cupp::index_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    out[i] = static_cast<double>(i);
}

template <class Managed>
int affine_inplace(Managed* t, double scale, double offset) {
  return guarded([&] {
    cupp::ndarray<float> x = cupp::from_dlpack<float>(t);
    cupp::copyto(x, x * static_cast<float>(scale) + static_cast<float>(offset));
    cupp::cuda::get_current_stream().synchronize();
  });
}

}  // namespace

CUPP_EXPORT const char* cupp_dlpack_error() {
  return last_error.c_str();
}

// How many exported arrays' memory has been let go by their consumers.
CUPP_EXPORT int cupp_dlpack_released() {
  return released.load();
}

CUPP_EXPORT int cupp_dlpack_device() {
  int d = -1;
  (void)cudaGetDevice(&d);
  return d;
}

// The capsule names, kept here so that they outlive every capsule.
CUPP_EXPORT const char* cupp_dlpack_capsule_name(int versioned, int used) {
  if (versioned) return used ? "used_dltensor_versioned" : "dltensor_versioned";
  return used ? "used_dltensor" : "dltensor";
}

// x = x * scale + offset, in place, on a float32 tensor CuPy exported
// (versioned: a DLManagedTensorVersioned*, else a DLManagedTensor*). 0 on
// success (the tensor is consumed); -1 when refused (it is not).
CUPP_EXPORT int cupp_dlpack_affine_inplace(void* tensor, int versioned, double scale,
                                           double offset) {
  if (versioned)
    return affine_inplace(static_cast<dl::DLManagedTensorVersioned*>(tensor), scale, offset);
  return affine_inplace(static_cast<dl::DLManagedTensor*>(tensor), scale, offset);
}

// A float64 tensor over cupp memory holding arange(rows * cols), viewed as
// reshape(rows, cols).T (layout 0) or reversed, [::-1] (layout 1). The
// values are written by a kernel that first waits `delay_ns` on cupp's
// current stream; `stream` is __dlpack__'s stream= (has_stream 0: None).
// Null on failure.
CUPP_EXPORT void* cupp_dlpack_export(int rows, int cols, int layout, int versioned,
                                     long long stream, int has_stream,
                                     unsigned long long delay_ns) {
  void* out = nullptr;
  (void)guarded([&] {
    const cupp::index_t n = static_cast<cupp::index_t>(rows) * cols;
    cupp::ndarray<double> base(cupp::shape_t{n});
    cupp::cuda::check(cudaMemset(base.data(), 0, n * sizeof(double)), "cudaMemset");
    cupp::cuda::check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    const cudaStream_t s = cupp::cuda::get_current_stream().handle();
    slow_iota<<<32, 256, 0, s>>>(base.data(), n, delay_ns);
    cupp::cuda::check(cudaGetLastError(), "slow_iota");
    // The owner counts its release, then lets the pool have the memory.
    cupp::cuda::memory_ptr tracked(base.memory().get(),
                                   [keep = base.memory()](void*) { ++released; });
    cupp::ndarray<double> view;
    if (layout == 0)
      view = cupp::ndarray<double>::from_pointer(base.data(), {cols, rows},
                                                 {8, 8 * static_cast<cupp::index_t>(cols)}, tracked,
                                                 base.device_id());
    else
      view = cupp::ndarray<double>::from_pointer(base.data() + (n - 1), {n}, {-8}, tracked,
                                                 base.device_id());
    const dl::consumer_stream consumer =
        has_stream ? dl::consumer_stream::from_python(stream) : dl::consumer_stream();
    if (versioned)
      out = cupp::to_dlpack(view, consumer);
    else
      out = cupp::to_dlpack_unversioned(view, consumer);
  });
  return out;
}

// The destructor of the capsules Python makes around cupp_dlpack_export's
// tensors: a capsule nobody consumed (still named "dltensor..." rather
// than "used_dltensor...") gives its tensor back.
CUPP_EXPORT void cupp_dlpack_capsule_destructor(void* capsule) {
  if (!PyCapsule_IsValid || !PyCapsule_GetPointer) return;
  if (PyCapsule_IsValid(capsule, "dltensor_versioned")) {
    dl::release(static_cast<dl::DLManagedTensorVersioned*>(
        PyCapsule_GetPointer(capsule, "dltensor_versioned")));
  } else if (PyCapsule_IsValid(capsule, "dltensor")) {
    dl::release(static_cast<dl::DLManagedTensor*>(PyCapsule_GetPointer(capsule, "dltensor")));
  }
}
