// CUDA graphs (<cupp/cuda/graph.hpp>): replays against the same operations
// called directly, the pool during capture (memory freed while capturing is
// not handed out again while the graph lives), update in place, and the
// errors: an operation that synchronises while capturing, a default
// stream, with the stream usable afterwards.
#include <cupp/cuda/graph.hpp>
#include <cupp/cupp.hpp>

#include <set>
#include <vector>

#include "cupp_test.hpp"

namespace {

cupp::ndarray<float> filled(int n, float scale) {
  return cupp::arange<float>(n) * scale - 3.0f;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(graphs)

BOOST_AUTO_TEST_CASE(replay_matches_direct) {
  cupp::cuda::Stream s(true);
  const auto scope = s.scope();
  cupp::ndarray<float> x = filled(1000, 0.5f), y = filled(1000, 0.25f), w = filled(1000, 2.0f);
  cupp::ndarray<float> z;
  cupp::cuda::graph g = cupp::cuda::capture(s, [&] { z = x * y + w; });
  BOOST_TEST(g.num_nodes() >= 1u);
  BOOST_TEST(g.kept_allocations() == 1u);  // z
  // New values in x (written in place): the replay reads them.
  for (const float scale : {1.0f, -2.0f, 0.125f}) {
    x(cupp::ellipsis) = filled(1000, scale);
    g.launch(s);
    s.synchronize();
    BOOST_TEST(z.to_vector() == (x * y + w).eval().to_vector());
  }
}

// Ten small operations, each on the previous result, captured and replayed.
BOOST_AUTO_TEST_CASE(ten_operations) {
  cupp::cuda::Stream s(true);
  const auto scope = s.scope();
  const cupp::ndarray<double> x = cupp::linspace<double>(-1, 1, 500);
  cupp::ndarray<double> out;
  const auto chain = [&] {
    cupp::ndarray<double> a = x + 1.0;
    for (int i = 0; i < 8; ++i) a = a * 1.5 - cupp::sin(a);
    out = cupp::sum(a * a, 0);
  };
  cupp::cuda::graph g = cupp::cuda::capture(s, chain);
  g.launch(s);
  s.synchronize();
  const double replayed = out.item();
  chain();
  BOOST_TEST(out.item() == replayed);
}

// A temporary dropped while capturing stays the graph's: the pool does not
// hand its block to later allocations while the graph lives.
BOOST_AUTO_TEST_CASE(pool_during_capture) {
  cupp::cuda::Stream s(true);
  const auto scope = s.scope();
  const cupp::ndarray<float> x = filled(4096, 1.0f);
  cupp::ndarray<float> z;
  const void* dropped = nullptr;
  cupp::cuda::graph g = cupp::cuda::capture(s, [&] {
    const cupp::ndarray<float> t = x * 2.0f;  // freed at the end of the lambda
    dropped = t.data();
    z = t + 1.0f;
  });
  BOOST_TEST(g.kept_allocations() == 2u);
  BOOST_TEST(g.kept_bytes() >= 2u * 4096 * sizeof(float));
  std::vector<cupp::ndarray<float>> later;
  for (int i = 0; i < 16; ++i) {
    later.push_back(cupp::empty<float>({4096}));
    BOOST_TEST(static_cast<const void*>(later.back().data()) != dropped);
  }
  g.launch(s);
  s.synchronize();
  BOOST_TEST(z.to_vector() == (x * 2.0f + 1.0f).eval().to_vector());
}

BOOST_AUTO_TEST_CASE(update_in_place) {
  cupp::cuda::Stream s(true);
  const auto scope = s.scope();
  const cupp::ndarray<float> a = filled(256, 1.0f), b = filled(256, -1.0f);
  cupp::ndarray<float> za, zb, zc;
  cupp::cuda::graph g = cupp::cuda::capture(s, [&] { za = a * 2.0f; });
  // The same operation on other arrays and another scalar: an update.
  BOOST_TEST(g.update(cupp::cuda::capture(s, [&] { zb = b * 3.0f; })));
  g.launch(s);
  s.synchronize();
  BOOST_TEST(zb.to_vector() == (b * 3.0f).eval().to_vector());
  // Another topology (two kernels): refused, and the graph still runs what
  // it ran.
  cupp::ndarray<float> zd;
  BOOST_TEST(!g.update(cupp::cuda::capture(s, [&] {
    zc = a * 2.0f;
    zd = zc + b;
  })));
  zb(cupp::ellipsis) = 0.0f;
  g.launch(s);
  s.synchronize();
  BOOST_TEST(zb.to_vector() == (b * 3.0f).eval().to_vector());
}

BOOST_AUTO_TEST_CASE(errors_leave_the_stream_usable) {
  cupp::cuda::Stream s(true);
  const auto scope = s.scope();
  const cupp::ndarray<float> x = filled(100, 1.0f);
  const auto before = cupp::cuda::get_default_memory_pool().used_bytes();
  BOOST_CHECK_THROW(cupp::cuda::capture(s,
                                        [&] {
                                          const cupp::ndarray<float> t = x * 2.0f;
                                          (void)t.item(3);  // a copy to the host: synchronises
                                        }),
                    cupp::cuda::graph_error);
  BOOST_TEST(!cupp::cuda::is_capturing(s));
  BOOST_TEST(cupp::cuda::get_default_memory_pool().used_bytes() == before);
  const cupp::ndarray<float> y = x * 2.0f;
  BOOST_TEST(y.item(3) == x.item(3) * 2.0f);
  BOOST_CHECK_THROW(cupp::cuda::capture(cupp::cuda::Stream::null(), [] {}),
                    cupp::cuda::graph_error);
}

BOOST_AUTO_TEST_SUITE_END()
