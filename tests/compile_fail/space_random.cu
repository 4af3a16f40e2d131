// Host and device arrays in one call of the random generators: every case
// passes a host and a device array (a population and its probabilities,
// an array and out=, a mean and a covariance) to one method, which must
// refuse it with CUPP_SAME_SPACE's message (<cupp/space_check.hpp>). The
// control makes the same calls with arrays of one space. Format: see
// CMakeLists.txt here.
// expect: cupp: the arguments mix host and device arrays
#include <cupp/random.hpp>
#include <cupp/random/multivariate.hpp>

#include <vector>

// One case: -DCUPP_CF_CASE=N (0: the control). run_cases.cmake defines
// CUPP_CF itself to compile a set of cases at once.
#ifndef CUPP_CF
#define CUPP_CF(n) (CUPP_CF_CASE == (n))
#endif

using H = cupp::host::ndarray<float>;
using D = cupp::ndarray<float>;
using HD = cupp::host::ndarray<double>;
using DD = cupp::ndarray<double>;

// Every case is a template over these arrays, called from a plain
// function: nvcc then instantiates all the cases at the end of the unit and
// reports each one's error (an error reported earlier, while the unit is
// read, would make it skip the instantiations still pending).
struct arrays {
  H h;
  D d;
  HD hd;
  DD dd;
};

#if CUPP_CF(0)
void control(const D& d, const DD& dd, const H& h, const HD& hd) {
  auto rng = cupp::random::default_rng(1);
  (void)rng.choice(d, {2}, true, dd);
  (void)rng.choice(5, {2}, true, dd);
  (void)rng.choice(5, {2}, true, std::vector<double>{0.5, 0.5});
  (void)rng.permuted(d, 0, d);
  (void)rng.multivariate_normal(dd, dd);
  auto hrng = cupp::host::random::default_rng(1);
  (void)hrng.choice(h, {2}, true, hd);
  (void)hrng.choice(5, {2}, true, hd);
  cupp::random::RandomState rs(1);
  (void)rs.choice(dd, {2}, true, d);
}
#endif

#if CUPP_CF(1)
template <class A>
void case1(const A& a) {
  auto rng = cupp::random::default_rng(1);
  (void)rng.choice(a.d, {2}, true, a.hd);
}
void run1(const arrays& a) {
  case1(a);
}
#endif
#if CUPP_CF(2)
template <class A>
void case2(const A& a) {
  auto rng = cupp::random::default_rng(1);
  (void)rng.choice(5, {2}, true, a.hd);
}
void run2(const arrays& a) {
  case2(a);
}
#endif
#if CUPP_CF(3)
template <class A>
void case3(const A& a) {
  auto hrng = cupp::host::random::default_rng(1);
  (void)hrng.choice(5, {2}, true, a.dd);
}
void run3(const arrays& a) {
  case3(a);
}
#endif
#if CUPP_CF(4)
template <class A>
void case4(const A& a) {
  auto rng = cupp::random::default_rng(1);
  (void)rng.permuted(a.d, 0, a.h);
}
void run4(const arrays& a) {
  case4(a);
}
#endif
#if CUPP_CF(5)
template <class A>
void case5(const A& a) {
  auto rng = cupp::random::default_rng(1);
  (void)rng.multivariate_normal(a.dd, a.hd);
}
void run5(const arrays& a) {
  case5(a);
}
#endif
#if CUPP_CF(6)
template <class A>
void case6(const A& a) {
  cupp::random::RandomState rs(1);
  (void)rs.choice(a.dd, {2}, true, a.h);
}
void run6(const arrays& a) {
  case6(a);
}
#endif
