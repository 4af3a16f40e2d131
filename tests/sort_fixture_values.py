"""What the sort area's fixture scripts share: the dtypes they cover, the
special float values (NaNs of both signs, infinities, signed zeros) and
how a dtype NumPy lacks is stored."""

import numpy as np

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float16", "bfloat16", "float32", "float64", "complex64", "complex128"]
NEG_NAN = np.float64(np.copysign(np.nan, -1.0))
SPECIAL = [np.nan, 1.0, -0.0, np.inf, 0.0, -np.inf, NEG_NAN, -1.5, 0.0, -0.0, np.nan, 2.0,
           -np.inf, 0.5, NEG_NAN, -0.0, 1.0, np.inf]


def storage(dtype):
    """The dtype a fixture of `dtype` is saved in: bfloat16 as float32."""
    return "float32" if dtype == "bfloat16" else dtype
