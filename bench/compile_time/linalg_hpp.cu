// Compile time of <cupp/linalg.hpp> alone: the linear algebra umbrella
// (cuBLAS, cuSOLVER and every family's header), nothing used. Beside
// cupp_hpp: what a unit that includes linear algebra pays, and what one
// that does not never pays.
#include <cupp/linalg.hpp>
