#!/usr/bin/env python3
"""DLPack exchange between cupp and CuPy, through tests/support/dlpack_exchange.cu
loaded with ctypes (no Python headers, no extension module):

  * CuPy -> cupp: capsules from x.__dlpack__() ("dltensor_versioned", and the
    older "dltensor") are opened with PyCapsule_GetPointer, handed to
    cupp::from_dlpack, written in place by a cupp expression (CuPy must see
    the change: no copy) and renamed "used_..." as the protocol requires;
    a refused tensor (wrong dtype) is left to its capsule.
  * cupp -> CuPy: an object with __dlpack__ / __dlpack_device__ whose
    capsules hold cupp::to_dlpack tensors, taken by cupy.from_dlpack, on
    CuPy's default stream and on a non-blocking stream while cupp's
    producer kernel is still running (the stream handshake); values are
    checked with NumPy, and the memory's release is counted when CuPy drops
    the array or a capsule goes unconsumed.

    python3 tests/interop_dlpack_cupy.py path/to/libcupp_dlpack_exchange.so

Exits 77 (skipped) without NumPy, CuPy or a CUDA device.
"""
import ctypes
import gc
import sys

SKIPPED = 77


def skip(why):
    print(f"SKIPPED: {why}")
    sys.exit(SKIPPED)


try:
    import numpy as np
except ImportError:
    skip("numpy is not installed")
try:
    import cupy as cp
except ImportError:
    skip("cupy is not installed")
try:
    if cp.cuda.runtime.getDeviceCount() == 0:
        skip("no CUDA device")
except Exception as e:  # CUDARuntimeError without a driver or device
    skip(f"no CUDA device ({e})")

if len(sys.argv) != 2:
    sys.exit("usage: interop_dlpack_cupy.py LIBRARY")

lib = ctypes.CDLL(sys.argv[1])
lib.cupp_dlpack_error.restype = ctypes.c_char_p
lib.cupp_dlpack_capsule_name.restype = ctypes.c_void_p
lib.cupp_dlpack_capsule_name.argtypes = [ctypes.c_int, ctypes.c_int]
lib.cupp_dlpack_affine_inplace.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_double,
                                           ctypes.c_double]
lib.cupp_dlpack_export.restype = ctypes.c_void_p
lib.cupp_dlpack_export.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                                   ctypes.c_longlong, ctypes.c_int, ctypes.c_ulonglong]
destructor = ctypes.cast(lib.cupp_dlpack_capsule_destructor, ctypes.c_void_p).value

api = ctypes.pythonapi
api.PyCapsule_IsValid.restype = ctypes.c_int
api.PyCapsule_IsValid.argtypes = [ctypes.py_object, ctypes.c_char_p]
api.PyCapsule_GetPointer.restype = ctypes.c_void_p
api.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
# Names as pointers into the library: a capsule keeps the pointer, not a copy.
api.PyCapsule_SetName.restype = ctypes.c_int
api.PyCapsule_SetName.argtypes = [ctypes.py_object, ctypes.c_void_p]
api.PyCapsule_New.restype = ctypes.py_object
api.PyCapsule_New.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]


def name(versioned, used=False):
    return lib.cupp_dlpack_capsule_name(int(versioned), int(used))


failures = []


def check(ok, what):
    print(("ok     " if ok else "FAILED ") + what)
    if not ok:
        failures.append(what)


def capsule_of(x, versioned):
    """x.__dlpack__() in the form asked for, or None when this CuPy lacks it."""
    if not versioned:
        return x.__dlpack__()  # no max_version: the pre-1.0 struct
    try:
        return x.__dlpack__(max_version=(1, 0))
    except TypeError:
        return None


# --- CuPy -> cupp -------------------------------------------------------------

for versioned in (True, False):
    tag = "versioned" if versioned else "unversioned"
    base = cp.arange(24, dtype=cp.float32).reshape(4, 6)
    view = base[:, ::2]  # strided: cupp must honour the strides
    cap = capsule_of(view, versioned)
    if cap is None:
        print(f"note   this CuPy has no __dlpack__(max_version=): {tag} path not exercised")
        continue
    cname = b"dltensor_versioned" if versioned else b"dltensor"
    if versioned and not api.PyCapsule_IsValid(cap, cname):
        # A CuPy that cannot produce 1.x answers max_version with the old struct.
        versioned, cname = False, b"dltensor"
    check(api.PyCapsule_IsValid(cap, cname) == 1, f"{tag}: CuPy's capsule is named {cname!r}")
    ptr = api.PyCapsule_GetPointer(cap, cname)
    rc = lib.cupp_dlpack_affine_inplace(ptr, int(versioned), 3.0, 0.5)
    check(rc == 0, f"{tag}: cupp took CuPy's tensor ({lib.cupp_dlpack_error().decode()})")
    if rc == 0:
        api.PyCapsule_SetName(cap, name(versioned, used=True))
    del cap
    want = np.arange(24, dtype=np.float32).reshape(4, 6)
    want[:, ::2] = want[:, ::2] * 3.0 + 0.5
    got = cp.asnumpy(base)
    check(np.array_equal(got, want), f"{tag}: CuPy sees cupp's in-place write, others untouched")

    # Refused (float64, not float32): the capsule keeps the tensor and frees it.
    other = cp.ones(5, dtype=cp.float64)
    cap = capsule_of(other, versioned)
    ptr = api.PyCapsule_GetPointer(cap, cname)
    rc = lib.cupp_dlpack_affine_inplace(ptr, int(versioned), 2.0, 0.0)
    err = lib.cupp_dlpack_error().decode()
    check(rc == -1 and "holds float64 elements, not float32" in err,
          f"{tag}: a float64 tensor is refused ({err})")
    check(api.PyCapsule_IsValid(cap, cname) == 1, f"{tag}: the refused capsule is unconsumed")
    del cap
    check(bool((cp.asnumpy(other) == 1.0).all()), f"{tag}: the refused tensor is untouched")

# --- cupp -> CuPy -------------------------------------------------------------


class CuppArray:
    """What a Python binding of cupp would expose: the DLPack protocol."""

    def __init__(self, rows, cols, layout, force_unversioned=False, delay_ns=0):
        self.args = (rows, cols, layout)
        self.force_unversioned = force_unversioned
        self.delay_ns = delay_ns
        self.streams_seen = []

    def __dlpack_device__(self):
        return (2, lib.cupp_dlpack_device())  # kDLCUDA

    def __dlpack__(self, stream=None, max_version=None, dl_device=None, copy=None):
        if copy:
            raise BufferError("cupp exports without copying")
        versioned = (max_version is not None and max_version[0] >= 1
                     and not self.force_unversioned)
        self.streams_seen.append(stream)
        ptr = lib.cupp_dlpack_export(*self.args, int(versioned),
                                     0 if stream is None else stream, int(stream is not None),
                                     self.delay_ns)
        if not ptr:
            raise BufferError(lib.cupp_dlpack_error().decode())
        return api.PyCapsule_New(ptr, name(versioned), destructor)


def expected(rows, cols, layout):
    a = np.arange(rows * cols, dtype=np.float64)
    return a.reshape(rows, cols).T if layout == 0 else a[::-1]


def drop_and_count(before, what):
    gc.collect()
    cp.cuda.Device().synchronize()
    check(lib.cupp_dlpack_released() == before + 1,
          f"{what}: the memory was released once ({lib.cupp_dlpack_released() - before})")


cases = [
    ("versioned, transposed", CuppArray(3, 5, 0)),
    ("versioned, reversed", CuppArray(1, 17, 1)),
    ("unversioned, transposed", CuppArray(4, 2, 0, force_unversioned=True)),
]
for what, obj in cases:
    before = lib.cupp_dlpack_released()
    y = cp.from_dlpack(obj)
    check(np.array_equal(cp.asnumpy(y), expected(*obj.args)), f"{what}: CuPy reads cupp's values")
    check(all(s != 0 for s in obj.streams_seen if s is not None),
          f"{what}: CuPy never passes the ambiguous stream=0 ({obj.streams_seen})")
    del y
    drop_and_count(before, what)

# The handshake: cupp's producer runs 300 ms on its legacy default stream;
# CuPy consumes on a non-blocking stream, which nothing else orders after it.
obj = CuppArray(256, 1024, 0, delay_ns=300_000_000)
before = lib.cupp_dlpack_released()
with cp.cuda.Stream(non_blocking=True) as s:
    y = cp.from_dlpack(obj)
    z = y * 1.0  # a copy made on s
    s.synchronize()
check(obj.streams_seen == [s.ptr] or obj.streams_seen == [None],
      f"stream handshake: CuPy named its stream ({obj.streams_seen}, s = {s.ptr})")
check(np.array_equal(cp.asnumpy(z), expected(*obj.args)),
      "stream handshake: a non-blocking consumer stream sees the finished values")
del y, z
drop_and_count(before, "stream handshake")

# A capsule nobody consumes gives its tensor back through its destructor.
before = lib.cupp_dlpack_released()
cap = CuppArray(2, 2, 0).__dlpack__(max_version=(1, 0))
del cap
drop_and_count(before, "unconsumed capsule")

if failures:
    print(f"{len(failures)} check(s) failed")
    sys.exit(1)
print("all DLPack exchanges with CuPy passed")
