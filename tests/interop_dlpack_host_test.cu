// DLPack exchange of host arrays (kDLCPU), no GPU needed: the fields of an
// exported tensor against the DLPack type codes written out by hand, round
// trips of every dtype and layout (C, F, strided, negative, broadcast, 0-d,
// empty) that share the memory, deleters counted, tensors made by hand as
// another library would (byte_offset, null strides, the pre-1.0 struct),
// every refusal leaving the tensor with the caller, read-only flags, and
// the stream= integers of the Python protocol.
#include <cupp/dlpack.hpp>
#include <cupp/ndarray.hpp>

#include <boost/test/unit_test.hpp>

#include "cupp_test.hpp"

#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace dl = cupp::dlpack;
using cupp::host_space;
using cupp::index_t;
using cupp::shape_t;
using cupp::strides_t;
using cupp_test::same_bits;
using cupp_test::sample;

namespace {

// DLPack's (code, bits) for each NumPy dtype name, from the specification's
// DLDataTypeCode table.
const std::map<std::string, std::pair<int, int>>& dl_codes() {
  static const std::map<std::string, std::pair<int, int>> m = {
      {"bool", {6, 8}},     {"int8", {0, 8}},       {"int16", {0, 16}},      {"int32", {0, 32}},
      {"int64", {0, 64}},   {"uint8", {1, 8}},      {"uint16", {1, 16}},     {"uint32", {1, 32}},
      {"uint64", {1, 64}},  {"float16", {2, 16}},   {"bfloat16", {4, 16}},   {"float32", {2, 32}},
      {"float64", {2, 64}}, {"complex64", {5, 64}}, {"complex128", {5, 128}}};
  return m;
}

// A host array of `n` samples whose memory's owner counts its release.
template <class T>
cupp::host::ndarray<T> counted(index_t n, int& released, const shape_t& shape) {
  T* buf = new T[n > 0 ? n : 1];
  for (index_t i = 0; i < n; ++i) buf[i] = sample<T>(i);
  cupp::cuda::memory_ptr owner(buf, [&released](void* p) {
    delete[] static_cast<T*>(p);
    ++released;
  });
  return cupp::host::ndarray<T>::from_pointer(buf, shape, {}, std::move(owner));
}

// A tensor as another library would make one: the caller fills the
// geometry, the deleter counts its calls.
int foreign_deleted = 0;

struct foreign {
  std::vector<float> data = std::vector<float>(64);
  std::int64_t shape[3] = {2, 3, 4};
  std::int64_t strides[3] = {12, 4, 1};
  dl::DLManagedTensorVersioned v{};
  dl::DLManagedTensor u{};

  foreign() {
    for (int i = 0; i < 64; ++i) data[i] = static_cast<float>(i) * 1.5f;
    dl::DLTensor t{};
    t.data = data.data();
    t.device = {dl::kDLCPU, 0};
    t.ndim = 3;
    t.dtype = {dl::kDLFloat, 32, 1};
    t.shape = shape;
    t.strides = strides;
    t.byte_offset = 0;
    v.version = {1, 0};
    v.manager_ctx = this;
    v.deleter = [](dl::DLManagedTensorVersioned*) { ++foreign_deleted; };
    v.dl_tensor = t;
    u.dl_tensor = t;
    u.manager_ctx = this;
    u.deleter = [](dl::DLManagedTensor*) { ++foreign_deleted; };
  }
};

using cupp_test::contains;
using cupp_test::refusal;

}  // namespace

BOOST_AUTO_TEST_SUITE(dlpack_host)

BOOST_AUTO_TEST_CASE_TEMPLATE(every_dtype_exports_its_fields_and_round_trips, T,
                              cupp_test::dtype_list) {
  int released = 0;
  {
    auto x = counted<T>(6, released, {2, 3});
    const void* data = x.data();
    dl::DLManagedTensorVersioned* t = cupp::to_dlpack(x);
    BOOST_TEST_REQUIRE(t != nullptr);
    BOOST_TEST(t->version.major == 1u);
    BOOST_TEST(t->version.minor >= 0u);
    BOOST_TEST(t->flags == 0u);
    BOOST_TEST(t->deleter != nullptr);
    const dl::DLTensor& d = t->dl_tensor;
    BOOST_TEST(d.data == data);
    BOOST_TEST(d.byte_offset == 0u);
    BOOST_TEST(d.device.device_type == dl::kDLCPU);
    BOOST_TEST(d.ndim == 2);
    const auto want = dl_codes().at(std::string(cupp::dtype_of<T>().name));
    BOOST_TEST(int(d.dtype.code) == want.first);
    BOOST_TEST(int(d.dtype.bits) == want.second);
    BOOST_TEST(int(d.dtype.lanes) == 1);
    BOOST_TEST(d.shape[0] == 2);
    BOOST_TEST(d.shape[1] == 3);
    BOOST_TEST(d.strides[0] == 3);
    BOOST_TEST(d.strides[1] == 1);

    x = cupp::host::ndarray<T>();  // the tensor alone keeps the memory
    BOOST_TEST(released == 0);
    auto y = cupp::from_dlpack<T, host_space>(t);
    BOOST_TEST(static_cast<const void*>(y.data()) == data);
    BOOST_TEST(y.shape() == (shape_t{2, 3}));
    BOOST_TEST(y.strides() == (strides_t{3 * index_t(sizeof(T)), index_t(sizeof(T))}));
    BOOST_TEST(y.flags().writeable);
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 3; ++j) BOOST_TEST(same_bits(y.at(i, j), sample<T>(i * 3 + j)));
    BOOST_TEST(released == 0);
  }
  BOOST_TEST(released == 1);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(every_dtype_through_the_unversioned_struct, T,
                              cupp_test::dtype_list) {
  int released = 0;
  {
    auto x = counted<T>(4, released, {4});
    dl::DLManagedTensor* t = cupp::to_dlpack_unversioned(x);
    BOOST_TEST(t->dl_tensor.data == static_cast<void*>(x.data()));
    BOOST_TEST(t->dl_tensor.strides[0] == 1);
    auto y = cupp::from_dlpack<T, host_space>(t);
    BOOST_TEST(y.data() == x.data());
    for (int i = 0; i < 4; ++i) BOOST_TEST(same_bits(y.at(i), sample<T>(i)));
  }
  BOOST_TEST(released == 1);
}

// Views over a 24-element buffer, built with explicit byte strides so that
// the expected element strides and values follow from the numbers alone.
BOOST_AUTO_TEST_CASE(layouts_round_trip_as_views) {
  using arr = cupp::host::ndarray<std::int32_t>;
  int released = 0;
  {
    const auto base = counted<std::int32_t>(24, released, {24});
    const std::int32_t* b = base.data();
    struct layout {
      const char* name;
      index_t first;  // element [0, ..., 0] in the buffer
      shape_t shape;
      std::vector<std::int64_t> elem_strides;
    };
    const std::vector<layout> layouts = {
        {"C", 0, {4, 6}, {6, 1}},
        {"F", 0, {4, 6}, {1, 4}},
        {"strided", 1, {3, 2}, {8, 3}},
        {"negative", 23, {2, 3}, {-12, -2}},
        {"mixed signs", 5, {3, 2}, {6, -5}},
        {"broadcast", 2, {3, 4}, {0, 1}},
        {"3-d transposed", 0, {3, 2, 4}, {1, 12, 3}},
        {"0-d", 7, {}, {}},
        {"empty", 0, {0, 3}, {3, 1}},
    };
    for (const layout& l : layouts) {
      BOOST_TEST_CONTEXT(l.name) {
        strides_t bytes = strides_t::filled(l.shape.size(), 0);
        for (int d = 0; d < l.shape.size(); ++d) bytes[d] = l.elem_strides[d] * 4;
        arr v = arr::from_pointer(const_cast<std::int32_t*>(b) + l.first, l.shape, bytes,
                                  base.memory());
        dl::DLManagedTensorVersioned* t = cupp::to_dlpack(v);
        BOOST_TEST(t->dl_tensor.ndim == l.shape.size());
        BOOST_TEST(t->dl_tensor.data == static_cast<const void*>(b + l.first));
        for (int d = 0; d < l.shape.size(); ++d) {
          BOOST_TEST(t->dl_tensor.shape[d] == l.shape[d]);
          BOOST_TEST(t->dl_tensor.strides[d] == l.elem_strides[d]);
        }
        arr y = cupp::from_dlpack<std::int32_t, host_space>(t);
        BOOST_TEST(y.data() == b + l.first);
        BOOST_TEST(y.shape() == l.shape);
        BOOST_TEST(y.strides() == bytes);
        // Every element read through the import is the buffer's element at
        // the offset the element strides give.
        const index_t n = y.size();
        for (index_t flat = 0; flat < n; ++flat) {
          index_t rest = flat, off = l.first;
          for (int d = l.shape.size() - 1; d >= 0; --d) {
            off += (rest % l.shape[d]) * l.elem_strides[d];
            rest /= l.shape[d];
          }
          BOOST_TEST(y.item(flat) == b[off]);
        }
        if (l.shape.size() == 0) BOOST_TEST(y.item() == b[7]);
      }
    }
    BOOST_TEST(released == 0);
  }
  BOOST_TEST(released == 1);
}

BOOST_AUTO_TEST_CASE(zero_copy_and_kept_alive_after_the_original_goes) {
  int released = 0;
  auto x = counted<double>(6, released, {6});
  dl::DLManagedTensorVersioned* t = cupp::to_dlpack(x);
  double* data = x.data();
  x = cupp::host::ndarray<double>();
  BOOST_TEST(released == 0);
  auto y = cupp::from_dlpack<double, host_space>(t);
  auto view = y;  // a second handle: the deleter waits for both
  y.at(2) = 99.0;
  BOOST_TEST(view.at(2) == 99.0);
  BOOST_TEST(data[2] == 99.0);
  y = cupp::host::ndarray<double>();
  BOOST_TEST(released == 0);
  BOOST_TEST(view.at(5) == sample<double>(5));
  view = cupp::host::ndarray<double>();
  BOOST_TEST(released == 1);
}

BOOST_AUTO_TEST_CASE(an_unconsumed_export_frees_through_its_deleter) {
  int released = 0;
  auto x = counted<float>(3, released, {3});
  dl::DLManagedTensorVersioned* t = cupp::to_dlpack(x);
  dl::DLManagedTensor* u = cupp::to_dlpack_unversioned(x);
  x = cupp::host::ndarray<float>();
  t->deleter(t);
  BOOST_TEST(released == 0);  // the unversioned tensor still holds it
  dl::release(u);
  BOOST_TEST(released == 1);
}

BOOST_AUTO_TEST_CASE(a_foreign_tensor_is_deleted_once_when_the_last_view_goes) {
  foreign f;
  foreign_deleted = 0;
  {
    auto y = cupp::from_dlpack<float, host_space>(&f.v);
    BOOST_TEST(y.data() == f.data.data());
    BOOST_TEST(y.shape() == (shape_t{2, 3, 4}));
    BOOST_TEST(y.at(1, 2, 3) == f.data[23]);
    auto views = std::vector<cupp::host::ndarray<float>>(5, y);
    y = cupp::host::ndarray<float>();
    BOOST_TEST(foreign_deleted == 0);
  }
  BOOST_TEST(foreign_deleted == 1);
  {
    auto y = cupp::from_dlpack<float, host_space>(&f.u);
    BOOST_TEST(y.at(1, 0, 2) == f.data[14]);
  }
  BOOST_TEST(foreign_deleted == 2);
  // A null deleter is allowed: nothing is called.
  f.v.deleter = nullptr;
  { auto y = cupp::from_dlpack<float, host_space>(&f.v); }
  BOOST_TEST(foreign_deleted == 2);
}

// An imported array exported again: the foreign tensor lives until both
// the array and the new tensor are gone.
BOOST_AUTO_TEST_CASE(an_import_exported_again_keeps_the_foreign_tensor) {
  foreign f;
  foreign_deleted = 0;
  auto y = cupp::from_dlpack<float, host_space>(&f.v);
  dl::DLManagedTensorVersioned* again = cupp::to_dlpack(y);
  BOOST_TEST(again->dl_tensor.data == static_cast<void*>(f.data.data()));
  BOOST_TEST(again->dl_tensor.strides[0] == 12);
  y = cupp::host::ndarray<float>();
  BOOST_TEST(foreign_deleted == 0);
  auto z = cupp::from_dlpack<float, host_space>(again);
  BOOST_TEST(z.at(1, 1, 1) == f.data[17]);
  BOOST_TEST(foreign_deleted == 0);
  z = cupp::host::ndarray<float>();
  BOOST_TEST(foreign_deleted == 1);
}

BOOST_AUTO_TEST_CASE(byte_offset_and_null_strides) {
  foreign f;
  foreign_deleted = 0;
  f.v.dl_tensor.byte_offset = 8;  // two floats in
  f.v.dl_tensor.strides = nullptr;
  f.shape[0] = 3;
  f.shape[1] = 5;
  f.shape[2] = 2;
  {
    auto y = cupp::from_dlpack<float, host_space>(&f.v);
    BOOST_TEST(y.data() == f.data.data() + 2);
    BOOST_TEST(y.strides() == (strides_t{40, 8, 4}));  // C order, in bytes
    BOOST_TEST(y.is_c_contiguous());
    BOOST_TEST(y.at(0, 0, 0) == f.data[2]);
    BOOST_TEST(y.at(2, 4, 1) == f.data[2 + 29]);
  }
  BOOST_TEST(foreign_deleted == 1);
  // A 0-d tensor may have a null shape as well.
  f.v.dl_tensor.ndim = 0;
  f.v.dl_tensor.shape = nullptr;
  f.v.dl_tensor.byte_offset = 12;
  {
    auto y = cupp::from_dlpack<float, host_space>(&f.v);
    BOOST_TEST(y.ndim() == 0);
    BOOST_TEST(y.item() == f.data[3]);
  }
  BOOST_TEST(foreign_deleted == 2);
}

BOOST_AUTO_TEST_CASE(every_refusal_leaves_the_tensor_with_the_caller) {
  using host_f = cupp::host::ndarray<float>;
  auto take = [](dl::DLManagedTensorVersioned* t) {
    (void)cupp::from_dlpack<float, host_space>(t);
  };
  const std::string max_ndim = std::to_string(cupp::max_ndim);
  struct refusal_case {
    const char* name;
    void (*spoil)(foreign&);
    bool is_type_error;
    std::string message;
  };
  const std::vector<refusal_case> cases = {
      {"newer major",
       [](foreign& f) {
         f.v.version = {2, 0};
       },
       false, "DLPack 2.0"},
      {"major 0",
       [](foreign& f) {
         f.v.version = {0, 8};
       },
       false, "DLPack 0.8"},
      {"other dtype",
       [](foreign& f) {
         f.v.dl_tensor.dtype = {dl::kDLFloat, 64, 1};
       },
       true, "holds float64 elements, not float32"},
      {"lanes",
       [](foreign& f) {
         f.v.dl_tensor.dtype = {dl::kDLFloat, 32, 4};
       },
       true, "float32x4 (4 lanes)"},
      {"float8",
       [](foreign& f) {
         f.v.dl_tensor.dtype = {dl::kDLFloat, 8, 1};
       },
       true, "dtype float8 has no cupp dtype"},
      {"opaque",
       [](foreign& f) {
         f.v.dl_tensor.dtype = {dl::kDLOpaqueHandle, 64, 1};
       },
       true, "opaque handle64"},
      {"unknown code",
       [](foreign& f) {
         f.v.dl_tensor.dtype = {42, 32, 1};
       },
       true, "type code 42"},
      {"cuda memory",
       [](foreign& f) {
         f.v.dl_tensor.device = {dl::kDLCUDA, 0};
       },
       false, "kDLCUDA memory cannot become a host array (use from_dlpack<T> for a device array)"},
      {"opencl memory",
       [](foreign& f) {
         f.v.dl_tensor.device = {dl::kDLOpenCL, 0};
       },
       false, "device type 4"},
      {"negative ndim", [](foreign& f) { f.v.dl_tensor.ndim = -1; }, false, "-1 dimensions"},
      {"too many dims", [](foreign& f) { f.v.dl_tensor.ndim = cupp::max_ndim + 1; }, false,
       "at most"},
      {"null shape", [](foreign& f) { f.v.dl_tensor.shape = nullptr; }, false, "shape is null"},
      {"negative extent", [](foreign& f) { f.shape[1] = -3; }, false, "negative dimensions"},
      {"null data", [](foreign& f) { f.v.dl_tensor.data = nullptr; }, false,
       "data pointer is null"},
      {"misaligned", [](foreign& f) { f.v.dl_tensor.byte_offset = 2; }, false,
       "not aligned to 4 bytes"},
      {"stride overflow", [](foreign& f) { f.strides[0] = INT64_MAX / 2; }, false, "overflows"},
  };
  for (const refusal_case& c : cases) {
    BOOST_TEST_CONTEXT(c.name) {
      foreign f;
      c.spoil(f);
      const dl::DLManagedTensorVersioned before = f.v;
      foreign_deleted = 0;
      const std::string what = c.is_type_error ? refusal<cupp::type_error>([&] { take(&f.v); })
                                               : refusal<cupp::value_error>([&] { take(&f.v); });
      BOOST_TEST(contains(what, c.message), what);
      BOOST_TEST(contains(what, "from_dlpack"), what);
      BOOST_TEST(foreign_deleted == 0);
      BOOST_TEST(std::memcmp(&before, &f.v, sizeof before) == 0);
      dl::release(&f.v);  // the caller's to give back
      BOOST_TEST(foreign_deleted == 1);
    }
  }
  BOOST_TEST(contains(refusal<cupp::value_error>([&] { take(nullptr); }), "null pointer"));
  BOOST_TEST(contains(refusal<cupp::value_error>([] {
                        (void)cupp::from_dlpack<float, host_space>(
                            static_cast<dl::DLManagedTensor*>(nullptr));
                      }),
                      "null pointer"));
  // The unversioned struct goes through the same checks.
  foreign f;
  foreign_deleted = 0;
  f.u.dl_tensor.dtype = {dl::kDLInt, 32, 1};
  BOOST_TEST(
      contains(refusal<cupp::type_error>([&] { (void)cupp::from_dlpack<float, host_space>(&f.u); }),
               "holds int32 elements, not float32"));
  BOOST_TEST(foreign_deleted == 0);
  // A minor version from the future is fine: the layout is the same.
  f.v.version = {1, 7};
  { host_f y = cupp::from_dlpack<float, host_space>(&f.v); }
  BOOST_TEST(foreign_deleted == 1);
}

BOOST_AUTO_TEST_CASE(host_memory_kinds_a_host_array_accepts) {
  for (auto type : {dl::kDLCPU, dl::kDLCUDAHost, dl::kDLCUDAManaged}) {
    foreign f;
    f.v.dl_tensor.device = {type, 0};
    auto y = cupp::from_dlpack<float, host_space>(&f.v);
    BOOST_TEST(y.at(0, 1, 1) == f.data[5]);
  }
}

BOOST_AUTO_TEST_CASE(read_only_flags) {
  foreign f;
  foreign_deleted = 0;
  f.v.flags = dl::DLPACK_FLAG_BITMASK_READ_ONLY | dl::DLPACK_FLAG_BITMASK_IS_COPIED;
  {
    auto y = cupp::from_dlpack<float, host_space>(&f.v);
    BOOST_TEST(!y.flags().writeable);
    BOOST_TEST(contains(refusal<cupp::value_error>([&] { std::move(y) = 1.0f; }), "read-only"));
    BOOST_TEST(f.data[0] == 0.0f);
    // Exported again, it stays read-only; the old struct cannot say so.
    dl::DLManagedTensorVersioned* t = cupp::to_dlpack(y);
    BOOST_TEST(t->flags == dl::DLPACK_FLAG_BITMASK_READ_ONLY);
    dl::release(t);
    BOOST_TEST(contains(refusal<cupp::value_error>([&] { (void)cupp::to_dlpack_unversioned(y); }),
                        "read-only"));
  }
  BOOST_TEST(foreign_deleted == 1);
}

BOOST_AUTO_TEST_CASE(strides_that_are_not_whole_items_are_refused_without_a_leak) {
  int released = 0;
  {
    auto base = counted<float>(8, released, {8});
    // 6-byte steps: a view no DLPack consumer could read.
    auto odd = cupp::host::ndarray<float>::from_pointer(base.data(), {3}, {6}, base.memory());
    const long owners = base.memory().use_count();
    BOOST_TEST(contains(refusal<cupp::value_error>([&] { (void)cupp::to_dlpack(odd); }),
                        "not a multiple of the item size"));
    BOOST_TEST(base.memory().use_count() == owners);
  }
  BOOST_TEST(released == 1);
}

BOOST_AUTO_TEST_CASE(host_arrays_take_no_stream) {
  auto x = cupp::host::ndarray<float>(shape_t{2});
  BOOST_TEST(contains(refusal<cupp::value_error>(
                          [&] { (void)cupp::to_dlpack(x, dl::consumer_stream(cudaStreamLegacy)); }),
                      "host array takes no stream"));
  dl::DLManagedTensorVersioned* t = cupp::to_dlpack(x, dl::consumer_stream::no_sync());
  BOOST_TEST(t->dl_tensor.data == static_cast<void*>(x.data()));
  dl::release(t);
}

BOOST_AUTO_TEST_CASE(the_python_stream_integers) {
  using cs = dl::consumer_stream;
  BOOST_TEST(cs().is_default());
  BOOST_TEST(cs().handle() == cudaStreamLegacy);
  BOOST_TEST(cs::from_python(-1).is_no_sync());
  BOOST_TEST(!cs::from_python(1).is_default());
  BOOST_TEST(cs::from_python(1).handle() == cudaStreamLegacy);
  BOOST_TEST(cs::from_python(2).handle() == cudaStreamPerThread);
  BOOST_TEST(cs::from_python(0x7f0012345600).handle() ==
             reinterpret_cast<cudaStream_t>(std::intptr_t{0x7f0012345600}));
  BOOST_TEST(contains(refusal<cupp::value_error>([] { (void)cs::from_python(0); }), "stream=0"));
  BOOST_TEST(contains(refusal<cupp::value_error>([] { (void)cs::from_python(-2); }), "stream=-2"));
}

// Device-array paths that touch no GPU, so that they are compiled and run
// where there is none: a device array refuses host memory before asking
// CUDA anything, and an empty device array exports with no handshake.
BOOST_AUTO_TEST_CASE(device_array_paths_without_a_gpu) {
  foreign f;
  foreign_deleted = 0;
  BOOST_TEST(contains(refusal<cupp::value_error>([&] { (void)cupp::from_dlpack<float>(&f.v); }),
                      "kDLCPU memory cannot become a device array (use from_dlpack<T, "
                      "host_space>)"));
  BOOST_TEST(contains(refusal<cupp::value_error>([&] { (void)cupp::from_dlpack<float>(&f.u); }),
                      "cannot become a device array"));
  BOOST_TEST(foreign_deleted == 0);
  const cupp::ndarray<float> empty;
  dl::DLManagedTensorVersioned* t = cupp::to_dlpack(empty, dl::consumer_stream::no_sync());
  BOOST_TEST(t->dl_tensor.device.device_type == dl::kDLCUDA);
  BOOST_TEST(t->dl_tensor.ndim == 1);
  BOOST_TEST(t->dl_tensor.shape[0] == 0);
  dl::release(t);
  dl::DLManagedTensor* u = cupp::to_dlpack_unversioned(empty, dl::consumer_stream::no_sync());
  BOOST_TEST(u->dl_tensor.device.device_type == dl::kDLCUDA);
  dl::release(u);
}

BOOST_AUTO_TEST_SUITE_END()
