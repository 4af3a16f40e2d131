// Host arrays: shapes, layouts, flags, creation, element access, copies and
// the errors NumPy raises for bad input. Needs no GPU.
#include <cupp/creation.hpp>
#include <cupp/ufunc/arithmetic.hpp>

#include <sstream>
#include <string>
#include <vector>

#include "cupp_test.hpp"

using cupp::index_t;

BOOST_AUTO_TEST_SUITE(shapes)

BOOST_AUTO_TEST_CASE(print_like_python_tuples) {
  BOOST_TEST(cupp::to_string(cupp::shape_t{}) == "()");
  BOOST_TEST(cupp::to_string(cupp::shape_t{3}) == "(3,)");
  BOOST_TEST(cupp::to_string(cupp::shape_t{2, 3, 0}) == "(2, 3, 0)");
}

BOOST_AUTO_TEST_CASE(rank_limit) {
  cupp::shape_t s = cupp::shape_t::filled(cupp::max_ndim, 1);
  BOOST_TEST(s.size() == cupp::max_ndim);
  try {
    s.push_back(1);
    BOOST_FAIL("no error past the rank limit");
  } catch (const cupp::value_error& e) {
    BOOST_TEST(std::string(e.what()) == "maximum supported dimension for an ndarray is currently " +
                                            std::to_string(cupp::max_ndim) + ", found " +
                                            std::to_string(cupp::max_ndim + 1));
  }
  std::vector<int> too_many(cupp::max_ndim + 1, 1);
  BOOST_CHECK_THROW(cupp::shape_t{too_many}, cupp::value_error);
  BOOST_CHECK_THROW(cupp::host::empty<float>(cupp::shape_t{too_many}), cupp::value_error);
}

BOOST_AUTO_TEST_CASE(negative_and_oversized_dimensions) {
  try {
    cupp::host::zeros<float>({2, -1});
    BOOST_FAIL("negative dimension accepted");
  } catch (const cupp::value_error& e) {
    BOOST_TEST(std::string(e.what()) == "negative dimensions are not allowed");
  }
  BOOST_CHECK_THROW(cupp::host::empty<double>({index_t{1} << 40, index_t{1} << 40}),
                    cupp::value_error);
  // A zero extent makes the array empty, however large the others are.
  auto e = cupp::host::empty<double>({index_t{1} << 40, 0, index_t{1} << 40});
  BOOST_TEST(e.size() == 0);
}

BOOST_AUTO_TEST_CASE(contiguous_strides) {
  BOOST_TEST(cupp::detail::contiguous_strides({2, 3, 4}, 4, cupp::order::C).to_vector() ==
             (std::vector<index_t>{48, 16, 4}));
  BOOST_TEST(cupp::detail::contiguous_strides({2, 3, 4}, 4, cupp::order::F).to_vector() ==
             (std::vector<index_t>{4, 8, 24}));
  BOOST_TEST(cupp::detail::contiguous_strides({2, 0, 4}, 8, cupp::order::C).to_vector() ==
             (std::vector<index_t>{32, 32, 8}));
}

// NumPy's flags for assorted views (tests/generate_layout_fixtures.py).
BOOST_AUTO_TEST_CASE(contiguity_flags_match_numpy) {
  int n = 0;
  for (const auto& line : cupp_test::fixture_lines("layout/flags.txt")) {
    std::istringstream in(line);
    index_t itemsize;
    int ndim;
    in >> itemsize >> ndim;
    cupp::shape_t shape = cupp::shape_t::filled(ndim, 0);
    cupp::strides_t strides = cupp::strides_t::filled(ndim, 0);
    for (int i = 0; i < ndim; ++i) in >> shape[i];
    for (int i = 0; i < ndim; ++i) in >> strides[i];
    int c, f;
    in >> c >> f;
    BOOST_TEST(cupp::detail::is_c_contiguous(shape, strides, itemsize) == (c == 1), line);
    BOOST_TEST(cupp::detail::is_f_contiguous(shape, strides, itemsize) == (f == 1), line);
    ++n;
  }
  BOOST_TEST(n > 250);
}

BOOST_AUTO_TEST_CASE(copy_plan_merges_contiguous_axes) {
  const auto c = cupp::detail::contiguous_strides({4, 5, 6}, 4);
  auto p = cupp::detail::plan_copy({4, 5, 6}, c, c);
  BOOST_TEST(p.ndim == 1);
  BOOST_TEST(p.shape[0] == 120);
  const auto f = cupp::detail::contiguous_strides({4, 5, 6}, 4, cupp::order::F);
  p = cupp::detail::plan_copy({4, 5, 6}, c, f);
  BOOST_TEST(p.ndim == 3);
  // Uniform steps on both sides merge even when not dense...
  p = cupp::detail::plan_copy({4, 1, 6}, cupp::strides_t{24, 999, 4}, cupp::strides_t{48, 7, 8});
  BOOST_TEST(p.ndim == 1);
  BOOST_TEST(p.src[0] == 8);
  // ...a gap on one side does not.
  p = cupp::detail::plan_copy({4, 1, 6}, cupp::strides_t{24, 999, 4}, cupp::strides_t{56, 7, 8});
  BOOST_TEST(p.ndim == 2);
  BOOST_TEST(cupp::detail::plan_copy({3, 0}, c, c).size == 0);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(host_arrays)

BOOST_AUTO_TEST_CASE(attributes_of_a_new_array) {
  cupp::host::ndarray<float> a({2, 3});
  BOOST_TEST(a.ndim() == 2);
  BOOST_TEST(a.size() == 6);
  BOOST_TEST(a.nbytes() == 24);
  BOOST_TEST(a.itemsize() == 4);
  BOOST_TEST(a.dtype().name == "float32");
  BOOST_TEST(a.strides().to_vector() == (std::vector<index_t>{12, 4}));
  BOOST_TEST(a.flags().c_contiguous);
  BOOST_TEST(!a.flags().f_contiguous);
  BOOST_TEST(a.flags().owndata);
  BOOST_TEST(a.flags().aligned);
  BOOST_TEST(a.device() == "cpu");
  BOOST_TEST(reinterpret_cast<std::uintptr_t>(a.data()) % 64 == 0);

  auto f = cupp::host::empty<double>({2, 3}, cupp::order::F);
  BOOST_TEST(f.flags().f_contiguous);
  BOOST_TEST(!f.flags().c_contiguous);
  BOOST_TEST(f.strides().to_vector() == (std::vector<index_t>{8, 16}));
}

BOOST_AUTO_TEST_CASE(copies_of_handles_are_views) {
  auto a = cupp::host::zeros<int>({4}).eval();
  auto b = a;  // a view: same memory
  BOOST_TEST(b.data() == a.data());
  BOOST_TEST(!b.flags().owndata);
  BOOST_TEST(a.flags().owndata);
  b.at(2) = 7;
  BOOST_TEST(a.at(2) == 7);
  auto c = a.copy();  // new memory
  BOOST_TEST(c.data() != a.data());
  BOOST_TEST(c.flags().owndata);
  c.at(2) = 9;
  BOOST_TEST(a.at(2) == 7);
  // Views keep the memory alive after the original handle is gone.
  cupp::host::ndarray<int> v;
  {
    auto tmp = cupp::host::array<int>({1, 2, 3});
    v = tmp;
  }
  BOOST_TEST(v.at(-1) == 3);
  auto moved = std::move(c);
  BOOST_TEST(moved.flags().owndata);
}

BOOST_AUTO_TEST_CASE(zero_d_and_empty) {
  auto s = cupp::host::zeros<double>({}).eval();
  BOOST_TEST(s.ndim() == 0);
  BOOST_TEST(s.size() == 1);
  BOOST_TEST(s.nbytes() == 8);
  BOOST_TEST(s.item() == 0.0);
  BOOST_TEST(s.at() == 0.0);
  BOOST_TEST(s.flags().c_contiguous);
  BOOST_TEST(s.flags().f_contiguous);

  auto e = cupp::host::empty<float>({2, 0, 3});
  BOOST_TEST(e.size() == 0);
  BOOST_TEST(e.nbytes() == 0);
  BOOST_TEST(e.data() == nullptr);
  BOOST_TEST(e.flags().c_contiguous);
  BOOST_TEST(e.flags().f_contiguous);
  BOOST_TEST(e.copy().size() == 0);
  BOOST_TEST(e.to_vector().empty());

  cupp::host::ndarray<float> d;  // default: shape (0,)
  BOOST_TEST(d.ndim() == 1);
  BOOST_TEST(d.size() == 0);
}

BOOST_AUTO_TEST_CASE(nested_initializer_lists) {
  auto a = cupp::host::array<float>({1, 2, 3});
  BOOST_TEST(a.shape() == cupp::shape_t{3});
  auto b = cupp::host::array<int>({{1, 2, 3}, {4, 5, 6}});
  BOOST_TEST(b.shape() == (cupp::shape_t{2, 3}));
  BOOST_TEST(b.at(1, 0) == 4);
  BOOST_TEST(b.to_vector() == (std::vector<int>{1, 2, 3, 4, 5, 6}));
  auto c = cupp::host::array<double>({{{1, 2}, {3, 4}}, {{5, 6}, {7, 8}}, {{9, 10}, {11, 12}}});
  BOOST_TEST(c.shape() == (cupp::shape_t{3, 2, 2}));
  BOOST_TEST(c.at(2, 1, 0) == 11.0);
  BOOST_TEST(c.at(-1, -1, -1) == 12.0);
  auto booleans = cupp::host::array<bool>({true, false, true});
  BOOST_TEST(booleans.dtype().name == "bool");
}

BOOST_AUTO_TEST_CASE(ragged_lists_are_rejected) {
  try {
    cupp::host::array<int>({{1, 2}, {3}});
    BOOST_FAIL("ragged list accepted");
  } catch (const cupp::value_error& e) {
    BOOST_TEST(std::string(e.what()) ==
               "setting an array element with a sequence. The requested array has an "
               "inhomogeneous shape after 1 dimensions. The detected shape was (2,) + "
               "inhomogeneous part.");
  }
  BOOST_CHECK_THROW(cupp::host::array<int>({{{1, 2}, {3, 4}}, {{5, 6}, {7}}}), cupp::value_error);
  BOOST_CHECK_THROW(cupp::host::array<int>({{{1, 2}, {3, 4}}, {{5, 6}}}), cupp::value_error);
}

BOOST_AUTO_TEST_CASE(from_containers_and_pointers) {
  std::vector<std::int16_t> v{1, 2, 3, 4, 5, 6};
  auto a = cupp::host::asarray(v);
  BOOST_TEST(a.shape() == cupp::shape_t{6});
  BOOST_TEST(a.dtype().name == "int16");
  BOOST_TEST(a.data() != v.data());  // a copy
  auto b = cupp::host::asarray(v, {2, 3});
  BOOST_TEST(b.at(1, 2) == 6);
  auto s = cupp::host::asarray(std::span<const std::int16_t>(v).subspan(2), {2, 2});
  BOOST_TEST(s.at(0, 0) == 3);
  try {
    cupp::host::asarray(v, {4});
    BOOST_FAIL("size mismatch accepted");
  } catch (const cupp::value_error& e) {
    BOOST_TEST(std::string(e.what()) == "cannot reshape array of size 6 into shape (4,)");
  }
  try {
    cupp::host::asarray(v, {4, 5});
    BOOST_FAIL("size mismatch accepted");
  } catch (const cupp::value_error& e) {  // NumPy's C code writes no spaces
    BOOST_TEST(std::string(e.what()) == "cannot reshape array of size 6 into shape (4,5)");
  }
  // A pointer with byte strides, including a negative one: the reversed
  // columns of a 2 x 3 matrix.
  const std::int16_t* last_col = v.data() + 2;
  auto r = cupp::host::asarray(last_col, {2, 3}, cupp::strides_t{6, -2});
  BOOST_TEST(r.to_vector() == (std::vector<std::int16_t>{3, 2, 1, 6, 5, 4}));
  BOOST_TEST(r.flags().c_contiguous);
}

BOOST_AUTO_TEST_CASE(from_pointer_views_and_owners) {
  auto owner = std::make_shared<std::vector<float>>(std::vector<float>{0, 1, 2, 3, 4, 5, 6, 7});
  auto view = cupp::host::ndarray<float>::from_pointer(
      owner->data(), {2, 2}, cupp::strides_t{16, 8}, std::shared_ptr<void>(owner, owner->data()));
  BOOST_TEST(owner.use_count() == 2);
  BOOST_TEST(!view.flags().owndata);
  BOOST_TEST(!view.flags().c_contiguous);
  BOOST_TEST(!view.flags().f_contiguous);
  BOOST_TEST(view.to_vector() == (std::vector<float>{0, 2, 4, 6}));
  // numpy.ndarray(shape, strides=...)'s message.
  BOOST_CHECK_EXCEPTION(
      cupp::host::ndarray<float>::from_pointer(owner->data(), {2, 2}, cupp::strides_t{4}),
      cupp::value_error, [](const cupp::value_error& e) {
        return std::string(e.what()) == "strides, if given, must be the same length as shape";
      });
}

BOOST_AUTO_TEST_CASE(element_access_and_errors) {
  auto a = cupp::host::array<int>({{1, 2, 3}, {4, 5, 6}});
  BOOST_TEST(a.at(0, -1) == 3);
  BOOST_TEST(a.item(4) == 5);  // flat C-order index
  BOOST_TEST(a.item(-1) == 6);
  BOOST_TEST(a.item(1, 1) == 5);
  try {
    a.at(2, 0);
    BOOST_FAIL("out of bounds accepted");
  } catch (const cupp::index_error& e) {
    BOOST_TEST(std::string(e.what()) == "index 2 is out of bounds for axis 0 with size 2");
  }
  try {
    a.at(0, -4);
    BOOST_FAIL("out of bounds accepted");
  } catch (const cupp::index_error& e) {
    BOOST_TEST(std::string(e.what()) == "index -4 is out of bounds for axis 1 with size 3");
  }
  try {
    a.at(0, 0, 0);
    BOOST_FAIL("too many indices accepted");
  } catch (const cupp::index_error& e) {
    BOOST_TEST(std::string(e.what()) ==
               "too many indices for array: array is 2-dimensional, but 3 were indexed");
  }
  BOOST_CHECK_THROW(a.at(0), cupp::index_error);
  BOOST_CHECK_THROW(a.item(6), cupp::index_error);
  try {
    a.item();
    BOOST_FAIL("item() of a 6-element array accepted");
  } catch (const cupp::value_error& e) {
    BOOST_TEST(std::string(e.what()) == "can only convert an array of size 1 to a Python scalar");
  }
  BOOST_CHECK_THROW(a.item(0, 0, 0), cupp::value_error);
}

BOOST_AUTO_TEST_CASE(copies_between_layouts) {
  auto c = cupp::host::asarray(std::vector<int>{0, 1, 2, 3, 4, 5}, {2, 3});
  auto f = c.copy(cupp::order::F);
  BOOST_TEST(f.flags().f_contiguous);
  BOOST_TEST(f.strides().to_vector() == (std::vector<index_t>{4, 8}));
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j) BOOST_TEST(f.at(i, j) == c.at(i, j));
  BOOST_TEST(f.to_vector() == c.to_vector());
  BOOST_TEST(f.copy(cupp::order::K).flags().f_contiguous);
  BOOST_TEST(f.copy(cupp::order::A).flags().f_contiguous);
  BOOST_TEST(f.copy().flags().c_contiguous);
  auto like = cupp::host::zeros_like(f).eval();
  BOOST_TEST(like.flags().f_contiguous);
  BOOST_TEST(like.to_vector() == std::vector<int>(6, 0));
  BOOST_TEST(cupp::host::empty_like(c).flags().c_contiguous);
  // A strided source (every other element, backwards).
  auto v =
      cupp::host::ndarray<int>::from_pointer(c.data() + 5, {3}, cupp::strides_t{-8}, c.memory());
  BOOST_TEST(v.copy().to_vector() == (std::vector<int>{5, 3, 1}));
  // copy_into: layouts may differ, shapes may not.
  auto dst = cupp::host::empty<int>({2, 3}, cupp::order::F);
  c.copy_into(dst);
  BOOST_TEST(dst.to_vector() == c.to_vector());
  BOOST_CHECK_EXCEPTION(
      c.copy_into(cupp::host::empty<int>({3, 2})), cupp::value_error,
      [](const cupp::value_error& e) {
        return std::string(e.what()) ==
               "could not broadcast input array from shape (2,3) into shape (3,2)";
      });
}

BOOST_AUTO_TEST_CASE_TEMPLATE(every_dtype_round_trips_through_layouts, T, cupp_test::dtype_list) {
  const cupp::shape_t shape{3, 4, 5};
  auto a = cupp::host::empty<T>(shape);
  for (index_t i = 0; i < a.size(); ++i) a.data()[i] = cupp_test::sample<T>(static_cast<long>(i));
  auto f = a.copy(cupp::order::F);
  auto back = f.copy(cupp::order::C);
  BOOST_TEST(std::memcmp(back.data(), a.data(), static_cast<std::size_t>(a.nbytes())) == 0);
  for (index_t i = 0; i < 3; ++i)
    for (index_t j = 0; j < 4; ++j)
      for (index_t k = 0; k < 5; ++k)
        BOOST_TEST(cupp_test::same_bits(f.at(i, j, k), a.at(i, j, k)));
  BOOST_TEST(cupp::host::zeros<T>(shape).dtype() == cupp::dtype_of<T>());
  auto z = cupp::host::zeros<T>({7}).eval();
  const std::vector<unsigned char> zero_bytes(7 * sizeof(T), 0);
  BOOST_TEST(std::memcmp(z.data(), zero_bytes.data(), zero_bytes.size()) == 0);
}

BOOST_AUTO_TEST_SUITE_END()

// Without a CUDA driver or device (CI machines, laptops), the first use of
// the GPU throws cupp::cuda::no_device_error, whose message says so in
// words instead of CUDA's "driver version is insufficient", and points to
// host arrays. With a GPU, the same test checks that one is seen.
BOOST_AUTO_TEST_SUITE(no_gpu)

void check_no_device_message(const std::string& m, cudaError_t code) {
  BOOST_TEST(m.starts_with(std::string(cudaGetErrorName(code)) + ": no "), m);
  BOOST_TEST(m.find("CUDA device") != std::string::npos, m);
  BOOST_TEST(m.find(cudaGetErrorString(code)) != std::string::npos, m);
  BOOST_TEST(m.find("cupp::cuda::is_available() is false") != std::string::npos, m);
  BOOST_TEST(m.find("host arrays (cupp::host::") != std::string::npos, m);
}

BOOST_AUTO_TEST_CASE(first_gpu_use_says_there_is_none) {
  if (cupp::cuda::is_available()) {
    BOOST_TEST(cupp::cuda::runtime::getDeviceCount() > 0);
    BOOST_TEST_MESSAGE("a CUDA device is present: the no-device message is not tested");
    return;
  }
  int touches = 0;
  const auto touch = [&](auto&& use_the_gpu) {
    try {
      use_the_gpu();
      BOOST_ERROR("no exception without a CUDA device");
    } catch (const cupp::cuda::no_device_error& e) {
      ++touches;
      check_no_device_message(e.what(), e.code());
      BOOST_TEST(!cupp::cuda::detail::no_device_code(cudaSuccess));
    }
  };
  touch([] { cupp::ndarray<float> a({3}); });                  // an allocation
  touch([] { (void)cupp::cuda::runtime::getDeviceCount(); });  // a device query
  touch([] { (void)cupp::cuda::runtime::getDeviceProperties(0); });
  touch([] { cupp::ndarray<float> z = cupp::zeros<float>({3}) + 1; });  // a kernel's result
  touch([] { cupp::cuda::Device d(0); });
  BOOST_TEST(touches == 5);
  // A cuda_error, for the handlers of CUDA errors.
  BOOST_CHECK_THROW(cupp::cuda::runtime::getDevice(), cupp::cuda::cuda_error);
  // Host arrays run without a GPU.
  const cupp::host::ndarray<float> h = cupp::host::arange<float>(3) * 2;
  BOOST_TEST(h.to_vector() == (std::vector<float>{0, 2, 4}));
}

BOOST_AUTO_TEST_CASE(no_device_codes) {
  for (const cudaError_t code :
       {cudaErrorNoDevice, cudaErrorStubLibrary, cudaErrorInitializationError}) {
    BOOST_TEST(cupp::cuda::detail::no_device_code(code), cudaGetErrorName(code));
    const cupp::cuda::no_device_error e(code, "cudaGetDevice");
    BOOST_TEST(e.code() == code);
    check_no_device_message(e.what(), code);
    BOOST_TEST(std::string(e.what()).find("in cudaGetDevice") != std::string::npos, e.what());
  }
  BOOST_TEST(!cupp::cuda::detail::no_device_code(cudaErrorInvalidValue));
  BOOST_TEST(!cupp::cuda::detail::no_device_code(cudaErrorMemoryAllocation));
  // "Insufficient driver" means no driver only where the driver reports
  // version 0; an older driver keeps CUDA's message, with both versions.
  int driver = -1;
  BOOST_TEST(cudaDriverGetVersion(&driver) == cudaSuccess);
  BOOST_TEST(cupp::cuda::detail::no_device_code(cudaErrorInsufficientDriver) == (driver == 0));
  const std::string m = cupp::cuda::cuda_error(cudaErrorInsufficientDriver).what();
  BOOST_TEST(m.starts_with("cudaErrorInsufficientDriver: CUDA driver version is insufficient"));
  if (driver > 0) BOOST_TEST(m.find("update the driver") != std::string::npos, m);
}

BOOST_AUTO_TEST_SUITE_END()
