// The distributed array: all chunks on device 0 (the one-GPU case, several
// chunks per device, overlapping chunks), and, where there are several
// GPUs, chunks spread over every device. References: the same operation on
// one ordinary array, or plain loops on the host.
#include <cupp/cupp.hpp>
#include <cupp/distributed/array.hpp>

#include <cmath>
#include <cstdlib>
#include <type_traits>
#include <vector>

#include "cupp_test.hpp"

namespace dist = cupp::distributed;
using cupp::index_t;
using cupp::slice;

namespace {

// NVLink multicast stays off in every process we start.
const bool nvls_off = [] { return setenv("NCCL_NVLS_ENABLE", "0", 0) == 0; }();

int device_count() {
  return cupp::cuda::runtime::getDeviceCount();
}

template <class T>
cupp::host::ndarray<T> host_iota(const cupp::shape_t& shape, int offset = 1) {
  cupp::host::ndarray<T> h(shape);
  for (index_t i = 0; i < h.size(); ++i) h.data()[i] = static_cast<T>((i * 7 + offset) % 11 + 1);
  return h;
}

template <class T>
void check_equal(const cupp::host::ndarray<T>& a, const cupp::host::ndarray<T>& b) {
  BOOST_TEST_REQUIRE(a.shape() == b.shape());
  const auto x = a.to_vector(), y = b.to_vector();
  for (std::size_t i = 0; i < x.size(); ++i) BOOST_TEST(double(x[i]) == double(y[i]), "at " << i);
}

// 1-d and 2-d maps over 12 and 6 x 8: several chunks per device, overlaps,
// devices cycling through `n` devices. Built chunk by chunk: with one
// device, "device 0" and "device 1" are the same key, whose chunks add up
// (an initializer list would keep only the first entry of a repeated key).
using chunk_list = std::vector<std::pair<int, dist::chunk_index>>;
dist::index_map make_map(int n, const chunk_list& chunks) {
  dist::index_map m;
  for (const auto& [device, index] : chunks) m[device % n].push_back(index);
  return m;
}
std::vector<dist::index_map> maps_1d(int n) {
  return {
      make_map(n, {{0, {slice(0, 12)}}}), make_map(n, {{0, {slice(0, 5)}}, {1, {slice(5, 12)}}}),
      make_map(n, {{0, {slice(0, 7)}}, {0, {slice(3, 12)}}}),
      make_map(n,
               {{0, {slice(0, 4)}}, {0, {slice(2, 9)}}, {1, {slice(8, 12)}}, {1, {slice(0, 12)}}})};
}
std::vector<dist::index_map> maps_2d(int n) {
  return {make_map(n, {{0, {slice(0, 6)}}}),
          make_map(n, {{0, {slice(0, 3), slice(0, 5)}},
                       {0, {slice(0, 3), slice(5, 8)}},
                       {1, {slice(3, 6), slice(0, 8)}}}),
          make_map(n, {{0, {slice(0, 4), slice(0, 6)}},
                       {0, {slice(2, 6), slice(3, 8)}},
                       {1, {slice(0, 6), slice(-4, 8)}},
                       {1, {slice(4, 6), slice(0, 4)}}})};
}

const dist::mode all_modes[] = {dist::mode::replica, dist::mode::sum, dist::mode::prod,
                                dist::mode::max, dist::mode::min};

// Runs f(h, d, m, md) for a 1-d and a 2-d array (host h, device d), every
// map over `n` devices and every mode.
template <class T, class F>
void for_each_case(int n, F&& f) {
  for (const cupp::shape_t& shape : {cupp::shape_t{12}, cupp::shape_t{6, 8}}) {
    const auto maps = shape.size() == 1 ? maps_1d(n) : maps_2d(n);
    const auto h = host_iota<T>(shape);
    const cupp::ndarray<T> d = cupp::asarray(h);
    for (const auto& m : maps)
      for (dist::mode md : all_modes) f(h, d, maps, m, md);
  }
}

template <class T>
void construction_and_modes(int n) {
  for_each_case<T>(
      n, [&](const auto& h, const auto& d, const auto& maps, const auto& m, dist::mode md) {
        const dist::distributed_array<T> from_host(h, m, md), from_device(d, m, md);
        BOOST_TEST((from_host.get_mode() == md));
        check_equal(from_host.get(), h);
        check_equal(from_device.get(), h);
        check_equal(from_host.to_device(n - 1).get(), h);
        for (const auto& c : from_host.chunks()) {
          BOOST_TEST(c.data.device_id() == c.device);
          BOOST_TEST(c.data.is_c_contiguous());
        }
        // Every mode to every other one and back.
        for (dist::mode other : all_modes) {
          const auto changed = from_host.change_mode(other);
          BOOST_TEST((changed.get_mode() == other));
          check_equal(changed.get(), h);
          check_equal(changed.change_mode(md).get(), h);
        }
        // To every other map.
        for (const auto& m2 : maps) check_equal(from_host.reshard(m2).get(), h);
      });
}

template <class T>
void elementwise(int n) {
  const cupp::shape_t shape{6, 8};
  const auto maps = maps_2d(n);
  const auto hx = host_iota<T>(shape, 1), hy = host_iota<T>(shape, 4), hw = host_iota<T>(shape, 9);
  const cupp::ndarray<T> x = cupp::asarray(hx), y = cupp::asarray(hy), w = cupp::asarray(hw);
  const cupp::ndarray<T> ref = x * y + w - T(2) * x;
  const cupp::ndarray<bool> ref_cmp = x < y;
  using RN = typename decltype(-x / (y + T(1)))::value_type;
  const cupp::ndarray<RN> ref_neg = -x / (y + T(1));
  for (std::size_t i = 0; i < maps.size(); ++i) {
    const dist::distributed_array<T> dx(hx, maps[i]), dy(hy, maps[(i + 1) % maps.size()]),
        dw(hw, maps[i], dist::mode::sum);
    const auto z = dx * dy + dw - T(2) * dx;  // lazy: nothing runs yet
    const dist::distributed_array<T> out = z;
    BOOST_TEST(out.chunks().size() == dx.chunks().size());
    check_equal(out.get(), cupp::asnumpy(ref));
    check_equal(dist::evaluate(dx < dy).get(), cupp::asnumpy(ref_cmp));
    check_equal(dist::evaluate(-dx / (dy + T(1))).get(), cupp::asnumpy(ref_neg));
    const auto f = [](auto a, auto b) { return cupp::maximum(cupp::sin(a), b); };
    using RF = typename decltype(f(x, y))::value_type;
    const cupp::ndarray<RF> ref_f = f(x, y);
    check_equal(dist::evaluate(dist::apply(f, dx, dy)).get(), cupp::asnumpy(ref_f));
  }
}

template <class T>
void reductions(int n) {
  for_each_case<T>(n, [&](const auto& h, const auto& d, const auto& maps, const auto& m,
                          dist::mode md) {
    const dist::distributed_array<T> x(h, m, md);
    BOOST_TEST(double(dist::sum(x).item()) == double(cupp::sum(d).item()));
    // Products of 48 values round differently in another order (floats).
    const double p = double(dist::prod(x).item()), want_p = double(cupp::prod(d).item());
    if constexpr (std::is_floating_point_v<T>)
      BOOST_TEST(std::abs(p - want_p) <= 1e-5 * std::abs(want_p), p << " vs " << want_p);
    else
      BOOST_TEST(p == want_p);
    BOOST_TEST(double(dist::max(x).item()) == double(cupp::max(d).item()));
    BOOST_TEST(double(dist::min(x).item()) == double(cupp::min(d).item()));
    BOOST_TEST(dist::sum(x).device_id() == x.chunks()[0].device);
    // Reductions of lazy expressions, fused with them chunk by chunk
    // (overlapping replica chunks count each element once).
    const dist::distributed_array<T> y(h, maps[0]);
    BOOST_TEST(double(dist::sum(x * y).item()) == double(cupp::sum(d * d).item()));
    BOOST_TEST(double(dist::max(x - y * T(2)).item()) == double(cupp::max(d - d * T(2)).item()));
    BOOST_TEST(double(dist::min(-x).item()) == double(cupp::min(-d).item()));
    for (int axis = -1; axis < h.ndim(); ++axis) {
      const auto s = dist::sum(x, axis);
      BOOST_TEST((s.get_mode() == dist::mode::sum));
      check_equal(s.get(), cupp::asnumpy(cupp::sum(d, axis)));
      check_equal(dist::max(x, axis).get(), cupp::asnumpy(cupp::max(d, axis)));
      check_equal(dist::min(x, axis).get(), cupp::asnumpy(cupp::min(d, axis)));
      const auto got_p = dist::prod(x, axis).get().to_vector();
      const auto want_p = cupp::asnumpy(cupp::prod(d, axis)).to_vector();
      BOOST_TEST_REQUIRE(got_p.size() == want_p.size());
      for (std::size_t i = 0; i < got_p.size(); ++i)
        BOOST_TEST(std::abs(double(got_p[i]) - double(want_p[i])) <=
                       (std::is_floating_point_v<T> ? 1e-5 * std::abs(double(want_p[i])) : 0.0),
                   "prod along " << axis << " at " << i);
    }
  });
}

void matmul_grids(int n) {
  const auto ha = host_iota<float>({6, 9}, 2), hb = host_iota<float>({9, 4}, 5);
  const cupp::ndarray<float> a = cupp::asarray(ha), b = cupp::asarray(hb);
  const cupp::ndarray<float> ref = cupp::matmul(a, b);
  const std::vector<index_t> rows{0, 2, 6}, mid2{0, 5, 9}, mid3{0, 3, 4, 9}, cols{0, 1, 4};
  auto devs = [n](std::size_t r, std::size_t c) {
    std::vector<std::vector<std::vector<int>>> d(r, std::vector<std::vector<int>>(c));
    for (std::size_t i = 0; i < r; ++i)
      for (std::size_t j = 0; j < c; ++j) d[i][j] = {int(i * c + j) % n};
    return d;
  };
  for (const auto* mid : {&mid2, &mid3}) {
    const std::size_t k = mid->size() - 1;
    const auto ma = dist::make_2d_index_map(rows, *mid, devs(2, k));
    const auto mb = dist::make_2d_index_map(*mid, cols, devs(k, 2));
    const dist::distributed_array<float> da(ha, ma), db(hb, mb);
    const auto c = dist::matmul(da, db);
    BOOST_TEST((c.get_mode() == dist::mode::sum));
    const auto got = c.get().to_vector(), want = cupp::asnumpy(ref).to_vector();
    for (std::size_t i = 0; i < got.size(); ++i) BOOST_TEST(got[i] == want[i]);
  }
  // Splits that do not match.
  const dist::distributed_array<float> da(ha, dist::make_2d_index_map(rows, mid2, devs(2, 2))),
      db(hb, dist::make_2d_index_map(mid3, cols, devs(3, 2)));
  BOOST_CHECK_THROW(dist::matmul(da, db), cupp::value_error);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(distributed_array)

BOOST_AUTO_TEST_CASE(one_device_construction_modes_reshard) {
  construction_and_modes<float>(1);
  construction_and_modes<std::int32_t>(1);
}

BOOST_AUTO_TEST_CASE(one_device_elementwise) {
  elementwise<float>(1);
  elementwise<std::int32_t>(1);
  elementwise<double>(1);
}

BOOST_AUTO_TEST_CASE(one_device_reductions) {
  reductions<float>(1);
  reductions<std::int32_t>(1);
}

BOOST_AUTO_TEST_CASE(one_device_matmul) {
  matmul_grids(1);
}

BOOST_AUTO_TEST_CASE(errors) {
  const auto h = host_iota<float>({6, 8});
  using M = dist::index_map;
  auto throws = [&](const M& m, dist::mode md = dist::mode::replica) {
    BOOST_CHECK_THROW((dist::distributed_array<float>(h, m, md)), cupp::value_error);
  };
  throws(M{{0, {{slice(0, 7)}}}});               // out of bounds
  throws(M{{0, {{slice(0, 6, 2)}}}});            // step
  throws(M{{0, {{slice(0, 3)}}}});               // does not cover
  throws(M{{device_count(), {{slice(0, 6)}}}});  // no such device
  throws(M{{-1, {{slice(0, 6)}}}});
  throws(M{{0, {{slice(0, 6), slice(0, 8), slice(0, 1)}}}});  // too many slices
  const dist::distributed_array<float> x(h, M{{0, {{slice(0, 6)}}}});
  const dist::distributed_array<float> y(host_iota<float>({8, 6}), M{{0, {{slice(0, 8)}}}});
  BOOST_CHECK_THROW(dist::evaluate(x + y), cupp::value_error);
  BOOST_CHECK_THROW(x.reshard(M{{0, {{slice(0, 2)}}}}), cupp::value_error);
  BOOST_CHECK_THROW(dist::sum(x, 2), cupp::axis_error);
  BOOST_CHECK_THROW(dist::matmul(x, x), cupp::value_error);  // 6x8 @ 6x8
  BOOST_CHECK_THROW(
      dist::make_2d_index_map(std::vector<index_t>{0, 6}, std::vector<index_t>{0, 8}, {}),
      cupp::value_error);
}

BOOST_AUTO_TEST_CASE(every_device) {
  const int n = device_count();
  if (n < 2) {
    BOOST_TEST_MESSAGE("SKIPPED: chunks over several devices need 2 GPUs, found " << n);
    return;
  }
  construction_and_modes<float>(n);
  elementwise<float>(n);
  reductions<std::int32_t>(n);
  matmul_grids(n);
}

BOOST_AUTO_TEST_SUITE_END()
