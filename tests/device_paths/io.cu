// Device paths of input and output: printing device arrays (operator<<,
// array_repr, array_str, array2string, std::format where the library has
// it, print options, summarised arrays), .npy files and streams (save, load,
// read_npy_header), host <-> device transfers (asarray, asnumpy, get,
// get_into, set, on a stream and non-blocking, pinned host arrays, strided
// layouts), copies (copy, copy_into, view, to_vector, item) and astype to
// other dtypes, on float32 device arrays.
//
// CI compiles this unit without a GPU so that a compile error in device code
// fails it; the GPU machine runs it as a smoke test (device_paths_gpu_test).
#include <cupp/creation.hpp>
#include <cupp/cuda/memory.hpp>
#include <cupp/cuda/runtime.hpp>
#include <cupp/cuda/stream.hpp>
#include <cupp/generators.hpp>
#include <cupp/npy.hpp>
#include <cupp/print.hpp>
#include <cupp/ufunc/arithmetic.hpp>

#include <cuda_fp16.h>

#include <filesystem>
#include <span>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

#include "checks.hpp"

using device_paths::expect;
using device_paths::expect_near;
using device_paths::expect_values;

namespace {

void expect_text(const std::string& got, const std::string& want, const std::string& what) {
  if (got != want) device_paths::fail(what + ": got \"" + got + "\", expected \"" + want + "\"");
}

// a = [[1, 2], [3, 4]] (float32). Expected text from NumPy 2.
void printing(const cupp::ndarray<float>& a) {
  const std::string repr = "array([[1., 2.],\n       [3., 4.]], dtype=float32)";
  std::ostringstream os;
  os << a;
  expect_text(os.str(), repr, "operator<<");
  expect_text(cupp::array_repr(a), repr, "array_repr");
  expect_text(cupp::array_str(a), "[[1. 2.]\n [3. 4.]]", "array_str");
  expect_text(cupp::array_str(a(0, 0)), "1.0", "array_str (0-d)");
  expect_text(cupp::array2string(a), "[[1. 2.]\n [3. 4.]]", "array2string");
  expect_text(cupp::array2string(a, cupp::get_printoptions(), ", "), "[[1., 2.],\n [3., 4.]]",
              "array2string separator");
  expect_text(cupp::array_repr(a.T()), "array([[1., 3.],\n       [2., 4.]], dtype=float32)",
              "array_repr (transposed view)");
  expect_text(cupp::array_repr(cupp::arange<std::int64_t>(3).eval()), "array([0, 1, 2])",
              "array_repr (int64)");
  const cupp::ndarray<float> thirds = cupp::array<float>({1.0f / 3, 2.0f / 3});
  expect_text(cupp::array_repr(thirds), "array([0.33333334, 0.6666667 ], dtype=float32)",
              "array_repr (default precision)");
  {
    cupp::printoptions scope([](cupp::print_options& o) { o.precision = 2; });
    expect(cupp::get_printoptions().precision == 2, "printoptions scope");
    expect_text(cupp::array_repr(thirds), "array([0.33, 0.67], dtype=float32)",
                "array_repr (precision 2)");
  }
  const cupp::print_options saved = cupp::get_printoptions();
  cupp::set_printoptions([](cupp::print_options& o) { o.precision = 3; });
  expect(cupp::get_printoptions().precision == 3, "set_printoptions");
  cupp::set_printoptions(saved);
  // A summarised array: only its corners are copied from the device.
  expect_text(cupp::array_repr(cupp::arange<float>(2000).eval()),
              "array([0.000e+00, 1.000e+00, 2.000e+00, ..., 1.997e+03, 1.998e+03,\n"
              "       1.999e+03], shape=(2000,), dtype=float32)",
              "array_repr (summarised)");
#if defined(__cpp_lib_format)
  expect_text(std::format("{}", a), repr, "std::format {}");
  expect_text(std::format("{:s}", a), "[[1. 2.]\n [3. 4.]]", "std::format {:s}");
#endif
}

void npy_files(const cupp::ndarray<float>& a) {
  std::stringstream ss;
  cupp::save(ss, a);
  cupp::save(ss, a.T());
  const cupp::ndarray<float> back = cupp::load<float>(ss);
  expect_values(back, {1, 2, 3, 4}, "save/load (stream)");
  const cupp::ndarray<float> back_t = cupp::load<float>(ss);
  expect_values(back_t, {1, 3, 2, 4}, "save/load (stream, transposed)");

  const std::filesystem::path dir = std::filesystem::temp_directory_path();
  const std::filesystem::path path =
      dir / ("cupp_device_paths_" + std::to_string(::getpid()) + ".npy");
  const cupp::ndarray<float> f = a.copy(cupp::order::F);
  cupp::save(path, f);
  const cupp::npy_header h = cupp::read_npy_header(path);
  expect(h.shape == cupp::shape_t{2, 2} && h.fortran_order, "read_npy_header");
  const cupp::ndarray<float> loaded = cupp::load<float>(path);
  expect(loaded.is_f_contiguous(), "load keeps F order");
  expect_values(loaded, {1, 2, 3, 4}, "save/load (file)");
  expect_values(cupp::asarray(cupp::host::load<float>(path)), {1, 2, 3, 4}, "host::load");
  std::filesystem::remove(path);
}

void transfers(const cupp::ndarray<float>& a) {
  const cupp::host::ndarray<float> h = cupp::asnumpy(a);
  expect(h.at(1, 0) == 3, "asnumpy");
  expect(a.get().at(0, 1) == 2, "get");
  const cupp::host::ndarray<float> hf = a.get({.ord = cupp::order::F});
  expect(hf.is_f_contiguous() && hf.at(1, 0) == 3, "get order F");
  const cupp::host::ndarray<float> ht = a.T().get();
  expect(ht.at(0, 1) == 3, "get (strided)");
  cupp::host::ndarray<float> into(cupp::shape_t{2, 2});
  a.get_into(into);
  expect(into.at(1, 1) == 4, "get_into");
  a.T().get_into(into);
  expect(into.at(0, 1) == 3, "get_into (strided)");

  const cupp::ndarray<float> d = cupp::empty<float>({2, 2});
  d.set(h);
  expect_values(d, {1, 2, 3, 4}, "set (host array)");
  d.T().set(h);
  expect_values(d, {1, 3, 2, 4}, "set (strided destination)");
  const std::vector<float> v{5, 6, 7, 8};
  d.set(std::span<const float>(v));
  expect_values(d, {5, 6, 7, 8}, "set (span)");
  expect_values(cupp::asarray(h), {1, 2, 3, 4}, "asarray (host array)");
  expect_values(cupp::asarray(h.T().copy()), {1, 3, 2, 4}, "asarray (host copy)");

  // On a stream of its own, non-blocking, through pinned memory.
  const cupp::cuda::Stream s(true);
  {
    auto scope = s.scope();
    const cupp::host::ndarray<float> pinned = cupp::host::zeros_pinned<float>({2, 2});
    expect(pinned.at(1, 1) == 0, "zeros_pinned");
    const cupp::host::ndarray<float> staging = cupp::host::empty_pinned<float>({2, 2});
    const cupp::ndarray<float> e = a * 2;  // runs on s
    e.get_into(staging, {.stream = s, .blocking = false});
    const cupp::host::ndarray<float> nb = cupp::asnumpy(e, {.stream = s, .blocking = false});
    s.synchronize();
    expect(staging.at(1, 1) == 8 && nb.at(0, 1) == 4, "non-blocking copies on a stream");
    const cupp::ndarray<float> up = cupp::asarray(staging, {.stream = s, .blocking = false});
    const cupp::cuda::Event done = s.record();
    done.synchronize();
    expect(cupp::cuda::get_current_stream().handle() == s.handle(), "stream scope");
    expect_values(up, {2, 4, 6, 8}, "asarray on a stream");
  }
  cupp::cuda::runtime::deviceSynchronize();
  expect(cupp::cuda::get_default_memory_pool().used_bytes() > 0, "memory pool in use");
}

void copies(const cupp::ndarray<float>& a) {
  const cupp::ndarray<float> c = a.copy();
  expect(c.data() != a.data() && c.flags().owndata, "copy");
  const cupp::ndarray<float> cf = a.copy(cupp::order::F);
  expect(cf.is_f_contiguous() && !cf.is_c_contiguous(), "copy order F");
  expect_values(cf, {1, 2, 3, 4}, "copy order F values");
  const cupp::ndarray<float> k = a.T().copy(cupp::order::K);
  expect_values(k, {1, 3, 2, 4}, "copy order K");
  const cupp::ndarray<float> dst(cupp::shape_t{2, 2});
  a.copy_into(dst);
  expect_values(dst, {1, 2, 3, 4}, "copy_into");
  a.copy_into(dst.T());
  expect_values(dst, {1, 3, 2, 4}, "copy_into (strided)");
  const cupp::ndarray<float> vw = a.view();
  expect(vw.data() == a.data() && !vw.flags().owndata, "view");
  const std::vector<float> all = a.T().to_vector();
  expect(all.size() == 4 && all[1] == 3, "to_vector (strided)");
  expect_near(a.item(3), 4, "item(flat)");
  expect_near(a.item(1, 0), 3, "item(i, j)");
  expect_near(a(1, 1).item(), 4, "item()");
  expect(a.nbytes() == 16 && a.itemsize() == 4 && a.size() == 4 && a.ndim() == 2, "attributes");
  expect(a.dtype() == cupp::dtype_of<float>() && a.device_id() == a.device().id(),
         "dtype and device");

  // astype: copies to other dtypes (NumPy's unsafe casts).
  const cupp::ndarray<float> s = cupp::array<float>({-1.5f, 2.5f, 70000.0f});
  expect_values(s.astype<std::int32_t>(), {-1, 2, 70000}, "astype<int32>");
  expect_values(s.astype<double>(), {-1.5, 2.5, 70000}, "astype<double>");
  expect_values(s.astype<bool>(), {1, 1, 1}, "astype<bool>");
  expect_values(s.astype<__half>(), {-1.5, 2.5, INFINITY}, "astype<float16>");
  const auto z = s.astype<cupp::complex64>().item(1);
  expect(z.real() == 2.5f && z.imag() == 0.0f, "astype<complex64>");
  expect_values(a.T().astype<std::int64_t>(), {1, 3, 2, 4}, "astype (strided)");
}

}  // namespace

void device_paths_io() {
  const cupp::ndarray<float> a = cupp::array<float>({{1, 2}, {3, 4}});
  printing(a);
  npy_files(a);
  transfers(a);
  copies(a);
}
