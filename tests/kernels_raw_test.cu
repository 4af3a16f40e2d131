// RawKernel and RawModule on the GPU: launches against the same computation
// done with cupp expressions for every dtype a kernel parameter can take,
// template kernels through name expressions, __device__ globals, modules
// read from cubin and PTX files, dynamic shared memory, streams, kernel
// attributes, empty arrays; and the errors: a source that does not compile,
// the wrong number or sizes of arguments, an unknown kernel name, with
// nothing launched.
#include <cupp/cupp.hpp>
#include <cupp/kernels.hpp>

#include <boost/test/unit_test.hpp>

#include <cuda/std/complex>

#include "cupp_test.hpp"

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
namespace dk = cupp::detail::kernels;

namespace {

// Each test compiles into a cache of its own, so that the launches do not
// depend on what an earlier run left on disk.
struct own_cache {
  fs::path dir;
  own_cache() {
    std::string pattern = (fs::temp_directory_path() / "cupp-raw-test-XXXXXX").string();
    dir = ::mkdtemp(pattern.data());
    ::setenv("CUPP_CACHE_DIR", dir.c_str(), 1);
  }
  ~own_cache() {
    std::error_code ec;
    fs::remove_all(dir, ec);
    ::unsetenv("CUPP_CACHE_DIR");
  }
};

const char* const axpy_source = R"(
template <class T>
__global__ void axpy(T a, const T* x, const T* y, T* z, long long n) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i < n) z[i] = a * x[i] + y[i];
}
)";

template <class T>
std::string type_name();
template <>
std::string type_name<std::int8_t>() {
  return "signed char";
}
template <>
std::string type_name<std::uint8_t>() {
  return "unsigned char";
}
template <>
std::string type_name<std::int16_t>() {
  return "short";
}
template <>
std::string type_name<std::uint16_t>() {
  return "unsigned short";
}
template <>
std::string type_name<std::int32_t>() {
  return "int";
}
template <>
std::string type_name<std::uint32_t>() {
  return "unsigned int";
}
template <>
std::string type_name<std::int64_t>() {
  return "long long";
}
template <>
std::string type_name<std::uint64_t>() {
  return "unsigned long long";
}
template <>
std::string type_name<float>() {
  return "float";
}
template <>
std::string type_name<double>() {
  return "double";
}

template <class T>
void check_axpy(const cupp::RawModule& m) {
  const std::int64_t n = 100;  // within int8
  const cupp::ndarray<T> x = cupp::arange<T>(n);
  const cupp::ndarray<T> y = cupp::arange<T>(n) % T(7);
  cupp::ndarray<T> z = cupp::zeros<T>({n});
  const T a = T(3);
  const auto k = m.get_function("axpy<" + type_name<T>() + ">");
  k(dim3(static_cast<unsigned>((n + 127) / 128)), dim3(128), std::tuple{a, x, y, z, n});
  const cupp::ndarray<T> want = (a * x + y).eval();
  BOOST_TEST(z.to_vector() == want.to_vector(), type_name<T>());
}

}  // namespace

BOOST_AUTO_TEST_SUITE(kernels_raw)

BOOST_AUTO_TEST_CASE(raw_kernel_add) {
  own_cache c;
  cupp::RawKernel add(R"(
extern "C" __global__ void add(const float* x, const float* y, float* z, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) z[i] = x[i] + y[i];
})",
                      "add");
  for (const int n : {1, 255, 256, 100001}) {
    const cupp::ndarray<float> x = cupp::linspace<float>(-1, 1, n);
    const cupp::ndarray<float> y = cupp::arange<float>(n) * 0.5f;
    cupp::ndarray<float> z = cupp::empty<float>({n});
    add(dim3((n + 255) / 256), dim3(256), std::tuple{x, y, z, n});
    BOOST_TEST(z.to_vector() == (x + y).eval().to_vector());
  }
  // An empty launch target: n = 0 with empty arrays (null data).
  cupp::ndarray<float> e = cupp::empty<float>({0});
  add(dim3(1), dim3(32), std::tuple{e, e, e, 0});
  cupp::cuda::Device().synchronize();
}

// A template kernel instantiated for every real dtype through name
// expressions, against a * x + y done by cupp.
BOOST_AUTO_TEST_CASE(name_expressions_every_dtype) {
  own_cache c;
  std::vector<std::string> names;
  for (const char* t : {"signed char", "unsigned char", "short", "unsigned short", "int",
                        "unsigned int", "long long", "unsigned long long", "float", "double"})
    names.push_back(std::string("axpy<") + t + ">");
  const cupp::RawModule m(axpy_source, {"-std=c++17"}, names);
  check_axpy<std::int8_t>(m);
  check_axpy<std::uint8_t>(m);
  check_axpy<std::int16_t>(m);
  check_axpy<std::uint16_t>(m);
  check_axpy<std::int32_t>(m);
  check_axpy<std::uint32_t>(m);
  check_axpy<std::int64_t>(m);
  check_axpy<std::uint64_t>(m);
  check_axpy<float>(m);
  check_axpy<double>(m);
}

// Complex and bool arguments pass by value with their sizes; a view passes
// the address of its first element.
BOOST_AUTO_TEST_CASE(complex_bool_and_views) {
  own_cache c;
  cupp::RawKernel k(R"(
struct cf { float re, im; };
extern "C" __global__ void mix(cf a, bool neg, const cf* x, cf* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    cf v = x[i];
    cf r = {a.re * v.re - a.im * v.im, a.re * v.im + a.im * v.re};
    if (neg) { r.re = -r.re; r.im = -r.im; }
    y[i] = r;
  }
})",
                    "mix");
  using C = cuda::std::complex<float>;
  const cupp::ndarray<C> base = cupp::arange<float>(20) * C(1, 2);
  const auto x = base(cupp::slice(5, 15));  // starts 5 elements in
  cupp::ndarray<C> y = cupp::zeros<C>({10});
  const C a(0.5f, -1.0f);
  k(dim3(1), dim3(32), std::tuple{a, true, x, y, 10});
  BOOST_TEST(y.to_vector() == (-(a * x)).eval().to_vector());
}

BOOST_AUTO_TEST_CASE(shared_memory_streams_attributes) {
  own_cache c;
  cupp::RawKernel rev(R"(
extern "C" __global__ void reverse(const int* x, int* y, int n) {
  extern __shared__ int s[];
  int i = threadIdx.x;
  if (i < n) s[i] = x[i];
  __syncthreads();
  if (i < n) y[i] = s[n - 1 - i];
})",
                      "reverse");
  const int n = 200;
  const cupp::ndarray<int> x = cupp::arange<int>(n);
  cupp::ndarray<int> y = cupp::zeros<int>({n});
  cupp::cuda::Stream s(true);
  rev(dim3(1), dim3(256), std::tuple{x, y, n}, {.shared_mem = n * sizeof(int), .stream = s});
  s.synchronize();
  std::vector<int> want(n);
  for (int i = 0; i < n; ++i) want[i] = n - 1 - i;
  BOOST_TEST(y.to_vector() == want);
  BOOST_TEST(rev.num_regs() > 0);
  BOOST_TEST(rev.max_threads_per_block() >= 256);
  rev.set_max_dynamic_shared_size_bytes(64 * 1024);
  BOOST_TEST(rev.attributes().maxDynamicSharedSizeBytes == 64 * 1024);
}

BOOST_AUTO_TEST_CASE(device_globals) {
  own_cache c;
  const cupp::RawModule m(R"(
__device__ int counter;
extern "C" __global__ void count(int n) { if (threadIdx.x < n) atomicAdd(&counter, 1); })");
  const auto [p, bytes] = m.get_global("counter");
  BOOST_TEST(bytes == sizeof(int));
  BOOST_TEST(cudaMemset(p, 0, sizeof(int)) == cudaSuccess);
  m.get_function("count")(dim3(1), dim3(64), std::tuple{37});
  int host = 0;
  BOOST_TEST(cudaMemcpy(&host, p, sizeof(int), cudaMemcpyDeviceToHost) == cudaSuccess);
  BOOST_TEST(host == 37);
  BOOST_CHECK_THROW(m.get_global("missing"), cupp::value_error);
}

// Modules read from a cubin and from PTX, as RawModule(path=...).
BOOST_AUTO_TEST_CASE(modules_from_files) {
  own_cache c;
  const std::string src = R"(
extern "C" __global__ void fill(int* y, int v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = v + i;
})";
  const int device = cupp::cuda::runtime::getDevice();
  const int arch = dk::current_arch(device);
  const dk::compiled_code cubin = dk::nvrtc_compile(src, "fill.cu", {}, {}, arch);
  // PTX for the device's own virtual architecture, straight from NVRTC.
  std::string ptx;
  {
    nvrtcProgram prog = nullptr;
    BOOST_TEST_REQUIRE(nvrtcCreateProgram(&prog, src.c_str(), "fill.cu", 0, nullptr, nullptr) ==
                       NVRTC_SUCCESS);
    const std::string opt = "--gpu-architecture=compute_" + std::to_string(arch);
    const char* opts[] = {opt.c_str()};
    BOOST_TEST_REQUIRE(nvrtcCompileProgram(prog, 1, opts) == NVRTC_SUCCESS);
    std::size_t size = 0;
    nvrtcGetPTXSize(prog, &size);
    ptx.resize(size);
    nvrtcGetPTX(prog, ptx.data());
    nvrtcDestroyProgram(&prog);
  }
  const fs::path cubin_path = c.dir / "fill.cubin", ptx_path = c.dir / "fill.ptx";
  std::ofstream(cubin_path, std::ios::binary) << cubin.image;
  std::ofstream(ptx_path, std::ios::binary) << ptx.c_str();
  for (const fs::path& p : {cubin_path, ptx_path}) {
    const auto m = cupp::RawModule::from_file(p);
    cupp::ndarray<int> y = cupp::zeros<int>({100});
    m.get_function("fill")(dim3(1), dim3(128), std::tuple{y, 7, 100});
    BOOST_TEST(y.to_vector() == (cupp::arange<int>(100) + 7).eval().to_vector(), p.filename());
  }
  BOOST_CHECK_THROW(cupp::RawModule::from_file(c.dir / "absent.cubin"), cupp::io_error);
}

// Bad input: a cupp exception, and the output untouched.
BOOST_AUTO_TEST_CASE(errors_launch_nothing) {
  own_cache c;
  cupp::RawKernel set(R"(
extern "C" __global__ void set(int* y, int v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = v;
})",
                      "set");
  cupp::ndarray<int> y = cupp::zeros<int>({10});
  const std::vector<int> zeros(10, 0);
  const std::string count = cupp_test::message_of([&] {
    set(dim3(1), dim3(32), std::tuple{y, 1});
  });
  BOOST_TEST(count == "RawKernel 'set' takes 3 arguments, 2 given");
  const std::string size = cupp_test::message_of([&] {
    set(dim3(1), dim3(32), std::tuple{y, std::int64_t{1}, 10});
  });
  BOOST_TEST(size == "RawKernel 'set': argument 1 is 8 bytes, the kernel's parameter 4 bytes");
  BOOST_TEST(y.to_vector() == zeros);

  cupp::RawKernel missing(R"(extern "C" __global__ void other() {})", "absent");
  BOOST_CHECK_THROW(missing(dim3(1), dim3(1), std::tuple{}), cupp::value_error);

  cupp::RawKernel broken("extern \"C\" __global__ void b(int* y) { y[0] = nope; }", "b");
  try {
    broken(dim3(1), dim3(1), std::tuple{y});
    BOOST_ERROR("no compile_error");
  } catch (const cupp::compile_error& e) {
    BOOST_TEST(std::string(e.what()).find("nope") != std::string::npos);
  }
  BOOST_TEST(y.to_vector() == zeros);
  BOOST_TEST(cudaGetLastError() == cudaSuccess);
}

BOOST_AUTO_TEST_SUITE_END()
