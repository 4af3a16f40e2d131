// Device arrays on a real GPU: creation, layouts, copies, transfers in both
// directions (blocking, asynchronous, staged through pinned memory), views of
// foreign device memory, and bad input.
#include <cupp/creation.hpp>

#include <numeric>
#include <random>

#include "cupp_test.hpp"

using cupp::index_t;

namespace {

template <class T>
cupp::host::ndarray<T> sample_array(const cupp::shape_t& shape, cupp::order o = cupp::order::C,
                                    long seed = 0) {
  auto c = cupp::host::empty<T>(shape);
  for (index_t i = 0; i < c.size(); ++i)
    c.data()[i] = cupp_test::sample<T>(static_cast<long>(i) + seed);
  return o == cupp::order::F ? c.copy(cupp::order::F) : c;
}

template <class T>
bool same_elements(const cupp::host::ndarray<T>& a, const cupp::host::ndarray<T>& b) {
  if (a.shape() != b.shape()) return false;
  const auto x = a.copy(), y = b.copy();
  return std::memcmp(x.data(), y.data(), static_cast<std::size_t>(x.nbytes())) == 0;
}

struct restore_tuning {
  cupp::detail::transfer_tuning saved = cupp::detail::tuning();
  ~restore_tuning() { cupp::detail::tuning() = saved; }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(device_arrays)

BOOST_AUTO_TEST_CASE_TEMPLATE(round_trip_every_dtype_and_layout, T, cupp_test::dtype_list) {
  for (cupp::order o : {cupp::order::C, cupp::order::F}) {
    const auto h = sample_array<T>({5, 7, 3}, o);
    const auto d = cupp::asarray(h);
    BOOST_TEST(d.shape() == h.shape());
    BOOST_TEST(d.flags().c_contiguous == h.flags().c_contiguous);
    BOOST_TEST(d.flags().f_contiguous == h.flags().f_contiguous);
    BOOST_TEST(d.flags().owndata);
    BOOST_TEST(d.device_id() == 0);
    BOOST_TEST(d.dtype() == cupp::dtype_of<T>());
    const auto back = cupp::asnumpy(d);
    BOOST_TEST(back.flags().c_contiguous);  // get() defaults to C order
    BOOST_TEST(same_elements(back, h));
    BOOST_TEST(same_elements(d.get({.ord = cupp::order::K}), h));
    BOOST_TEST(d.get({.ord = cupp::order::K}).flags().f_contiguous == (o == cupp::order::F));
    BOOST_TEST(same_elements(d.get({.ord = cupp::order::F}), h));
    // Device copies in both orders, through the copy kernel when the
    // layouts differ.
    const auto df = d.copy(cupp::order::F);
    BOOST_TEST(df.flags().f_contiguous);
    BOOST_TEST(same_elements(df.get(), h));
    const auto dc = df.copy(cupp::order::C);
    BOOST_TEST(dc.flags().c_contiguous);
    BOOST_TEST(same_elements(dc.get(), h));
    BOOST_TEST(cupp_test::same_bits(d.item(1, 2, 0), h.at(1, 2, 0)));
    BOOST_TEST(cupp_test::same_bits(d.item(-1), h.at(4, 6, 2)));
  }
  // zeros are zero bytes for every dtype; empty and 0-d arrays work.
  const auto z = cupp::zeros<T>({3, 4}).eval().get();
  const std::vector<unsigned char> zero_bytes(static_cast<std::size_t>(z.nbytes()), 0);
  BOOST_TEST(std::memcmp(z.data(), zero_bytes.data(), zero_bytes.size()) == 0);
  const auto e = cupp::zeros<T>({0, 5}).eval();
  BOOST_TEST(e.size() == 0);
  BOOST_TEST(e.get().shape() == (cupp::shape_t{0, 5}));
  BOOST_TEST(e.copy().size() == 0);
  auto one = cupp::host::empty<T>({});
  one.data()[0] = cupp_test::sample<T>(3);
  const auto s = cupp::asarray(one);
  BOOST_TEST(s.ndim() == 0);
  BOOST_TEST(cupp_test::same_bits(s.item(), cupp_test::sample<T>(3)));
}

// The copy kernel's three forms: tiles through shared memory when the
// layout transposes (edges of partial tiles, batches of tiles, 1- to
// 16-byte items), dense rows, and any other strides. The host copy of the
// same views is the reference.
BOOST_AUTO_TEST_CASE_TEMPLATE(layout_changing_copies, T, cupp_test::dtype_list) {
  using cupp::_;
  using cupp::slice;
  const auto h = sample_array<T>({3, 70, 97});
  const auto d = cupp::asarray(h);
  const auto check = [](const cupp::host::ndarray<T>& hv, const cupp::ndarray<T>& dv) {
    for (cupp::order o : {cupp::order::C, cupp::order::F}) {
      const auto got = dv.copy(o);
      BOOST_TEST(got.shape() == hv.shape());
      BOOST_TEST(same_elements(got.get(), hv.copy(o)));
    }
  };
  check(h, d);                                           // C -> F: tiles, batches of 3
  check(h.transpose(1, 2, 0), d.transpose(1, 2, 0));     // a permutation
  check(h(1).T(), d(1).T());                             // one 97 x 70 transpose
  check(h(_, slice(1, 69), slice(2, 95)), d(_, slice(1, 69), slice(2, 95)));  // rows
  check(h(_, slice(_, _, -1), slice(_, _, 3)), d(_, slice(_, _, -1), slice(_, _, 3)));
  check(h(2, slice(3, 20)).T(), d(2, slice(3, 20)).T());  // 17 rows: a partial tile
}

BOOST_AUTO_TEST_CASE(creation_from_host_data) {
  auto a = cupp::array<float>({{1, 2, 3}, {4, 5, 6}});
  BOOST_TEST(a.shape() == (cupp::shape_t{2, 3}));
  BOOST_TEST(a.to_vector() == (std::vector<float>{1, 2, 3, 4, 5, 6}));
  auto b = cupp::array<int>({{{1}, {2}}, {{3}, {4}}});
  BOOST_TEST(b.shape() == (cupp::shape_t{2, 2, 1}));
  std::vector<double> v(12);
  std::iota(v.begin(), v.end(), 0.0);
  auto c = cupp::asarray(v, {3, 4});
  BOOST_TEST(c.item(2, 1) == 9.0);
  auto d = cupp::asarray(std::span<const double>(v).first(5));
  BOOST_TEST(d.shape() == cupp::shape_t{5});
  // A host pointer with byte strides: column 1 of the 3 x 4 matrix.
  auto col = cupp::asarray(v.data() + 1, {3}, cupp::strides_t{32});
  BOOST_TEST(col.to_vector() == (std::vector<double>{1, 5, 9}));
  auto like = cupp::zeros_like(c.copy(cupp::order::F)).eval();
  BOOST_TEST(like.flags().f_contiguous);
  BOOST_TEST(cupp::empty_like(c).shape() == c.shape());
}

BOOST_AUTO_TEST_CASE(asarray_and_array_of_device_arrays) {
  auto x = cupp::asarray(std::vector<int>{1, 2, 3});
  auto same = cupp::asarray(x);
  BOOST_TEST(same.data() == x.data());  // already on the current device
  auto view = cupp::array(x, /*copy=*/false);
  BOOST_TEST(view.data() == x.data());
  auto copied = cupp::array(x);
  BOOST_TEST(copied.data() != x.data());
  BOOST_TEST(copied.to_vector() == x.to_vector());
  BOOST_TEST(copied.flags().owndata);
  auto v = x;  // a view of the handle
  BOOST_TEST(!v.flags().owndata);
  BOOST_TEST(v.data() == x.data());
}

BOOST_AUTO_TEST_CASE(views_of_foreign_device_memory) {
  int* raw = nullptr;
  BOOST_TEST_REQUIRE(cudaMalloc(&raw, 12 * sizeof(int)) == cudaSuccess);
  std::vector<int> init(12);
  std::iota(init.begin(), init.end(), 100);
  BOOST_TEST_REQUIRE(cudaMemcpy(raw, init.data(), 48, cudaMemcpyHostToDevice) == cudaSuccess);
  std::atomic<int> freed{0};
  {
    // Owned: the deleter runs when the last view goes.
    auto owner = std::shared_ptr<void>(raw, [&freed](void* p) {
      cudaFree(p);
      ++freed;
    });
    auto a = cupp::ndarray<int>::from_pointer(raw, {3, 4}, {}, owner);
    owner.reset();
    auto t = cupp::ndarray<int>::from_pointer(raw, {4, 3}, cupp::strides_t{4, 16}, a.memory());
    BOOST_TEST(t.flags().f_contiguous);
    BOOST_TEST(t.get().at(1, 2) == init[2 * 4 + 1]);
    // A strided, non-contiguous view: every other column, backwards.
    auto odd =
        cupp::ndarray<int>::from_pointer(raw + 3, {3, 2}, cupp::strides_t{16, -8}, a.memory());
    BOOST_TEST(!odd.flags().c_contiguous);
    BOOST_TEST(odd.to_vector() == (std::vector<int>{103, 101, 107, 105, 111, 109}));
    BOOST_TEST(odd.copy().to_vector() == odd.to_vector());
    BOOST_TEST(freed.load() == 0);
  }
  BOOST_TEST(freed.load() == 1);
  // Unowned: nothing is freed by cupp.
  int* plain = nullptr;
  BOOST_TEST_REQUIRE(cudaMalloc(&plain, 16) == cudaSuccess);
  {
    auto u = cupp::ndarray<int>::from_pointer(plain, {4});
    BOOST_TEST(!u.flags().owndata);
  }
  BOOST_TEST(cudaFree(plain) == cudaSuccess);
}

BOOST_AUTO_TEST_CASE(set_into_views_and_strided_host_sources) {
  auto d = cupp::zeros<float>({4, 6}).eval();
  auto h = sample_array<float>({4, 6});
  // A strided host source: the transposed view of a 6 x 4 matrix.
  auto ht = cupp::host::asarray(h.to_vector(), {6, 4});
  auto ht_t = cupp::host::ndarray<float>::from_pointer(ht.data(), {4, 6}, cupp::strides_t{4, 16},
                                                       ht.memory());
  d.set(ht_t);
  BOOST_TEST(same_elements(d.get(), ht_t));
  // A strided device destination: every other row.
  auto big = cupp::zeros<float>({8, 6}).eval();
  auto rows =
      cupp::ndarray<float>::from_pointer(big.data(), {4, 6}, cupp::strides_t{48, 4}, big.memory());
  rows.set(h);
  auto got = big.get();
  for (index_t i = 0; i < 8; ++i)
    for (index_t j = 0; j < 6; ++j)
      BOOST_TEST(got.at(i, j) == (i % 2 == 0 ? h.at(i / 2, j) : 0.0f));
  // get_into a strided host destination.
  auto out = cupp::host::zeros<float>({6, 4}).eval();
  auto out_t = cupp::host::ndarray<float>::from_pointer(out.data(), {4, 6}, cupp::strides_t{4, 16},
                                                        out.memory());
  rows.get_into(out_t);
  BOOST_TEST(same_elements(out_t, h));
  // set from a span.
  std::vector<float> flat(24, 2.5f);
  d.set(std::span<const float>(flat));
  BOOST_TEST(d.to_vector() == flat);
}

BOOST_AUTO_TEST_CASE(bad_input_leaves_arrays_intact) {
  auto d = cupp::asarray(std::vector<int>{1, 2, 3});
  try {
    d.set(cupp::host::array<int>({1, 2, 3, 4}));
    BOOST_FAIL("shape mismatch accepted");
  } catch (const cupp::value_error& e) {
    BOOST_TEST(std::string(e.what()) == "Shape mismatch. Old shape: (3,), new shape: (4,)");
  }
  std::vector<int> four{9, 9, 9, 9};
  BOOST_CHECK_THROW(d.set(std::span<const int>(four)), cupp::value_error);
  BOOST_CHECK_THROW(d.get_into(cupp::host::empty<int>({2})), cupp::value_error);
  BOOST_TEST(d.to_vector() == (std::vector<int>{1, 2, 3}));
  try {
    cupp::asarray(std::vector<float>(6), {4});
    BOOST_FAIL("size mismatch accepted");
  } catch (const cupp::value_error& e) {
    BOOST_TEST(std::string(e.what()) == "cannot reshape array of size 6 into shape (4,)");
  }
  try {
    cupp::zeros<float>({3, -2});
    BOOST_FAIL("negative dimension accepted");
  } catch (const cupp::value_error& e) {
    BOOST_TEST(std::string(e.what()) == "negative dimensions are not allowed");
  }
  BOOST_CHECK_THROW(cupp::empty<float>(cupp::shape_t{std::vector<int>(cupp::max_ndim + 1, 1)}),
                    cupp::value_error);
  BOOST_CHECK_THROW(cupp::array<int>({{1, 2}, {3}}), cupp::value_error);
  BOOST_CHECK_THROW(d.item(3), cupp::index_error);
  BOOST_CHECK_THROW(d.item(), cupp::value_error);
  BOOST_TEST(d.to_vector() == (std::vector<int>{1, 2, 3}));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(transfers)

BOOST_AUTO_TEST_CASE(asynchronous_copies_on_a_stream) {
  cupp::cuda::Stream s(true);
  const auto h = sample_array<double>({1000});
  auto d = cupp::empty<double>({1000});
  // From pageable memory: staged, so the host buffer may change at once.
  auto pageable = h.copy();
  d.set(pageable, {.stream = s, .blocking = false});
  std::fill_n(pageable.data(), 1000, -1.0);
  // To a pinned result, which the copy engine writes directly.
  auto back = d.get({.stream = s, .blocking = false});
  BOOST_TEST(cupp::cuda::get_default_pinned_memory_pool().owns(back.data()));
  s.synchronize();
  BOOST_TEST(same_elements(back, h));
  // Into a pageable destination: written by a host callback once the data
  // is on the host.
  auto out = cupp::host::zeros<double>({1000}).eval();
  d.get_into(out, {.stream = s, .blocking = false});
  s.synchronize();
  BOOST_TEST(same_elements(out, h));
  // A non-contiguous source, asynchronously.
  auto f = d.copy(cupp::order::F);
  auto strided =
      cupp::ndarray<double>::from_pointer(d.data(), {500}, cupp::strides_t{16}, d.memory());
  auto sb = strided.get({.stream = s, .blocking = false});
  s.synchronize();
  for (index_t i = 0; i < 500; ++i) BOOST_TEST(sb.at(i) == h.at(2 * i));
}

// Large pageable copies go through the pinned pipeline: check it with odd
// sizes and several tunings (partial last chunks, 1 to 5 threads, 2 or 3
// buffers), both directions, blocking and not.
BOOST_AUTO_TEST_CASE(staged_pipeline_moves_every_byte) {
  restore_tuning keep;
  std::mt19937 rng(7);
  const index_t n = (index_t{24} << 20) / 4 + 13;  // ~24 MiB of floats, not a chunk multiple
  auto h = cupp::host::empty<float>({n});
  std::uniform_real_distribution<float> dist(-1, 1);
  for (index_t i = 0; i < n; ++i) h.data()[i] = dist(rng);
  struct setting {
    std::size_t chunk;
    int buffers, threads;
  };
  for (setting t :
       {setting{std::size_t{1} << 20, 2, 1}, setting{std::size_t{3} << 20, 3, 5},
        setting{(std::size_t{5} << 20) + 4096, 2, 2}, setting{std::size_t{64} << 20, 2, 0}}) {
    cupp::detail::tuning().threshold = std::size_t{1} << 20;
    cupp::detail::tuning().chunk = t.chunk;
    cupp::detail::tuning().buffers = t.buffers;
    cupp::detail::tuning().threads = t.threads;
    auto d = cupp::asarray(h);
    auto back = cupp::host::zeros<float>({n}).eval();
    d.get_into(back);
    BOOST_TEST(std::memcmp(back.data(), h.data(), static_cast<std::size_t>(h.nbytes())) == 0,
               "chunk " << t.chunk << " buffers " << t.buffers << " threads " << t.threads);
    cupp::cuda::Stream s(true);
    auto d2 = cupp::empty<float>({n});
    auto src = h.copy();
    d2.set(src, {.stream = s, .blocking = false});
    std::fill_n(src.data(), n, 0.0f);  // the pipeline already read it
    s.synchronize();
    auto back2 = d2.get();
    BOOST_TEST(std::memcmp(back2.data(), h.data(), static_cast<std::size_t>(h.nbytes())) == 0);
  }
}

BOOST_AUTO_TEST_CASE(pinned_host_arrays) {
  auto h = cupp::host::empty_pinned<int>({256, 3}, cupp::order::F);
  for (index_t i = 0; i < h.size(); ++i) h.data()[i] = static_cast<int>(i * 3);
  auto d = cupp::asarray(h);
  BOOST_TEST(d.flags().f_contiguous);
  BOOST_TEST(same_elements(d.get(), h));
}

// Peer to peer where the GPUs allow it; through pinned host memory when
// they do not, or when CUPP_PEER_ACCESS=0 (a second ctest entry).
BOOST_AUTO_TEST_CASE(copies_between_devices) {
  const int n = cupp::cuda::runtime::getDeviceCount();
  if (n < 2) {
    BOOST_TEST_MESSAGE("one device: peer and host-staged device copies not exercised");
    return;
  }
  const auto h = sample_array<double>({64, 33});
  auto on0 = cupp::asarray(h);
  auto f0 = on0.copy(cupp::order::F);
  cupp::cuda::Stream s1;  // made on device 0; used below only on device 0
  {
    auto scope = cupp::cuda::Device(1).scope();
    auto on1 = cupp::asarray(on0);  // C-contiguous: one peer (or staged) copy
    BOOST_TEST(on1.device_id() == 1);
    BOOST_TEST(on1.data() != on0.data());
    BOOST_TEST(same_elements(on1.get(), h));
    auto g1 = cupp::array(f0);  // F-contiguous stays F
    BOOST_TEST(g1.device_id() == 1);
    BOOST_TEST(g1.flags().f_contiguous);
    BOOST_TEST(same_elements(g1.get(), h));
    // A non-contiguous source on device 0 into an array on device 1.
    auto strided = cupp::ndarray<double>::from_pointer(
        on0.data(), {32, 33}, cupp::strides_t{2 * 33 * 8, 8}, on0.memory());
    BOOST_TEST(strided.device_id() == 0);  // where CUDA says the memory is
    auto dst = cupp::empty<double>({32, 33});
    strided.copy_into(dst);
    auto got = dst.get();
    for (index_t i = 0; i < 32; ++i)
      for (index_t j = 0; j < 33; ++j) BOOST_TEST(got.at(i, j) == h.at(2 * i, j));
    // Back to device 0 from device 1, while device 1 is current.
    auto back0 = cupp::empty<double>({64, 33});
    {
      auto d0 = cupp::cuda::Device(0).scope();
      back0 = cupp::empty<double>({64, 33});
    }
    on1.copy_into(back0);
    BOOST_TEST(back0.device_id() == 0);
    BOOST_TEST(same_elements(back0.get(), h));
    // Printing and item() read through the array's own device.
    BOOST_TEST(cupp_test::same_bits(on1.item(3, 4), h.at(3, 4)));
  }
  (void)s1;
}

BOOST_AUTO_TEST_SUITE_END()
