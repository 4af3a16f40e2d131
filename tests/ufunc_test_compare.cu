// NumPy's outputs for the compare ufuncs (tests/fixtures/ufunc/cases_compare.inc).
#include "ufunc_harness.hpp"

BOOST_AUTO_TEST_SUITE(ufunc_compare)
#include "fixtures/ufunc/cases_compare.inc"
BOOST_AUTO_TEST_SUITE_END()
