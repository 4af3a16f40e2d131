"""Base arrays of the NumPy fixture generators: each returns (storage,
base), where storage is a 1-d int64 array whose values are their own
positions and base is a view of it in some layout. The generators describe
the base by its offset and strides into the storage, so a test can rebuild
it over any dtype and check results element by element against ids."""

import numpy as np


def c_order(shape):
    s = np.arange(int(np.prod(shape)))
    return s, s.reshape(shape)


def f_order(shape):
    s = np.arange(int(np.prod(shape)))
    return s, s.reshape(shape, order="F")


def strided(shape):
    """Every other element of a wider last axis, starting at the second."""
    wide = shape[:-1] + (2 * shape[-1] + 1,)
    s = np.arange(int(np.prod(wide)))
    return s, s.reshape(wide)[..., 1::2]


def negative(shape, every_axis=False):
    """Negative strides on the first and last axes (or on every axis)."""
    s = np.arange(int(np.prod(shape)))
    if every_axis:
        return s, s.reshape(shape)[tuple(slice(None, None, -1) for _ in shape)]
    flipped = s.reshape(shape)[::-1]
    return s, flipped[..., ::-1] if len(shape) > 1 else flipped


def transposed(shape):
    """Axes reversed (F-like) with the last one read backwards."""
    s = np.arange(int(np.prod(shape)))
    return s, s.reshape(shape[::-1]).transpose()[..., ::-1]
