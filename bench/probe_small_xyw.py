#!/usr/bin/env python3
"""CuPy's side of an Nsight Compute probe of the 1000-element x * y + w:
twenty fused ElementwiseKernel calls and twenty `x * y + w` expressions
(ncu -k regex:xyw or regex:multiply picks one)."""
import cupy as cp

n = 1000
x = cp.arange(n, dtype=cp.float32)
y = cp.ones(n, dtype=cp.float32)
w = cp.ones(n, dtype=cp.float32)
z = cp.empty(n, dtype=cp.float32)
k = cp.ElementwiseKernel("T x, T y, T w", "T z", "z = x * y + w", "xyw")
for _ in range(20):
    k(x, y, w, z)
for _ in range(20):
    z = x * y + w
cp.cuda.Device().synchronize()
