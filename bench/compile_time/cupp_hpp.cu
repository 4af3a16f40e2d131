// Compile time of <cupp/cupp.hpp> alone: every public header, nothing used.
#include <cupp/cupp.hpp>
