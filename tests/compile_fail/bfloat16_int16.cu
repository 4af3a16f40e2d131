// expect: cupp::result_type_t: NumPy has no common dtype for these two types
// bfloat16 and int16 have no common dtype (ml_dtypes: numpy.result_type
// raises DTypePromotionError, a TypeError).
#include <cupp/cupp.hpp>

using rejected = cupp::result_type_t<cupp::bfloat16, std::int16_t>;
rejected value{};
