// NumPy's outputs for the math ufuncs (tests/fixtures/ufunc/cases_math.inc).
#include "ufunc_harness.hpp"

BOOST_AUTO_TEST_SUITE(ufunc_math)
#include "fixtures/ufunc/cases_math.inc"
BOOST_AUTO_TEST_SUITE_END()
