// NumPy's outputs for the scalar ufuncs (tests/fixtures/ufunc/cases_scalar.inc).
#include "ufunc_harness.hpp"

BOOST_AUTO_TEST_SUITE(ufunc_scalar)
#include "fixtures/ufunc/cases_scalar.inc"
BOOST_AUTO_TEST_SUITE_END()
