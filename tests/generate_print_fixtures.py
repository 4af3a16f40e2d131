#!/usr/bin/env python3
"""Writes tests/fixtures/print/*.txt: NumPy's repr() and str() of many arrays.

Run from anywhere: python3 tests/generate_print_fixtures.py (needs numpy >= 2.3
and ml_dtypes). tests/print_test.cu rebuilds each array in cupp, prints it
under the same options and compares.

File format: one block per case, lines starting with '#' are comments.

    case <name>
    dtype <numpy dtype name; bfloat16 for ml_dtypes.bfloat16>
    shape <extents, space separated; nothing for a 0-d array>
    options precision=8 threshold=1000 edgeitems=3 linewidth=75 suppress=0 \
            sign=minus|plus|space floatmode=maxprec nanstr=nan infstr=inf
    data <hex of the C-contiguous little-endian bytes of the base array>
    view <byte offset> | <extents> | <strides in bytes>      (optional)
    repr <text>
    str <text>
    end

With a view line the printed array is that view of the base array (as
numpy.lib.stride_tricks.as_strided would make it), otherwise the base array
itself. repr/str text (and nanstr/infstr) escape backslash as \\\\ and newline
as \\n; nothing else is escaped.
"""
import pathlib

import ml_dtypes
import numpy as np

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float16", "bfloat16", "float32", "float64", "complex64", "complex128"]
FLOATS = ["float16", "bfloat16", "float32", "float64"]
COMPLEX = ["complex64", "complex128"]
INTS = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]

DEFAULTS = dict(precision=8, threshold=1000, edgeitems=3, linewidth=75, suppress=False,
                sign="-", floatmode="maxprec", nanstr="nan", infstr="inf")
SIGN_NAMES = {"-": "minus", "+": "plus", " ": "space"}


def dt(name):
    return np.dtype(ml_dtypes.bfloat16) if name == "bfloat16" else np.dtype(name)


def escape(s):
    return s.replace("\\", "\\\\").replace("\n", "\\n")


class Group:
    def __init__(self, name):
        self.name = name
        self.lines = [f"# numpy {np.__version__}, ml_dtypes {ml_dtypes.__version__}"]
        self.count = 0
        self.names = set()

    def add(self, name, a, view=None, **opts):
        """a: the base array (made C-contiguous); view: a function of it."""
        assert name not in self.names, name
        self.names.add(name)
        base = np.ascontiguousarray(a)
        shown = base if view is None else view(base)
        options = dict(DEFAULTS)
        options.update(opts)
        with np.printoptions(**options):
            r, s = repr(shown), str(shown)
        dname = "bfloat16" if base.dtype == dt("bfloat16") else base.dtype.name
        self.lines.append(f"case {name}")
        self.lines.append(f"dtype {dname}")
        self.lines.append(("shape " + " ".join(str(n) for n in base.shape)).rstrip())
        o = options
        self.lines.append(
            f"options precision={o['precision']} threshold={o['threshold']} "
            f"edgeitems={o['edgeitems']} linewidth={o['linewidth']} suppress={int(o['suppress'])} "
            f"sign={SIGN_NAMES[o['sign']]} floatmode={o['floatmode']} "
            f"nanstr={escape(o['nanstr'])} infstr={escape(o['infstr'])}")
        self.lines.append(("data " + base.astype(base.dtype.newbyteorder("<")).tobytes().hex()).rstrip())
        if view is not None:
            offset = (shown.__array_interface__["data"][0] -
                      base.__array_interface__["data"][0])
            self.lines.append(f"view {offset} | {' '.join(map(str, shown.shape))} | "
                              f"{' '.join(map(str, shown.strides))}")
        self.lines.append("repr " + escape(r))
        self.lines.append("str " + escape(s))
        self.lines.append("end")
        self.count += 1

    def write(self, out):
        (out / f"{self.name}.txt").write_text("\n".join(self.lines) + "\n", encoding="utf-8")


def sample(name, shape, rng, kind="mixed"):
    """Deterministic values of a dtype, of varied magnitude."""
    n = int(np.prod(shape))
    d = dt(name)
    if name == "bool":
        v = rng.random(n) < 0.5
    elif name in INTS:
        info = np.iinfo(d)
        if kind == "small":
            v = rng.integers(max(info.min, -100), min(info.max, 100), n, endpoint=True)
        else:
            v = rng.integers(info.min, info.max, n, endpoint=True, dtype=d)
    elif name in COMPLEX:
        v = sample("float64", shape, rng, kind) + 1j * sample("float64", shape, rng, kind)
    else:
        scale = {"small": 1.0, "mixed": 10.0 ** rng.integers(-3, 4, n)}.get(kind, 1.0)
        v = np.round(rng.standard_normal(n) * scale, int(rng.integers(0, 5)))
    return np.asarray(v).astype(d).reshape(shape)


SHAPES = [(), (0,), (0, 3), (3, 0), (2, 0, 3), (1,), (5,), (1, 1), (2, 3), (3, 1), (1, 4),
          (2, 3, 4), (2, 2, 2, 2), (1, 2, 1, 3), (2, 1, 2, 1, 2)]


def dtypes_group(rng):
    g = Group("dtypes")
    for name in DTYPES:
        for shape in SHAPES:
            tag = "x".join(map(str, shape)) or "0d"
            g.add(f"{name}_{tag}", sample(name, shape, rng, "small"))
            if int(np.prod(shape)) > 1 and name != "bool":
                g.add(f"{name}_{tag}_mixed", sample(name, shape, rng, "mixed"))
    return g


FLOAT_SETS = {
    "zeros": [0.0, -0.0, 0.0],
    "negzero": [-0.0],
    "nan": [np.nan],
    "infs": [np.inf, -np.inf],
    "posinf": [np.inf, 1.0],
    "nan_mixed": [np.nan, 1.5, -np.inf],
    "nan_neg": [np.nan, -2.25],
    "only_nan_inf": [np.nan, np.inf],
    "small_sci": [1e-5, 1.0],
    "large": [1e16, 1.0],
    "1e8": [1e8, 1.0],
    "1e7": [1e7, 1.0],
    "1e6": [1e6, 1.0],
    "999999": [999999.0, 1.0],
    "1e3": [1000.0, 1.0],
    "ratio_1000": [1.0, 1000.0],
    "ratio_1000_25": [1.0, 1000.25],
    "ratio_1000_5": [1.0, 1000.5],
    "ratio_500": [0.5, 500.2],
    "min_1e4": [1e-4, 2e-4],
    "min_below_1e4": [9.99e-5, 2e-4],
    "thirds": [1 / 3, 2 / 3, 1.0],
    "tenths": [0.1, 0.2, 0.3],
    "quarter": [0.25, 0.1],
    "mixed_sign": [-1.5, 2.25, -0.0, 3.0],
    "long_digits": [123456.789, 0.000123456789],
    "pi_e": [np.pi, np.e, -np.pi],
    "round_up": [9.999999999, 0.999999999, 99.99999999],
    "ties": [0.125, 0.375, 2.5, 0.5, 1.5],
    "tiny": [1e-30, 1.0, -1e-20],
    "neg_exp": [-1e-10, 1e10],
    "integers": [1.0, 2.0, 300.0, -4.0],
    "huge_sci": [1.5e300, -2.5e-300],
    "subnormal": [5e-324, 2.2250738585072014e-308],
    "float_max": [1.7976931348623157e308, -1.0],
    "f32_max": [3.4028234663852886e38, 1.401298464324817e-45],
    "f32_min_normal": [1.1754943508222875e-38],
    "half_max": [65504.0, -65504.0],
    "half_sub": [6e-08, 6.1e-05, 1.0],
    "half_steps": [2048.0, 2050.0, 33984.0, 34016.0],
    "one": [1.0],
    "minus_one": [-1.0],
}


def floats_group():
    g = Group("floats")
    for name in FLOATS + COMPLEX:
        d = dt(name)
        for key, vals in FLOAT_SETS.items():
            with np.errstate(all="ignore"):
                a = np.array(vals, dtype=np.float64).astype(d)
            g.add(f"{name}_{key}", a)
            g.add(f"{name}_{key}_0d", a[:1].reshape(()))
            if len(vals) > 1:
                g.add(f"{name}_{key}_0d_last", a[-1:].reshape(()))
        if name in COMPLEX:
            special = [complex(1, 2), complex(0, 1), complex(0, -1), complex(-0.0, 0.0),
                       complex(-0.0, -0.0), complex(np.nan, np.nan), complex(np.inf, -np.inf),
                       complex(1.5, np.nan), complex(1e20, 1e-20), complex(0, 1e-5),
                       complex(-3, 0), complex(0.0, 0.0), complex(np.nan, 0), complex(2.5, -np.inf)]
            for i, z in enumerate(special):
                g.add(f"{name}_scalar{i}", np.array(z, dtype=d))
            g.add(f"{name}_special_list", np.array(special, dtype=d))
            g.add(f"{name}_imag_widths", np.array([1 + 1e-3j, 1 + 100j, -2 - 0.5j], dtype=d))
            g.add(f"{name}_sci_parts", np.array([1e10 + 1j, 1 + 1e-10j], dtype=d))
    return g


def integers_group():
    g = Group("integers")
    for name in INTS:
        info = np.iinfo(dt(name))
        lo, hi = int(info.min), int(info.max)
        g.add(f"{name}_extremes", np.array([lo, hi, 0], dtype=name))
        g.add(f"{name}_max_0d", np.array(hi, dtype=name))
        g.add(f"{name}_min_0d", np.array(lo, dtype=name))
        g.add(f"{name}_small", np.array([0, 1, 7], dtype=name))
        if lo < 0:
            g.add(f"{name}_neg", np.array([-1, -20, 5], dtype=name))
            g.add(f"{name}_allneg", np.array([-1, -2], dtype=name))
        g.add(f"{name}_ramp", np.arange(0, min(hi, 120), 7, dtype=name).reshape(-1, 3)[:5])
    g.add("bool_all_false", np.zeros(4, dtype=bool))
    g.add("bool_all_true", np.ones((2, 2), dtype=bool))
    g.add("bool_0d_false", np.array(False))
    return g


def layout_group(rng):
    g = Group("layout")
    for name in ["int64", "int8", "float64", "float32", "complex128", "bool", "bfloat16", "uint16"]:
        a = sample(name, (100,), rng, "small")
        g.add(f"{name}_wrap100", a)
        g.add(f"{name}_wrap_2d", sample(name, (3, 30), rng, "mixed"))
        g.add(f"{name}_3d", sample(name, (2, 3, 4), rng, "small"))
        g.add(f"{name}_4d", sample(name, (2, 2, 2, 3), rng, "small"))
    # The dtype= suffix moves to its own line when it would overflow.
    for n in range(14, 32):
        g.add(f"int8_arange{n}", np.arange(n, dtype=np.int8))
        if n % 2 == 0:
            g.add(f"float32_arange{n}", np.arange(n, dtype=np.float32) * 1.5)
    for n in range(8, 16):
        g.add(f"float16_arange{n}_2d", (np.arange(2 * n, dtype=np.float16) / 4).reshape(2, n))
    for lw in [1, 5, 10, 20, 33, 40, 60, 100, 200]:
        g.add(f"float64_linewidth{lw}", np.linspace(-3, 3, 17), linewidth=lw)
        g.add(f"int32_2d_linewidth{lw}", np.arange(24, dtype=np.int32).reshape(2, 12) * 1001,
              linewidth=lw)
        g.add(f"complex64_linewidth{lw}", (np.arange(6) + 1j).astype(np.complex64), linewidth=lw)
    g.add("int64_5d", np.arange(32).reshape(2, 2, 2, 2, 2))
    g.add("float64_6d", np.arange(64.0).reshape(2, 2, 2, 2, 2, 2) / 8)
    return g


def summary_group(rng):
    g = Group("summary")
    for name in ["int8", "bool", "bfloat16", "float16"]:
        g.add(f"{name}_2000", sample(name, (2000,), rng, "small"))
    g.add("float64_1100", sample("float64", (1100,), rng, "small"))
    g.add("complex64_1100", sample("complex64", (1100,), rng, "small"))
    g.add("float32_arange1200", np.arange(1200.0, dtype=np.float32))
    g.add("int16_1000", np.arange(1000, dtype=np.int16))
    g.add("int16_1001", np.arange(1001, dtype=np.int16))
    g.add("float64_40x40", rng.standard_normal((40, 40)))
    g.add("int16_40x40", np.arange(1600, dtype=np.int16).reshape(40, 40))
    g.add("float32_3x500", rng.standard_normal((3, 500)).astype(np.float32))
    g.add("float32_6x10x20", rng.standard_normal((6, 10, 20)).astype(np.float32))
    g.add("int16_4x5x6x10", np.arange(1200, dtype=np.int16).reshape(4, 5, 6, 10))
    g.add("float16_2x1001", rng.standard_normal((2, 1001)).astype(np.float16))
    g.add("float16_1001x2", rng.standard_normal((1001, 2)).astype(np.float16))
    hidden = np.ones(1200, dtype=np.float32)
    hidden[600] = 1e20  # not shown, so it must not force scientific notation
    g.add("float64_hidden_large", hidden)
    g.add("int64_threshold10", np.arange(16).reshape(4, 4), threshold=10)
    g.add("int64_edge1", np.arange(16).reshape(4, 4), threshold=10, edgeitems=1)
    g.add("int64_edge0", np.arange(12).reshape(3, 4), threshold=3, edgeitems=0)
    g.add("float64_edge0", np.arange(10.0) * 1e5, threshold=3, edgeitems=0)
    g.add("int64_edge5", np.arange(11), threshold=10, edgeitems=5)
    g.add("int64_edge6", np.arange(11), threshold=10, edgeitems=6)
    g.add("int64_threshold0_0d", np.array(7), threshold=0)
    g.add("float64_threshold_neg", np.arange(8.0), threshold=-1)
    g.add("int64_threshold3_unsplit", np.arange(4).reshape(2, 2), threshold=3)
    g.add("float32_summary_lw40", rng.standard_normal((40, 30)).astype(np.float32), linewidth=40)
    return g


OPTION_SETS = {
    "precision3": dict(precision=3),
    "precision0": dict(precision=0),
    "suppress": dict(suppress=True),
    "sign_plus": dict(sign="+"),
    "sign_space": dict(sign=" "),
    "nanstr": dict(nanstr="NaN", infstr="Inf"),
    "infstr_long": dict(nanstr="n", infstr="Infinity"),
    "fixed": dict(floatmode="fixed"),
    "fixed_p3": dict(floatmode="fixed", precision=3),
    "unique": dict(floatmode="unique"),
    "unique_p2": dict(floatmode="unique", precision=2),
    "maxprec_equal": dict(floatmode="maxprec_equal"),
    "maxprec_equal_p4": dict(floatmode="maxprec_equal", precision=4),
    "utf8": dict(nanstr="\u2205", infstr="\u221e"),
    "linewidth40": dict(linewidth=40),
    "threshold10_edge1": dict(threshold=10, edgeitems=1),
    "everything": dict(precision=3, threshold=10, edgeitems=1, linewidth=40, suppress=True,
                       sign="+"),
}

OPTION_ARRAYS = {
    "floats": lambda d: np.array([1e-10, 0.5, -1.25, 3.14159265358979, 100.0], dtype=d),
    "sci": lambda d: np.array([1.5e-7, 2.0, -300.0], dtype=d),
    "specials": lambda d: np.array([np.nan, -np.inf, 0.0, 1.5, np.inf], dtype=d),
    "positive": lambda d: np.array([0.5, 2.0, 10.0], dtype=d),
    "matrix": lambda d: (np.arange(12, dtype=np.float64).reshape(3, 4) / 7 - 0.5).astype(d),
    "scalar": lambda d: np.array(-2.5, dtype=d),
    "scalar_pos": lambda d: np.array(1 / 3, dtype=d),
}


def options_group():
    g = Group("options")
    for oname, opts in OPTION_SETS.items():
        names = ["float16", "float32", "float64", "complex64"]
        if oname in ("precision3", "linewidth40", "threshold10_edge1", "everything"):
            names.append("bfloat16")  # which ignores all but the layout options
        for name in names:
            d = dt(name)
            for aname, make in OPTION_ARRAYS.items():
                if aname in ("positive", "scalar_pos") and "sign" not in opts:
                    continue
                with np.errstate(all="ignore"):
                    a = make(np.float64).astype(d)
                g.add(f"{oname}_{name}_{aname}", a, **opts)
        for name in ["int8", "int64", "uint32", "bool"]:
            g.add(f"{oname}_{name}_row", np.array([0, 1, 5, 100, 3], dtype=name) if name != "bool"
                  else np.array([True, False, True]), **opts)
            if "linewidth" in opts or "threshold" in opts:
                g.add(f"{oname}_{name}_long", (np.arange(30) % 97).astype(name), **opts)
        g.add(f"{oname}_int64_neg", np.array([-5, 3, 0]), **opts)
        g.add(f"{oname}_int64_0d", np.array(42), **opts)
    return g


def views_group(rng):
    g = Group("views")
    for name in ["float64", "int32", "float16", "complex64", "bool", "bfloat16", "uint8"]:
        a = sample(name, (3, 4), rng, "small")
        g.add(f"{name}_transpose", a, view=lambda b: b.T)
        g.add(f"{name}_column", a, view=lambda b: b[:, 1])
        g.add(f"{name}_step2", sample(name, (9,), rng, "small"), view=lambda b: b[::2])
        g.add(f"{name}_reversed", sample(name, (7,), rng, "small"), view=lambda b: b[::-1])
        g.add(f"{name}_3d_slices", sample(name, (3, 4, 5), rng, "small"),
              view=lambda b: b[:, ::2, 1:].transpose(2, 0, 1))
        g.add(f"{name}_broadcast", sample(name, (4,), rng, "small"),
              view=lambda b: np.broadcast_to(b, (3, 4)))
    # Summarised views (more than 1000 elements shown from).
    for name in ["float64", "uint8", "complex64"]:
        g.add(f"{name}_large_transpose", sample(name, (40, 30), rng, "small"),
              view=lambda b: b.T)
    for name in ["uint8", "float16"]:
        g.add(f"{name}_large_strided", sample(name, (90, 50), rng, "small"),
              view=lambda b: b[::-2, ::2])
    return g


def random_group(rng):
    """Arbitrary bit patterns: every corner of the float formatting."""
    g = Group("random")
    for name, bits, count in [("float16", np.uint16, 50), ("bfloat16", np.uint16, 24),
                              ("float32", np.uint32, 50), ("float64", np.uint64, 50),
                              ("complex64", np.uint32, 24), ("complex128", np.uint64, 24)]:
        d = dt(name)
        for i in range(count):
            n = int(rng.integers(1, 7))
            lanes = 2 * n if name in COMPLEX else n
            raw = rng.integers(0, np.iinfo(bits).max, lanes, dtype=bits, endpoint=True)
            if i % 2 == 0:
                # Keep the exponent in a printable middle range half of the time.
                top = {np.uint16: 10 if name == "float16" else 7, np.uint32: 23,
                       np.uint64: 52}[bits]
                expo_bits = {np.uint16: 5 if name == "float16" else 8, np.uint32: 8,
                             np.uint64: 11}[bits]
                bias = (1 << (expo_bits - 1)) - 1
                span = min(bias - 1, 12)
                e = rng.integers(bias - span, bias + span, lanes).astype(bits)
                mask = bits((1 << top) - 1)
                sign = raw & bits(1 << (top + expo_bits))
                raw = sign | (e << bits(top)) | (raw & mask)
            a = raw.view(d)
            g.add(f"{name}_bits{i}", a)
            g.add(f"{name}_bits{i}_0d", a[:1].reshape(()))
    return g


def main():
    out = pathlib.Path(__file__).parent / "fixtures" / "print"
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(20240611)
    groups = [dtypes_group(rng), floats_group(), integers_group(), layout_group(rng),
              summary_group(rng), options_group(), views_group(rng), random_group(rng)]
    total = 0
    for g in groups:
        g.write(out)
        total += g.count
    print(f"{total} cases in {len(groups)} files under {out}")


if __name__ == "__main__":
    main()
