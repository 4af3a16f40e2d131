// NumPy's outputs for the arithmetic ufuncs (tests/fixtures/ufunc/cases_arithmetic.inc).
#include "ufunc_harness.hpp"

BOOST_AUTO_TEST_SUITE(ufunc_arithmetic)
#include "fixtures/ufunc/cases_arithmetic.inc"
BOOST_AUTO_TEST_SUITE_END()
