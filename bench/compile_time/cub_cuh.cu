// The yardstick for the umbrella include: CUB's own umbrella header, compiled
// the same way in the same run. cupp.hpp should cost no more than this.
#include <cub/cub.cuh>
