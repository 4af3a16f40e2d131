// Compile time of <cupp/random.hpp> alone: the Generator, every sampler,
// permutations (with the sort area's one internal argsort, not all of
// <cupp/sort.hpp>) and the legacy API (cuRAND's device header), nothing
// used. Not in <cupp/cupp.hpp>: what a unit that draws random numbers pays
// on top of the umbrella's.
#include <cupp/random.hpp>
