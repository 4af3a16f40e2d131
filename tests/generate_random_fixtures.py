"""Goodness-of-fit data for the random-number tests (tests/random_gof_test.cu):
for each distribution, parameter set and dtype in CASES below, the bins of a
chi-square test with their exact probabilities from SciPy, the sample size,
the critical value, and the exact moments and bounds.

Run with the project's environment (needs scipy:
.venv/bin/pip install scipy):
  .venv/bin/python tests/generate_random_fixtures.py          writes the file
  .venv/bin/python tests/generate_random_fixtures.py --check  also draws
      every record with NumPy's Generator and runs the same checks, which
      validates the SciPy parameterisations against NumPy's.

Writes tests/fixtures/random/gof.txt. Lines starting with '#' are comments;
each record is four lines:
  record method=M dtype=D seed=S n=N bins=K critical=C z=Z mean=MU var=V
         kurt=EK check_mean=0|1 check_var=0|1 lo=L hi=H
  args A1 A2 ...          the method's arguments in NumPy's order
  edges E0 E1 ... EK      bin i holds the values in [Ei, Ei+1) (the last
                          bin also holds EK); integers for discrete ones
  probs P0 ... PK-1       each bin's exact probability
L and H are the smallest and largest values the draw may give (closed, so
[0, 1) for float64 random is lo=0 hi=1-2^-53); "inf" and "nan" stand for
undefined moments and unbounded supports.

The thresholds. A run checks every record's chi-square statistic, and the
mean and variance of those whose moments make the normal approximation of
the sample mean and variance trustworthy. With T such checks, each check's
false-alarm probability is alpha = 1e-4 / T (Bonferroni), so that a correct
generator fails a run less than once in 10^4. The critical chi-square value
is chi2.isf(alpha, K - 1); the moments are checked within z = norm.isf(alpha
/ 2) standard errors. The seeds are fixed (a CRC of the record's key), so a
run is reproducible: the 10^-4 is the chance that a correct generator's
fixed draws fail, taken over implementations and seeds.
"""

import math
import os
import sys
import zlib

import numpy as np
from scipy import integrate, special, stats

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "random")

SUITE_FAILURE = 1e-4  # a correct generator fails a run less often than this
N_CONTINUOUS = 1_000_000
N_DISCRETE = 1_000_000
CONTINUOUS_BINS = 64
MIN_EXPECTED = 20  # draws a bin expects, at least
MAX_DISCRETE_BINS = 200
MAX_ENUMERATED = 10**6  # values whose pmf the script lists
INT64_MAX = 2**63 - 1

# The normal approximation of the sample mean (variance) at the tail
# probability alpha ~ 1e-7 is trusted where the skewness of X (of (X-mu)^2)
# is at most this: its Edgeworth correction then stays below the tail itself
# for N ~ 10^6.
MAX_SKEW = 25.0


# (method, dtypes, [argument tuples]). The parameter sets cover the
# branches of NumPy's algorithms (named in the comments).
CASES = [
    ("random", ["float32", "float64"], [()]),
    ("uniform", ["float64"], [(0.0, 1.0), (-2.5, 7.0), (1000.0, 1000.5)]),
    ("standard_normal", ["float32", "float64"], [()]),
    ("normal", ["float64"], [(0.0, 1.0), (3.0, 0.5), (-1000.0, 20.0)]),
    # integers: small ranges, full ranges, endpoint, and ranges that are not
    # powers of two and near a word's size (where a plain modulo is biased).
    (
        "integers",
        ["int8"],
        [(-5, 7, True), (-128, 127, True), (-128, 128, False), (0, 100, False)],
    ),
    ("integers", ["int16"], [(-32768, 32767, True), (-1000, 1000, False)]),
    ("integers", ["int32"], [(-(2**31), 2**31 - 1, True), (0, 3 * 2**29, False), (-7, 7, False)]),
    (
        "integers",
        ["int64"],
        [(-(2**63), 2**63 - 1, True), (0, 10, False), (-(2**62), 2**62 + 2**61, False), (0, 3 * 2**30, False)],
    ),
    ("integers", ["uint8"], [(0, 255, True), (3, 9, False)]),
    ("integers", ["uint16"], [(0, 65535, True), (10, 40010, False)]),
    ("integers", ["uint32"], [(0, 2**32 - 1, True), (0, 3 * 2**30, False)]),
    ("integers", ["uint64"], [(0, 2**64 - 1, True), (0, 3 * 2**62, False), (5, 12, True)]),
    ("standard_exponential", ["float32", "float64"], [()]),
    ("exponential", ["float64"], [(1.0,), (2.5,), (1e-3,)]),
    # shape < 1 (Johnk / Marsaglia-Tsang with a power), == 1 (exponential),
    # > 1 (Marsaglia-Tsang), large.
    ("standard_gamma", ["float32", "float64"], [(0.25,), (0.5,), (1.0,), (2.5,), (30.0,), (1e4,)]),
    ("gamma", ["float64"], [(0.5, 2.0), (3.0, 0.5), (1.0, 1.0)]),
    # a, b <= 1 (Johnk), otherwise two gammas.
    ("beta", ["float64"], [(0.2, 0.3), (0.5, 0.5), (0.9, 0.3), (2.0, 5.0), (0.5, 3.0), (50.0, 80.0)]),
    # n*p <= 30 (inversion) and > 30 (BTPE), p near 0 and near 1, p > 0.5
    # (drawn as n - binomial(n, 1 - p)), large n.
    (
        "binomial",
        ["int64"],
        [
            (10, 0.3),
            (100, 0.3),
            (1000, 0.3),
            (100, 0.05),
            (50, 0.97),
            (1000, 0.999),
            (20, 0.5),
            (10**6, 1e-6),
            (10**9, 0.4),
            (10, 0.0),
            (10, 1.0),
        ],
    ),
    ("chisquare", ["float64"], [(0.5,), (1.0,), (3.0,), (50.0,)]),
    ("f", ["float64"], [(1.0, 1.0), (5.0, 10.0), (30.0, 20.0)]),
    # p >= 1/3 (search) and p < 1/3 (inversion).
    ("geometric", ["int64"], [(0.9,), (0.5,), (0.34,), (0.2,), (1e-3,), (1.0,)]),
    ("gumbel", ["float64"], [(0.0, 1.0), (2.0, 3.0)]),
    # small samples (counting) and HRUA (nsample >= 10), large populations.
    (
        "hypergeometric",
        ["int64"],
        [(10, 5, 7), (5, 1000, 3), (100, 200, 50), (1000, 800, 900), (10**6, 10**6, 5 * 10**5), (20, 30, 45)],
    ),
    ("laplace", ["float64"], [(0.0, 1.0), (-2.0, 0.5)]),
    ("logistic", ["float64"], [(0.0, 1.0), (5.0, 2.0)]),
    ("lognormal", ["float64"], [(0.0, 1.0), (1.0, 0.25), (-1.0, 2.0)]),
    ("logseries", ["int64"], [(0.1,), (0.5,), (0.9,), (0.99,), (0.9999,)]),
    ("negative_binomial", ["int64"], [(5.0, 0.5), (0.5, 0.3), (100.0, 0.9), (1.0, 0.01)]),
    # nonc == 0 (chisquare), df > 1 (normal plus chisquare), df <= 1 (Poisson
    # mixture).
    ("noncentral_chisquare", ["float64"], [(3.0, 2.0), (0.5, 1.0), (1.0, 5.0), (5.0, 0.0), (10.0, 100.0)]),
    ("noncentral_f", ["float64"], [(3.0, 20.0, 3.0), (10.0, 5.0, 0.5)]),
    ("pareto", ["float64"], [(0.5,), (3.0,), (10.0,)]),
    # lam < 10 (multiplication), >= 10 (PTRS), large.
    ("poisson", ["int64"], [(0.5,), (3.0,), (9.9,), (10.0,), (25.0,), (1000.0,), (1e6,), (0.0,)]),
    ("power", ["float64"], [(0.5,), (1.0,), (5.0,)]),
    ("rayleigh", ["float64"], [(1.0,), (2.5,)]),
    ("standard_cauchy", ["float64"], [()]),
    ("standard_t", ["float64"], [(1.0,), (2.5,), (30.0,), (1e6,)]),
    ("triangular", ["float64"], [(0.0, 0.3, 1.0), (-2.0, -2.0, 5.0), (0.0, 1.0, 1.0), (-1.0, 0.0, 1.0)]),
    # kappa < 1e-8 (uniform), small, Best-Fisher, > 1e6 (wrapped normal);
    # mu away from 0 wraps around pi.
    ("vonmises", ["float64"], [(0.0, 1e-9), (0.0, 1e-6), (0.0, 0.5), (2.5, 1.0), (-2.0, 50.0), (0.0, 1e7)]),
    ("wald", ["float64"], [(1.0, 1.0), (3.0, 0.5), (0.5, 20.0)]),
    ("weibull", ["float64"], [(0.5,), (1.0,), (3.5,)]),
    ("zipf", ["int64"], [(1.3,), (2.0,), (3.5,), (8.0,)]),
]

DTYPE_ARGS = {"random", "standard_normal", "standard_exponential", "standard_gamma", "integers"}


# ---------------------------------------------------------------------------
# SciPy's form of each distribution, its support and the highest order of a
# finite moment (moments of order < limit are finite).


class Spec:
    def __init__(self, dist, discrete, lo, hi, moment_limit=math.inf):
        self.dist, self.discrete, self.lo, self.hi = dist, discrete, lo, hi
        self.moment_limit = moment_limit
        self.truncate = None  # zipf: NumPy redraws values above int64's max
        self.wrap_mu = None  # vonmises: X = wrap(mu + Y)


def unit_top(dtype):
    return 1.0 - 2.0**-24 if dtype == "float32" else 1.0 - 2.0**-53


def spec_of(method, dtype, a):
    inf = math.inf
    if method == "random":
        return Spec(stats.uniform(), False, 0.0, unit_top(dtype))
    if method == "uniform":
        return Spec(stats.uniform(loc=a[0], scale=a[1] - a[0]), False, a[0], a[1])
    if method == "standard_normal":
        return Spec(stats.norm(), False, -inf, inf)
    if method == "normal":
        return Spec(stats.norm(a[0], a[1]), False, -inf, inf)
    if method == "standard_exponential":
        return Spec(stats.expon(), False, 0.0, inf)
    if method == "exponential":
        return Spec(stats.expon(scale=a[0]), False, 0.0, inf)
    if method == "standard_gamma":
        return Spec(stats.gamma(a[0]), False, 0.0, inf)
    if method == "gamma":
        return Spec(stats.gamma(a[0], scale=a[1]), False, 0.0, inf)
    if method == "beta":
        return Spec(stats.beta(a[0], a[1]), False, 0.0, 1.0)
    if method == "binomial":
        return Spec(stats.binom(a[0], a[1]), True, 0, a[0])
    if method == "chisquare":
        return Spec(stats.chi2(a[0]), False, 0.0, inf)
    if method == "f":
        return Spec(stats.f(a[0], a[1]), False, 0.0, inf, a[1] / 2)
    if method == "geometric":
        return Spec(stats.geom(a[0]), True, 1, inf)
    if method == "gumbel":
        return Spec(stats.gumbel_r(a[0], a[1]), False, -inf, inf)
    if method == "hypergeometric":
        good, bad, n = a
        return Spec(stats.hypergeom(good + bad, good, n), True, max(0, n - bad), min(n, good))
    if method == "laplace":
        return Spec(stats.laplace(a[0], a[1]), False, -inf, inf)
    if method == "logistic":
        return Spec(stats.logistic(a[0], a[1]), False, -inf, inf)
    if method == "lognormal":
        return Spec(stats.lognorm(a[1], scale=math.exp(a[0])), False, 0.0, inf)
    if method == "logseries":
        return Spec(LogseriesLaw(a[0]), True, 1, INT64_MAX)
    if method == "negative_binomial":
        return Spec(stats.nbinom(a[0], a[1]), True, 0, INT64_MAX)
    if method == "noncentral_chisquare":
        d = stats.chi2(a[0]) if a[1] == 0 else stats.ncx2(a[0], a[1])
        return Spec(d, False, 0.0, inf)
    if method == "noncentral_f":
        return Spec(stats.ncf(a[0], a[1], a[2]), False, 0.0, inf, a[1] / 2)
    if method == "pareto":  # NumPy's pareto is Lomax (Pareto II, minimum 0)
        return Spec(stats.lomax(a[0]), False, 0.0, inf, a[0])
    if method == "poisson":
        return Spec(stats.poisson(a[0]), True, 0, INT64_MAX)
    if method == "power":
        return Spec(stats.powerlaw(a[0]), False, 0.0, 1.0)
    if method == "rayleigh":
        return Spec(stats.rayleigh(scale=a[0]), False, 0.0, inf)
    if method == "standard_cauchy":
        return Spec(stats.cauchy(), False, -inf, inf, 1.0)
    if method == "standard_t":
        return Spec(stats.t(a[0]), False, -inf, inf, a[0])
    if method == "triangular":
        left, mode, right = a
        return Spec(stats.triang((mode - left) / (right - left), loc=left, scale=right - left), False, left, right)
    if method == "vonmises":
        s = Spec(stats.vonmises(a[1]), False, -math.pi, math.pi)
        s.wrap_mu = a[0]
        return s
    if method == "wald":  # inverse Gaussian with mean a[0] and shape a[1]
        return Spec(stats.invgauss(a[0] / a[1], scale=a[1]), False, 0.0, inf)
    if method == "weibull":
        return Spec(stats.weibull_min(a[0]), False, 0.0, inf)
    if method == "zipf":
        s = Spec(ZipfLaw(a[0]), True, 1, INT64_MAX, a[0] - 1)
        s.truncate = INT64_MAX
        return s
    raise ValueError(method)


class DiscreteLaw:
    """What the script needs of a discrete law, where SciPy's generic
    methods sum the pmf from 1 up (zipf's cdf at 10^12 would need terabytes)."""

    def _search(self, below, q):  # smallest k >= 1 with below(k) true
        lo, hi = 1, 2
        while not below(hi):
            lo, hi = hi, 2 * hi
        while lo < hi:
            mid = (lo + hi) // 2
            lo, hi = (mid + 1, hi) if not below(mid) else (lo, mid)
        return lo

    def ppf(self, q):
        if np.ndim(q):
            return np.array([self.ppf(float(x)) for x in q])
        return self._search(lambda k: self.cdf(k) >= q, q)

    def isf(self, q):
        return self._search(lambda k: self.sf(k) <= q, q)

    def stats(self, moments="mvsk"):
        raw = [self.moment(r) for r in range(1, 5)]
        m = raw[0]
        var = raw[1] - m * m
        mu3 = raw[2] - 3 * m * raw[1] + 2 * m**3
        mu4 = raw[3] - 4 * m * raw[2] + 6 * m * m * raw[1] - 3 * m**4
        return m, var, mu3 / var**1.5, mu4 / var**2 - 3


class ZipfLaw(DiscreteLaw):
    """P(k) = k^-a / zeta(a), k >= 1, through Hurwitz's zeta."""

    def __init__(self, a):
        self.a, self.z = a, float(special.zeta(a))

    def pmf(self, k):
        return np.asarray(k, dtype=float) ** -self.a / self.z

    def sf(self, k):
        return float(special.zeta(self.a, math.floor(k) + 1)) / self.z if k >= 1 else 1.0

    def cdf(self, k):
        return 1.0 - self.sf(k)

    def moment(self, r):
        return float(special.zeta(self.a - r)) / self.z if self.a - r > 1 else math.inf


class LogseriesLaw(DiscreteLaw):
    """P(k) = -p^k / (k log(1 - p)), tabulated until the tail is below 1e-18."""

    def __init__(self, p):
        top = int(math.log(1e-18) / math.log(p)) + 2
        k = np.arange(1, top + 1, dtype=float)
        self.table = np.exp(k * math.log(p)) / k / -math.log1p(-p)
        self.table /= self.table.sum()
        self.below = np.cumsum(self.table)  # P(X <= k) at k - 1
        self.above = np.cumsum(self.table[::-1])[::-1]  # P(X >= k) at k - 1
        self.k = k

    def pmf(self, k):
        k = np.asarray(k)
        return np.where((k >= 1) & (k <= len(self.table)), self.table[np.clip(k - 1, 0, len(self.table) - 1)], 0.0)

    def cdf(self, k):
        k = math.floor(k)
        return 0.0 if k < 1 else 1.0 if k >= len(self.table) else float(self.below[k - 1])

    def sf(self, k):
        k = math.floor(k)
        return 1.0 if k < 1 else 0.0 if k >= len(self.table) else float(self.above[k])

    def moment(self, r):
        return float(np.sum(self.k**r * self.table))


# ---------------------------------------------------------------------------
# Bins.


def continuous_bins(spec):
    """K equiprobable bins from the ppf; the probabilities are recomputed at
    the stored (rounded) edges, from the cdf below the median and from the
    survival function above it, so both tails keep their precision."""
    d = spec.dist
    q = np.arange(1, CONTINUOUS_BINS) / CONTINUOUS_BINS
    inner = [float(x) for x in d.ppf(q)]
    edges = [-math.inf] + inner + [math.inf]
    edges = sorted(set(edges))
    median = float(d.ppf(0.5))

    def below(x):  # P(X < x)
        if x == -math.inf:
            return 0.0
        if x == math.inf:
            return 1.0
        return float(d.cdf(x))

    def above(x):  # P(X >= x)
        if x == -math.inf:
            return 1.0
        if x == math.inf:
            return 0.0
        return float(d.sf(x))

    probs = []
    for lo, hi in zip(edges[:-1], edges[1:]):
        if hi <= median:
            probs.append(below(hi) - below(lo))
        else:
            probs.append(above(lo) - above(hi))
    return edges, probs


def wrap(x):
    return math.remainder(x, 2 * math.pi)


def vonmises_bins(spec):
    """X = wrap(mu + Y), Y von Mises on [-pi, pi]: equiprobable edges of Y
    carried to X; each bin of X is the image of one interval of Y."""
    d, mu = spec.dist, spec.wrap_mu
    q = np.arange(1, CONTINUOUS_BINS) / CONTINUOUS_BINS
    ys = [-math.pi] + [float(y) for y in d.ppf(q)] + [math.pi]
    xs = sorted(set([wrap(mu + y) for y in ys] + [-math.pi, math.pi]))
    edges, probs = [], []
    for lo, hi in zip(xs[:-1], xs[1:]):
        y0 = wrap(lo - mu)
        y1 = y0 + (hi - lo)
        if y1 > math.pi + 1e-12:  # the image crosses pi: lo maps to -pi
            y0, y1 = y0 - 2 * math.pi, y1 - 2 * math.pi
        p = float(d.cdf(min(y1, math.pi)) - d.cdf(max(y0, -math.pi)))
        edges.append(lo)
        probs.append(p)
    edges.append(math.pi)
    return merge_small(edges, probs, N_CONTINUOUS)


def merge_small(edges, probs, n):
    """Merges each bin that expects fewer than MIN_EXPECTED draws into its
    smaller neighbour (the pieces a wrap leaves)."""
    edges, probs = list(edges), list(probs)
    while len(probs) > 1 and min(probs) * n < MIN_EXPECTED:
        i = probs.index(min(probs))
        j = i - 1 if i == len(probs) - 1 or (i > 0 and probs[i - 1] < probs[i + 1]) else i + 1
        lo = min(i, j)
        probs[lo : lo + 2] = [probs[lo] + probs[lo + 1]]
        del edges[lo + 1]
    return edges, probs


def discrete_prob_le(spec, k):
    """P(X <= k), exact enough in either tail: returns (cdf, sf) at k."""
    d = spec.dist
    c, s = float(d.cdf(k)), float(d.sf(k))
    if spec.truncate is not None:
        total = float(d.cdf(spec.truncate))
        c, s = c / total, (s - float(d.sf(spec.truncate))) / total
    return c, s


def discrete_bins(spec, n):
    """Single values over the bulk; the tails (and values too rare alone)
    lumped into runs whose expected count is at least MIN_EXPECTED, with at
    most about MAX_DISCRETE_BINS bins. Edges are integers; bin i holds
    [Ei, Ei+1)."""
    d = spec.dist
    lo, hi = spec.lo, spec.hi
    target = max(MIN_EXPECTED / n, 1.0 / MAX_DISCRETE_BINS)
    a = max(lo, int(d.ppf(1e-13)))
    b = int(min(float(hi), float(d.isf(1e-13)), a + MAX_ENUMERATED))
    edges = [lo]
    acc = float(d.cdf(a - 1)) if a > lo else 0.0
    for k, p in zip(range(a, b + 1), d.pmf(np.arange(a, b + 1))):
        acc += float(p)
        if acc >= target and k < hi:
            edges.append(k + 1)
            acc = 0.0
    # A tail too long to list (zipf): runs of about `target` from the sf.
    start = edges[-1]
    while b < hi and float(d.sf(start - 1)) > 2 * target:
        goal = float(d.sf(start - 1)) - target
        k = int(d.isf(goal))
        start = max(k + 1, start + 1)
        edges.append(start)
    # Probabilities of [Ei, Ei+1), from the cdf and sf at Ei - 1.
    top = hi + 1
    bounds = edges + [top]
    below = []  # (cdf, sf) at Ei - 1
    for e in bounds:
        if e <= lo:
            below.append((0.0, 1.0))
        elif e > hi:
            below.append((1.0, 0.0))
        else:
            below.append(discrete_prob_le(spec, e - 1))
    probs = []
    for (c0, s0), (c1, s1) in zip(below[:-1], below[1:]):
        probs.append(c1 - c0 if c1 <= 0.5 else s0 - s1)
    bounds, probs = merge_small(bounds, probs, n)
    if hi >= INT64_MAX and spec.truncate is None:
        bounds[-1] = math.inf
    return bounds, probs


def integer_bins(low, high, endpoint):
    """Uniform integers: exact, with Python's integers."""
    top = high + 1 if endpoint else high
    m = top - low
    k = min(m, CONTINUOUS_BINS)
    edges = [low + (j * m) // k for j in range(k + 1)]
    probs = [(e1 - e0) / m for e0, e1 in zip(edges[:-1], edges[1:])]
    return edges, probs, low, top - 1


# ---------------------------------------------------------------------------
# Moments.


def moments(spec, method, args):
    """(mean, var, excess kurtosis, check_mean, check_var)."""
    if method == "integers":
        low, high, endpoint = args
        m = (high + 1 if endpoint else high) - low
        mean = low + (m - 1) / 2
        var = (m * m - 1) / 12
        kurt = -6 * (m * m + 1) / (5 * (m * m - 1)) if m > 1 else math.nan
        return mean, var, kurt, m > 1, m > 1
    d = spec.dist
    if spec.wrap_mu is not None:
        # E g(X) over Y, split where wrap jumps and around the mode.
        mu, width = spec.wrap_mu, 1 / math.sqrt(d.args[0])
        pts = [y for y in [wrap(math.pi - mu)] + [j * width for j in range(-8, 9)] if abs(y) < math.pi]
        raw = []
        for r in range(1, 7):
            f = lambda y: wrap(mu + y) ** r * float(d.pdf(y))
            v, _ = integrate.quad(f, -math.pi, math.pi, points=sorted(pts), limit=1000, epsabs=0, epsrel=1e-12)
            raw.append(v)
        return from_raw(raw, spec.moment_limit)
    # zipf's draws are truncated at int64's max, which moves no finite
    # moment measurably: SciPy's are those of the untruncated law.
    if spec.moment_limit <= 1:
        return math.nan, math.nan, math.nan, False, False
    mean, var, skew, kurt = (float(x) for x in d.stats(moments="mvsk"))
    if spec.moment_limit <= 2:
        return mean, math.inf, math.nan, False, False
    if not (var > 0 and math.isfinite(var)):
        return mean, var, kurt, False, False
    check_mean = spec.moment_limit > 4 and abs(skew) <= MAX_SKEW
    check_var = spec.moment_limit > 8 and math.isfinite(kurt) and skew_of_square(spec, mean, var) <= MAX_SKEW
    return mean, var, kurt, check_mean, check_var


def skew_of_square(spec, mean, var):
    """The skewness of ((X - mean) / sd)^2, from the standardised central
    moments 4 and 6 (summed or integrated directly: raw moments cancel
    where the mean is large)."""
    d, sd = spec.dist, math.sqrt(var)
    if isinstance(d, DiscreteLaw):
        mu4, mu6 = central([d.moment(r) / 1.0 for r in range(1, 7)])[2::2]
        mu4, mu6 = mu4 / var**2, mu6 / var**3
    elif spec.discrete:
        lo = max(spec.lo, int(d.ppf(1e-16)))
        k = np.arange(lo, int(min(float(spec.hi), float(d.isf(1e-16)))) + 1)
        z, p = (k - mean) / sd, d.pmf(k)
        mu4, mu6 = float(np.sum(z**4 * p)), float(np.sum(z**6 * p))
    else:
        mu4 = float(d.expect(lambda x: ((x - mean) / sd) ** 4, epsrel=1e-10))
        mu6 = float(d.expect(lambda x: ((x - mean) / sd) ** 6, epsrel=1e-10))
    var_y = mu4 - 1
    if not (var_y > 0 and math.isfinite(mu6)):
        return math.inf
    return abs(mu6 - 3 * mu4 + 2) / var_y**1.5


def central(raw):
    m = raw[0]
    full = [1.0] + raw
    out = []
    for r in range(2, 7):
        out.append(sum(math.comb(r, j) * full[j] * (-m) ** (r - j) for j in range(r + 1)))
    return out  # mu2 .. mu6


def skew_of_raw_square(raw):
    mu2, _, mu4, _, mu6 = central(raw)
    var_y = mu4 - mu2 * mu2
    if not (var_y > 0 and all(math.isfinite(x) for x in raw)):
        return math.inf
    return abs(mu6 - 3 * mu4 * mu2 + 2 * mu2**3) / var_y**1.5


def from_raw(raw, limit):
    mu2, mu3, mu4, _, _ = central(raw)
    skew = mu3 / mu2**1.5
    kurt = mu4 / mu2**2 - 3
    return raw[0], mu2, kurt, abs(skew) <= MAX_SKEW, skew_of_raw_square(raw) <= MAX_SKEW


# ---------------------------------------------------------------------------


def fmt(x):
    if isinstance(x, (int, np.integer)) and not isinstance(x, bool):
        return str(int(x))
    if isinstance(x, bool):
        return "true" if x else "false"
    x = float(x)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return repr(x)


def build_records():
    records = []
    for method, dtypes, arg_sets in CASES:
        for dtype in dtypes:
            for args in arg_sets:
                key = f"{method} {dtype} {' '.join(fmt(a) for a in args)}"
                r = {"method": method, "dtype": dtype, "args": args, "seed": zlib.crc32(key.encode())}
                if method == "integers":
                    edges, probs, lo, hi = integer_bins(*args)
                    spec = None
                    n = N_DISCRETE
                else:
                    spec = spec_of(method, dtype, args)
                    lo, hi = spec.lo, spec.hi
                    if spec.discrete:
                        n = N_DISCRETE
                        edges, probs = discrete_bins(spec, n)
                    else:
                        n = N_CONTINUOUS
                        edges, probs = vonmises_bins(spec) if spec.wrap_mu is not None else continuous_bins(spec)
                total = sum(probs)
                assert abs(total - 1) < 1e-9, (key, total)
                assert len(probs) == 1 or min(probs) * n >= MIN_EXPECTED, (key, min(probs) * n)
                mean, var, kurt, cm, cv = moments(spec, method, args)
                r.update(n=n, edges=edges, probs=probs, lo=lo, hi=hi, mean=mean, var=var, kurt=kurt)
                r.update(check_mean=bool(cm), check_var=bool(cv))
                records.append(r)
    checks = sum(1 + r["check_mean"] + r["check_var"] for r in records if len(r["probs"]) > 1)
    checks += sum(r["check_mean"] + r["check_var"] for r in records if len(r["probs"]) == 1)
    alpha = SUITE_FAILURE / checks
    z = float(stats.norm.isf(alpha / 2))
    for r in records:
        k = len(r["probs"])
        r["critical"] = float(stats.chi2.isf(alpha, k - 1)) if k > 1 else 0.0
        r["z"] = z
    return records, alpha, checks


def record_text(r):
    head = (
        f"record method={r['method']} dtype={r['dtype']} seed={r['seed']} n={r['n']} "
        f"bins={len(r['probs'])} critical={fmt(r['critical'])} z={fmt(r['z'])} "
        f"mean={fmt(r['mean'])} var={fmt(r['var'])} kurt={fmt(r['kurt'])} "
        f"check_mean={int(r['check_mean'])} check_var={int(r['check_var'])} "
        f"lo={fmt(r['lo'])} hi={fmt(r['hi'])}"
    )
    args = "args" + "".join(" " + fmt(a) for a in r["args"])
    edges = "edges " + " ".join(fmt(e) for e in r["edges"])
    probs = "probs " + " ".join(repr(float(p)) for p in r["probs"])
    return "\n".join([head, args, edges, probs])


# ---------------------------------------------------------------------------
# --check: the same tests on NumPy's own draws.


def numpy_draw(r):
    g = np.random.default_rng(r["seed"])
    m, a, n = r["method"], r["args"], r["n"]
    if m == "integers":
        return g.integers(a[0], a[1], size=n, dtype=r["dtype"], endpoint=a[2])
    if m in DTYPE_ARGS:
        return getattr(g, m)(*a, size=n, dtype=r["dtype"])
    return getattr(g, m)(*a, size=n)


def check_with_numpy(records):
    worst = 1.0
    failures = 0
    for r in records:
        x = numpy_draw(r)
        # Binned in float64: above 2^53 an integer may round across an edge,
        # by one ulp of 2^64, which moves no count measurably.
        edges = np.array([float(e) for e in r["edges"]])
        xf = x.astype(np.float64)
        idx = np.searchsorted(edges, xf, side="right") - 1
        if x.dtype.kind == "f":  # the last bin is closed, as in the C++ harness
            idx[xf == edges[-1]] = len(edges) - 2
        k = len(r["probs"])
        outside = int(np.sum((idx < 0) | (idx >= k)))
        counts = np.bincount(idx[(idx >= 0) & (idx < k)], minlength=k)
        expected = np.array(r["probs"]) * r["n"]
        stat = float(np.sum((counts - expected) ** 2 / expected)) if k > 1 else 0.0
        p = float(stats.chi2.sf(stat, k - 1)) if k > 1 else 1.0
        lo, hi = float(r["lo"]), float(r["hi"])
        bad_bounds = int(np.sum(~((xf >= lo) & (xf <= hi))))
        msg = []
        if stat > r["critical"] or outside or bad_bounds:
            msg.append(f"chi2 {stat:.1f} > {r['critical']:.1f} outside {outside} bounds {bad_bounds}")
        xl = x.astype(np.longdouble)
        if r["check_mean"]:
            dev = abs(float(np.mean(xl)) - r["mean"]) / math.sqrt(r["var"] / r["n"])
            if dev > r["z"]:
                msg.append(f"mean off by {dev:.2f} se")
        if r["check_var"]:
            se = r["var"] * math.sqrt((r["kurt"] + 2) / r["n"])
            dev = abs(float(np.var(xl)) - r["var"]) / se
            if dev > r["z"]:
                msg.append(f"var off by {dev:.2f} se")
        worst = min(worst, p)
        failures += bool(msg)
        print(f"{r['method']:22s} {r['dtype']:8s} {str(r['args']):32s} bins {k:4d} p {p:.3g} {' '.join(msg)}")
    print(f"{failures} failing records; smallest p-value {worst:.3g}")
    return failures


def main():
    records, alpha, checks = build_records()
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, "gof.txt"), "w") as f:
        f.write("# Written by tests/generate_random_fixtures.py: chi-square bins and moments of\n")
        f.write("# every distribution; the format is described there.\n")
        f.write(f"# {len(records)} records, {checks} checks, alpha per check {alpha!r}\n")
        for r in records:
            f.write(record_text(r) + "\n")
    print(f"{len(records)} records, {checks} checks, alpha {alpha:.3g}")
    if "--check" in sys.argv:
        sys.exit(1 if check_with_numpy(records) else 0)


if __name__ == "__main__":
    main()
