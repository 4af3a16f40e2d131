// cupp::cuda's NCCL communicator: on one GPU, one-rank communicators (from a
// unique id and from init_all) for every collective, dtype and op against
// the same computation on the host, groups, in-place forms and the errors;
// where the machine has several GPUs, init_all over all of them, every
// collective against the host's computation over the ranks' inputs (from
// one thread through groups, and one thread per device on communicators
// made from a unique id).
#include <cupp/creation.hpp>
#include <cupp/nccl.hpp>

#include <atomic>
#include <cmath>
#include <cstring>
#include <cstdlib>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "cupp_test.hpp"

namespace nc = cupp::cuda;
using cupp::index_t;
using cupp::shape_t;
using nc::reduce_op;

namespace {

constexpr reduce_op every_op[] = {reduce_op::sum, reduce_op::prod, reduce_op::max, reduce_op::min,
                                  reduce_op::avg};
const char* op_name(reduce_op op) {
  return nc::detail::reduce_op_name(op);
}

// The dtypes NCCL carries, plus bool, complex and the 16-bit integers that
// it can only move.
constexpr auto tested_dtypes = cupp_test::all_dtypes;

template <class T>
constexpr bool is_complex =
    std::is_same_v<T, cupp::complex64> || std::is_same_v<T, cupp::complex128>;
template <class T>
constexpr bool is_16bit_int = std::is_same_v<T, std::int16_t> || std::is_same_v<T, std::uint16_t>;
template <class T>
constexpr bool is_low_float = std::is_same_v<T, __half> || std::is_same_v<T, __nv_bfloat16>;

// Whether cupp reduces T with op (the documented dtype rules).
template <class T>
bool reducible(reduce_op op) {
  if constexpr (is_16bit_int<T>)
    return false;
  else if constexpr (std::is_same_v<T, bool>)
    return op != reduce_op::avg;
  else if constexpr (is_complex<T>)
    return op == reduce_op::sum || op == reduce_op::avg;
  else
    return true;
}

template <class T>
cupp::host::ndarray<T> host_values(index_t n, long seed) {
  cupp::host::ndarray<T> h(shape_t{n});
  for (index_t i = 0; i < n; ++i) h.data()[i] = cupp_test::sample<T>(i * 3 + seed);
  return h;
}

// A device array of n elements that no collective result equals (so an
// element left unwritten shows).
template <class T>
cupp::ndarray<T> poisoned(index_t n) {
  cupp::host::ndarray<T> h(shape_t{n});
  std::memset(static_cast<void*>(h.data()), 0x5b, static_cast<std::size_t>(n) * sizeof(T));
  return cupp::asarray(h);
}

double as_double(const auto& v) {
  using T = std::remove_cvref_t<decltype(v)>;
  if constexpr (std::is_same_v<T, __half>)
    return __half2float(v);
  else if constexpr (std::is_same_v<T, __nv_bfloat16>)
    return __bfloat162float(v);
  else
    return static_cast<double>(v);
}

template <class T>
T from_double(double v) {
  if constexpr (std::is_same_v<T, __half>)
    return __float2half(static_cast<float>(v));
  else if constexpr (std::is_same_v<T, __nv_bfloat16>)
    return __float2bfloat16(static_cast<float>(v));
  else
    return static_cast<T>(v);
}

// op over the ranks' values, as NCCL defines it: integers wrap, integer
// avg divides the wrapped sum rounding towards zero, bool is any/all.
template <class T>
T combine(const std::vector<T>& v, reduce_op op) {
  const auto n = static_cast<long>(v.size());
  if constexpr (std::is_same_v<T, bool>) {
    bool any = false, all = true;
    for (bool b : v) any = any || b, all = all && b;
    return op == reduce_op::sum || op == reduce_op::max ? any : all;
  } else if constexpr (is_complex<T>) {
    T s{};
    for (const T& x : v) s += x;
    return op == reduce_op::avg ? s / static_cast<typename T::value_type>(n) : s;
  } else if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    U acc = static_cast<U>(v[0]);
    T r = v[0];
    for (long i = 1; i < n; ++i) {
      if (op == reduce_op::sum || op == reduce_op::avg)
        acc = static_cast<U>(acc + static_cast<U>(v[i]));
      if (op == reduce_op::prod) acc = static_cast<U>(acc * static_cast<U>(v[i]));
      if (op == reduce_op::max) r = std::max(r, v[i]);
      if (op == reduce_op::min) r = std::min(r, v[i]);
    }
    if (op == reduce_op::max || op == reduce_op::min) return r;
    if (op == reduce_op::avg) return static_cast<T>(static_cast<T>(acc) / static_cast<T>(n));
    return static_cast<T>(acc);
  } else {
    double r = as_double(v[0]);
    for (long i = 1; i < n; ++i) {
      const double x = as_double(v[i]);
      if (op == reduce_op::sum || op == reduce_op::avg) r += x;
      if (op == reduce_op::prod) r *= x;
      if (op == reduce_op::max) r = std::max(r, x);
      if (op == reduce_op::min) r = std::min(r, x);
    }
    return from_double<T>(op == reduce_op::avg ? r / static_cast<double>(n) : r);
  }
}

// Exact for integers, bool and one rank; within rounding for floats
// combined over several ranks (NCCL's order of summation is its own).
template <class T>
bool close(const T& got, const T& want, bool exact) {
  if (exact || std::is_integral_v<T>) return cupp_test::same_bits(got, want);
  if constexpr (is_complex<T>) {
    return close(got.real(), want.real(), false) && close(got.imag(), want.imag(), false);
  } else {
    const double g = as_double(got), w = as_double(want);
    // A product of half-precision values may overflow on the way (NCCL
    // rounds at every step) where the exact result is merely large.
    const auto huge = [](double v) { return !std::isfinite(v) || std::abs(v) > 3e4; };
    if (is_low_float<T> && (huge(w) || huge(g))) return huge(w) && huge(g);
    if (std::isinf(w) || std::isinf(g)) return g == w;
    const double tol = std::is_same_v<T, __nv_bfloat16> ? 5e-2
                       : std::is_same_v<T, __half>      ? 1e-2
                       : std::is_same_v<T, float>       ? 1e-5
                                                        : 1e-12;
    return std::abs(g - w) <= tol * std::max(1.0, std::abs(w));
  }
}

template <class T>
void expect_elements(const cupp::host::ndarray<T>& got, const std::vector<T>& want, bool exact,
                     const std::string& what) {
  BOOST_TEST_REQUIRE(got.size() == static_cast<index_t>(want.size()), what);
  index_t bad = 0;
  for (index_t i = 0; i < got.size(); ++i)
    if (!close(got.data()[i], want[static_cast<std::size_t>(i)], exact) && bad++ == 0)
      BOOST_ERROR(what << ": element " << i << " differs from the host's computation");
  BOOST_TEST(bad == 0, what << ": " << bad << " elements differ");
}

// Every collective of one dtype over comms (rank r of comms.size() on
// comms[r]'s device, all driven from this thread in groups), against the
// host's computation over the ranks' inputs.
template <class T>
void every_collective(std::vector<nc::nccl_communicator>& comms, const std::string& label) {
  const int n = static_cast<int>(comms.size());
  const index_t count = 1000;
  const bool exact = n == 1;
  std::vector<cupp::host::ndarray<T>> inputs;
  std::vector<cupp::ndarray<T>> sends;
  for (int r = 0; r < n; ++r) {
    inputs.push_back(host_values<T>(count * n, 1000 * r));
    nc::device_scope on(comms[r].device_id());
    sends.push_back(cupp::asarray(inputs.back()));
  }
  const auto element = [&](int r, index_t i) { return inputs[r].data()[i]; };
  const auto over_ranks = [&](index_t i, reduce_op op) {
    std::vector<T> v;
    for (int r = 0; r < n; ++r) v.push_back(element(r, i));
    return combine(v, op);
  };
  const auto wait_all = [&] {
    for (auto& c : comms) c.synchronize();
  };
  const auto per_rank = [&](auto&& body) {
    nc::group_start();
    for (int r = 0; r < n; ++r) {
      nc::device_scope on(comms[r].device_id());
      body(r);
    }
    nc::group_end();
    wait_all();
  };

  for (const reduce_op op : every_op) {
    const std::string what = label + " " + op_name(op);
    if (!reducible<T>(op)) {
      nc::device_scope on(comms[0].device_id());
      auto out = poisoned<T>(count * n);
      BOOST_CHECK_THROW(comms[0].all_reduce(sends[0], out, op), cupp::type_error);
      BOOST_CHECK_THROW(comms[0].reduce(sends[0], out, 0, op), cupp::type_error);
      auto part = poisoned<T>(count);
      BOOST_CHECK_THROW(comms[0].reduce_scatter(sends[0], part, op), cupp::type_error);
      continue;
    }
    std::vector<T> want_all, want_part;
    for (index_t i = 0; i < count * n; ++i) want_all.push_back(over_ranks(i, op));
    // all_reduce
    std::vector<cupp::ndarray<T>> outs;
    for (int r = 0; r < n; ++r) {
      nc::device_scope on(comms[r].device_id());
      outs.push_back(poisoned<T>(count * n));
    }
    per_rank([&](int r) { comms[r].all_reduce(sends[r], outs[r], op); });
    for (int r = 0; r < n; ++r)
      expect_elements(outs[r].get(), want_all, exact,
                      what + " all_reduce, rank " + std::to_string(r));
    // reduce to the last rank: the others' recv is left alone
    const int root = n - 1;
    for (int r = 0; r < n; ++r) {
      nc::device_scope on(comms[r].device_id());
      outs[r] = poisoned<T>(count * n);
    }
    const auto untouched = outs[0].get();
    per_rank([&](int r) { comms[r].reduce(sends[r], outs[r], root, op); });
    expect_elements(outs[root].get(), want_all, exact, what + " reduce");
    if (n > 1) {
      const auto after = outs[0].get();
      BOOST_TEST(std::memcmp(after.data(), untouched.data(), sizeof(T) * count * n) == 0,
                 what << " reduce wrote a non-root's recv");
    }
    // reduce_scatter: rank r gets block r
    for (int r = 0; r < n; ++r) {
      nc::device_scope on(comms[r].device_id());
      outs[r] = poisoned<T>(count);
    }
    per_rank([&](int r) { comms[r].reduce_scatter(sends[r], outs[r], op); });
    for (int r = 0; r < n; ++r)
      expect_elements(
          outs[r].get(),
          std::vector<T>(want_all.begin() + r * count, want_all.begin() + (r + 1) * count), exact,
          what + " reduce_scatter, rank " + std::to_string(r));
    // in place: all_reduce with send == recv
    std::vector<cupp::ndarray<T>> copies;
    for (int r = 0; r < n; ++r) {
      nc::device_scope on(comms[r].device_id());
      copies.push_back(cupp::asarray(inputs[r]));
    }
    per_rank([&](int r) { comms[r].all_reduce(copies[r], copies[r], op); });
    for (int r = 0; r < n; ++r)
      expect_elements(copies[r].get(), want_all, exact, what + " all_reduce in place");
  }

  // Data that moves: every dtype, as bytes.
  const std::string what = label + " movement";
  for (int root = 0; root < n; ++root) {
    std::vector<cupp::ndarray<T>> outs;
    for (int r = 0; r < n; ++r) {
      nc::device_scope on(comms[r].device_id());
      outs.push_back(poisoned<T>(count * n));
    }
    per_rank([&](int r) { comms[r].broadcast(sends[r], outs[r], root); });
    const std::vector<T> want(inputs[root].data(), inputs[root].data() + count * n);
    for (int r = 0; r < n; ++r) expect_elements(outs[r].get(), want, true, what + " broadcast");
    // in place: the root's data overwrites every rank's
    std::vector<cupp::ndarray<T>> copies;
    for (int r = 0; r < n; ++r) {
      nc::device_scope on(comms[r].device_id());
      copies.push_back(cupp::asarray(inputs[r]));
    }
    per_rank([&](int r) { comms[r].broadcast(copies[r], root); });
    for (int r = 0; r < n; ++r)
      expect_elements(copies[r].get(), want, true, what + " broadcast in place");
  }
  {
    std::vector<cupp::ndarray<T>> outs, parts;
    std::vector<T> want;
    for (int r = 0; r < n; ++r) {
      nc::device_scope on(comms[r].device_id());
      outs.push_back(poisoned<T>(count * n * n));
      want.insert(want.end(), inputs[r].data(), inputs[r].data() + count * n);
    }
    per_rank([&](int r) { comms[r].all_gather(sends[r], outs[r]); });
    for (int r = 0; r < n; ++r) expect_elements(outs[r].get(), want, true, what + " all_gather");
  }
  {
    // send/recv around a ring (to itself on one rank), in one group
    std::vector<cupp::ndarray<T>> outs;
    for (int r = 0; r < n; ++r) {
      nc::device_scope on(comms[r].device_id());
      outs.push_back(poisoned<T>(count * n));
    }
    per_rank([&](int r) {
      comms[r].send(sends[r], (r + 1) % n);
      comms[r].recv(outs[r], (r + n - 1) % n);
    });
    for (int r = 0; r < n; ++r) {
      const int from = (r + n - 1) % n;
      const std::vector<T> want(inputs[from].data(), inputs[from].data() + count * n);
      expect_elements(outs[r].get(), want, true, what + " send/recv");
    }
  }
}

nc::nccl_options quick() {
  nc::nccl_options o;
  o.timeout = std::chrono::seconds(60);
  return o;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(nccl)

BOOST_AUTO_TEST_CASE(version_environment_and_unique_id) {
  BOOST_TEST(nc::nccl_version() > 0);
  BOOST_TEST(nc::nccl_version() / 10000 == nc::nccl_build_version() / 10000);
  BOOST_TEST_MESSAGE("NCCL " << nc::nccl_version());
  const auto id = nc::nccl_unique_id::create();
  // NVLink multicast stays off on the shared machines.
  const char* nvls = std::getenv("NCCL_NVLS_ENABLE");
  BOOST_TEST_REQUIRE(nvls != nullptr);
  BOOST_TEST(std::string(nvls) == "0");
  const auto bytes = id.bytes();
  BOOST_TEST(bytes.size() == std::size_t{NCCL_UNIQUE_ID_BYTES});
  const auto back = nc::nccl_unique_id::from_bytes(bytes);
  BOOST_TEST((back == id));
  BOOST_TEST(std::memcmp(back.id.internal, id.id.internal, NCCL_UNIQUE_ID_BYTES) == 0);
  BOOST_TEST(!(nc::nccl_unique_id::create() == id));
  BOOST_CHECK_THROW(nc::nccl_unique_id::from_bytes(std::span<const std::byte>(bytes.data(), 5)),
                    cupp::value_error);
}

BOOST_AUTO_TEST_CASE(one_rank_from_a_unique_id_every_dtype) {
  nc::Device(0).use();
  for (const bool blocking : {true, false}) {
    std::vector<nc::nccl_communicator> comms;
    auto options = quick();
    options.blocking = blocking;
    comms.emplace_back(1, nc::nccl_unique_id::create(), 0, options);
    BOOST_TEST(comms[0].size() == 1);
    BOOST_TEST(comms[0].rank_id() == 0);
    BOOST_TEST(comms[0].device_id() == 0);
    BOOST_TEST(comms[0].get() != nullptr);
    BOOST_TEST(comms[0].options().blocking == blocking);
    const std::string mode = blocking ? "blocking" : "non-blocking";
    boost::hana::for_each(tested_dtypes, [&](auto t) {
      using T = typename decltype(t)::type;
      every_collective<T>(comms,
                          "unique id, " + mode + ", " + std::string(cupp::dtype_of<T>().name));
    });
    comms[0].check_async_error();
    comms[0].destroy();
    BOOST_CHECK_THROW(comms[0].size(), nc::nccl_error);
  }
}

BOOST_AUTO_TEST_CASE(one_rank_from_init_all) {
  auto comms = nc::nccl_communicator::init_all({0});
  BOOST_TEST_REQUIRE(comms.size() == 1u);
  BOOST_TEST(comms[0].size() == 1);
  BOOST_TEST(comms[0].device_id() == 0);
  boost::hana::for_each(
      boost::hana::tuple_t<bool, std::int16_t, float, cupp::complex128>, [&](auto t) {
        using T = typename decltype(t)::type;
        every_collective<T>(comms, "init_all, " + std::string(cupp::dtype_of<T>().name));
      });
}

BOOST_AUTO_TEST_CASE(raw_pointers_and_several_collectives_in_one_group) {
  nc::Device(0).use();
  nc::nccl_communicator comm(1, nc::nccl_unique_id::create(), 0, quick());
  const auto in = host_values<float>(256, 7);
  const auto x = cupp::asarray(in);
  auto a = poisoned<float>(256), b = poisoned<float>(256), c = poisoned<float>(256);
  nc::Stream stream(true);
  {
    nc::nccl_group group;
    comm.all_reduce(x.data(), a.data(), 256, ncclFloat32, ncclSum, stream.handle());
    comm.broadcast(x.data(), b.data(), 256, ncclFloat32, 0, stream.handle());
    comm.reduce(x.data(), c.data(), 128, ncclFloat32, ncclMax, 0, stream.handle());
    group.end();
  }
  comm.synchronize(stream.handle(), std::chrono::seconds(30));
  const std::vector<float> want(in.data(), in.data() + 256);
  expect_elements(a.get(), want, true, "raw all_reduce");
  expect_elements(b.get(), want, true, "raw broadcast");
  const auto cc = c.get();
  BOOST_TEST(std::memcmp(cc.data(), in.data(), 128 * sizeof(float)) == 0);
  // count 128 of 256: the rest untouched
  BOOST_TEST(std::memcmp(cc.data() + 128, poisoned<float>(128).get().data(), 128 * sizeof(float)) ==
             0);
  // nested groups: the outer end launches
  auto d = poisoned<float>(256);
  nc::group_start();
  nc::group_start();
  comm.all_gather(x.data(), d.data(), 256, ncclFloat32);
  nc::group_end();
  nc::group_end();
  comm.synchronize();
  expect_elements(d.get(), want, true, "nested groups");
}

BOOST_AUTO_TEST_CASE(errors_before_anything_is_enqueued) {
  nc::Device(0).use();
  nc::nccl_communicator comm(1, nc::nccl_unique_id::create(), 0, quick());
  auto x = cupp::asarray(host_values<float>(100, 1));
  auto y = poisoned<float>(100);
  auto small = poisoned<float>(99);
  BOOST_CHECK_THROW(comm.all_reduce(x, small), cupp::value_error);
  BOOST_CHECK_THROW(comm.reduce(x, small, 0), cupp::value_error);
  BOOST_CHECK_THROW(comm.broadcast(x, small, 0), cupp::value_error);
  BOOST_CHECK_THROW(comm.all_gather(x, small), cupp::value_error);
  BOOST_CHECK_THROW(comm.reduce_scatter(x, small), cupp::value_error);
  BOOST_CHECK_THROW(comm.reduce(x, y, 1), cupp::value_error);
  BOOST_CHECK_THROW(comm.broadcast(x, y, -1), cupp::value_error);
  BOOST_CHECK_THROW(comm.send(x, 1), cupp::value_error);
  BOOST_CHECK_THROW(comm.recv(y, -1), cupp::value_error);
  // not contiguous, read-only
  auto two = cupp::asarray(host_values<float>(200, 1));
  BOOST_CHECK_THROW(comm.all_reduce(two.reshape(shape_t{10, 20}).T(), two.reshape(shape_t{20, 10})),
                    cupp::value_error);
  auto ro = y;
  ro.setflags(false);
  BOOST_CHECK_THROW(comm.all_reduce(x, ro), cupp::value_error);
  // int16 cannot be reduced; it moves
  auto h = cupp::asarray(host_values<std::int16_t>(100, 1));
  auto h2 = poisoned<std::int16_t>(100);
  try {
    comm.all_reduce(h, h2);
    BOOST_ERROR("all_reduce of int16 accepted");
  } catch (const cupp::type_error& e) {
    BOOST_TEST(std::string(e.what()).find("dtype('int16')") != std::string::npos, e.what());
  }
  // nothing was written by any of the calls above
  const auto yy = y.get();
  BOOST_TEST(std::memcmp(yy.data(), poisoned<float>(100).get().data(), 400) == 0);
  const auto hh = h2.get();
  BOOST_TEST(std::memcmp(hh.data(), poisoned<std::int16_t>(100).get().data(), 200) == 0);
  comm.broadcast(h, h2, 0);
  comm.synchronize();
  BOOST_TEST(std::memcmp(h2.get().data(), h.get().data(), 200) == 0);
  // arrays on another device
  if (nc::runtime::getDeviceCount() > 1) {
    nc::device_scope on(1);
    auto far = poisoned<float>(100);
    BOOST_CHECK_THROW(comm.all_reduce(x, far), cupp::value_error);
  } else {
    BOOST_TEST_MESSAGE("one GPU: the wrong-device check runs on a view with another device id");
    auto far = cupp::ndarray<float>(y.data(), y.shape(), y.strides(), y.memory(), 1, false);
    BOOST_CHECK_THROW(comm.all_reduce(x, far), cupp::value_error);
  }
  // construction
  BOOST_CHECK_THROW(nc::nccl_communicator(0, nc::nccl_unique_id::create(), 0), cupp::value_error);
  BOOST_CHECK_THROW(nc::nccl_communicator(2, nc::nccl_unique_id::create(), 2), cupp::value_error);
  BOOST_CHECK_THROW(nc::nccl_communicator::init_all({0, 0}), cupp::value_error);
  BOOST_CHECK_THROW(nc::nccl_communicator::init_all({}), cupp::value_error);
  BOOST_CHECK_THROW(nc::nccl_communicator::init_all({nc::runtime::getDeviceCount()}),
                    nc::cuda_error);
}

BOOST_AUTO_TEST_CASE(an_invalid_root_through_the_raw_call) {
  // A communicator of its own: in non-blocking mode NCCL may leave one that
  // refused an argument in error.
  nc::Device(0).use();
  auto options = quick();
  options.blocking = false;
  nc::nccl_communicator comm(1, nc::nccl_unique_id::create(), 0, options);
  auto x = poisoned<float>(16);
  try {
    comm.broadcast(x.data(), x.data(), 16, ncclFloat32, 3);
    BOOST_ERROR("root 3 of 1 rank accepted");
  } catch (const nc::nccl_error& e) {
    BOOST_TEST(e.result() == ncclInvalidArgument);
    BOOST_TEST(std::string(e.what()).starts_with("ncclInvalidArgument: "), e.what());
  }
}

BOOST_AUTO_TEST_CASE(moved_from_and_aborted_communicators) {
  nc::Device(0).use();
  nc::nccl_communicator a(1, nc::nccl_unique_id::create(), 0, quick());
  nc::nccl_communicator b = std::move(a);
  BOOST_TEST(b.size() == 1);
  auto x = poisoned<float>(8);
  for (auto* moved : {&a}) {
    try {
      moved->all_reduce(x, x);
      BOOST_ERROR("a moved-from communicator reduced");
    } catch (const nc::nccl_error& e) {
      BOOST_TEST(e.result() == ncclInvalidUsage);
      BOOST_TEST(std::string(e.what()).starts_with("ncclInvalidUsage: all_reduce on a "
                                                   "communicator that was moved from"),
                 e.what());
    }
    BOOST_CHECK_THROW(moved->rank_id(), nc::nccl_error);
    BOOST_CHECK_THROW(moved->synchronize(), nc::nccl_error);
    BOOST_CHECK_THROW(moved->send(x.data(), 8, ncclFloat32, 0), nc::nccl_error);
  }
  b.all_reduce(x, x);
  b.synchronize();
  b.abort();
  BOOST_CHECK_THROW(b.all_reduce(x, x), nc::nccl_error);
  BOOST_CHECK_THROW(b.check_async_error(), nc::nccl_error);
  b.abort();  // nothing left to abort
  // an assigned-to communicator releases the one it held
  nc::nccl_communicator c(1, nc::nccl_unique_id::create(), 0, quick());
  c = nc::nccl_communicator(1, nc::nccl_unique_id::create(), 0, quick());
  c.all_reduce(x, x);
  c.synchronize();
}

BOOST_AUTO_TEST_CASE(synchronize_times_out_and_aborts) {
  // Work that outlasts the timeout: a host function blocks the stream
  // until the test releases it.
  nc::Device(0).use();
  nc::nccl_communicator comm(1, nc::nccl_unique_id::create(), 0, quick());
  nc::Stream stream(true);
  std::atomic<bool> release{false};
  stream.launch_host_func([&] {
    while (!release.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  });
  // Released after a while in any case, so that an abort that waited for
  // the stream could not hang the test.
  std::thread releaser([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    release = true;
  });
  auto x = poisoned<float>(8);
  comm.all_reduce(x.data(), x.data(), 8, ncclFloat32, ncclSum, stream.handle());
  const auto start = std::chrono::steady_clock::now();
  BOOST_CHECK_THROW(comm.synchronize(stream.handle(), std::chrono::milliseconds(200)),
                    nc::nccl_timeout_error);
  const auto waited = std::chrono::steady_clock::now() - start;
  BOOST_TEST(waited >= std::chrono::milliseconds(200));
  BOOST_TEST(waited < std::chrono::seconds(10));
  BOOST_CHECK_THROW(comm.all_reduce(x, x), nc::nccl_error);  // aborted
  releaser.join();
  stream.synchronize();
}

BOOST_AUTO_TEST_CASE(every_device_of_the_machine) {
  const int n = nc::runtime::getDeviceCount();
  if (n < 2) {
    BOOST_TEST_MESSAGE("SKIPPED every_device_of_the_machine: " << n << " GPU (needs 2 or more)");
    return;
  }
  std::vector<int> devices;
  for (int d = 0; d < n; ++d) devices.push_back(d);
  {
    // one thread, init_all, every collective in groups
    auto comms = nc::nccl_communicator::init_all(devices);
    BOOST_TEST_REQUIRE(static_cast<int>(comms.size()) == n);
    for (int r = 0; r < n; ++r) {
      BOOST_TEST(comms[r].rank_id() == r);
      BOOST_TEST(comms[r].device_id() == r);
      BOOST_TEST(comms[r].size() == n);
    }
    boost::hana::for_each(tested_dtypes, [&](auto t) {
      using T = typename decltype(t)::type;
      every_collective<T>(comms,
                          std::to_string(n) + " GPUs, " + std::string(cupp::dtype_of<T>().name));
    });
  }
  {
    // one thread per device, communicators from one unique id
    const auto id = nc::nccl_unique_id::create();
    std::vector<double> sums(n, 0);
    std::vector<std::string> failures(n);
    std::vector<std::thread> threads;
    for (int r = 0; r < n; ++r)
      threads.emplace_back([&, r] {
        try {
          nc::Device(r).use();
          nc::nccl_communicator comm(n, id, r, quick());
          cupp::host::ndarray<double> h(shape_t{4096});
          for (index_t i = 0; i < h.size(); ++i) h.data()[i] = r + 1 + i;
          auto x = cupp::asarray(h);
          comm.all_reduce(x, x);
          comm.synchronize();
          sums[r] = x.get().data()[10];
        } catch (const std::exception& e) {
          failures[r] = e.what();
        }
      });
    for (auto& t : threads) t.join();
    for (int r = 0; r < n; ++r) {
      BOOST_TEST(failures[r].empty(), "rank " << r << ": " << failures[r]);
      BOOST_TEST(sums[r] == n * (n + 1) / 2.0 + 10.0 * n);
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
