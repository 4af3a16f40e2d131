"""Random matrix values shared by the linear algebra fixture generators:
small integers for integer dtypes, standard normal parts otherwise."""

import numpy as np


def random_values(shape, dtype, rng):
    if np.dtype(dtype).kind in "iu":
        return rng.integers(-9, 10, size=shape).astype(dtype)
    x = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)
