// Compile time of <cupp/sort.hpp> alone: the sorting umbrella (CUB's sorts,
// histograms and every family's header), nothing used. Beside cupp_hpp:
// what a unit that includes sorting pays, and what one that does not never
// pays.
#include <cupp/sort.hpp>
