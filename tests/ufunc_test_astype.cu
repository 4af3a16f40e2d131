// NumPy's outputs for the astype ufuncs (tests/fixtures/ufunc/cases_astype.inc).
#include "ufunc_harness.hpp"

BOOST_AUTO_TEST_SUITE(ufunc_astype)
#include "fixtures/ufunc/cases_astype.inc"
BOOST_AUTO_TEST_SUITE_END()
