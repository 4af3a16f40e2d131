#!/usr/bin/env python3
"""Minimax coefficients of the polynomials in detail/cupp/detail/random/exact_math*.hpp.

Remez exchange (mpmath, 60 digits) on a weighted error, then the coefficients
are rounded to the target precision one at a time, lowest degree first, and
the remaining ones refitted, so the rounding of one is absorbed by the rest.
Prints C++ initialisers; run with the project's virtual environment
(pip install mpmath).
"""
import sys

import mpmath as mp
import numpy as np

mp.mp.dps = 40


def remez(target, weight, a, b, n, fixed=(), iters=25, grid=240):
    """Coefficients c[0..n-1] of sum c_j z^j minimizing max |w (F - p)| on [a, b]
    (Lawson's iteratively reweighted least squares on Chebyshev nodes, which
    converges to the minimax solution and never breaks down). `fixed` holds
    already-rounded leading coefficients."""
    nf = len(fixed)
    m = n - nf
    zs = [a + (b - a) * (1 - mp.cos(mp.pi * (i + mp.mpf(0.5)) / grid)) / 2 for i in range(grid)]
    W = [weight(z) for z in zs]
    rest = [target(z) - sum(fixed[j] * z ** j for j in range(nf)) for z in zs]
    v = [mp.mpf(1) / grid] * grid
    best = None
    for _ in range(iters):
        A = mp.matrix(grid, m)
        rhs = mp.matrix(grid, 1)
        for i, z in enumerate(zs):
            sw = mp.sqrt(v[i]) * W[i]
            for j in range(m):
                A[i, j] = sw * z ** (j + nf)
            rhs[i] = sw * rest[i]
        sol, _ = mp.qr_solve(A, rhs)
        c = [sol[j] for j in range(m)]
        err = [abs(W[i] * (rest[i] - sum(c[j] * zs[i] ** (j + nf) for j in range(m))))
               for i in range(grid)]
        emax = max(err)
        if best is None or emax < best[0]:
            best = (emax, c)
        v = [v[i] * err[i] for i in range(grid)]
        tot = sum(v)
        v = [x / tot for x in v]
    return list(fixed) + best[1], best[0]


def rounded_fit(target, weight, a, b, n, dtype, head=()):
    fixed = list(head)
    while len(fixed) < n:
        c, e = remez(target, weight, a, b, n, fixed)
        fixed.append(mp.mpf(float(dtype(float(c[len(fixed)])))))
    # final error with all rounded
    zs = [a + (b - a) * mp.mpf(i) / 4000 for i in range(4001)]
    e = max(abs(weight(z) * (target(z) - sum(fixed[j] * z ** j for j in range(n)))) for z in zs)
    return [float(x) for x in fixed], e


def show(name, coefs, err, dtype):
    suffix = "f" if dtype is np.float32 else ""
    print(f"// {name}: max weighted error {float(err):.3e} (2^{float(mp.log(err, 2)):.1f})")
    print(", ".join(float(dtype(c)).hex() + suffix for c in coefs))


def safe(f, z, limit):
    return f(z) if z != 0 else limit


def main():
    third = mp.mpf(1) / 3 * (1 + mp.mpf(2) ** -20)
    smax2 = ((mp.sqrt(2) - 1) / (mp.sqrt(2) + 1)) ** 2 * (1 + mp.mpf(2) ** -20)
    half_ln2 = mp.log(2) / 2 * (1 + mp.mpf(2) ** -12)
    jobs = {
        # float log: log1p(f) = f + f^2 Q(f), |f| <= 1/3; error relative to log1p(f)
        "log_f": (lambda f: safe(lambda f: (mp.log1p(f) - f) / f ** 2, f, mp.mpf(-0.5)),
                  lambda f: safe(lambda f: f ** 2 / mp.log1p(f), f, 0), -third, third),
        # log1p(f) = 2s + 2s^3/3 + s^5 R2(z), z = s^2 <= (3-2sqrt2)^2; error relative to 2s
        "log_r2": (lambda z: safe(lambda z: (2 * mp.atanh(mp.sqrt(z)) / mp.sqrt(z) - 2 - 2 * z / 3) / z ** 2, z, mp.mpf(2) / 5),
                   lambda z: z ** 2 / 2, mp.mpf(0), smax2),
        # the same for the double-word logarithm of pow and loggam, more precise
        "log_dw": None,
        # exp(r) = 1 + r + r^2 Q(r), |r| <= ln2/2; error relative to exp(r)
        "exp": (lambda r: safe(lambda r: (mp.exp(r) - 1 - r) / r ** 2, r, mp.mpf(0.5)),
                lambda r: r ** 2 / mp.exp(r), -half_ln2, half_ln2),
        # sin(pi r) = r (pi + z P(z)), z = r^2 <= 1/16; relative
        "sinpi": (lambda z: safe(lambda z: (mp.sin(mp.pi * mp.sqrt(z)) / mp.sqrt(z) - mp.pi) / z, z, -mp.pi ** 3 / 6),
                  lambda z: z / mp.pi, mp.mpf(0), mp.mpf(1) / 16),
        # cos(pi r) = 1 + z Q(z); relative
        "cospi": (lambda z: safe(lambda z: (mp.cos(mp.pi * mp.sqrt(z)) - 1) / z, z, -mp.pi ** 2 / 2),
                  lambda z: z / mp.cos(mp.pi * mp.sqrt(z)), mp.mpf(0), mp.mpf(1) / 16),
        # atan(t) = t + t z P(z), z <= 1/4; relative
        "atan": (lambda z: safe(lambda z: (mp.atan(mp.sqrt(z)) / mp.sqrt(z) - 1) / z, z, mp.mpf(-1) / 3),
                 lambda z: safe(lambda z: z * mp.sqrt(z) / mp.atan(mp.sqrt(z)), z, 0), mp.mpf(0), mp.mpf(1) / 4),
        # asin(t) = t + t z P(z), z <= 1/4; relative
        "asin": (lambda z: safe(lambda z: (mp.asin(mp.sqrt(z)) / mp.sqrt(z) - 1) / z, z, mp.mpf(1) / 6),
                 lambda z: safe(lambda z: z * mp.sqrt(z) / mp.asin(mp.sqrt(z)), z, 0), mp.mpf(0), mp.mpf(1) / 4),
    }
    jobs["log_dw"] = jobs["log_r2"]
    degrees = {np.float32: {"log_f": 10, "log_r2": 0, "log_dw": 4, "exp": 5, "sinpi": 3, "cospi": 4, "atan": 6, "asin": 5},
               np.float64: {"log_f": 0, "log_r2": 6, "log_dw": 8, "exp": 10, "sinpi": 7, "cospi": 8, "atan": 13, "asin": 12}}
    only = sys.argv[1:]
    for dtype in (np.float32, np.float64):
        for name, (F, W, a, b) in jobs.items():
            n = degrees[dtype][name]
            if n == 0 or (only and name not in only):
                continue
            c, e = rounded_fit(F, W, a, b, n, dtype)
            show(f"{name} {dtype.__name__} n={n}", c, e, dtype)
            sys.stdout.flush()


if __name__ == "__main__":
    main()
