"""NumPy's histogram, histogram_bin_edges, histogram2d and histogramdd on
small inputs, written as .npy files under tests/fixtures/sort/histogram/
for tests/sort_histogram_test.cu.

Run with the project's environment: .venv/bin/python
tests/generate_sort_histogram_fixtures.py.

cases.txt lists one case a line:
  hist NAME DTYPE BINS RANGE DENSITY WEIGHTS
    BINS: an int, "edges" (NAME_edges.npy, float64) or a rule name;
    RANGE: "none" or LO,HI; DENSITY 0/1; WEIGHTS: none or the weights'
    dtype (NAME_w.npy). Files NAME_a, NAME_hist, NAME_edges_out.
  dd NAME DTYPE BINS RANGE DENSITY WEIGHTS
    sample NAME_a (N, D); BINS an int, "list" (ints in NAME_bins.npy) or
    "edges" (NAME_e0.npy ...); RANGE none or lo,hi repeated per dimension;
    files NAME_hist and NAME_edges_out0 ...
  2d NAME DTYPE BINS RANGE DENSITY WEIGHTS: as dd on x = NAME_x, y = NAME_y.
"""

import os

import numpy as np

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "sort", "histogram")
RULES = ["auto", "fd", "doane", "scott", "stone", "rice", "sturges", "sqrt"]

lines = []


def save(name, array):
    array = np.asarray(array)
    np.save(os.path.join(OUT, name + ".npy"), array if array.ndim == 0 else np.ascontiguousarray(array))


def data(dtype, rng, n=100):
    dt = np.dtype(dtype)
    if dt.kind in "iu":
        lo = 0 if dt.kind == "u" else -50
        return rng.integers(lo, lo + 100, n).astype(dt)
    return (rng.standard_normal(n) * 3 + 1).astype(dt)


def hist_case(name, a, bins, rng_arg=None, density=False, w=None, edges=None):
    kwargs = {"range": rng_arg, "density": density, "weights": w}
    b = edges if bins == "edges" else (bins if isinstance(bins, str) else int(bins))
    h, e = np.histogram(a, bins=b, **kwargs)
    save(name + "_a", a)
    if edges is not None:
        save(name + "_edges", edges)
    if w is not None:
        save(name + "_w", w)
    save(name + "_hist", h)
    save(name + "_edges_out", e)
    r = "none" if rng_arg is None else f"{float(rng_arg[0])!r},{float(rng_arg[1])!r}"
    wd = "none" if w is None else w.dtype.name
    lines.append(f"hist {name} {a.dtype.name} {bins} {r} {int(density)} {wd}")


def hist_cases(rng):
    for dtype in ["int8", "uint8", "int32", "int64", "float16", "float32", "float64"]:
        a = data(dtype, rng)
        hist_case(f"h_{dtype}_10", a, 10)
        hist_case(f"h_{dtype}_7_range", a, 7, (-2.5, 4.0))
        hist_case(f"h_{dtype}_256", a, 256)
        hist_case(f"h_{dtype}_1", a, 1)
        hist_case(f"h_{dtype}_density", a, 9, density=True)
        hist_case(f"h_{dtype}_weights", a, 6, w=rng.standard_normal(a.size))
        hist_case(f"h_{dtype}_edges", a, "edges", edges=np.array([-30.0, -2, 0, 0, 1.5, 3, 40]))
        hist_case(f"h_{dtype}_edges_w", a, "edges", edges=np.array([-3.0, 0, 1, 8]),
                  w=rng.standard_normal(a.size), density=True)
        for rule in RULES:
            hist_case(f"h_{dtype}_{rule}", a, rule)
        hist_case(f"h_{dtype}_sturges_range", a, "sturges", (-1.0, 3.0))
    # float32 values exactly on edges, outside the range, NaN and inf with a
    # range, and the closed last edge.
    a = np.array([0, 0.1, 0.2, 0.3, 0.7, 1.0, 1.0, -0.0, 1.5, -0.5, np.nan, np.inf, -np.inf],
                 dtype=np.float32)
    for dtype in ["float16", "float32", "float64"]:
        x = a.astype(dtype)
        hist_case(f"h_{dtype}_edge_values", x, 10, (0.0, 1.0))
        hist_case(f"h_{dtype}_edge_values3", x, 3, (0.0, 1.0))
        hist_case(f"h_{dtype}_edge_values_edges", x, "edges",
                  edges=np.array([0.0, 0.1, 0.3, 0.7, 1.0]))
    # A float32 range NumPy computes in float64 against one from the data.
    x = (np.arange(1000, dtype=np.float32) * np.float32(0.013)) - np.float32(3.1)
    hist_case("h_float32_fine", x, 97)
    hist_case("h_float32_fine_range", x, 97, (-3.1, 9.887))
    # All values equal (the range widens by 0.5), an empty input.
    hist_case("h_float32_equal", np.full(5, 2.5, np.float32), 4)
    hist_case("h_int32_equal", np.full(5, 7, np.int32), 4)
    hist_case("h_float32_empty", np.zeros(0, np.float32), 10)
    hist_case("h_float64_empty_range", np.zeros(0), 3, (1.0, 2.0))
    hist_case("h_float64_empty_auto", np.zeros(0), "auto")
    # float32 and int32 weights keep their dtype.
    a = data("float64", rng)
    hist_case("h_float64_w32", a, 5, w=rng.standard_normal(a.size).astype(np.float32))
    hist_case("h_float64_wint", a, 5, w=rng.integers(-3, 9, a.size).astype(np.int32))
    # A larger input for the device's block-private bins.
    a = (rng.standard_normal(8000) * 2).astype(np.float32)
    hist_case("h_float32_large", a, 64, (-4.0, 4.0))


def dd_case(kind, name, sample, bins, rng_arg=None, density=False, w=None):
    if kind == "dd":
        h, edges = np.histogramdd(sample, bins=bins, range=rng_arg, density=density, weights=w)
        save(name + "_a", sample)
        dtype = sample.dtype.name
    else:
        x, y = sample
        h, xe, ye = np.histogram2d(x, y, bins=bins, range=rng_arg, density=density, weights=w)
        edges = [xe, ye]
        save(name + "_x", x)
        save(name + "_y", y)
        dtype = x.dtype.name
    if isinstance(bins, int):
        b = str(bins)
    elif isinstance(bins[0], (int, np.integer)):
        b = "list"
        save(name + "_bins", np.array(bins, dtype=np.int64))
    else:
        b = "edges"
        for i, e in enumerate(bins):
            save(name + f"_e{i}", e)
    if w is not None:
        save(name + "_w", w)
    save(name + "_hist", h)
    for i, e in enumerate(edges):
        save(name + f"_edges_out{i}", e.astype(np.float64))
    r = "none" if rng_arg is None else ",".join(f"{float(v)!r}" for pair in rng_arg for v in pair)
    lines.append(f"{kind} {name} {dtype} {b} {r} {int(density)} {'none' if w is None else 'float64'}")


def dd_cases(rng):
    s = rng.standard_normal((120, 3))
    s[1] = [1.0, 1.0, 1.0]
    with_nan = s.copy()
    with_nan[0] = [np.nan, 0, 0]
    dd_case("dd", "dd_f64_4", s, 4)
    dd_case("dd", "dd_f64_list", s, [2, 3, 5])
    dd_case("dd", "dd_f64_range", with_nan, [3, 3, 3], [(-1, 1), (-2, 2), (0, 1)])
    dd_case("dd", "dd_f64_density", s, 3, density=True, w=rng.random(120))
    dd_case("dd", "dd_f64_edges", s, [np.array([-2.0, 0, 1]), np.array([-1.0, 1.0]),
                                       np.array([-3.0, -1, 0, 1, 3])])
    dd_case("dd", "dd_f32_5", s.astype(np.float32), 5)
    dd_case("dd", "dd_i32_3", rng.integers(-5, 5, (50, 2)).astype(np.int32), 3)
    dd_case("dd", "dd_empty", np.zeros((0, 2)), 3, [(0, 1), (0, 2)])
    x = rng.standard_normal(200).astype(np.float32)
    y = (x * 0.5 + rng.standard_normal(200)).astype(np.float32)
    dd_case("2d", "h2_f32_8", (x, y), 8)
    dd_case("2d", "h2_f32_list", (x, y), [4, 6], [(-2, 2), (-3, 3)], True)
    dd_case("2d", "h2_f64_w", (x.astype(np.float64), y.astype(np.float64)), 5,
            w=rng.random(200))
    dd_case("2d", "h2_f64_edges", (x.astype(np.float64), y.astype(np.float64)),
            [np.array([-3.0, -1, 0, 2]), np.array([-1.0, 0, 4])])


def main():
    os.makedirs(OUT, exist_ok=True)
    for old in os.listdir(OUT):
        if old.endswith(".npy") or old.endswith(".txt"):
            os.remove(os.path.join(OUT, old))
    rng = np.random.default_rng(1717)
    hist_cases(rng)
    dd_cases(rng)
    with open(os.path.join(OUT, "cases.txt"), "w") as f:
        f.write("# generated by tests/generate_sort_histogram_fixtures.py\n")
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
