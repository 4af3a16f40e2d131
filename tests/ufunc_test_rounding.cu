// NumPy's outputs for the rounding ufuncs (tests/fixtures/ufunc/cases_rounding.inc).
#include "ufunc_harness.hpp"

BOOST_AUTO_TEST_SUITE(ufunc_rounding)
#include "fixtures/ufunc/cases_rounding.inc"
BOOST_AUTO_TEST_SUITE_END()
