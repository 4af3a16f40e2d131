// Compile time of <cupp/ndarray.hpp> alone: the array type and transfers,
// nothing used.
#include <cupp/ndarray.hpp>
